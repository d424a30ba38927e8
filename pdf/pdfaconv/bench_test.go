package pdfaconv

import (
	"context"
	"fmt"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
)

// BenchmarkConvert is the converter alone (Ghostscript + the Go pass,
// no veraPDF) on generated PDFs of 1 and 12 text pages.
func BenchmarkConvert(b *testing.B) {
	pdftestgen.Need(b, "gs")
	c := New(Config{})
	for _, pages := range []int{1, 12} {
		pdf := pdftestgen.MultiPage(pages).PDF
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Convert(context.Background(), Request{PDF: pdf}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFinish is the Go pass alone (read Ghostscript's output, write
// the incremental update with XMP and one attachment).
func BenchmarkFinish(b *testing.B) {
	pdftestgen.Need(b, "gs")
	c := New(Config{})
	out, _, err := c.ghostscript(context.Background(), pdftestgen.MultiPage(12).PDF)
	if err != nil {
		b.Fatal(err)
	}
	atts := []Attachment{{Name: "factur-x.xml", MIME: "text/xml", Data: make([]byte, 20<<10)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.finish(out, atts, nil); err != nil {
			b.Fatal(err)
		}
	}
}
