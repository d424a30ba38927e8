package ubl

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.xml")

func TestWriteGolden(t *testing.T) {
	minimal := &model.Invoice{
		ID: "M-1", IssueDate: *day("2024-01-15"), TypeCode: "380", CurrencyCode: "EUR",
		Seller: model.Seller{Name: "S", Address: model.Address{CountryCode: "DE"}},
		Buyer:  model.Buyer{Name: "B", Address: model.Address{CountryCode: "FR"}},
		Lines: []model.Line{{ID: "1", Quantity: model.MustParseDecimal("1"), UnitCode: "C62", NetAmount: dec("10.00"),
			NetPrice: dec("10.00"), VATCategoryCode: "S", VATRate: dec("20"), Item: model.Item{Name: "Thing"}}},
	}
	if _, err := minimal.Complete(); err != nil {
		t.Fatal(err)
	}
	credit := fullInvoice()
	credit.TypeCode = "381"
	for _, c := range []struct {
		name string
		inv  *model.Invoice
		opts WriteOptions
	}{
		{"minimal-invoice", minimal, WriteOptions{Indent: "  ", SpecificationID: "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"}},
		{"full-invoice", fullInvoice(), WriteOptions{Indent: "  "}},
		{"full-creditnote", credit, WriteOptions{Indent: "\t"}},
	} {
		var buf bytes.Buffer
		if err := Write(&buf, c.inv, c.opts); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var again bytes.Buffer
		if err := Write(&again, c.inv, c.opts); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
			t.Fatalf("%s: output not deterministic (%v)", c.name, err)
		}
		path := filepath.Join("testdata", c.name+".golden.xml")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from %s (run with -update and review the diff):\n%s", c.name, path, buf.String())
		}
	}
}
