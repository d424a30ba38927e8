package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestPureCallMemo: a call of a pure extension function whose arguments do
// not depend on the focus (constants, absolute paths and their unions, as
// BR-FR's custom:isSpecialContract(/ubl:Invoice|/cn:CreditNote)) runs once
// per document, whatever the node it is evaluated on and however many
// programs make it; a call with a relative argument, or of a function not
// registered as pure, runs at every evaluation.
func TestPureCallMemo(t *testing.T) {
	fs := vm.NewFunctions()
	calls := map[string]int{}
	count := func(name string) vm.Func {
		return func(_ context.Context, _ *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
			calls[name]++
			return xdm.Sequence{xdm.Integer(int64(len(args[0])))}, nil
		}
	}
	fs.RegisterPure("urn:f", "pure", 1, count("pure"))
	fs.Register("urn:f", "impure", 1, count("impure"))
	cat := vm.NewCatalog()
	sc := &xpath.StaticContext{Namespaces: map[string]string{"f": "urn:f"}, Functions: fs, Catalog: cat}
	// calls: how many times the function runs while the case is
	// evaluated on the three nodes (the first case's call is shared by the
	// second, made after it in the same document); want: the value on each
	// node ("" when it depends on the node).
	cases := []struct {
		src, fn string
		calls   int
		want    string
	}{
		{"f:pure(/inv | /cn)", "pure", 1, "1"},
		{"f:pure(/inv | /cn) = 1", "pure", 0, "true"},
		{"f:pure((/inv | /cn) except /cn)", "pure", 1, "1"},
		{"f:pure(/inv/line)", "pure", 1, "2"},
		{"f:pure(line | /inv)", "pure", 3, ""},
		{"f:impure(/inv | /cn)", "impure", 3, "1"},
	}
	progs := make([]*vm.Program, len(cases))
	for i, c := range cases {
		p, err := xpath.Compile(c.src, sc)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		progs[i] = p
	}
	env := &vm.Env{}
	ctx := context.Background()
	for round := 0; round < 2; round++ {
		env.Doc = parse(t, `<inv><line/><line/></inv>`) // a new document each round
		nodes := []xmltree.NodeID{1, 2, 3}
		for i, c := range cases {
			clear(calls)
			for _, n := range nodes {
				got, err := progs[i].EvalString(ctx, env, n)
				if err != nil || (c.want != "" && got != c.want) {
					t.Fatalf("round %d: %s on node %d = %q, %v; want %s", round, c.src, n, got, err, c.want)
				}
			}
			if calls[c.fn] != c.calls {
				t.Errorf("round %d: %s called %d times on %d nodes, want %d", round, c.src, calls[c.fn], len(nodes), c.calls)
			}
		}
	}
}
