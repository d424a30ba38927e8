package ops_test

import (
	"context"
	"os"
	"testing"
)

// benchGenerate measures one whole operation on the body of file: decode,
// generate, schema gate (schemas compiled before the loop).
func benchGenerate(b *testing.B, file string, op func(ctx context.Context, body []byte) error) {
	body, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	if err := op(context.Background(), body); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := op(context.Background(), body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateOrderX: decode, write, XSD + Schematron (BASIC) gate.
func BenchmarkGenerateOrderX(b *testing.B) {
	s := fpaService(b)
	benchGenerate(b, "../../formats/orderx/testdata/order.json", func(ctx context.Context, body []byte) error {
		_, err := s.GenerateOrderX(ctx, body)
		return err
	})
}

// BenchmarkGenerateFacturae: decode invoice and extras, write, XSD gate.
func BenchmarkGenerateFacturae(b *testing.B) {
	s := fpaService(b)
	benchGenerate(b, "../../formats/facturae/testdata/request.json", func(ctx context.Context, body []byte) error {
		_, err := s.GenerateFacturae(ctx, body)
		return err
	})
}

// BenchmarkGenerateKSeF: decode, write, XSD gate.
func BenchmarkGenerateKSeF(b *testing.B) {
	s := fpaService(b)
	benchGenerate(b, "../../formats/ksef/testdata/request.json", func(ctx context.Context, body []byte) error {
		_, err := s.GenerateKSeF(ctx, body)
		return err
	})
}
