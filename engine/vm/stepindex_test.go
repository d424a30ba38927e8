package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestStepIndex: steps whose predicate compares a key of the node with a
// variable (BR-S-08's per-rate sums), evaluated through the step and path
// indexes, give what they give without any catalog: the same values and
// the same errors, for string, untypedAtomic and decimal keys, numeric and
// mixed variables, a closed conjunct before the comparison, predicates
// after it, and documents whose keys do not cast.
func TestStepIndex(t *testing.T) {
	bodies := []string{
		"[c = 'S'][xs:decimal(p) = $r]",
		"[normalize-space(c) = $s]",
		"[p = $r]",
		"[c = 'S' and xs:decimal(p) = $r]",
		"[c = 'S' and $r = xs:decimal(p)]", // the variable first (keyVar)
		"[c = 'S'][$r = xs:decimal(p)][xs:decimal(a) > 1]",
		"[c = 'S'][xs:decimal(a) > 1][xs:decimal(p) = $r]", // a predicate before the key that can raise an error
		"[c = 'S'][xs:decimal(p) = $r][xs:decimal(a) > 1]",
		"[xs:decimal(p) = $v]",
		"[p = $v]",
		"[xs:decimal(p) = $d]",
		"[xs:decimal(p) = $m]",
		"[normalize-space(p) = $r]",
		"[(if (c = 'S') then xs:decimal(p) else string(p)) = $r]",
	}
	var exprs []string
	for _, b := range bodies {
		for _, path := range []string{"l" + b, "/r/l" + b, "//l" + b} {
			exprs = append(exprs, "string-join(for $r in (6, 21.0, 7), $s in ('S', 'Z'), $d in (6e0), $m in ('6', 6) return string(count("+path+")), ',')")
		}
	}
	// nested contexts on an axis whose union is not in visiting order: the
	// error of the node visited first must be the one raised
	exprs = append(exprs, "string-join(for $r in (6, 21) return string(count(/r//s/following-sibling::l[c = 'S'][xs:decimal(p) = $r][(1 div xs:decimal(a)) > 0])), ',')")
	docs := []string{
		`<r><l><c>S</c><p>6</p><a>2</a></l><l><c> Z </c><p>6</p><a>5</a></l><l><c>S</c><p>21.00</p><a>3</a></l><l><c>S</c><p>7</p><a>1</a></l></r>`,
		`<r><s><s/><l><c>S</c><p>6</p><a>x</a></l></s><l><c>S</c><p>6</p><a>0</a></l></r>`,
		`<r><l><c>S</c><p>6</p><a>2</a></l><l><c>S</c><p>21.00</p><a>1</a></l><l><c> Z </c><p>6</p><a>5</a></l><l><c>S</c><p>6.0</p><p>21</p><a>3</a></l></r>`,
		`<r><l><c>S</c><p>6</p><a>x</a></l><l><c>S</c><p>x</p><a>1</a></l></r>`,
		`<r><l><c>Z</c><p>x</p></l><l><c>S</c><p>21</p><a>y</a></l></r>`,
		`<r><l><c>S</c></l><l/></r>`,
		`<r/>`,
		// one line under one key twice (6 and 6.0): selected once
		`<r><l><c>S</c><p>6</p><p>6.0</p><p>7</p><a>2</a></l><l><c>S</c><p>6</p><a>3</a></l></r>`,
	}
	ctx := context.Background()
	vars := map[string]int{"v": 0}
	cat := vm.NewCatalog()
	keyed := make([]*vm.Program, len(exprs))
	plain := make([]*vm.Program, len(exprs))
	marked := 0
	for i, src := range exprs {
		var err error
		if keyed[i], err = xpath.Compile(src, &xpath.StaticContext{Catalog: cat, Variables: vars}); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if plain[i], err = xpath.Compile(src, &xpath.StaticContext{Variables: vars}); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		marked += keyPredSteps(keyed[i].Root())
	}
	if marked < len(exprs)/2 {
		t.Fatalf("%d steps marked for a step index in %d expressions", marked, len(exprs))
	}
	for _, v := range []xdm.Sequence{{xdm.Integer(6), xdm.Integer(21)}, {xdm.String("21")}, nil} {
		env, ref := &vm.Env{Vars: []xdm.Sequence{v}}, &vm.Env{Vars: []xdm.Sequence{v}}
		for round := range 2 {
			for di, doc := range docs {
				env.Doc, ref.Doc = parse(t, doc), parse(t, doc)
				for _, node := range []int{0, 1} { // the root, the document element
					for i, src := range exprs {
						got, gerr := keyed[i].EvalString(ctx, env, xmlNode(node))
						want, werr := plain[i].EvalString(ctx, ref, xmlNode(node))
						if gerr != nil || werr != nil {
							if code(gerr) != code(werr) {
								t.Errorf("$v=%v round %d doc %d node %d: %s: error %v, want %v", v, round, di, node, src, gerr, werr)
							}
							continue
						}
						if got != want {
							t.Errorf("$v=%v round %d doc %d node %d: %s = %q, want %q", v, round, di, node, src, got, want)
						}
					}
				}
			}
		}
	}
}

