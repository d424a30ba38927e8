package ksef

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/rulesets"
)

var schemaOnce = sync.OnceValues(func() (*xsd.Schema, error) {
	for _, d := range rulesets.Schemas() {
		if d.Name == "ksef_fa" {
			abs := func(rel string) string { return filepath.Join(testshared.Path(), filepath.FromSlash(rel)) }
			return xsd.Load(abs(d.Path), xsd.Options{CatalogFiles: []string{abs(d.Catalog)}, Root: abs(d.Dir)})
		}
	}
	return nil, os.ErrNotExist
})

// testOpts fixes the generation time so documents are reproducible.
var testOpts = Options{Created: time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC)}

func xsdErrors(t testing.TB, doc []byte) []string {
	t.Helper()
	s, err := schemaOnce()
	if err != nil {
		t.Fatalf("load FA(3) XSD: %v", err)
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

// request reads testdata/request.json's invoice, edited by edit.
func request(t testing.TB, edit func(inv map[string]any)) (*model.Invoice, model.Problems) {
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
		edit(body["invoice"])
	}
	ib, _ := json.Marshal(body["invoice"])
	inv, _, ps, _ := model.DecodeInvoice(ib, "body", "invoice")
	return inv, ps
}
