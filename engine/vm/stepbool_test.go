package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestStepEffectiveBooleanValue: a predicate-free step in a boolean
// context (not(*), cac:X and ...) is answered at its first node (evalBool,
// stepAny), with the answers of the full evaluation: element children only
// for *, text and comments ignored, attributes on their own axis, and the
// error of a step from a context item that is not a node.
func TestStepEffectiveBooleanValue(t *testing.T) {
	d := parse(t, `<r a="1"><leaf>text</leaf><blank>  </blank><empty/><mixed>x<!-- c --><?pi?>y</mixed><parent><c/></parent><deep><!-- c -->text<c><d/></c></deep></r>`)
	byName := func(local string) xmltree.NodeID {
		for n := range d.Len() {
			id := xmltree.NodeID(n)
			if d.Kind(id) == xmltree.KindElement && d.NameLocal(d.Name(id)) == local {
				return id
			}
		}
		t.Fatalf("no %s", local)
		return 0
	}
	cases := []struct {
		expr, node string
		want       bool
	}{
		{"not(*)", "leaf", true},
		{"not(*)", "blank", true},
		{"not(*)", "empty", true},
		{"not(*)", "mixed", true},
		{"not(*)", "parent", false},
		{"not(*)", "deep", false},
		{"not(*) and not(normalize-space())", "blank", true},
		{"not(*) and not(normalize-space())", "empty", true},
		{"not(*) and not(normalize-space())", "leaf", false},
		{"* and c", "parent", true},
		{"* and c", "deep", true},
		{"c or leaf", "r", true},
		{"c or nothing", "r", false},
		{"@a and not(@b)", "r", true},
		{"not(node())", "empty", true},
		{"not(node())", "blank", false},
		{"text() and not(comment())", "mixed", false},
		{"not(child::c/d)", "deep", false},
		{"not(child::c/e)", "deep", true},
	}
	ctx := context.Background()
	for _, c := range cases {
		p := compile(t, c.expr, nil)
		full := compile(t, "boolean(("+c.expr+", ())[1])", nil) // the same value, through eval
		env := &vm.Env{Doc: d}
		got, err := p.EvalBool(ctx, env, byName(c.node))
		if err != nil || got != c.want {
			t.Errorf("%s on <%s>: %v %v, want %v", c.expr, c.node, got, err, c.want)
		}
		if ref, err := full.EvalBool(ctx, env, byName(c.node)); err != nil || ref != c.want {
			t.Errorf("%s on <%s> through eval: %v %v, want %v", c.expr, c.node, ref, err, c.want)
		}
	}
	// A step from an atomic context item raises the error the full
	// evaluation raises.
	env := &vm.Env{Doc: d}
	for _, expr := range []string{`("x")[not(*)]`, `("x")[c]`} {
		p, err := xpath.Compile(expr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Eval(ctx, env, 0); err == nil {
			t.Errorf("%s: no error", expr)
		}
	}
}
