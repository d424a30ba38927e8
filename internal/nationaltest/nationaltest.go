// Package nationaltest holds what the national-format generators' tests
// (formats/fatturapa, facturae, ksef, orderx) share: the official XSD of an
// XSD-only format of rulesets.Schemas(), loaded once from the shared
// directory (internal/testshared), and the golden-file check. It is
// imported by tests only.
package nationaltest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/rulesets"
)

var schemas sync.Map // name -> func() (*xsd.Schema, error)

// Schema returns the compiled XSD of the named format ("fatturapa",
// "facturae", "ksef_fa"), loading it with its catalog on first use.
func Schema(name string) (*xsd.Schema, error) {
	f, _ := schemas.LoadOrStore(name, sync.OnceValues(func() (*xsd.Schema, error) {
		for _, d := range rulesets.Schemas() {
			if d.Name == name {
				abs := func(rel string) string { return filepath.Join(testshared.Path(), filepath.FromSlash(rel)) }
				return xsd.Load(abs(d.Path), xsd.Options{CatalogFiles: []string{abs(d.Catalog)}, Root: abs(d.Dir)})
			}
		}
		return nil, os.ErrNotExist
	}))
	return f.(func() (*xsd.Schema, error))()
}

// Errors returns the XSD errors of doc for the named format (none: nil).
func Errors(t testing.TB, name string, doc []byte) []string {
	t.Helper()
	s, err := Schema(name)
	if err != nil {
		t.Fatalf("load the %s XSD: %v", name, err)
	}
	errs, err := s.Validate(context.Background(), doc)
	if err != nil {
		t.Fatalf("%s XSD validation: %v", name, err)
	}
	var out []string
	for _, e := range errs {
		out = append(out, e.String())
	}
	return out
}

// Valid fails t unless doc is valid against the named format's XSD.
func Valid(t testing.TB, name string, doc []byte) {
	t.Helper()
	if errs := Errors(t, name, doc); len(errs) > 0 {
		t.Fatalf("not valid against the %s XSD:\n%s\n%s", name, strings.Join(errs, "\n"), doc)
	}
}

// Golden compares got with the file at path; with update it rewrites the
// file first.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("differs from %s (run with -update after checking):\n%s", path, got)
	}
}
