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
// from what is kept for the document (fastmemo.go): the value of the whole
// path, or the key index of its last step, whose other predicates then run
// on the nodes of the literal; what the memo does not hold yet is built
// without a frame (the index, as the interpreter would build it) and kept
// for the tests after it; and nothing of one document's is read for
// another.
func TestFastMemo(t *testing.T) {
	const src = `<r><t><id>a</id></t><t><id>b</id><id>z</id></t><t><id>z</id><id>z</id><n>1</n></t><u><t><id>z</id></t></u></r>`
	doc, other := parse(t, src), parse(t, `<r><t><id>z</id></t><u><t><id>a</id></t></u></r>`)
	sc, progs := compileShared(t,
		"exists(//t[id = 'a']) and exists(//u/t[id = 'z'])", // builds the key indexes of //t[id = …] and //u/t[id = …]
		"count(//u/t[id = 'z']) = 1",                        // after a prefix that has no memo point
		"count(//t[id = 'z']) = 3",                          // a node with two keys 'z' counts once
		"count(//t[id = 'z'][n = 1]) = 1",                   // the other predicates filter
		"not(//t[id = 'q'])",                                // no node
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
	}
	// The two key indexes, built once; each keyed path found through
	// them is stored for the tests after it (//u/t, walked, is not a
	// memo reading).
	fastAllTrue(t, env, root, progs, 5, 2)
	for _, p := range progs {
		// FastAgrees compares the frame-free answer, given what is kept,
		// with the interpreter's own.
		decided, err := p.FastAgrees(ctx, env, root)
		if err != nil || !decided {
			t.Errorf("%s: decided %v, %v", p.Source(), decided, err)
		}
	}
	// Another document, with other answers: its own memo and indexes;
	// and a path through a name the document lacks is empty without any.
	absent := compile(t, "not(//w[. = 'y']) and not(//v[q = 'a']/t[id = 'z'])", sc)
	env.Doc = other
	env.CatalogIDs(sc.Catalog)
	for _, p := range append(progs, absent) {
		decided, err := p.FastAgrees(ctx, env, other.Root())
		if err != nil || !decided {
			t.Errorf("%s on the other document: decided %v, %v", p.Source(), decided, err)
		}
	}
	if v, ok := progs[4].TryFast(env, other.Root()); !ok || !v {
		t.Errorf("%s on the other document: %v, %v", progs[4].Source(), v, ok)
	}
	if v, ok := progs[2].TryFast(env, other.Root()); !ok || v {
		t.Errorf("%s on the other document: %v, %v, want false, true", progs[2].Source(), v, ok)
	}
}

