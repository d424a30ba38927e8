package render

import (
	"context"
	"fmt"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/benchcpu"
)

// subLineInvoice is benchInvoice(lines) with perLine sub-lines (copies of
// their line) under every line.
func subLineInvoice(lines, perLine int) *model.Invoice {
	inv := benchInvoice(lines)
	for i := range inv.Lines {
		l := &inv.Lines[i]
		for j := range perLine {
			s := *l
			s.ID = fmt.Sprintf("%s.%d", l.ID, j+1)
			s.SubLines = nil
			l.SubLines = append(l.SubLines, s)
		}
	}
	return inv
}

// benchSubLines renders 10 lines with 10 sub-lines each (110 rows) in
// view ("html" or a PDF style).
func benchSubLines(b *testing.B, view string) {
	inv := subLineInvoice(10, 10)
	ctx := context.Background()
	b.ReportAllocs()
	start := benchcpu.Process()
	for b.Loop() {
		var err error
		if view == "html" {
			_, err = HTML(ctx, inv, German)
		} else {
			_, err = PDF(ctx, inv, Options{Lang: German, Style: view})
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportMS(b, start)
}

func BenchmarkSubLinesHTML(b *testing.B)       { benchSubLines(b, "html") }
func BenchmarkSubLinesPDFCompact(b *testing.B) { benchSubLines(b, StyleCompact) }
func BenchmarkSubLinesPDFKosit(b *testing.B)   { benchSubLines(b, StyleKosit) }