func keyPredSteps(e *vm.Expr) int {
	n := 0
	if e.Op == vm.OpStep && e.KeyPred > 0 {
		n++
	}
	for _, a := range e.Args {
		n += keyPredSteps(a)
	}
	for _, p := range e.Preds {
		n += keyPredSteps(p)
	}
	for _, b := range e.Bindings() {
		n += keyPredSteps(b.In)
	}
	return n
}

func xmlNode(i int) xmltree.NodeID { return xmltree.NodeID(i) }

// TestStepIndexShared: steps with the same predicates up to the key build
// one index when they select the same nodes (BR-S-08 reaches the invoice
// lines through //cac:InvoiceLine[…] and ../../../cac:InvoiceLine[…]);
// other predicates or other nodes build their own, and every answer is the
// one without a catalog.
func TestStepIndexShared(t *testing.T) {
	const doc = `<r><l><c>S</c><p>6</p></l><l><c>S</c><p>21</p></l><s><l><c>S</c><p>6</p></l></s></r>`
	steps := []struct {
		path   string
		builds int // index builds after this and the paths before it
	}{
		{"//l[c = 'S'][xs:decimal(p) = $r]", 1},
		{"/r/l[c = 'S'][xs:decimal(p) = $r]", 2},            // other nodes: //l has the one under s too
		{"r/l[c = 'S'][xs:decimal(p) = $r]", 2},             // from the root: the nodes of /r/l
		{"/r/l[c = 'S'][xs:decimal(p) = $r][exists(p)]", 2}, // predicates after the key do not count
		{"/r/l[c = 'Z'][xs:decimal(p) = $r]", 3},            // another predicate before the key
		{"/r/l[c = 'S'][string(p) = $r]", 4},                // another key
	}
	ctx := context.Background()
	cat := vm.NewCatalog()
	env, ref := &vm.Env{Doc: parse(t, doc)}, &vm.Env{Doc: parse(t, doc)}
	for _, st := range steps {
		src := "string-join(for $r in (6, 21, '6') return string(count(" + st.path + ")), ',')"
		keyed, err := xpath.Compile(src, &xpath.StaticContext{Catalog: cat})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		plain, err := xpath.Compile(src, &xpath.StaticContext{})
		if err != nil {
			t.Fatal(err)
		}
		if keyPredSteps(keyed.Root()) != 1 {
			t.Fatalf("%s: no step marked for a step index", src)
		}
		got, gerr := keyed.EvalString(ctx, env, 0)
		want, werr := plain.EvalString(ctx, ref, 0)
		if got != want || code(gerr) != code(werr) {
			t.Errorf("%s = %q (%v), want %q (%v)", st.path, got, gerr, want, werr)
		}
		if n := env.StepIndexBuilds(); n != st.builds {
			t.Errorf("after %s: %d step indexes built, want %d", st.path, n, st.builds)
		}
	}
}
