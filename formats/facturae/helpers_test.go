package facturae

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/rulesets"
)

var schemaOnce = sync.OnceValues(func() (*xsd.Schema, error) {
	for _, d := range rulesets.Schemas() {
		if d.Name == "facturae" {
			abs := func(rel string) string { return filepath.Join(testshared.Path(), filepath.FromSlash(rel)) }
			return xsd.Load(abs(d.Path), xsd.Options{CatalogFiles: []string{abs(d.Catalog)}, Root: abs(d.Dir)})
		}
	}
	return nil, os.ErrNotExist
})

// xsdErrors returns the official Facturae 3.2.2 XSD's errors for doc.
func xsdErrors(t testing.TB, doc []byte) []string {
	t.Helper()
	s, err := schemaOnce()
	if err != nil {
		t.Fatalf("load Facturae XSD: %v", err)
	}
	errs, err := s.Validate(context.Background(), doc)
	if err != nil {
		t.Fatalf("xsd validate: %v", err)
	}
	var out []string
	for _, e := range errs {
		out = append(out, e.String())
	}
	return out
}

func xsdValid(t testing.TB, doc []byte) {
	t.Helper()
	if errs := xsdErrors(t, doc); len(errs) > 0 {
		t.Fatalf("not XSD-valid:\n%s\n%s", strings.Join(errs, "\n"), doc)
	}
}

// request reads testdata/request.json, applies edit to its decoded form and
// returns the invoice and extras.
func request(t testing.TB, edit func(inv, ex map[string]any)) (*model.Invoice, *Extras, model.Problems) {
	t.Helper()
	b, err := os.ReadFile("testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(body["invoice"], body["extras"])
	}
	ib, _ := json.Marshal(body["invoice"])
	xb, _ := json.Marshal(body["extras"])
	inv, _, ps, _ := model.DecodeInvoice(ib, "body", "invoice")
	if len(ps) > 0 {
		return nil, nil, ps
	}
	ex, ps, _ := DecodeExtras(xb, "body", "extras")
	return inv, ex, ps
}
