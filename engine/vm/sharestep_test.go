package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestSharedSteps: programs of one catalog hold one node per
// predicate-free operand step (memory: a rule set has tens of thousands),
// steps with predicates keep their own, and the values are unchanged.
func TestSharedSteps(t *testing.T) {
	sc := &xpath.StaticContext{Catalog: vm.NewCatalog()}
	a := compile(t, "string(b)", sc)
	b := compile(t, "count(b)", sc)
	c := compile(t, "string(b[1])", sc)
	other := compile(t, "string(c)", sc)
	if a.Root().Args[0] != b.Root().Args[0] {
		t.Error("the step b of two programs of one catalog is not shared")
	}
	if a.Root().Args[0] == c.Root().Args[0] || a.Root().Args[0] == other.Root().Args[0] {
		t.Error("a step with a predicate, or another name, shares the node of b")
	}
	env := &vm.Env{Doc: parse(t, `<r><b>x</b><c>y</c></r>`)}
	ctx := context.Background()
	for p, want := range map[*vm.Program]string{a: "x", b: "1", c: "x", other: "y"} {
		got, err := p.EvalString(ctx, env, env.Doc.Root())
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", p.Source(), got, err, want)
		}
	}
}
