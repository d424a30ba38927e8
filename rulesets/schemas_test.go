package rulesets

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xsd"
)

// The national schemas compile through their catalogs (the absolute
// xmldsig / StrukturyDanych imports resolve to the local copies), accept
// their valid samples and reject the known-bad one; the declared root
// element is the one of the samples.
func TestSchemasLoad(t *testing.T) {
	shared := sharedDir()
	samples := map[string][]string{
		"fatturapa": {"corpus/fatturapa/1.2.2/official-examples/IT01234567890_FPA01.xml", "corpus/fatturapa/1.2.2/gobl-generated/invoice-simple.xml"},
		"facturae":  {"corpus/facturae/3.2.2/gobl-generated/invoice-vat.xml", "corpus/facturae/3.2.2/gobl-generated/credit-note.xml"},
		"ksef_fa":   nil, // only templates with #placeholders# exist: not schema-valid
	}
	bad := map[string]string{"fatturapa": "corpus/fatturapa/1.2.2/bad/IT01234567890_FPA01.xml",
		"ksef_fa": "corpus/ksef-fa/3/templates/invoice-template_v3.xml"}
	defs := Schemas()
	if len(defs) != 3 {
		t.Fatalf("%d schemas", len(defs))
	}
	for _, d := range defs {
		s, err := xsd.Load(filepath.Join(shared, d.Path), xsd.Options{
			CatalogFiles: []string{filepath.Join(shared, d.Catalog)}, Root: filepath.Join(shared, d.Dir)})
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		check := func(rel string, wantValid bool) {
			data, err := os.ReadFile(filepath.Join(shared, rel))
			if err != nil {
				t.Fatal(err)
			}
			errs, err := s.Validate(context.Background(), data)
			if err != nil {
				t.Errorf("%s %s: %v", d.Name, rel, err)
				return
			}
			if (len(errs) == 0) != wantValid {
				t.Errorf("%s %s: valid=%v, want %v (%v)", d.Name, rel, len(errs) == 0, wantValid, errs)
			}
			doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			r := doc.Root()
			if ns, local := doc.NameSpace(doc.Name(r)), doc.NameLocal(doc.Name(r)); ns != d.Namespace || local != d.Local {
				t.Errorf("%s %s: root {%s}%s, declared {%s}%s", d.Name, rel, ns, local, d.Namespace, d.Local)
			}
		}
		for _, rel := range samples[d.Name] {
			check(rel, true)
		}
		if rel, ok := bad[d.Name]; ok {
			check(rel, false)
		}
		s.Close()
	}
}
