package ops

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

func TestDetectSyntax(t *testing.T) {
	for doc, want := range map[string]string{
		`<?xml version="1.0"?><!-- c --><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`: "ubl",
		`<ubl:CreditNote xmlns:ubl="x">`:                                        "ubl",
		"\ufeff<?xml version='1.0'?>\n<rsm:CrossIndustryInvoice xmlns:rsm='x'>": "cii",
		`<!DOCTYPE x><Order/>`:                                                  "",
		`no xml`:                                                                "",
		`<?xml `:                                                                "",
	} {
		got, err := DetectSyntax([]byte(doc))
		if got != want || (want == "") != errors.Is(err, ErrUnknownSyntax) {
			t.Errorf("DetectSyntax(%q) = %q, %v; want %q", doc, got, err, want)
		}
	}
}

type fixedValidator struct {
	rep *wire.Report
	err error
	got *ValidateRequest
}

func (v fixedValidator) Validate(_ context.Context, req ValidateRequest) (*wire.Report, error) {
	if v.got != nil {
		*v.got = req
	}
	return v.rep, v.err
}
func (fixedValidator) Rulesets() []wire.RulesetRef { return nil }

func TestValidate(t *testing.T) {
	ctx := context.Background()
	var nilSvc *Service
	var ni *NotImplementedError
	if _, err := nilSvc.Validate(ctx, ValidateRequest{Syntax: "ubl"}); !errors.As(err, &ni) {
		t.Fatalf("no validator: %v", err)
	}
	var re *RequestError
	if _, err := nilSvc.Validate(ctx, ValidateRequest{Syntax: "ubl", Profile: "facturx_basic"}); !errors.As(err, &re) ||
		re.Fields[0].Type != wire.TypeEnum || len(re.Fields[0].Ctx["expected"].([]string)) != 5 {
		t.Fatalf("bad profile: %v", err)
	}
	if _, err := nilSvc.Validate(ctx, ValidateRequest{Syntax: "edifact"}); !errors.As(err, &re) {
		t.Fatalf("bad syntax: %v", err)
	}
	var got ValidateRequest
	incomplete := &wire.Report{Valid: true, Complete: false}
	s := &Service{Validator: fixedValidator{rep: incomplete, got: &got}}
	rep, err := s.Validate(ctx, ValidateRequest{Syntax: "cii"})
	if err != nil || rep.Valid || got.Profile != "en16931" {
		t.Fatalf("incomplete report must be invalid; default profile applied: %+v %v %+v", rep, err, got)
	}
	s = &Service{Validator: fixedValidator{err: errors.New("boom")}}
	if _, err := s.Validate(ctx, ValidateRequest{Syntax: "ubl"}); err == nil || !strings.Contains(err.Error(), "ops.Validate(ubl, peppol): boom") {
		t.Fatalf("engine error not wrapped: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Validate(cctx, ValidateRequest{Syntax: "ubl"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestWriteSVRL(t *testing.T) {
	rep := &wire.Report{Profile: "peppol", Rulesets: []wire.RulesetRef{{Name: "en16931", Version: "1.3.16"}},
		Findings: []wire.Finding{
			{RuleID: "BR-01", Flag: "fatal", Location: "/Invoice", Test: "a < b", Message: "x & y"},
			{RuleID: "INFO", Flag: "information", Message: "fyi"},
		}}
	var buf bytes.Buffer
	if err := WriteSVRL(&buf, rep); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`<svrl:schematron-output xmlns:svrl="http://purl.oclc.org/dsdl/svrl" title="peppol">`,
		`<svrl:failed-assert id="BR-01" flag="fatal" location="/Invoice" test="a &lt; b">`,
		`<svrl:text>x &amp; y</svrl:text>`,
		`<svrl:successful-report id="INFO"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("SVRL lacks %q:\n%s", want, out)
		}
	}
}

func FuzzDetectSyntax(f *testing.F) {
	for _, s := range []string{`<Invoice/>`, `<?xml?><!--x--><a:CrossIndustryInvoice>`, `<!`, `<`, `<?`, `<:>`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		s, err := DetectSyntax(doc)
		if err != nil && !errors.Is(err, ErrUnknownSyntax) {
			t.Fatalf("unexpected error type: %v", err)
		}
		if err == nil && s != SyntaxUBL && s != SyntaxCII {
			t.Fatalf("syntax %q", s)
		}
	})
}
