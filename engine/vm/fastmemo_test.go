package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestFastMemo: absolute paths with predicates are decided without a frame
// only from what the interpreter stored for the same document (fastmemo.go):
// the value of the whole path, or the key index of its last step, whose
// other predicates then run on the nodes of the literal; and a path walked
// without a frame is stored for the tests after it.
func TestFastMemo(t *testing.T) {
	const src = `<r><t><id>a</id></t><t><id>b</id><id>z</id></t><t><id>z</id><id>z</id><n>1</n></t><u><t><id>z</id></t></u></r>`
	doc, other := parse(t, src), parse(t, src)
	sc, progs := compileShared(t,
		"exists(//t[id = 'a']) and exists(//u/t[id = 'a'])", // builds the key indexes of //t[id = …] and //u/t[id = …]
		"count(//u/t[id = 'z']) = 1",                        // after a prefix that has no memo point
		"count(//t[id = 'z']) = 3",                          // a node with two keys 'z' counts once
		"count(//t[id = 'z'][n = 1]) = 1",                   // the other predicates filter
		"exists(//t[id = 'q'])",                             // no node
		"exists(//t[id = 'a']) and count(//u/t) = 1",        // the stored value, and a walk
	)
	ctx := context.Background()
	root := doc.Root()
	env := &vm.Env{Doc: doc}
	env.CatalogIDs(sc.Catalog)
	for _, p := range progs {
		if !p.FastRoot() {
			t.Fatalf("%s: no frame-free test", p.Source())
		}
		if _, ok := p.TryFast(env, root); ok {
			t.Errorf("%s: decided before the interpreter made the memo", p.Source())
		}
	}
	if _, err := progs[0].EvalBool(ctx, env, root); err != nil {
		t.Fatal(err)
	}
	before := env.MemoCount()
	for _, p := range progs[1:] {
		v, ok := p.TryFast(env, root)
		if !ok {
			t.Errorf("%s: not decided from the memo", p.Source())
			continue
		}
		want := p.Source() != "exists(//t[id = 'q'])"
		if v != want {
			t.Errorf("%s: %v without a frame, want %v", p.Source(), v, want)
		}
	}
	// Each keyed path found without a frame is stored for the tests after
	// it (//u/t, walked, is not a memo reading).
	if got := env.MemoCount(); got != before+4 {
		t.Errorf("%d memo values after the frame-free tests, want %d", got, before+4)
	}
	for _, p := range progs[1:] {
		// FastAgrees compares the frame-free answer given the memo the
		// interpreter made for progs[0] with the interpreter's own.
		if _, err := progs[0].EvalBool(ctx, env, root); err != nil {
			t.Fatal(err)
		}
		decided, err := p.FastAgrees(ctx, env, root)
		if err != nil || !decided {
			t.Errorf("%s: decided %v, %v", p.Source(), decided, err)
		}
	}
	// Another document: nothing is read from this one's memo; but a path
	// through a name the document lacks is empty without any memo.
	absent := compile(t, "not(//w[. = 'y']) and not(//v[q = 'a']/t[id = 'z'])", sc)
	env.Doc = other
	env.CatalogIDs(sc.Catalog)
	for _, p := range progs {
		if _, ok := p.TryFast(env, other.Root()); ok {
			t.Errorf("%s: decided on another document from this one's memo", p.Source())
		}
	}
	if v, ok := absent.TryFast(env, other.Root()); !ok || !v {
		t.Errorf("%s: %v, %v without a frame, want true, true", absent.Source(), v, ok)
	}
}

