package xpath

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
)

// TestCloneExpr: the copy of every parsed and rewritten expression of the
// official rule sets (the trees the compile cache hands to
// vm.ExprArena.Clone), on its own (vm.CloneExpr) and through one arena,
// equals its original field for field once every copy is made, shares no
// node and no sequence type (its program writes a slot in it) with its
// original nor with any other copy, has no operand slice
// with room to grow into a neighbour's, and its path killers point into
// the copy.
func TestCloneExpr(t *testing.T) {
	exprs, funcs := collectRuleSetExpressions(t, filepath.Join(sharedDir(), "rulesets"))
	// Every field of vm.ExprAux, some of which no rule set has (a
	// sequence type with a name, which a copy's program writes).
	cbc := map[string]string{"cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"}
	for _, src := range []string{
		"cbc:ID instance of element(cbc:ID)",
		"every $a in cbc:ID satisfies ($a instance of element(cbc:ID)+)",
		"for $a in cbc:ID, $b in cbc:Note return concat($a, $b)",
		"matches(cbc:ID, '^[0-9]+$') and cbc:ID[1] and (//cbc:ID)[2]",
	} {
		exprs = append(exprs, schExpr{src: src, ns: cbc})
	}
	var arena vm.ExprArena
	type copied struct {
		src       string
		root      *vm.Expr
		own, arnd *vm.Expr
	}
	var all []copied
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
		all = append(all, copied{x.src, root, vm.CloneExpr(root), arena.Clone(root)})
	}
	if len(all) < 5000 {
		t.Fatalf("only %d expressions cloned", len(all))
	}
	// Checked once all are made: a copy whose storage another one reuses
	// has been overwritten by then.
	seen := map[*vm.Expr]string{}
	types := map[*vm.SeqType]bool{} // the originals': a copy's program writes its own
	for _, x := range all {
		walkExpr(x.root, func(e *vm.Expr) {
			seen[e] = "the original"
			if st := e.InstanceType(); st != nil {
				types[st] = true
			}
		})
	}
	for _, x := range all {
		for _, c := range []*vm.Expr{x.own, x.arnd} {
			if !reflect.DeepEqual(c, x.root) {
				t.Fatalf("%s: the copy differs from the original", x.src)
			}
			walkExpr(c, func(e *vm.Expr) {
				if by, ok := seen[e]; ok {
					t.Fatalf("%s: a node of the copy (%v) is also one of %s", x.src, e.Op, by)
				}
				seen[e] = x.src
				if st := e.InstanceType(); st != nil {
					if types[st] {
						t.Fatalf("%s: the copy shares a sequence type with its original or another copy", x.src)
					}
					types[st] = true
				}
				if len(e.Args) > 0 && cap(e.Args) != len(e.Args) {
					t.Fatalf("%s: an operand slice of the copy has room to grow into its neighbour", x.src)
				}
				if len(e.Preds) > 0 && cap(e.Preds) != len(e.Preds) {
					t.Fatalf("%s: a predicate slice of the copy has room to grow into its neighbour", x.src)
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
		}
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
	for _, b := range e.Bindings() {
		walkExpr(b.In, fn)
	}
}
