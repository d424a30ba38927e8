package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
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
