package ops

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

// renderBody is a UBL invoice with n lines (random, complete).
func renderBody(b *testing.B, n int) []byte {
	inv := model.RandomInvoice(rand.New(rand.NewPCG(uint64(n), 11)), model.RandomOptions{Lines: n, Categories: []model.VATCategoryCode{model.VATStandard}})
	var buf bytes.Buffer
	if err := ubl.Write(&buf, inv, ubl.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkRender is the whole operation behind /v1/render/*: parse,
// read, build the view, write HTML or PDF.
func BenchmarkRender(b *testing.B) {
	s := &Service{}
	ctx := context.Background()
	for _, n := range []int{10, 1000} {
		body := renderBody(b, n)
		for _, c := range []struct {
			name string
			run  func() error
		}{
			{"html", func() error { _, err := s.RenderHTML(ctx, RenderRequest{Lang: "de", Body: body}); return err }},
			{"pdf-compact", func() error {
				_, err := s.RenderPDF(ctx, RenderRequest{Lang: "de", Style: "compact", Body: body})
				return err
			}},
			{"pdf-kosit", func() error {
				_, err := s.RenderPDF(ctx, RenderRequest{Lang: "de", Style: "kosit", Body: body})
				return err
			}},
		} {
			b.Run(c.name+"/lines="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
