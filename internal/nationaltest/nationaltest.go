// Package nationaltest holds what the national-format generators' tests
// (formats/fatturapa, facturae, ksef, orderx) share: the official XSD of an
// XSD-only format of rulesets.Schemas(), loaded once from the shared
// directory (internal/testshared), the refusal and field checks, the
// corpus loop and the request readers (golden files: internal/golden).
// It is imported by tests only.
package nationaltest

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/formats/model"
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

// Refused fails t unless err (or, when err is nil, ps: problems of the
// decoding step) holds a problem of type typ at loc ("body.invoice.id").
func Refused(t testing.TB, ps model.Problems, err error, loc, typ string) {
	t.Helper()
	if ps == nil && !errors.As(err, &ps) {
		t.Fatalf("accepted or internal error: %v", err)
	}
	for _, p := range ps {
		if model.LocString(p.Loc) == loc && p.Type == typ {
			return
		}
	}
	t.Fatalf("want %s at %s; got %v", typ, loc, ps)
}

// Cmp compares the fields of a reference document with ours, reporting
// every difference (not only the first).
type Cmp struct{ T testing.TB }

// Eq reports a != b.
func (c Cmp) Eq(what, a, b string) {
	c.T.Helper()
	if a != b {
		c.T.Errorf("%s: reference %q, ours %q", what, a, b)
	}
}

// Num reports decimals that differ (both absent is equal).
func (c Cmp) Num(what, a, b string) {
	c.T.Helper()
	if a == "" && b == "" {
		return
	}
	x, errA := model.ParseDecimal(a)
	y, errB := model.ParseDecimal(b)
	if errA != nil || errB != nil || !x.Equal(y) {
		c.T.Errorf("%s: reference %q, ours %q", what, a, b)
	}
}

// Near reports decimals further apart than tol.
func (c Cmp) Near(what, a, b string, tol model.Decimal) {
	c.T.Helper()
	x, errA := model.ParseDecimal(a)
	y, errB := model.ParseDecimal(b)
	if errA != nil || errB != nil || x.Sub(y).Abs().Cmp(tol) > 0 {
		c.T.Errorf("%s: reference %q, ours %q", what, a, b)
	}
}

// GenerateRefusal fails t unless err, an error of a generator, is a
// model.Problems whose every problem is located under "body" and one of
// members ("invoice", "extras"): a generator refuses with located
// problems, never with another error.
func GenerateRefusal(t testing.TB, err error, members ...string) {
	t.Helper()
	var ps model.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("unexpected error %T: %v", err, err)
	}
	for _, p := range ps {
		if len(p.Loc) < 2 || p.Loc[0] != "body" || !slices.ContainsFunc(members, func(m string) bool { return p.Loc[1] == m }) {
			t.Fatalf("bad loc %v", p.Loc)
		}
	}
}

// ReadJSON decodes the JSON file at path (a test request) into a T.
func ReadJSON[T any](t testing.TB, path string) T {
	t.Helper()
	var v T
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// Corpus runs each as a subtest for every file of the shared directory
// matching pattern (e.g. "corpus/facturae/3.2.2/gobl-generated/*.xml"),
// with the file's base name and content; no file at all fails t.
func Corpus(t *testing.T, pattern string, each func(t *testing.T, name string, src []byte)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testshared.Path(), filepath.FromSlash(pattern)))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus examples (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			each(t, filepath.Base(f), src)
		})
	}
}

// ReadXML decodes doc (a reference or generated document) into a T.
func ReadXML[T any](t testing.TB, doc []byte) *T {
	t.Helper()
	var v T
	if err := xml.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

// Seeds is how many random cases a property test tries: n, or a tenth
// of n with -short.
func Seeds(n uint64) uint64 {
	if testing.Short() {
		return n / 10
	}
	return n
}

// Reexpressed decodes a reference document re-expressed as a request (its
// invoice and extras as JSON values) as the API would: the invoice with
// model.DecodeInvoice, the extras with the format's decodeExtras. A
// problem fails t: the re-expression must be a valid request.
func Reexpressed[E any](t testing.TB, invJ, exJ any, decodeExtras func([]byte, ...any) (*E, model.Problems, error)) (*model.Invoice, *E) {
	t.Helper()
	ib, _ := json.Marshal(invJ)
	xb, _ := json.Marshal(exJ)
	inv, _, _, err := model.DecodeInvoice(ib, "body", "invoice")
	if err != nil {
		t.Fatalf("re-expressed invoice: %v\n%s", err, ib)
	}
	ex, _, err := decodeExtras(xb, "body", "extras")
	if err != nil {
		t.Fatalf("re-expressed extras: %v\n%s", err, xb)
	}
	return inv, ex
}

// DecodeRequest decodes a fuzzed request as the API would: the invoice
// with model.DecodeInvoice, the extras with the format's decodeExtras;
// false when either is refused (the fuzz case ends there).
func DecodeRequest[E any](invJSON, exJSON []byte, decodeExtras func([]byte, ...any) (*E, model.Problems, error)) (*model.Invoice, *E, bool) {
	inv, _, _, err := model.DecodeInvoice(invJSON, "body", "invoice")
	if err != nil {
		return nil, nil, false
	}
	ex, _, err := decodeExtras(exJSON, "body", "extras")
	if err != nil {
		return nil, nil, false
	}
	return inv, ex, true
}
