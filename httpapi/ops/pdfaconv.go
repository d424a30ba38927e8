package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/facturx"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// UnavailableError reports a component of the server that is missing or
// down (Ghostscript, the veraPDF worker). Transports answer it with 503 and
// Detail; it never stands for a verdict.
type UnavailableError struct {
	Component string // e.g. "Ghostscript"
	Detail    string
	Err       error
}

func (e *UnavailableError) Error() string { return e.Detail }
func (e *UnavailableError) Unwrap() error { return e.Err }

// PDFAConvertRequest is one pdfa/convert call.
type PDFAConvertRequest struct {
	PDF          []byte
	Attachments  []pdfaconv.Attachment // Relationship is set from Relationship
	Relationship string                // AFRelationship of the attachments; empty = Data
}

// PDFAResult is a PDF/A-3b document that veraPDF found compliant.
type PDFAResult struct {
	PDF         []byte
	Pages       int
	Attachments []string // embedded files, name-tree order
}

// ConvertPDFA serves pdfa/convert: the input to PDF/A-3b (pdf/pdfaconv:
// Ghostscript, then our incremental update with the attachments and the
// input's own embedded files), checked by veraPDF before it is returned.
func (s *Service) ConvertPDFA(ctx context.Context, req PDFAConvertRequest) (_ *PDFAResult, err error) {
	defer func() { wrap(&err, "ops.ConvertPDFA") }()
	rel := pdfa.Data
	if req.Relationship != "" {
		r, ok := pdfa.ParseRelationship(req.Relationship)
		if !ok {
			return nil, profileError([]any{"query", "relationship"}, req.Relationship, "Data,Source,Alternative,Supplement,Unspecified")
		}
		rel = r
	}
	atts := make([]pdfaconv.Attachment, len(req.Attachments))
	for i, a := range req.Attachments {
		a.Relationship = rel
		atts[i] = a
	}
	return s.pdfaConvert(ctx, pdfaconv.Request{PDF: req.PDF, Attachments: atts, KeepAttachments: true}, "pdf")
}

// EmbedFacturXResult is generate/facturx/embed's answer.
type EmbedFacturXResult struct {
	PDFAResult
	XML      []byte // the embedded factur-x.xml
	Level    facturx.Level
	Ignored  []string
	Computed []string
	Report   *wire.Report
}

// EmbedFacturX serves generate/facturx/embed: the invoice JSON text (the
// invoice object, or a generate body {"invoice": {...}}) goes
// through the generate/cii gate for facturx_en16931 (the same 422s), then
// the caller's PDF is upgraded to PDF/A-3b with the CII embedded as
// factur-x.xml (AFRelationship of the level, Factur-X XMP), its own
// embedded files kept (a factur-x.xml among them is replaced), and the
// result checked by veraPDF.
func (s *Service) EmbedFacturX(ctx context.Context, invoice, pdf []byte) (_ *EmbedFacturXResult, err error) {
	defer func() { wrap(&err, "ops.EmbedFacturX") }()
	if s == nil || s.Validator == nil {
		return nil, &NotImplementedError{Operation: "generate_facturx_embed", Capability: "the rule engine (the generation gate) has not landed"}
	}
	trimmed := bytes.TrimSpace(invoice)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body", "invoice"}, Type: wire.TypeJSONInvalid,
			Msg: "JSON decode error: the invoice field must be the invoice as a JSON object"}}}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(trimmed, &top) == nil && len(top) == 1 && top["invoice"] != nil {
		trimmed = top["invoice"] // a generate body {"invoice": {...}} is taken too
	}
	body := append(append([]byte(`{"invoice":`), trimmed...), '}')
	gen, err := s.Generate(ctx, GenerateRequest{Syntax: SyntaxCII, Profile: FacturXProfile, Validate: true, Body: body})
	if err != nil {
		return nil, err
	}
	level := facturx.EN16931
	res, err := s.pdfaConvert(ctx, pdfaconv.Request{
		PDF:             pdf,
		KeepAttachments: true,
		Attachments: []pdfaconv.Attachment{{Name: facturx.FileName, MIME: facturx.MIME, Relationship: level.Relationship(),
			Description: "Factur-X invoice (" + string(level) + ")", Data: gen.XML}},
		Schemas: []pdfa.XMPSchema{facturx.Schema(level)},
	}, "pdf")
	if err != nil {
		return nil, err
	}
	return &EmbedFacturXResult{PDFAResult: *res, XML: gen.XML, Level: level, Ignored: gen.Ignored, Computed: gen.Computed, Report: gen.Report}, nil
}

