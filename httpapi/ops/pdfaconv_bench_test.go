package ops_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
)

// convService is a Service with the real converter, the lazily compiled
// engine and the shared warm veraPDF worker.
func convService(b *testing.B) *ops.Service {
	b.Helper()
	pdftestgen.Need(b, "gs")
	v, err := lazyValidator()
	if err != nil {
		b.Fatalf("engine: %v", err)
	}
	return &ops.Service{Validator: v, PDFAConverter: pdfaconv.New(pdfaconv.Config{Timeout: 3 * time.Minute}), VeraPDF: verapdftest.Client(b)}
}

// BenchmarkConvertPDFA is pdfa/convert end to end (Ghostscript, our
// incremental update with one attachment, veraPDF with a warm worker) on
// generated PDFs of 1 and 12 text pages.
func BenchmarkConvertPDFA(b *testing.B) {
	s := convService(b)
	for _, pages := range []int{1, 12} {
		pdf := pdftestgen.MultiPage(pages).PDF
		req := ops.PDFAConvertRequest{PDF: pdf, Attachments: []pdfaconv.Attachment{{Name: "a.txt", MIME: "text/plain", Data: []byte("attachment")}}}
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) {
			if _, err := s.ConvertPDFA(context.Background(), req); err != nil { // warm the worker and the engine
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := s.ConvertPDFA(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEmbedFacturX is generate/facturx/embed end to end (decode, CII,
// the facturx_en16931 gate, conversion, veraPDF) of a 10-line invoice into
// a generated 1-page PDF.
func BenchmarkEmbedFacturX(b *testing.B) {
	s := convService(b)
	inv, err := model.EncodeInvoice(model.RandomInvoice(rand.New(rand.NewPCG(42, 7)), model.RandomOptions{Lines: 10}))
	if err != nil {
		b.Fatal(err)
	}
	pdf := pdftestgen.MultiPage(1).PDF
	if _, err := s.EmbedFacturX(context.Background(), inv, pdf); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.EmbedFacturX(context.Background(), inv, pdf); err != nil {
			b.Fatal(err)
		}
	}
}