// TestFastMemoCall: a call with one value per document (a pure extension
// function of the root) is decided without a frame from the value the
// interpreter stored for the document, and only then; a value whose
// effective boolean value is an error is the interpreter's.
func TestFastMemoCall(t *testing.T) {
	fs := vm.NewFunctions()
	calls := 0
	fs.RegisterPure("urn:f", "special", 1, func(_ context.Context, _ *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
		calls++
		return xdm.Sequence{xdm.Bool(len(args[0]) == 1)}, nil
	})
	fs.RegisterPure("urn:f", "two", 1, func(_ context.Context, _ *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
		return xdm.Sequence{xdm.Integer(1), xdm.Integer(2)}, nil
	})
	cat := vm.NewCatalog()
	sc := &xpath.StaticContext{Namespaces: map[string]string{"f": "urn:f"}, Functions: fs, Catalog: cat}
	special := compile(t, "f:special(/inv | /cn) and exists(line)", sc)
	two := compile(t, "f:two(/inv | /cn) or exists(line)", sc)
	const src = `<inv><line/><line/></inv>`
	doc, other := parse(t, src), parse(t, src)
	env := &vm.Env{Doc: doc}
	env.CatalogIDs(cat)
	root := doc.Root()
	for _, p := range []*vm.Program{special, two} {
		if !p.FastRoot() {
			t.Fatalf("%s: no frame-free test", p.Source())
		}
		if _, ok := p.TryFast(env, root); ok {
			t.Errorf("%s: decided before the interpreter made the memo", p.Source())
		}
		if _, err := p.EvalBool(context.Background(), env, root); err != nil && p == special {
			t.Fatal(err)
		}
	}
	if v, ok := special.TryFast(env, root); !ok || !v {
		t.Errorf("%s: %v, %v without a frame, want true, true", special.Source(), v, ok)
	}
	if v, ok := special.TryFast(env, doc.FirstChild(root)); !ok || v {
		t.Errorf("%s on a line: %v, %v without a frame, want false, true", special.Source(), v, ok)
	}
	if _, ok := two.TryFast(env, root); ok {
		t.Errorf("%s: decided without a frame, though its value has no effective boolean value", two.Source())
	}
	if calls != 1 {
		t.Errorf("f:special ran %d times, want 1", calls)
	}
	env.Doc = other
	env.CatalogIDs(cat)
	if _, ok := special.TryFast(env, other.Root()); ok {
		t.Errorf("%s: decided on another document from this one's memo", special.Source())
	}
}

// TestFastMemoWalk: an absolute path with predicates that nothing in the
// memo decides yet is walked without a frame and stored for the tests after
// it (UBL-SR-29's //cac:PartyIdentification/cbc:ID[upper-case(@schemeID) =
// 'SEPA'], tested once a document), unless its last step's key index
// serves other paths too: the interpreter builds that index for all of
// them (the VAT categories' //cac:TaxCategory[…]/cbc:ID[… = 'AE']).
func TestFastMemoWalk(t *testing.T) {
	const src = `<r><t><id>a</id><n>1</n></t><t><id>b</id></t><u><t><id>z</id><n>2</n></t></u></r>`
	sc, progs := compileShared(t,
		"count(//t[preceding::t]) = 2", // no frame-free form: the interpreter readies the memo table
		"count(//t[n]/id) = 2",         // no key: walked
		"exists(//t[n = '2']/id)",      // a key of its own: walked
		"exists(//u/t[id = 'z'])",      // one key index for this path
		"not(//u/t[id = 'a'])",         // and this one: the interpreter's
	)
	ctx := context.Background()
	doc := parse(t, src)
	root := doc.Root()
	env := &vm.Env{Doc: doc}
	env.CatalogIDs(sc.Catalog)
	for _, p := range progs[1:] {
		if _, ok := p.TryFast(env, root); ok {
			t.Errorf("%s: decided before the interpreter readied the memo", p.Source())
		}
	}
	if v, err := progs[0].EvalBool(ctx, env, root); err != nil || !v {
		t.Fatalf("%s: %v, %v", progs[0].Source(), v, err)
	}
	before := env.MemoCount()
	for i, p := range progs[1:] {
		v, ok := p.TryFast(env, root)
		if walked := i < 2; ok != walked || (ok && !v) {
			t.Errorf("%s: %v, %v without a frame, want decided %v (true)", p.Source(), v, ok, walked)
		}
	}
	if got := env.MemoCount(); got != before+2 {
		t.Errorf("%d memo values after the walks, want %d", got, before+2)
	}
	for _, p := range progs[1:] {
		if _, err := p.FastAgrees(ctx, env, root); err != nil {
			t.Errorf("%s: %v", p.Source(), err)
		}
	}
}