// pdfaConvert runs the converter and veraPDF; field is the form field of
// the PDF (the location of input errors).
func (s *Service) pdfaConvert(ctx context.Context, req pdfaconv.Request, field string) (*PDFAResult, error) {
	if err := CheckPDF(req.PDF, []any{"body", field}); err != nil {
		return nil, err
	}
	if s == nil || s.PDFAConverter == nil {
		return nil, &NotImplementedError{Operation: "PDF/A conversion", Capability: "no PDF/A converter is configured on this server"}
	}
	res, err := s.PDFAConverter.Convert(ctx, req)
	if err != nil {
		return nil, convError(err, field)
	}
	if err := s.checkPDFA3B(ctx, res.PDF, field); err != nil {
		return nil, err
	}
	return &PDFAResult{PDF: res.PDF, Pages: res.Pages, Attachments: res.Attachments}, nil
}

// convError maps a pdfaconv failure: the caller's input is a 422 located at
// the form field, a missing Ghostscript a 503.
func convError(err error, field string) error {
	var ce *pdfaconv.Error
	if !errors.As(err, &ce) {
		return err
	}
	if ce.Kind == pdfaconv.KindUnavailable {
		return &UnavailableError{Component: "Ghostscript", Detail: ce.Detail, Err: err}
	}
	loc := []any{"body", field}
	if ce.Kind == pdfaconv.KindBadAttachment {
		loc = []any{"body", "attachments"}
	}
	if errors.Is(err, pdfread.ErrLimit) {
		// The same type as the extraction routes give for the reader's limits.
		return &RequestError{Fields: []wire.ValidationError{{Loc: loc, Type: wire.TypeLimitExceeded, Msg: ce.Detail}}}
	}
	return &RequestError{Fields: []wire.ValidationError{{Loc: loc, Type: wire.TypeValueError, Msg: "Value error, " + ce.Detail}}}
}

// pdfaRuleError is the 422 of a converted PDF veraPDF still rejects: one
// entry per failed rule.
func pdfaRuleError(field string, rules []wire.ValidationError) error {
	if len(rules) == 0 {
		rules = []wire.ValidationError{{Loc: []any{"body", field}, Type: wire.TypeRuleViolation,
			Msg: "the converted PDF is not PDF/A-3b compliant according to veraPDF"}}
	}
	for i := range rules {
		rules[i].Loc = []any{"body", field}
		rules[i].Msg = "the PDF cannot be made PDF/A-3b compliant: " + rules[i].Msg
	}
	return &RequestError{Fields: rules}
}

// checkPDFA3B asks veraPDF whether pdf is PDF/A-3b compliant: a failed
// rule is a 422 listing veraPDF's rules (never a silently non-conformant
// file), a PDF veraPDF cannot check a 422 with its reason, no veraPDF an
// error matching verapdf.ErrUnavailable (503).
func (s *Service) checkPDFA3B(ctx context.Context, pdf []byte, field string) error {
	if s.VeraPDF == nil {
		return &verapdf.UnavailableError{Reason: "no veraPDF worker is configured on this instance, so converted PDFs cannot be checked"}
	}
	res, err := s.VeraPDF.Validate(ctx, pdf, "3b")
	if err != nil {
		var de *verapdf.DocumentError
		if errors.As(err, &de) {
			return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body", field}, Type: wire.TypeValueError,
				Msg: "Value error, the converted PDF cannot be checked: " + documentErrorText(de), Ctx: map[string]any{"reason": de.Kind}}}}
		}
		return err
	}
	if res.Compliant {
		return nil
	}
	rules := make([]wire.ValidationError, 0, len(res.FailedRules))
	for _, r := range res.FailedRules {
		rules = append(rules, wire.ValidationError{Type: wire.TypeRuleViolation,
			Msg: fmt.Sprintf("veraPDF rule %s %s-%d failed (%d checks): %s", r.Specification, r.Clause, r.TestNumber, r.FailedChecks, r.Description),
			Ctx: map[string]any{"specification": r.Specification, "clause": r.Clause, "test_number": r.TestNumber, "failed_checks": r.FailedChecks}})
	}
	return pdfaRuleError(field, rules)
}
