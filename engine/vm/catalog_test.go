package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestCatalogAcrossDocuments evaluates programs sharing a name catalog with
// one Env over documents whose name sets differ (so the per-document
// resolution must be redone), and compares with programs compiled without a
// catalog. Names absent from a document make paths empty (the optimizer's
// path killers), present ones must still be found.
func TestCatalogAcrossDocuments(t *testing.T) {
	docs := []string{
		`<r xmlns:p="urn:p"><a><b x="1">1</b></a><p:c/></r>`,
		`<r xmlns:p="urn:p"><p:c><p:d y="2">2</p:d></p:c><a/></r>`,
		`<r><z/></r>`,
		`<r xmlns:p="urn:p"><a><b x="3">3</b><p:d y="4"/></a></r>`,
	}
	exprs := []string{
		"exists(a/b)", "count(//b)", "not(p:c/p:d)", "string(//@x)", "count(//@y)",
		"count(a/b/@x)", "exists(//p:d[@y = '4'])", "count(descendant::*)",
		"count((a|p:c)/(b|p:d))", "not(q:nothing/a)", "string-join(//(b|p:d)/@*, ',')",
	}
	ns := map[string]string{"p": "urn:p", "q": "urn:q"}
	cat := vm.NewCatalog()
	with := make([]*vm.Program, len(exprs))
	without := make([]*vm.Program, len(exprs))
	for i, x := range exprs {
		with[i] = compile(t, x, &xpath.StaticContext{Namespaces: ns, Catalog: cat})
		without[i] = compile(t, x, &xpath.StaticContext{Namespaces: ns})
	}
	if cat.Len() == 0 {
		t.Fatal("catalog is empty")
	}
	ctx := context.Background()
	envA, envB := &vm.Env{}, &vm.Env{}
	for round := 0; round < 2; round++ {
		for _, src := range docs {
			d := parse(t, src)
			envA.Doc, envB.Doc = d, d
			root := d.Root()
			for i, x := range exprs {
				a, errA := with[i].EvalString(ctx, envA, root)
				b, errB := without[i].EvalString(ctx, envB, root)
				if a != b || (errA == nil) != (errB == nil) {
					t.Errorf("%s on %s: catalog %q/%v, plain %q/%v", x, src, a, errA, b, errB)
				}
			}
		}
	}
}
