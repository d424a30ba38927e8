package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

func TestValidateRoute(t *testing.T) {
	lying := &wire.Report{Profile: "peppol", Syntax: "ubl", Valid: true, Complete: true,
		Findings: []wire.Finding{{RuleID: "BR-CO-10", Flag: "fatal", Message: "sum", Location: "/Invoice", Test: "x", Source: "en16931"}}}
	s, _ := newTestServer(t, func(c *Config) { c.Ops = &ops.Service{Validator: stubValidator{rep: lying}} })
	w := do(t, s, "POST", "/v1/validate/ubl", []byte("<Invoice/>"), withHeader("Content-Type", "application/xml"))
	if w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	var rep wire.Report
	mustJSON(t, w.Body.Bytes(), &rep)
	if rep.Valid || rep.Counts.Fatal != 1 {
		t.Fatalf("fail-closed verdict not applied: %+v", rep)
	}
	if rep.Findings[0].Terms == nil || rep.Rulesets == nil {
		t.Errorf("arrays must be [] not null: %s", w.Body.String())
	}
	w = do(t, s, "POST", "/v1/validate/ubl?format=svrl", []byte("<Invoice/>"), withHeader("Content-Type", "application/xml"))
	if w.Code != 200 || !strings.Contains(w.Body.String(), `<svrl:failed-assert id="BR-CO-10" flag="fatal" location="/Invoice" test="x">`) {
		t.Fatalf("svrl: %d %s", w.Code, w.Body.String())
	}
}

type errValidator struct{ err error }

func (v errValidator) Validate(context.Context, ops.ValidateRequest) (*wire.Report, error) {
	return nil, v.err
}
func (errValidator) Rulesets() []wire.RulesetRef { return nil }

func TestValidateErrors(t *testing.T) {
	xmlErr := &ops.RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Msg: "unexpected EOF", Type: wire.TypeXMLSyntax, Ctx: map[string]any{"line": 3}}}}
	s, _ := newTestServer(t, func(c *Config) { c.Ops = &ops.Service{Validator: errValidator{err: xmlErr}} })
	e := fieldErrors(t, do(t, s, "POST", "/v1/validate/cii", []byte("<a>"), withHeader("Content-Type", "application/xml")))
	if e[0]["type"] != "xml_syntax" || e[0]["ctx"].(map[string]any)["line"] != float64(3) {
		t.Errorf("%v", e)
	}
	s, _ = newTestServer(t, func(c *Config) { c.Ops = &ops.Service{Validator: errValidator{err: context.DeadlineExceeded}} })
	if w := do(t, s, "POST", "/v1/validate/cii", []byte("<a/>"), withHeader("Content-Type", "application/xml")); w.Code != 503 {
		t.Errorf("engine deadline: %d", w.Code)
	}
}

// TestValidateOnlyOKRoutes: validate/orderx and validate/facturapa declare
// only 200, so a document that cannot be read (malformed, empty) is an
// invalid, incomplete report naming the problem and its line, never a 422.
func TestValidateOnlyOKRoutes(t *testing.T) {
	xmlErr := &ops.RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Msg: "unexpected EOF", Type: wire.TypeXMLSyntax, Ctx: map[string]any{"line": 3}}}}
	s, _ := newTestServer(t, func(c *Config) { c.Ops = &ops.Service{Validator: errValidator{err: xmlErr}} })
	for _, route := range []string{"/v1/validate/orderx", "/v1/validate/facturapa"} {
		for _, body := range [][]byte{[]byte("<a>"), nil} {
			w := do(t, s, "POST", route, body, withHeader("Content-Type", "application/xml"))
			if w.Code != http.StatusOK {
				t.Fatalf("%s %q: status %d, want 200: %s", route, body, w.Code, w.Body.String())
			}
			var rep wire.Report
			mustJSON(t, w.Body.Bytes(), &rep)
			if rep.Valid || rep.Complete || rep.Counts.Fatal != 1 || len(rep.Findings) != 1 {
				t.Fatalf("%s: want an invalid, incomplete report with one fatal finding: %s", route, w.Body.String())
			}
			f := rep.Findings[0]
			if f.RuleID != "XML" || f.Line != 3 || !strings.Contains(f.Message, "unexpected EOF") || !strings.Contains(f.Message, "xml_syntax") {
				t.Errorf("%s: finding %+v", route, f)
			}
		}
	}
	// validate/ubl keeps its 422.
	fieldErrors(t, do(t, s, "POST", "/v1/validate/ubl", []byte("<a>"), withHeader("Content-Type", "application/xml")))
}
