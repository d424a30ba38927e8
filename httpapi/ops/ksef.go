package ops

import (
	"context"
	"time"

	"github.com/einvoice-dev/einvoice/formats/ksef"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// KSeFResult is a generated KSeF FA(3) document.
type KSeFResult struct {
	XML []byte
	// Ignored: unknown members of the body and of the invoice (JSON Pointers).
	Ignored []string
	// Computed: the values model.Complete derived ("/invoice/...").
	Computed []string
	// Report is the XSD report of XML (always valid when returned).
	Report *wire.Report
	// P15 is the amount due as written.
	P15 string
}

// GenerateKSeF decodes {"invoice": {...}}, writes KSeF FA(3)
// (formats/ksef; DataWytworzeniaFa = now) and gates it with the official
// FA(3) XSD. Input problems, fields FA(3) cannot carry and XSD errors are a
// *RequestError (422); without a validator the operation is not
// implemented.
func (s *Service) GenerateKSeF(ctx context.Context, body []byte) (_ *KSeFResult, err error) {
	defer func() { wrap(&err, "ops.GenerateKSeF") }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inv, ignored, err := DecodeGenerateBody(body)
	if err != nil {
		return nil, err
	}
	gen, err := ksef.Generate(inv, ksef.Options{Created: time.Now()}, "body")
	if err != nil {
		return nil, generated(err)
	}
	rep, err := s.gateSchema(ctx, "generate_ksef", "ksef_fa", gen.XML)
	if err != nil {
		return nil, err
	}
	res := &KSeFResult{XML: gen.XML, Ignored: ignored, Computed: underInvoice(gen.Computed), Report: rep, P15: gen.P15.String()}
	return res, nil
}
