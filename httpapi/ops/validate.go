package ops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// Syntax values accepted by Validate.
const (
	SyntaxUBL       = "ubl"
	SyntaxCII       = "cii"
	SyntaxOrderX    = "orderx"    // Order-X; profile basic, comfort or extended, "" = from the document
	SyntaxFatturaPA = "fatturapa" // FatturaPA 1.2.2; XSD only, no profile
)

// OrderXProfiles are the Order-X profiles.
const OrderXProfiles = "basic,comfort,extended"

// ValidateRequest is one document to validate.
type ValidateRequest struct {
	Syntax  string // ubl, cii, orderx or fatturapa
	Profile string // one of AllowedProfiles(Syntax); empty = the syntax's default
	Version string // rule-set version; empty = newest
	Body    []byte // the XML document
	// Owned says the caller gives Body up: nothing writes into it once
	// Validate is called (a request body read for it alone), so the
	// parse may keep it as the document's text instead of copying it.
	Owned bool
}

// Validator checks one document against a profile. Implementations must be
// safe for concurrent use, honour ctx, and return a *RequestError for caller
// problems (malformed XML, profile not available) and any other error for
// engine failures. The report they return is re-checked by Validate.
type Validator interface {
	Validate(ctx context.Context, req ValidateRequest) (*wire.Report, error)
	// Rulesets lists every rule set and schema the validator has loaded.
	Rulesets() []wire.RulesetRef
}

// RulesetLister is implemented by validators that can describe every rule
// set of their catalog (GET /v1/rulesets).
type RulesetLister interface {
	RulesetInfo() []wire.RulesetInfo
}

// Service bundles the operations with their back-ends. A nil back-end means the
// capability has not landed and its operations return *NotImplementedError.
type Service struct {
	Validator Validator
	// ICCProfile is the sRGB ICC profile of the PDF/A output intent
	// (pdf/pdfa); empty = pdfa.DefaultICCProfile (Debian's icc-profiles-free).
	ICCProfile string
	// PDFAConverter turns PDFs into PDF/A-3b (pdfa/convert,
	// generate/facturx/embed); nil = those operations answer 503.
	PDFAConverter *pdfaconv.Converter
	// VeraPDF gives PDF/A verdicts (pdfa/validate, and the check of every
	// PDF/A the service returns); nil = those operations answer 503.
	VeraPDF *verapdf.Client
}

// DefaultProfile returns the default profile of a syntax ("" for Order-X,
// whose profile the validator reads from the document, and for FatturaPA).
func DefaultProfile(syntax string) string {
	switch syntax {
	case SyntaxUBL:
		return "peppol"
	case SyntaxCII:
		return "en16931"
	}
	return ""
}

// AllowedProfiles returns the comma-separated profiles of a syntax.
func AllowedProfiles(syntax string) string {
	switch syntax {
	case SyntaxUBL:
		return wire.UBLProfiles
	case SyntaxCII:
		return wire.CIIProfiles
	case SyntaxOrderX:
		return OrderXProfiles
	}
	return ""
}

// Validate validates req.Body and returns the report. The verdict is fail
// closed: the report's counts and valid flag are recomputed here from its
// findings and completeness, whatever the back-end said.
func (s *Service) Validate(ctx context.Context, req ValidateRequest) (_ *wire.Report, err error) {
	defer func() { wrap(&err, "ops.Validate(%s, %s)", req.Syntax, req.Profile) }()
	syntaxes := []string{SyntaxUBL, SyntaxCII, SyntaxOrderX, SyntaxFatturaPA}
	if !slices.Contains(syntaxes, req.Syntax) {
		return nil, &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"query", "syntax"}, Msg: "Input should be " + quoteList(syntaxes), Type: wire.TypeEnum,
			Input: req.Syntax, Ctx: map[string]any{"expected": syntaxes},
		}}}
	}
	if req.Profile == "" {
		req.Profile = DefaultProfile(req.Syntax)
	}
	allowed := AllowedProfiles(req.Syntax)
	if req.Profile != "" && !slices.Contains(strings.Split(allowed, ","), req.Profile) {
		return nil, profileError([]any{"query", "profile"}, req.Profile, allowed)
	}
	if s == nil || s.Validator == nil {
		return nil, &NotImplementedError{Operation: "validate_" + req.Syntax, Capability: "the rule engine (engine, rulesets, engine/xsd) has not landed"}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep, err := s.Validator.Validate(ctx, req)
	if err != nil {
		return nil, err
	}
	if rep == nil {
		return nil, errors.New("validator returned no report")
	}
	if rep.Findings == nil {
		rep.Findings = []wire.Finding{}
	}
	if rep.Rulesets == nil {
		rep.Rulesets = []wire.RulesetRef{}
	}
	for i := range rep.Findings {
		if rep.Findings[i].Terms == nil {
			rep.Findings[i].Terms = []string{}
		}
	}
	rep.Recount()
	return rep, nil
}

// wrap adds context to a non-nil error, leaving typed request/501 errors
// reachable through errors.As.
func wrap(errp *error, format string, args ...any) {
	if *errp == nil {
		return
	}
	var re *RequestError
	var ni *NotImplementedError
	if errors.As(*errp, &re) || errors.As(*errp, &ni) {
		return // already caller-facing; keep the message clean
	}
	*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
}
