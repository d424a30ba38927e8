package ubl

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// FuzzRead parses arbitrary bytes and reads them. Allowed errors: xmltree's
// *SyntaxError and *LimitError from the parser, ErrNotUBL from Read. A
// document that reads must write, and (if it writes) read back without
// panicking. Crashers are kept under testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/minimal-invoice.golden.xml", "testdata/full-creditnote.golden.xml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<Invoice xmlns="` + NSInvoice + `"/>`))
	f.Add([]byte(`<CreditNote xmlns="` + NSCreditNote + `" xmlns:cbc="` + NSCBC + `"><cbc:ID>1</cbc:ID></CreditNote>`))
	// Sub invoice lines (BG-DEX-01), nested, with and without a price.
	sub := `<cac:SubInvoiceLine><cbc:ID>1.1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>` +
		`<cbc:LineExtensionAmount currencyID="EUR">3</cbc:LineExtensionAmount><cac:Item><cbc:Name>a</cbc:Name></cac:Item>` +
		`<cac:SubInvoiceLine><cbc:ID>1.1.1</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">3</cbc:LineExtensionAmount>` +
		`<cac:Item><cbc:Name>b</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">3</cbc:PriceAmount></cac:Price></cac:SubInvoiceLine></cac:SubInvoiceLine>`
	f.Add([]byte(`<Invoice xmlns="` + NSInvoice + `" xmlns:cbc="` + NSCBC + `" xmlns:cac="` + NSCAC + `"><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>` +
		`<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">3</cbc:LineExtensionAmount><cac:Item><cbc:Name>x</cbc:Name></cac:Item>` +
		sub + `</cac:InvoiceLine></Invoice>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			var se *xmltree.SyntaxError
			var le *xmltree.LimitError
			if !errors.As(err, &se) && !errors.As(err, &le) {
				t.Fatalf("unexpected parse error type %T: %v", err, err)
			}
			return
		}
		res, err := Read(doc)
		if err != nil {
			if !errors.Is(err, ErrNotUBL) {
				t.Fatalf("unexpected Read error %T: %v", err, err)
			}
			if Detect(doc) {
				t.Fatal("Detect true but Read refused")
			}
			return
		}
		if !Detect(doc) {
			t.Fatal("Read succeeded on a document Detect refuses")
		}
		for _, u := range res.Unconsumed {
			if u.Path == "" || u.Line < 1 {
				t.Fatalf("bad unconsumed node %+v", u)
			}
		}
		var buf bytes.Buffer
		if err := Write(&buf, res.Invoice, WriteOptions{}); err != nil {
			// Text XML cannot carry, or a credit-note due date without
			// payment means: both are refusals, not crashes.
			return
		}
		doc2, err := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
		if err != nil {
			t.Fatalf("written document does not parse: %v\n%s", err, buf.String())
		}
		if _, err := Read(doc2); err != nil {
			t.Fatalf("written document does not read: %v", err)
		}
	})
}
