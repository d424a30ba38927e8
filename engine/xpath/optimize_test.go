package xpath

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestRewritesPreserveResults compiles every EN 16931 UBL rule-set
// expression with and without the fast-path rewrites and checks both give
// the same result (or the same error code) on the official UBL examples,
// with every element of each example as context.
func TestRewritesPreserveResults(t *testing.T) {
	exprs, funcs := collectRuleSetExpressions(t, filepath.Join(sharedDir(), "rulesets"))
	ubl := filepath.Join("en16931", "1.3.16", "ubl") + string(filepath.Separator)
	examples := []string{"ubl-tc434-example1.xml", "ubl-tc434-creditnote1.xml"}
	type pair struct{ src, opt, plain *vm.Program }
	var progs []pair
	for _, x := range exprs {
		if x.pattern || strings.TrimSpace(x.src) == "" || !strings.Contains(x.file, ubl) {
			continue
		}
		sc := &StaticContext{Namespaces: x.ns, Variables: map[string]int{}, Functions: funcs}
		for _, m := range varRef.FindAllStringSubmatch(x.src, -1) {
			sc.Variables[m[1]] = len(sc.Variables)
		}
		if len(sc.Variables) > 0 {
			continue // needs let values; covered by the Schematron engine tests
		}
		o, err := compile(x.src, sc, true)
		if err != nil {
			t.Fatalf("%s: %v", x.src, err)
		}
		p, err := compile(x.src, sc, false)
		if err != nil {
			t.Fatalf("%s: %v", x.src, err)
		}
		progs = append(progs, pair{p, o, p})
	}
	if len(progs) < 500 {
		t.Fatalf("only %d expressions", len(progs))
	}
	ctx := context.Background()
	checked := 0
	for _, ex := range examples {
		data, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", ex))
		if err != nil {
			t.Fatal(err)
		}
		d, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		envA, envB := &vm.Env{Doc: d}, &vm.Env{Doc: d}
		for n := 0; n < d.Len(); n++ {
			node := xmltree.NodeID(n)
			// every element would take too long on a shared machine: sample
			if d.Kind(node) != xmltree.KindElement || (n%5 != 0 && node != rootElement(d)) {
				continue
			}
			for _, pr := range progs {
				a, errA := pr.opt.EvalString(ctx, envA, node)
				b, errB := pr.plain.EvalString(ctx, envB, node)
				if code(errA) != code(errB) || a != b {
					t.Errorf("%s at %s: optimized %q/%v, plain %q/%v", pr.src.Source(), d.Path(node), a, errA, b, errB)
				}
				checked++
			}
		}
	}
	t.Logf("%d expressions, %d evaluations compared", len(progs), checked)
}

func code(err error) string {
	if err == nil {
		return ""
	}
	if xe, ok := err.(*xdm.Error); ok {
		return xe.Code
	}
	return err.Error()
}
