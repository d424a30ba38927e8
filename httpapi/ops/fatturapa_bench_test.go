package ops_test

import (
	"context"
	"testing"
)

// BenchmarkGenerateFatturaPA is the whole operation: decode invoice and
// extras, generate, XSD gate (schema compiled before the loop).
func BenchmarkGenerateFatturaPA(b *testing.B) {
	s := fpaService(b)
	body := []byte(`{"invoice": ` + fpaInvoice + `, "extras": ` + fpaExtras + `}`)
	if _, err := s.GenerateFatturaPA(context.Background(), body); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.GenerateFatturaPA(context.Background(), body); err != nil {
			b.Fatal(err)
		}
	}
}
