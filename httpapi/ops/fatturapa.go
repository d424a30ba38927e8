package ops

import (
	"context"

	"github.com/einvoice-dev/einvoice/formats/fatturapa"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// FatturaPAResult is a generated FatturaPA document.
type FatturaPAResult struct {
	XML []byte
	// Ignored: unknown members of the body and of the invoice (JSON
	// Pointers); unknown extras members are refused instead.
	Ignored []string
	// Computed: the values model.Complete derived ("/invoice/...").
	Computed []string
	// Report is the XSD report of XML (always valid when returned).
	Report *wire.Report
	// TipoDocumento and ImportoTotaleDocumento as written.
	TipoDocumento, ImportoTotaleDocumento string
}

// GenerateFatturaPA decodes {"invoice": {...}, "extras": {...}}, writes
// FatturaPA 1.2.2 (formats/fatturapa) and gates it with the validator's
// FatturaPA XSD. Every input problem, every field FatturaPA cannot carry and
// every XSD error is a *RequestError (422); without a validator the
// operation is not implemented (it never answers an ungated document).
func (s *Service) GenerateFatturaPA(ctx context.Context, body []byte) (_ *FatturaPAResult, err error) {
	defer func() { wrap(&err, "ops.GenerateFatturaPA") }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ex *fatturapa.Extras
	inv, ignored, err := decodeInvoiceExtras(body, true, func(raw []byte) error {
		var xerr error
		ex, _, xerr = fatturapa.DecodeExtras(raw, "body", "extras")
		return xerr
	})
	if err != nil {
		return nil, err
	}
	gen, err := fatturapa.Generate(inv, ex, "body")
	if err != nil {
		return nil, generated(err)
	}
	res := &FatturaPAResult{XML: gen.XML, Ignored: ignored, Computed: underInvoice(gen.Computed), TipoDocumento: gen.TipoDocumento,
		ImportoTotaleDocumento: gen.ImportoTotaleDocumento.StringFixed(2)}
	rep, err := s.Validate(ctx, ValidateRequest{Syntax: SyntaxFatturaPA, Body: gen.XML})
	if err != nil {
		return nil, err
	}
	if !rep.Valid {
		return nil, &RequestError{Fields: RuleViolations(rep, func(wire.Finding) []any { return []any{"body"} })}
	}
	res.Report = rep
	return res, nil
}
