package vm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
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

// TestCatalogResolvesNamespaces: the catalog's names are found in a
// document by namespace and local name, with more namespaces than resolve
// keeps at hand (8), names alternating between them, a local name that
// occurs in several namespaces, and names the catalog lacks.
func TestCatalogResolvesNamespaces(t *testing.T) {
	cat := vm.NewCatalog()
	var doc strings.Builder
	doc.WriteString(`<r>`)
	slots := map[xdm.QName]int32{}
	for i := range 12 {
		uri := fmt.Sprintf("urn:ns:%d", i)
		for _, local := range []string{"A", fmt.Sprintf("B%d", i)} {
			q := xdm.QName{Space: uri, Local: local}
			if i%5 != 4 { // urn:ns:4 and urn:ns:9: not in the catalog
				slots[q] = cat.Slot(q)
			}
		}
	}
	for round := range 2 {
		for i := range 12 {
			fmt.Fprintf(&doc, `<A xmlns="urn:ns:%d"/><B%d xmlns="urn:ns:%d"/><C%d xmlns="urn:ns:%d"/>`, i, i, i, round, i)
		}
	}
	doc.WriteString(`</r>`)
	d, err := xmltree.Parse([]byte(doc.String()), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	ids := (&vm.Env{Doc: d}).CatalogIDs(cat)
	found := 0
	for id := xmltree.NameID(0); int(id) < d.NameCount(); id++ {
		q := xdm.QName{Space: d.NameSpace(id), Local: d.NameLocal(id)}
		s, ok := slots[q]
		if !ok {
			continue
		}
		found++
		if ids[s-1] != id {
			t.Errorf("%v: id %d, want %d", q, ids[s-1], id)
		}
	}
	for q, s := range slots {
		if ids[s-1] >= 0 && (d.NameSpace(ids[s-1]) != q.Space || d.NameLocal(ids[s-1]) != q.Local) {
			t.Errorf("%v resolved to %s %s", q, d.NameSpace(ids[s-1]), d.NameLocal(ids[s-1]))
		}
	}
	if found != len(slots) {
		t.Errorf("%d of the catalog's %d names found in the document", found, len(slots))
	}
}
