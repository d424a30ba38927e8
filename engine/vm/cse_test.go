package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestSharedSubexpressions: repeated subexpressions that depend on a
// quantified variable and on the focus (BR-S-08's shape) are shared, and
// the values equal those of the same test spelled so that nothing is
// shared (a slot keyed without the local's value, or without the focus,
// gives other answers on these documents).
func TestSharedSubexpressions(t *testing.T) {
	sc := &xpath.StaticContext{}
	shared := compile(t, `every $r in distinct-values(l/@r) satisfies (sum(../g/l[@r = $r]/xs:decimal(.)) > 1 and sum(../g/l[@r = $r]/xs:decimal(.)) < 10)`, sc)
	plain := compile(t, `every $r in distinct-values(l/@r) satisfies (sum(../g/l[@r = $r]/xs:decimal(.)) > 1 and sum(../g/l[$r = @r]/xs:decimal(.)) < 10)`, sc)
	if n := shared.SharedSubexpressions(); n != 1 {
		t.Fatalf("SharedSubexpressions = %d, want 1", n)
	}
	if n := plain.SharedSubexpressions(); n != 0 {
		t.Fatalf("plain SharedSubexpressions = %d, want 0", n)
	}
	// count(...) per focus: shared across the two occurrences only for
	// the same focus node.
	perLocal := compile(t, `string-join(for $x in g return string(count($x/l) + count($x/l)), ',')`, sc)
	perFocus := compile(t, `string-join(g/string(count(l) + count(l)), ',')`, sc)
	perFocusSum := compile(t, `string-join(g/string(sum(l/xs:decimal(.)) + sum(l/xs:decimal(.))), ',')`, sc)
	selectG := compile(t, "g", sc)
	ctx := context.Background()
	for _, c := range []struct {
		doc        string
		want       bool
		focusCount string
		focusSum   string
	}{
		// rates 1 and 2: sums 5 and 3, both in (1, 10)
		{`<r><g><l r="1">2</l><l r="1">3</l><l r="2">3</l></g><g><l r="9">1</l></g></r>`, true, "6,2", "16,2"},
		// rate 2 sums to 12: the upper bound fails for the second value
		{`<r><g><l r="1">2</l><l r="2">6</l><l r="2">6</l></g></r>`, false, "6", "28"},
		// rate 1 sums to 0.5: the lower bound fails for the first value
		{`<r><g><l r="1">0.5</l><l r="2">5</l></g><g/></r>`, false, "4,0", "11,0"},
	} {
		env := &vm.Env{Doc: parse(t, c.doc)}
		gs, err := selectG.Eval(ctx, env, env.Doc.Root())
		if err != nil {
			t.Fatal(err)
		}
		for gi, it := range gs {
			g := xmltree.NodeID(it.Node)
			a, err := shared.EvalBool(ctx, env, g)
			if err != nil {
				t.Fatal(err)
			}
			b, err := plain.EvalBool(ctx, env, g)
			if err != nil {
				t.Fatal(err)
			}
			if a != b {
				t.Errorf("%s, g %d: shared %v, plain %v", c.doc, gi, a, b)
			}
		}
		for _, p := range []struct {
			prog *vm.Program
			want string
		}{{perLocal, c.focusCount}, {perFocus, c.focusCount}, {perFocusSum, c.focusSum}} {
			if p.prog.SharedSubexpressions() != 1 {
				t.Errorf("%s: %d shared subexpressions, want 1", p.prog.Source(), p.prog.SharedSubexpressions())
			}
			got, err := p.prog.EvalString(ctx, env, env.Doc.Root())
			if err != nil {
				t.Fatal(err)
			}
			if got != p.want {
				t.Errorf("%s: %s = %q, want %q", c.doc, p.prog.Source(), got, p.want)
			}
		}
		first := xmltree.NodeID(gs[0].Node)
		if ok, _ := shared.EvalBool(ctx, env, first); ok != c.want {
			t.Errorf("%s: first g = %v, want %v", c.doc, ok, c.want)
		}
	}
}
