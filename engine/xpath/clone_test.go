package xpath

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
)

// TestCloneExpr: the copy of every parsed and rewritten expression of the
// official rule sets (the trees the compile cache hands to vm.CloneExpr)
// equals its original field for field, shares no node and no operand
// slice with it, and its path killers point into the copy.
func TestCloneExpr(t *testing.T) {
	exprs, funcs := collectRuleSetExpressions(t, filepath.Join(sharedDir(), "rulesets"))
	n := 0
	for _, x := range exprs {
		if x.pattern {
			continue
		}
		sc := &StaticContext{Namespaces: x.ns, Variables: map[string]int{}, Functions: funcs}
		for _, m := range varRef.FindAllStringSubmatch(x.src, -1) {
			if _, ok := sc.Variables[m[1]]; !ok {
				sc.Variables[m[1]] = len(sc.Variables)
			}
		}
		_, root, err := parseOptimized(x.src, sc, false)
		if err != nil {
			continue // outside the subset on its own (the engine tests cover these)
		}
		c := vm.CloneExpr(root)
		if !reflect.DeepEqual(c, root) {
			t.Fatalf("%s: the copy differs from the original", x.src)
		}
		orig := map[*vm.Expr]bool{}
		walkExpr(root, func(e *vm.Expr) { orig[e] = true })
		walkExpr(c, func(e *vm.Expr) {
			if orig[e] {
				t.Fatalf("%s: the copy shares node %v", x.src, e.Op)
			}
			if len(e.Args) > 0 && cap(e.Args) != len(e.Args) {
				t.Fatalf("%s: an operand slice of the copy has room to grow into its neighbour", x.src)
			}
			for _, k := range e.Kills() {
				owned := false
				for _, a := range e.Args {
					owned = owned || k == &a.Test
				}
				if !owned {
					t.Fatalf("%s: a path killer of the copy does not point to one of its steps", x.src)
				}
			}
		})
		n++
	}
	if n < 5000 {
		t.Fatalf("only %d expressions cloned", n)
	}
}

func walkExpr(e *vm.Expr, fn func(*vm.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	for _, a := range e.Args {
		walkExpr(a, fn)
	}
	for _, p := range e.Preds {
		walkExpr(p, fn)
	}
	for _, b := range e.Binds {
		walkExpr(b.In, fn)
	}
}
