package fatturapa

import (
	"fmt"
	"testing"
)

// BenchmarkGenerate: decode + complete + write of a 10-line invoice with
// ritenuta and cassa (the XSD gate is the caller's and not included).
func BenchmarkGenerate(b *testing.B) {
	var lines []any
	for i := 1; i <= 10; i++ {
		lines = append(lines, map[string]any{"id": fmt.Sprint(i), "quantity": fmt.Sprint(i), "unit_code": "C62", "net_price": "12.34",
			"category": "STANDARD", "vat_rate": "22", "item": map[string]any{"name": fmt.Sprintf("Articolo %d", i)}})
	}
	js := patch(b, baseInvoice, map[string]any{"lines": lines})
	ex := []byte(`{"trasmittente_id_codice": "01234567890", "progressivo_invio": "00001", "codice_destinatario": "ABC1234",
		"ritenuta": {"tipo": "RT01", "aliquota": "20", "causale": "A"}, "cassa": {"tipo": "TC22", "aliquota": "4", "aliquota_iva": "22", "ritenuta": true}}`)
	b.ReportAllocs()
	for b.Loop() {
		inv := decodeInv(b, js)
		x, _, err := DecodeExtras(ex)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Generate(inv, x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeExtras is the extras decoder alone.
func BenchmarkDecodeExtras(b *testing.B) {
	ex := []byte(`{"trasmittente_id_codice": "01234567890", "progressivo_invio": "00001", "codice_destinatario": "ABC1234",
		"ritenuta": {"tipo": "RT01", "aliquota": "20", "causale": "A"}, "bollo": {"importo": "2"}, "natura": {"1": "N4"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DecodeExtras(ex); err != nil {
			b.Fatal(err)
		}
	}
}