// fastAllTrue checks that every test of progs is true on root, decided
// without a frame, and that env then holds memo values in memo slots and
// keys key indexes.
func fastAllTrue(t *testing.T, env *vm.Env, root xmltree.NodeID, progs []*vm.Program, memo, keys int) {
	t.Helper()
	for _, p := range progs {
		if v, ok := p.TryFast(env, root); !ok || !v {
			t.Errorf("%s: %v, %v without a frame, want true, true", p.Source(), v, ok)
		}
	}
	if got := env.MemoCount(); got != memo {
		t.Errorf("%d memo values after the frame-free tests, want %d", got, memo)
	}
	if got := env.KeyIndexes(); got != keys {
		t.Errorf("%d key indexes, want %d", got, keys)
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
// memo decides yet is decided without a frame and stored for the tests
// after it: walked (UBL-SR-29's //cac:PartyIdentification/cbc:ID[
// upper-case(@schemeID) = 'SEPA'], tested once a document) or, when its
// last step's key index serves other paths too (the VAT categories'
// //cac:TaxCategory[…]/cbc:ID[… = 'AE']), through that index, built
// without a frame as the interpreter would build it for all of them. A
// descendant step with predicates is walked over every node of its name
// then (the result is kept), not only up to descPredMax of them.
func TestFastMemoWalk(t *testing.T) {
	const src = `<r><t><id>a</id><n>1</n></t><t><id>b</id></t><u><t><id>z</id><n>2</n></t></u>` +
		`<s><k>1</k></s><s><k>2</k></s><s><k>3</k></s><s><k>4</k></s><s><k>5</k></s><s><k>6</k></s><s><k>7</k></s><s><k>8</k></s><s><k>9</k><id>x</id></s></r>`
	sc, progs := compileShared(t,
		"count(//t[n]/id) = 2",       // no key: walked
		"exists(//t[n = '2']/id)",    // a key of its own: walked
		"exists(//u/t[id = 'z'])",    // one key index for this path
		"not(//u/t[id = 'a'])",       // and this one, built once
		"exists(//s[k > 8]/id)",      // nine s: past descPredMax
		"exists(//s[k]/id[. = 'x'])", // and a key index from them
		"not(//s[k]/id[. = 'y'])",
	)
	ctx := context.Background()
	doc := parse(t, src)
	root := doc.Root()
	env := &vm.Env{Doc: doc}
	env.CatalogIDs(sc.Catalog)
	fastAllTrue(t, env, root, progs, 7, 2) // the indexes of //u/t and //s[k]/id by id
	for _, p := range progs {
		if _, err := p.FastAgrees(ctx, env, root); err != nil {
			t.Errorf("%s: %v", p.Source(), err)
		}
	}
}

// TestFastMemoKeyBuild: a key index is built without a frame only where it
// is what the interpreter's would be (and is not tried again in the
// document once it gave up); otherwise the interpreter builds it:
// prefix nodes nested in each other, whose children the interpreter sorts
// (the outer t's id comes after the inner t's), and keys of another type
// than a string (the interpreter marks that index unusable).
func TestFastMemoKeyBuild(t *testing.T) {
	const src = `<r><t><t><id>z</id><d>1</d></t><id>y</id><d>2</d></t><v><w><d>3</d></w></v></r>`
	sc, progs := compileShared(t,
		"count(//t[preceding::t]) = 0",
		"exists(//t/id[. = 'z'])", "exists(//t/id[. = 'y'])", // nested prefix nodes
		"exists(//v/w[xs:decimal(d) = '3'])", "exists(//v/w[xs:decimal(d) = '4'])", // decimal keys
	)
	ctx := context.Background()
	doc := parse(t, src)
	root := doc.Root()
	env := &vm.Env{Doc: doc}
	env.CatalogIDs(sc.Catalog)
	if _, err := progs[0].EvalBool(ctx, env, root); err != nil {
		t.Fatal(err)
	}
	for _, p := range progs[1:] {
		if !p.FastRoot() {
			t.Fatalf("%s: no frame-free test", p.Source())
		}
		if v, ok := p.TryFast(env, root); ok {
			t.Errorf("%s: %v, decided without a frame", p.Source(), v)
		}
	}
	if got := env.KeyIndexes(); got != 0 {
		t.Errorf("%d key indexes built without a frame, want 0", got)
	}
	// Each path's build gave up once, and is not tried again in this
	// document.
	if got := env.MemoMisses(); got != 4 {
		t.Errorf("%d paths that gave up, want 4", got)
	}
	for _, p := range progs[1:] {
		if _, err := p.FastAgrees(ctx, env, root); err != nil {
			t.Errorf("%s: %v", p.Source(), err)
		}
	}
}

// TestFastMemoKeyBuildFromPrefix: a key index built without a frame takes
// its prefix's nodes from the memo when the interpreter stored them there
// (keyBuild.prefixSlot), instead of walking the prefix again.
func TestFastMemoKeyBuildFromPrefix(t *testing.T) {
	const src = `<r><t><id>a</id><n>1</n></t><t><id>b</id></t><t><id>q</id><id>a</id><n>2</n></t></r>`
	sc, progs := compileShared(t,
		"count(//t[n]/id) = 3",          // the interpreter (FastAgrees) stores //t[n] and //t[n]/id
		"count(//t[n]/id[. = 'a']) = 2", // one index for this path
		"count(//t[n]/id[. = 'q']) = 1", // and this one
	)
	ctx := context.Background()
	doc := parse(t, src)
	root := doc.Root()
	env := &vm.Env{Doc: doc}
	env.CatalogIDs(sc.Catalog)
	if _, err := progs[0].FastAgrees(ctx, env, root); err != nil {
		t.Fatal(err)
	}
	if got := env.KeyIndexes(); got != 0 {
		t.Fatalf("%d key indexes before the keyed tests, want 0", got)
	}
	// The interpreter's two values and each keyed path's; one index.
	fastAllTrue(t, env, root, progs[1:], 4, 1)
	for _, p := range progs[1:] {
		if _, err := p.FastAgrees(ctx, env, root); err != nil {
			t.Errorf("%s: %v", p.Source(), err)
		}
	}
}
