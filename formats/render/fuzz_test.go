package render

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// FuzzRender reads arbitrary bytes as an invoice and renders what reads:
// Read may only refuse with ErrParse, ErrSyntax or a reader error; HTML
// and the compact PDF never fail or panic on a model a reader produced.
func FuzzRender(f *testing.F) {
	for _, rel := range []string{
		"corpus/en16931/ubl/examples/ubl-tc434-example2.xml",
		"corpus/en16931/cii/examples/CII_business_example_02.xml",
	} {
		if b, err := os.ReadFile(filepath.Join(testshared.Path(), rel)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`))
	f.Add([]byte(`<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>`))
	f.Add([]byte(`<x`))
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := Read(data)
		if err != nil {
			if !errors.Is(err, ErrParse) && !errors.Is(err, ErrSyntax) && src != nil {
				t.Fatalf("Read: unexpected error %v", err)
			}
			return
		}
		if _, err := HTML(ctx, src.Invoice, German); err != nil {
			t.Fatalf("HTML: %v", err)
		}
		if _, err := PDF(ctx, src.Invoice, Options{Lang: English, Style: StyleCompact}); err != nil {
			t.Fatalf("PDF: %v", err)
		}
	})
}
