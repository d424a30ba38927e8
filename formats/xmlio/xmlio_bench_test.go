package xmlio

import (
	"io"
	"testing"
)

func BenchmarkWriter(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		w := NewWriter(io.Discard, Options{Indent: "  "})
		w.Root("Invoice", []Namespace{{"", "urn:x"}, {"cbc", "urn:cbc"}})
		for range 100 {
			w.Start("cac:InvoiceLine")
			w.Element("cbc:ID", "12")
			w.Element("cbc:Note", "Some <escaped> & text")
			w.Element("cbc:LineExtensionAmount", "100.00", Attr{"currencyID", "EUR"})
			w.End()
		}
		w.End()
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTracker(b *testing.B) {
	doc := parse(b, trackDoc)
	b.ReportAllocs()
	for b.Loop() {
		tr := NewTracker(doc)
		root := doc.Root()
		tr.Mark(root)
		for n := range tr.Children(root, "urn:c", "Note") {
			tr.Text(n)
		}
		_ = tr.Unconsumed()
	}
}
