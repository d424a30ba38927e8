package ops

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/einvoice-dev/einvoice/formats/fatturapa"
	"github.com/einvoice-dev/einvoice/formats/model"
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
	inv, ignored, ierr := DecodeGenerateBody(body)
	ignored = slices.DeleteFunc(ignored, func(p string) bool { return p == "/extras" })
	var fields []wire.ValidationError
	var re *RequestError
	switch {
	case errors.As(ierr, &re):
		if len(re.Fields) == 1 && len(re.Fields[0].Loc) == 1 { // the body itself is not a JSON object
			return nil, ierr
		}
		fields = append(fields, re.Fields...)
	case ierr != nil:
		return nil, ierr
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeJSONInvalid, Msg: "JSON decode error: " + err.Error()}}}
	}
	var ex *fatturapa.Extras
	if raw, ok := top["extras"]; !ok || string(raw) == "null" {
		fields = append(fields, wire.ValidationError{Loc: []any{"body", "extras"}, Type: wire.TypeMissing, Msg: "Field required"})
	} else {
		var xerr error
		ex, _, xerr = fatturapa.DecodeExtras(raw, "body", "extras")
		if xerr != nil {
			var perr *RequestError
			if !errors.As(problemsError(xerr), &perr) {
				return nil, xerr
			}
			fields = append(fields, perr.Fields...)
		}
	}
	if len(fields) > 0 {
		return nil, &RequestError{Fields: fields}
	}
	gen, err := fatturapa.Generate(inv, ex, "body")
	if err != nil {
		var ps model.Problems
		if errors.As(err, &ps) {
			return nil, problemsError(err)
		}
		return nil, err
	}
	res := &FatturaPAResult{XML: gen.XML, Ignored: ignored, TipoDocumento: gen.TipoDocumento,
		ImportoTotaleDocumento: gen.ImportoTotaleDocumento.StringFixed(2)}
	for _, c := range gen.Computed {
		res.Computed = append(res.Computed, "/invoice"+c)
	}
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
