package ops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// editBody decodes body, lets edit change the JSON tree and re-encodes it.
func editBody(t *testing.T, body []byte, edit func(inv map[string]any)) []byte {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(body, &top); err != nil {
		t.Fatal(err)
	}
	edit(top["invoice"].(map[string]any))
	out, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func requestFields(t *testing.T, err error) []wire.ValidationError {
	t.Helper()
	var re *ops.RequestError
	if !errors.As(err, &re) || len(re.Fields) == 0 {
		t.Fatalf("want a *RequestError with entries, got %v", err)
	}
	return re.Fields
}

func TestGenerateSuccess(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	base := randomBody(t, 1, model.RandomOptions{Lines: 3, Incomplete: true})
	body := editBody(t, base, func(inv map[string]any) { inv["foo"] = 1 })
	body = append(body[:len(body)-1], []byte(`,"extra":true}`)...)
	for _, c := range []struct{ syntax, profile, root, spec, process string }{
		{"ubl", "en16931", "<Invoice", "urn:cen.eu:en16931:2017<", ""},
		{"ubl", "peppol", "<Invoice", "urn:fdc:peppol.eu:2017:poacc:billing:3.0<", "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"},
		{"cii", "en16931", "CrossIndustryInvoice", "urn:cen.eu:en16931:2017<", ""},
	} {
		res, err := s.Generate(ctx, ops.GenerateRequest{Syntax: c.syntax, Profile: c.profile, Validate: true, Body: body})
		if err != nil {
			t.Fatalf("%s/%s: %v", c.syntax, c.profile, err)
		}
		x := string(res.XML)
		if !strings.Contains(x, c.root) || !strings.Contains(x, c.spec) || !strings.Contains(x, c.process) {
			t.Errorf("%s/%s: root, BT-24 %q or BT-23 %q missing:\n%.600s", c.syntax, c.profile, c.spec, c.process, x)
		}
		if !slices.Equal(res.Ignored, []string{"/extra", "/invoice/foo"}) {
			t.Errorf("ignored %v", res.Ignored)
		}
		if !slices.Contains(res.Computed, "/invoice/totals") && !slices.ContainsFunc(res.Computed, func(p string) bool { return strings.HasPrefix(p, "/invoice/totals") }) {
			t.Errorf("computed %v lacks the totals", res.Computed)
		}
		if res.Report == nil || !res.Report.Valid || res.Report.Profile != c.profile {
			t.Errorf("%s/%s: report %+v", c.syntax, c.profile, res.Report)
		}
	}
}

func TestGenerateInputProblems(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	base := randomBody(t, 2, model.RandomOptions{Lines: 2})
	gen := func(body []byte) []wire.ValidationError {
		t.Helper()
		_, err := s.Generate(ctx, ops.GenerateRequest{Syntax: "ubl", Profile: "en16931", Validate: true, Body: body})
		return requestFields(t, err)
	}
	hasEntry := func(fs []wire.ValidationError, typ string, loc ...any) bool {
		return slices.ContainsFunc(fs, func(f wire.ValidationError) bool {
			return f.Type == typ && slices.Equal(f.Loc, loc)
		})
	}
	if fs := gen([]byte(`{"invoice": {`)); !hasEntry(fs, wire.TypeJSONInvalid, "body") {
		t.Errorf("bad JSON: %+v", fs)
	}
	if fs := gen([]byte(`{"invoice": {}, "invoice": {}}`)); !hasEntry(fs, model.ProblemDuplicateKey, "body", "invoice") {
		t.Errorf("duplicate invoice: %+v", fs)
	}
	for _, b := range []string{`[]`, `{"invoice": {}} {}`, `{"invoice": {}`, `"x"`} {
		if fs := gen([]byte(b)); !hasEntry(fs, wire.TypeJSONInvalid, "body") {
			t.Errorf("%s: %+v", b, fs)
		}
	}
	if fs := gen([]byte(`{"other": {}}`)); !hasEntry(fs, wire.TypeMissing, "body", "invoice") {
		t.Errorf("no invoice: %+v", fs)
	}
	fs := gen(editBody(t, base, func(inv map[string]any) {
		delete(inv, "id")
		inv["type_code"] = "999x"
		inv["lines"].([]any)[1].(map[string]any)["quantity"] = "many"
	}))
	if !hasEntry(fs, model.ProblemMissing, "body", "invoice", "id") || !hasEntry(fs, model.ProblemEnum, "body", "invoice", "type_code") ||
		!hasEntry(fs, model.ProblemDecimalParsing, "body", "invoice", "lines", 1, "quantity") {
		t.Errorf("every problem with its path expected: %+v", fs)
	}
	fs = gen(editBody(t, base, func(inv map[string]any) {
		inv["process_control"] = map[string]any{"specification_id": "urn:example:other"}
	}))
	if !hasEntry(fs, wire.TypeValueError, "body", "invoice", "process_control", "specification_id") {
		t.Errorf("conflicting BT-24: %+v", fs)
	}
	_, err := s.Generate(ctx, ops.GenerateRequest{Syntax: "ubl", Profile: "facturx_basic", Body: base})
	if fs := requestFields(t, err); fs[0].Type != wire.TypeEnum || !slices.Equal(fs[0].Loc, []any{"query", "profile"}) {
		t.Errorf("CII-only profile on UBL: %+v", fs)
	}
}

func TestGenerateRuleViolation(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	// BR-S-02: a standard-rated invoice needs a seller VAT identifier (BT-31),
	// tax registration (BT-32) or tax representative VAT id (BT-63).
	body := editBody(t, randomBody(t, 3, model.RandomOptions{Lines: 2, Categories: []model.VATCategoryCode{model.VATStandard}}), func(inv map[string]any) {
		seller := inv["seller"].(map[string]any)
		delete(seller, "vat_id")
		delete(seller, "tax_registration_id")
		delete(inv, "tax_representative")
	})
	_, err := s.Generate(ctx, ops.GenerateRequest{Syntax: "ubl", Profile: "en16931", Validate: true, Body: body})
	fs := requestFields(t, err)
	var found bool
	for _, f := range fs {
		if f.Type != wire.TypeRuleViolation || f.Ctx["flag"] != wire.FlagFatal || f.Ctx["location"] == "" {
			t.Errorf("entry %+v", f)
		}
		if f.Ctx["rule_id"] == "BR-S-02" {
			found = true
			if !slices.Equal(f.Loc, []any{"body", "invoice", "seller", "vat_id"}) || f.Msg == "" {
				t.Errorf("BR-S-02 loc/msg %+v", f)
			}
		}
	}
	if !found {
		t.Fatalf("BR-S-02 not reported: %+v", fs)
	}
	res, err := s.Generate(ctx, ops.GenerateRequest{Syntax: "ubl", Profile: "en16931", Validate: false, Body: body})
	if err != nil || res.Report.Valid || res.Report.Counts.Fatal == 0 || !bytes.Contains(res.XML, []byte("<Invoice")) {
		t.Fatalf("validate=false must return the document with its findings: %v %+v", err, res)
	}
}

func TestBodyLoc(t *testing.T) {
	for _, c := range []struct {
		f    wire.Finding
		want []any
	}{
		{wire.Finding{Terms: []string{"BT-131"}, Location: "/Invoice/cac:InvoiceLine[3]/cbc:LineExtensionAmount[1]"}, []any{"body", "invoice", "lines", 2, "net_amount"}},
		{wire.Finding{Terms: []string{"BT-131"}, Location: "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[1]"}, []any{"body", "invoice", "lines", 0, "net_amount"}},
		{wire.Finding{Terms: []string{"BT-131"}, Location: "/Invoice"}, []any{"body", "invoice", "lines"}},
		{wire.Finding{Terms: []string{"XX-1", "BT-9"}}, []any{"body", "invoice", "due_date"}},
		{wire.Finding{Terms: []string{"BT-31"}}, []any{"body", "invoice", "seller", "vat_id"}},
		{wire.Finding{Terms: []string{"BG-25", "BT-151", "BT-31"}, Location: "/Invoice[1]"}, []any{"body", "invoice", "seller", "vat_id"}},
		{wire.Finding{Terms: []string{"BT-22", "BG-3"}, Location: "/Invoice[1]"}, []any{"body", "invoice", "notes"}},
		{wire.Finding{Terms: []string{"BG-4"}}, []any{"body", "invoice", "seller"}},
		{wire.Finding{}, []any{"body", "invoice"}},
	} {
		if got := ops.BodyLoc(c.f); !slices.Equal(got, c.want) {
			t.Errorf("BodyLoc(%v, %s) = %v, want %v", c.f.Terms, c.f.Location, got, c.want)
		}
	}
}

func FuzzGenerate(f *testing.F) {
	f.Add([]byte(`{"invoice": {}}`), false)
	f.Add([]byte(`{"invoice": {"id": "1", "lines": [{"quantity": "x"}]}}`), true)
	f.Add([]byte(`[]`), false)
	f.Add([]byte(`{"invoice": null}`), true)
	f.Add([]byte(`{"invoice": {"process_control": {"specification_id": 5}}}`), false)
	inv, err := model.EncodeInvoice(model.RandomInvoice(rand.New(rand.NewPCG(9, 9)), model.RandomOptions{Lines: 2, Incomplete: true}))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(append(append([]byte(`{"invoice":`), inv...), '}'), true)
	// The whole generate path without a validator (validate=false returns
	// the document): decoding, completion, profile, both writers. Every
	// failure must be a caller-facing *RequestError (a 422), never another
	// error (a 500) or a panic.
	s := &ops.Service{}
	f.Fuzz(func(t *testing.T, body []byte, cii bool) {
		syntax := "ubl"
		if cii {
			syntax = "cii"
		}
		res, err := s.Generate(context.Background(), ops.GenerateRequest{Syntax: syntax, Profile: "en16931", Body: body})
		var re *ops.RequestError
		switch {
		case err == nil && (res == nil || len(res.XML) == 0):
			t.Fatal("no document without error")
		case err != nil && !errors.As(err, &re):
			t.Fatalf("unexpected error type %T: %v", err, err)
		case err != nil:
			for _, fe := range re.Fields {
				if len(fe.Loc) == 0 || fe.Loc[0] != "body" || fe.Type == "" || fe.Msg == "" {
					t.Fatalf("malformed entry %+v", fe)
				}
			}
		}
	})
}

// notLoaded answers like engineval for a profile whose rule set is absent.
type notLoaded struct{}

func (notLoaded) Validate(_ context.Context, req ops.ValidateRequest) (*wire.Report, error) {
	return nil, &ops.RequestError{Fields: []wire.ValidationError{{Loc: []any{"query", "profile"}, Type: wire.TypeNotLanded,
		Input: req.Profile, Msg: "profile not available in this build"}}}
}
func (notLoaded) Rulesets() []wire.RulesetRef { return nil }

func TestGenerateProfileNotLoaded(t *testing.T) {
	s := &ops.Service{Validator: notLoaded{}}
	body := randomBody(t, 4, model.RandomOptions{Lines: 1})
	for _, validate := range []bool{true, false} {
		_, err := s.Generate(context.Background(), ops.GenerateRequest{Syntax: "ubl", Profile: "br_fr", Validate: validate, Body: body})
		if fs := requestFields(t, err); fs[0].Type != wire.TypeNotLanded || fs[0].Input != "br_fr" {
			t.Errorf("validate=%v: %+v", validate, fs)
		}
	}
}
