package ops

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/einvoice-dev/einvoice/formats/render"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// Render styles and languages (wire.RenderPDFParams, wire.RenderHTMLParams).
const (
	RenderLangs  = "en,de"
	RenderStyles = render.StyleCompact + "," + render.StyleKosit
)

// RenderRequest is one /v1/render/{html,pdf} call.
type RenderRequest struct {
	Lang  string // en or de; empty = en
	Style string // PDF only: compact or kosit; empty = compact
	Body  []byte // UBL Invoice/CreditNote or CII CrossIndustryInvoice XML
}

// readForRender reads req.Body (UBL or CII, auto-detected) and checks the
// language: malformed XML, another document and an unknown language are
// *RequestError (422).
func readForRender(ctx context.Context, req RenderRequest) (*render.Source, render.Lang, error) {
	if req.Lang == "" {
		req.Lang = string(render.English)
	}
	lang, ok := render.ParseLang(req.Lang)
	if !ok {
		return nil, "", enumError([]any{"query", "lang"}, req.Lang, RenderLangs)
	}
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	src, err := render.Read(req.Body)
	if err != nil {
		return nil, "", renderInputError(err)
	}
	return src, lang, nil
}

// RenderHTML renders req.Body as a self-contained HTML page.
func (s *Service) RenderHTML(ctx context.Context, req RenderRequest) (_ []byte, err error) {
	defer func() { wrap(&err, "ops.RenderHTML(%s)", req.Lang) }()
	src, lang, err := readForRender(ctx, req)
	if err != nil {
		return nil, err
	}
	return render.HTML(ctx, src.Invoice, lang)
}

// RenderPDF renders req.Body as a PDF/A-3b document in req.Style.
func (s *Service) RenderPDF(ctx context.Context, req RenderRequest) (_ []byte, err error) {
	defer func() { wrap(&err, "ops.RenderPDF(%s, %s)", req.Lang, req.Style) }()
	if req.Style == "" {
		req.Style = render.StyleCompact
	}
	if req.Style != render.StyleCompact && req.Style != render.StyleKosit {
		return nil, enumError([]any{"query", "style"}, req.Style, RenderStyles)
	}
	src, lang, err := readForRender(ctx, req)
	if err != nil {
		return nil, err
	}
	icc, err := s.outputIntent()
	if err != nil {
		return nil, err
	}
	return iccErr(render.PDF(ctx, src.Invoice, render.Options{Lang: lang, Style: req.Style, ICC: icc}))
}

// outputIntent is the ICC profile of every PDF/A output intent: the file at
// s.ICCProfile, or nil for render's default (pdfa.DefaultICCProfile). A
// missing or unusable profile means PDF/A output is not available here.
func (s *Service) outputIntent() ([]byte, error) {
	if s.ICCProfile == "" {
		return nil, nil
	}
	icc, err := pdfa.ReadICCProfile(s.ICCProfile)
	if err != nil {
		return nil, &NotImplementedError{Operation: "PDF/A output", Capability: err.Error()}
	}
	return icc, nil
}

// iccErr turns a failure to read the default ICC profile into the
// not-available error outputIntent gives for a configured one.
func iccErr(b []byte, err error) ([]byte, error) {
	if errors.Is(err, pdfa.ErrICCProfile) {
		return nil, &NotImplementedError{Operation: "PDF/A output", Capability: err.Error()}
	}
	return b, err
}

// renderInputError maps render.Read's errors to 422s: parse and limit
// errors like validation, another root element as a value_error.
func renderInputError(err error) error {
	switch {
	case errors.Is(err, render.ErrParse):
		return parseError(err)
	case errors.Is(err, render.ErrSyntax):
		return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError, Msg: "Value error, " + err.Error()}}}
	}
	return fmt.Errorf("reading the invoice: %w", err)
}

// enumError is the 422 for a value outside allowed (comma-separated).
func enumError(loc []any, value, allowed string) *RequestError {
	return profileError(loc, value, allowed)
}

// ValidateReportPDF validates req.Body with Validate (the same check as
// /v1/validate/{syntax}) and prints the report as a PDF/A-3b document.
func (s *Service) ValidateReportPDF(ctx context.Context, req ValidateRequest) (_ []byte, _ *wire.Report, err error) {
	defer func() { wrap(&err, "ops.ValidateReportPDF(%s, %s)", req.Syntax, req.Profile) }()
	rep, err := s.Validate(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	icc, err := s.outputIntent()
	if err != nil {
		return nil, nil, err
	}
	pdf, err := iccErr(render.ReportPDF(ctx, reportView(rep), render.Options{Lang: render.English, ICC: icc}))
	if err != nil {
		return nil, nil, err
	}
	return pdf, rep, nil
}

// reportView converts the wire report into the printable one.
func reportView(rep *wire.Report) *render.Report {
	out := &render.Report{Valid: rep.Valid, Complete: rep.Complete, Profile: rep.Profile, Syntax: rep.Syntax,
		Fatal: rep.Counts.Fatal, Warning: rep.Counts.Warning, Duration: time.Duration(rep.DurationMS) * time.Millisecond}
	for _, r := range rep.Rulesets {
		out.Rulesets = append(out.Rulesets, render.RulesetVersion{Name: r.Name, Version: r.Version})
	}
	out.Findings = make([]render.ReportFinding, len(rep.Findings))
	for i, f := range rep.Findings {
		out.Findings[i] = render.ReportFinding{RuleID: f.RuleID, Flag: f.Flag, Message: f.Message, Location: f.Location, Line: f.Line}
	}
	return out
}
