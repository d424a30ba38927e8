package render

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"

	"github.com/einvoice-dev/einvoice/internal/benchcpu"
)

// benchInvoice is a complete random invoice with n lines.
func benchInvoice(n int) *model.Invoice {
	return model.RandomInvoice(rand.New(rand.NewPCG(uint64(n), 7)), model.RandomOptions{Lines: n, Categories: []model.VATCategoryCode{model.VATStandard}})
}

func benchHTML(b *testing.B, lines int) {
	inv := benchInvoice(lines)
	ctx := context.Background()
	b.ReportAllocs()
	start := benchcpu.Process()
	for b.Loop() {
		if _, err := HTML(ctx, inv, German); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportMS(b, start)
}

func benchPDF(b *testing.B, lines int, style string) {
	inv := benchInvoice(lines)
	ctx := context.Background()
	b.ReportAllocs()
	start := benchcpu.Process()
	for b.Loop() {
		if _, err := PDF(ctx, inv, Options{Lang: German, Style: style}); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportMS(b, start)
}

// The figures: HTML < 5 ms and PDF < 30 ms for 10 lines; 1,000
// lines < 1 s.
func BenchmarkHTML10(b *testing.B)         { benchHTML(b, 10) }
func BenchmarkHTML1000(b *testing.B)       { benchHTML(b, 1000) }
func BenchmarkPDFCompact10(b *testing.B)   { benchPDF(b, 10, StyleCompact) }
func BenchmarkPDFKosit10(b *testing.B)     { benchPDF(b, 10, StyleKosit) }
func BenchmarkPDFCompact1000(b *testing.B) { benchPDF(b, 1000, StyleCompact) }
func BenchmarkPDFKosit1000(b *testing.B)   { benchPDF(b, 1000, StyleKosit) }
