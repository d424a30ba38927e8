package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestDocumentPathMemo: a path from document('<constant>') is memoised per
// document up to its last variable-free step, like an absolute path
// (memoRoot), and still answers every value of the variable after it, for
// several documents evaluated by one Env, and after an error.
func TestDocumentPathMemo(t *testing.T) {
	fs := vm.NewFunctions()
	fs.RegisterDocument("db.xml", parse(t, `<db><cl id="1"><e value="A"/><e value="B"/></cl><cl id="2"><e value="C"/></cl></db>`))
	cat := vm.NewCatalog()
	sc := &xpath.StaticContext{Variables: map[string]int{"v": 0}, Functions: fs, Catalog: cat}
	progs := map[string]*vm.Program{}
	for _, src := range []string{
		"count(document('db.xml')/db/cl[@id=1]/e[@value=$v])",
		"count(document('db.xml')/db/cl[@id=2]/e[@value=$v])",
		"string-join(document('db.xml')/db/cl[@id=1]/e/@value, ',')",
		"count(document('nope.xml')/db/cl[@id=1])",
		"count(document('db.xml')/db/cl[@id = '2']/e)",
	} {
		p, err := xpath.Compile(src, sc)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		progs[src] = p
	}
	if cat.MemoSlots() < 3 {
		t.Fatalf("%d memo slots: the document() paths were not given any", cat.MemoSlots())
	}
	env := &vm.Env{Vars: make([]xdm.Sequence, 1)}
	ctx := context.Background()
	for round, doc := range []string{`<a/>`, `<b><c/></b>`, `<a/>`} {
		env.Doc = parse(t, doc)
		for _, c := range []struct{ v, src, want string }{
			{"A", "count(document('db.xml')/db/cl[@id=1]/e[@value=$v])", "1"},
			{"C", "count(document('db.xml')/db/cl[@id=1]/e[@value=$v])", "0"},
			{"C", "count(document('db.xml')/db/cl[@id=2]/e[@value=$v])", "1"},
			{"B", "count(document('db.xml')/db/cl[@id=1]/e[@value=$v])", "1"},
			{"B", "count(document('db.xml')/db/cl[@id=2]/e[@value=$v])", "0"},
			{"", "string-join(document('db.xml')/db/cl[@id=1]/e/@value, ',')", "A,B"},
			{"", "count(document('nope.xml')/db/cl[@id=1])", "error"},
			{"A", "count(document('db.xml')/db/cl[@id=1]/e[@value=$v])", "1"},
			// a keyed memo point over the registered document (keyindex.go)
			{"", "count(document('db.xml')/db/cl[@id = '2']/e)", "1"},
		} {
			env.Vars[0] = xdm.Sequence{xdm.String(c.v)}
			got, err := progs[c.src].EvalString(ctx, env, 0)
			if err != nil {
				got = "error"
			}
			if got != c.want {
				t.Errorf("round %d, $v=%q, %s = %s, want %s", round, c.v, c.src, got, c.want)
			}
		}
		// The registered document keeps its value indexes across the
		// validated documents (valueindex.go); a per-document key index
		// would be rebuilt for every invoice (the Factur-X code lists: 5x
		// slower steps).
		if n := env.KeyIndexes(); n != 0 {
			t.Errorf("round %d: %d key indexes built over the registered document", round, n)
		}
	}
}
