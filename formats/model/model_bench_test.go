package model

import (
	"math/rand/v2"
	"testing"
)

func benchInvoiceJSON(b *testing.B, lines int) []byte {
	b.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	inv := RandomInvoice(r, RandomOptions{Lines: lines, Incomplete: true})
	data, err := EncodeInvoice(inv)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func benchDecodeComplete(b *testing.B, lines int) {
	data := benchInvoiceJSON(b, lines)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		inv, _, _, err := DecodeInvoice(data, "body", "invoice")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := inv.Complete(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeComplete10(b *testing.B)   { benchDecodeComplete(b, 10) }
func BenchmarkDecodeComplete1000(b *testing.B) { benchDecodeComplete(b, 1000) }

func BenchmarkComplete1000(b *testing.B) {
	data := benchInvoiceJSON(b, 1000)
	inv, _, _, err := DecodeInvoice(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c := *inv
		c.Lines = append([]Line(nil), inv.Lines...)
		for i := range c.Lines {
			c.Lines[i].NetAmount = nil
		}
		c.Totals, c.VATBreakdown = nil, nil
		if _, err := c.Complete(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode1000(b *testing.B) {
	data := benchInvoiceJSON(b, 1000)
	inv, _, _, _ := DecodeInvoice(data)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeInvoice(inv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRound(b *testing.B) {
	x := MustParseDecimal("12345.6785")
	b.ReportAllocs()
	for b.Loop() {
		_ = x.Round(2)
	}
}
