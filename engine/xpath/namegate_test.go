package xpath

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestMatchesNameIsNecessary checks, for every rule context of the official
// rule sets that compiles without variables, that Pattern.MatchesName is a
// necessary condition of Matches on every element and attribute of a UBL
// and a CII example, and that it does filter (the EN 16931 "any"
// contexts //*[ends-with(name(), 'Amount') ...] reject most elements).
func TestMatchesNameIsNecessary(t *testing.T) {
	exprs, funcs := collectRuleSetExpressions(t, filepath.Join(sharedDir(), "rulesets"))
	var pats []*vm.Pattern
	for _, x := range exprs {
		if !x.pattern {
			continue
		}
		sc := &StaticContext{Namespaces: x.ns, Functions: funcs, Catalog: vm.NewCatalog()}
		pt, err := CompilePattern(x.src, sc)
		if err != nil || !pt.NameFiltered() {
			continue // needs variables, or is "/"
		}
		pats = append(pats, pt)
	}
	if len(pats) < 1000 {
		t.Fatalf("only %d patterns", len(pats))
	}
	ctx := context.Background()
	rejected := 0
	for _, ex := range []string{"en16931/ubl/examples/ubl-tc434-example1.xml",
		"en16931/cii/examples/CII_example5.xml"} {
		data, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", filepath.FromSlash(ex)))
		if err != nil {
			t.Fatal(err)
		}
		d, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		env := &vm.Env{Doc: d}
		// MatchesName must be a function of (pattern, name as written, kind):
		// the engine caches it so.
		type key struct {
			pt   *vm.Pattern
			q    int32
			attr bool
		}
		seen := map[key]bool{}
		for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
			if k := d.Kind(n); k != xmltree.KindElement && k != xmltree.KindAttribute {
				continue
			}
			for _, pt := range pats {
				mn := pt.MatchesName(ctx, env, n)
				k := key{pt, d.QualifiedNameID(n), d.Kind(n) == xmltree.KindAttribute}
				if prev, ok := seen[k]; ok && prev != mn {
					t.Fatalf("%s: MatchesName differs between nodes named %s (%s)", pt.Source(), d.QualifiedName(n), d.Path(n))
				}
				seen[k] = mn
				if mn {
					continue
				}
				rejected++
				if ok, err := pt.Matches(ctx, env, n); ok || err != nil {
					t.Fatalf("%s: MatchesName false but Matches %v, %v at %s", pt.Source(), ok, err, d.Path(n))
				}
			}
		}
	}
	if rejected == 0 {
		t.Fatal("MatchesName never rejected a node")
	}
	// The name gate itself: the Amount context rejects cbc:ID.
	pt, err := CompilePattern("//*[ends-with(name(), 'Amount') and not(ancestor::x)]", &StaticContext{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := xmltree.Parse([]byte(`<a><ID/><TaxAmount/></a>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	env := &vm.Env{Doc: d}
	if pt.MatchesName(ctx, env, 2) || !pt.MatchesName(ctx, env, 3) {
		t.Fatalf("gate: ID %v, TaxAmount %v", pt.MatchesName(ctx, env, 2), pt.MatchesName(ctx, env, 3))
	}
}
