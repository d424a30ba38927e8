package ops

import (
	"context"

	"github.com/einvoice-dev/einvoice/formats/facturae"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// FacturaeResult is a generated Facturae document.
type FacturaeResult struct {
	XML []byte
	// Ignored: unknown members of the body and of the invoice (JSON
	// Pointers); unknown extras members are refused instead.
	Ignored []string
	// Computed: the values model.Complete derived ("/invoice/...").
	Computed []string
	// Report is the XSD report of XML (always valid when returned).
	Report *wire.Report
	// InvoiceTotal and TotalExecutableAmount as written (2 decimals).
	InvoiceTotal, TotalExecutableAmount string
}

// GenerateFacturae decodes {"invoice": {...}, "extras": {...}} (extras
// optional), writes Facturae 3.2.2 (formats/facturae, unsigned) and gates
// it with the official XSD. Every input problem, every field Facturae
// cannot carry and every XSD error is a *RequestError (422); without a
// validator the operation is not implemented.
func (s *Service) GenerateFacturae(ctx context.Context, body []byte) (_ *FacturaeResult, err error) {
	defer func() { wrap(&err, "ops.GenerateFacturae") }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ex *facturae.Extras
	inv, ignored, err := decodeInvoiceExtras(body, false, func(raw []byte) error {
		if raw == nil {
			return nil
		}
		var xerr error
		ex, _, xerr = facturae.DecodeExtras(raw, "body", "extras")
		return xerr
	})
	if err != nil {
		return nil, err
	}
	gen, err := facturae.Generate(inv, ex, "body")
	if err != nil {
		return nil, generated(err)
	}
	rep, err := s.gateSchema(ctx, "generate_facturae", "facturae", gen.XML)
	if err != nil {
		return nil, err
	}
	res := &FacturaeResult{XML: gen.XML, Ignored: ignored, Computed: underInvoice(gen.Computed), Report: rep,
		InvoiceTotal: gen.InvoiceTotal.String(), TotalExecutableAmount: gen.TotalExecutableAmount.String()}
	return res, nil
}
