package ops

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// benchPDFs are corpus PDFs of different writers and sizes.
var benchPDFs = []string{
	"mustang/zugferd_invoice.pdf",             // 76 KB, ZUGFeRD 1.0, xref stream
	"mustang/EN16931_1_Teilrechnung.pdf",      // 43 KB, 3 pages, Factur-X
	"mustang/103767-Invoice-2026-03-24-1.pdf", // 153 KB, object streams
}

func benchInputs(b *testing.B) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range benchPDFs {
		data, err := os.ReadFile(filepath.Join(testshared.Dir(b), "corpus", "pdf", p))
		if err != nil {
			b.Fatal(err)
		}
		out[filepath.Base(p)] = data
	}
	return out
}

// benchOp runs op on every bench PDF.
func benchOp(b *testing.B, op func(s *Service, pdf []byte) error) {
	s := &Service{}
	for name, pdf := range benchInputs(b) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(pdf)))
			b.ReportAllocs()
			for b.Loop() {
				if err := op(s, pdf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExtractXML: the whole of POST /v1/extract/xml below HTTP.
func BenchmarkExtractXML(b *testing.B) {
	benchOp(b, func(s *Service, pdf []byte) error {
		_, err := s.ExtractXML(context.Background(), pdf)
		return err
	})
}

// BenchmarkConsistency: the whole of POST /v1/pdfa/consistency below HTTP
// (extraction, page text of every page, the four matchers).
func BenchmarkConsistency(b *testing.B) {
	benchOp(b, func(s *Service, pdf []byte) error {
		_, err := s.Consistency(context.Background(), pdf)
		return err
	})
}

// BenchmarkExtractAttachments: POST /v1/extract/attachments below HTTP.
func BenchmarkExtractAttachments(b *testing.B) {
	benchOp(b, func(s *Service, pdf []byte) error {
		_, err := s.ExtractAttachments(context.Background(), pdf, false)
		return err
	})
}
