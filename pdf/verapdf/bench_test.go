package verapdf

import (
	"context"
	"testing"
)

// BenchmarkValidate measures a warm worker (started before the timer) on
// corpus PDFs of 1, 3 and 5 pages; ms/page is the figure of docs/PERFORMANCE.md.
//
//	go test -run '^$' -bench Validate -benchtime 20x -count 6 ./pdf/verapdf
func BenchmarkValidate(b *testing.B) {
	for _, tc := range []struct {
		name, file string
		pages      int
	}{
		{"1page", "mustang/zugferd_invoice.pdf", 1},
		{"3pages", "mustang/EN16931_1_Teilrechnung.pdf", 3},
		{"5pages", "mustang/invalidPDF.pdf", 5},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := realClient(b)
			pdf := readCorpus(b, tc.file)
			ctx := context.Background()
			if _, err := c.Validate(ctx, pdf, "auto"); err != nil { // warm-up: JVM start and JIT
				b.Fatal(err)
			}
			b.SetBytes(int64(len(pdf)))
			b.ResetTimer()
			for b.Loop() {
				if _, err := c.Validate(ctx, pdf, "auto"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(tc.pages), "ms/page")
		})
	}
}
