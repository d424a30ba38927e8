package httpapi

import (
	"bytes"
	"encoding/json"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

func modelSharedDir() string {
	return testshared.Path()
}

// loadEngine loads the engine validator once per test binary (2-3 s).
var loadEngine = sync.OnceValues(func() (*engineval.Validator, error) { return engineval.New(modelSharedDir()) })

// newModelServer is a test server on the real engine validator.
func newModelServer(t *testing.T) (*Server, *fakeStore) {
	t.Helper()
	v, err := loadEngine()
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return newTestServer(t, func(c *Config) { c.Ops = &ops.Service{Validator: v} })
}

func invoiceBody(t *testing.T, seed uint64, edit func(inv map[string]any)) []byte {
	t.Helper()
	b, err := model.EncodeInvoice(model.RandomInvoice(rand.New(rand.NewPCG(seed, 3)), model.RandomOptions{Lines: 2, Categories: []model.VATCategoryCode{model.VATStandard}}))
	if err != nil {
		t.Fatal(err)
	}
	var inv map[string]any
	mustJSON(t, b, &inv)
	if edit != nil {
		edit(inv)
	}
	out, err := json.Marshal(map[string]any{"invoice": inv})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	jsonCT = withHeader("Content-Type", "application/json")
	xmlCT  = withHeader("Content-Type", "application/xml")
	keyHdr = withHeader("x-api-key", goodKey)
)

func hasField(fs []map[string]any, typ string, loc ...any) bool {
	want, _ := json.Marshal(loc)
	return slices.ContainsFunc(fs, func(f map[string]any) bool {
		got, _ := json.Marshal(f["loc"])
		return f["type"] == typ && bytes.Equal(got, want)
	})
}

func TestSchemaInvoiceRoute(t *testing.T) {
	s, _ := newTestServer(t, nil)
	w := do(t, s, "GET", "/v1/schema/invoice", nil)
	if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), model.InvoiceSchema()) || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("%d %s %.200s", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	var doc map[string]any
	mustJSON(t, openAPIOf(t, s), &doc)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	if _, ok := schemas["ModelInvoice"]; !ok {
		t.Fatal("OpenAPI lacks the model definitions")
	}
	inv := schemas["GenerateRequest"].(map[string]any)["properties"].(map[string]any)["invoice"].(map[string]any)
	if ref := inv["allOf"].([]any)[0].(map[string]any)["$ref"]; ref != "#/components/schemas/ModelInvoice" {
		t.Errorf("generate body invoice refers to %v", ref)
	}
}

func TestGenerateRoutes(t *testing.T) {
	s, st := newModelServer(t)
	body := invoiceBody(t, 11, func(inv map[string]any) {
		inv["foo"] = "x"
		inv["lines"].([]any)[1].(map[string]any)["bar"] = 1
		delete(inv, "totals")
	})
	if w := do(t, s, "POST", "/v1/generate/ubl", body, jsonCT); w.Code != http.StatusUnauthorized {
		t.Fatalf("no key: %d", w.Code)
	}
	w := do(t, s, "POST", "/v1/generate/ubl?profile=peppol", body, jsonCT, keyHdr)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	h := w.Header()
	if !strings.HasPrefix(h.Get("Content-Type"), "application/xml") || !strings.Contains(w.Body.String(), "poacc:billing:3.0</cbc:CustomizationID>") {
		t.Errorf("content %s %.300s", h.Get("Content-Type"), w.Body.String())
	}
	if got := h.Get(HeaderIgnoredProperties); got != "/invoice/foo,/invoice/lines/1/bar" {
		t.Errorf("%s = %q", HeaderIgnoredProperties, got)
	}
	if got := h.Get(HeaderComputedFields); !strings.Contains(got, "/invoice/totals") {
		t.Errorf("%s = %q", HeaderComputedFields, got)
	}
	if h.Get(HeaderValidationFindings) == "" || h.Get(HeaderProfile) != "peppol" {
		t.Errorf("findings %q profile %q", h.Get(HeaderValidationFindings), h.Get(HeaderProfile))
	}
	w = do(t, s, "POST", "/v1/generate/cii", body, jsonCT, keyHdr)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "CrossIndustryInvoice") {
		t.Fatalf("cii: %d %.300s", w.Code, w.Body.String())
	}
	if calls := st.usageCalls(); !slices.ContainsFunc(calls, func(c usageCall) bool { return c.op == "generate_cii" }) {
		t.Errorf("generate not metered: %+v", calls)
	}

	// 422 shapes.
	fs := fieldErrors(t, do(t, s, "POST", "/v1/generate/ubl", []byte(`{"invoice": {"id": `), jsonCT, keyHdr))
	if len(fs) != 1 || fs[0]["type"] != wire.TypeJSONInvalid || fs[0]["loc"].([]any)[0] != "body" {
		t.Errorf("bad JSON: %v", fs)
	}
	bad := invoiceBody(t, 12, func(inv map[string]any) {
		delete(inv, "issue_date")
		inv["currency_code"] = 5
		inv["lines"].([]any)[0].(map[string]any)["vat_category_code"] = "Q"
	})
	fs = fieldErrors(t, do(t, s, "POST", "/v1/generate/ubl", bad, jsonCT, keyHdr))
	if !hasField(fs, "missing", "body", "invoice", "issue_date") || !hasField(fs, "string_type", "body", "invoice", "currency_code") ||
		!hasField(fs, "enum", "body", "invoice", "lines", 0, "vat_category_code") {
		t.Errorf("missing/type/enum: %v", fs)
	}
	fs = fieldErrors(t, do(t, s, "POST", "/v1/generate/ubl?profile=nope", body, jsonCT, keyHdr))
	if !hasField(fs, "enum", "query", "profile") {
		t.Errorf("bad profile: %v", fs)
	}
	noVAT := invoiceBody(t, 13, func(inv map[string]any) {
		seller := inv["seller"].(map[string]any)
		delete(seller, "vat_id")
		delete(seller, "tax_registration_id")
	})
	fs = fieldErrors(t, do(t, s, "POST", "/v1/generate/ubl?profile=en16931", noVAT, jsonCT, keyHdr))
	if !hasField(fs, wire.TypeRuleViolation, "body", "invoice", "seller", "vat_id") {
		t.Errorf("rule_violation with loc: %v", fs)
	}
	for _, f := range fs {
		ctx, _ := f["ctx"].(map[string]any)
		if ctx["rule_id"] == nil || ctx["flag"] != "fatal" || ctx["location"] == nil {
			t.Errorf("rule_violation ctx %v", f)
		}
	}
	w = do(t, s, "POST", "/v1/generate/ubl?profile=en16931&validate=false", noVAT, jsonCT, keyHdr)
	if w.Code != 200 || w.Header().Get(HeaderValidationFindings) == "0" || w.Header().Get(HeaderValidationFindings) == "" {
		t.Errorf("validate=false: %d findings %q", w.Code, w.Header().Get(HeaderValidationFindings))
	}
}

func TestConvertRoutes(t *testing.T) {
	s, _ := newModelServer(t)
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(modelSharedDir(), filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	src := read("corpus/en16931/ubl/examples/ubl-tc434-example5.xml")
	if w := do(t, s, "POST", "/v1/convert/ubl-to-cii", src, xmlCT); w.Code != http.StatusUnauthorized {
		t.Fatalf("no key: %d", w.Code)
	}
	w := do(t, s, "POST", "/v1/convert/ubl-to-cii", src, xmlCT, keyHdr)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "CrossIndustryInvoice") {
		t.Fatalf("%d %.300s", w.Code, w.Body.String())
	}
	var changes []map[string]string
	mustJSON(t, []byte(w.Header().Get(HeaderConversionChanges)), &changes)
	if !slices.ContainsFunc(changes, func(c map[string]string) bool { return c["bt"] == "BT-32" && c["to"] == "FC" }) {
		t.Errorf("changes header %q", w.Header().Get(HeaderConversionChanges))
	}
	// XRechnung targets are validated for xrechnung by default (example 1
	// lacks the electronic addresses XRechnung requires) ...
	ex1 := read("corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	fs := fieldErrors(t, do(t, s, "POST", "/v1/convert/ubl-to-xrechnung", ex1, xmlCT, keyHdr))
	if !slices.ContainsFunc(fs, func(f map[string]any) bool {
		return f["type"] == wire.TypeRuleViolation && f["ctx"].(map[string]any)["rule_id"] == "PEPPOL-EN16931-R020"
	}) {
		t.Errorf("xrechnung gate: %v", fs)
	}
	// ... and for the profile the caller names.
	w = do(t, s, "POST", "/v1/convert/ubl-to-xrechnung?profile=en16931&syntax=cii", ex1, xmlCT, keyHdr)
	if w.Code != 200 || w.Header().Get(HeaderProfile) != "en16931" || !strings.Contains(w.Body.String(), "kosit:xrechnung_3.0</ram:ID>") {
		t.Errorf("xrechnung target: %d profile %q %.300s", w.Code, w.Header().Get(HeaderProfile), w.Body.String())
	}
	fs = fieldErrors(t, do(t, s, "POST", "/v1/convert/ubl-to-cii", read("corpus/xrechnung-testsuite/technical-cases/cius/01.01_comprehensive_test_ubl.xml"), xmlCT, keyHdr))
	if len(fs) != 1 || fs[0]["type"] != wire.TypeConversionLoss || !strings.HasPrefix(fs[0]["msg"].(string), "BG-3") {
		t.Errorf("conversion_loss: %v", fs)
	}
	if w := do(t, s, "POST", "/v1/convert/ubl-to-facturx", src, xmlCT, keyHdr); w.Code != http.StatusOK || !bytes.HasPrefix(w.Body.Bytes(), []byte("%PDF-")) {
		t.Errorf("facturx direction (handlers_facturx_test.go tests it fully): %d", w.Code)
	}
	fs = fieldErrors(t, do(t, s, "POST", "/v1/convert/ubl-to-edifact", src, xmlCT, keyHdr))
	if !hasField(fs, wire.TypeEnum, "path", "direction") || len(fs[0]["ctx"].(map[string]any)["expected"].([]any)) != 10 {
		t.Errorf("unknown direction must list the supported ones: %v", fs)
	}
}

func TestRepairRoutes(t *testing.T) {
	s, st := newModelServer(t)
	src, err := os.ReadFile(filepath.Join(modelSharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(src, []byte("<cbc:IssueDate>2015-01-09</cbc:IssueDate>"), []byte("<cbc:IssueDate>09.01.2015</cbc:IssueDate>"), 1)
	if w := do(t, s, "POST", "/v1/repair/ubl", broken, xmlCT); w.Code != http.StatusUnauthorized {
		t.Fatalf("no key: %d", w.Code)
	}
	w := do(t, s, "POST", "/v1/repair/ubl?profile=en16931", broken, xmlCT, keyHdr)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	var res wire.RepairResponse
	mustJSON(t, w.Body.Bytes(), &res)
	if len(res.Changes) != 1 || res.Changes[0].BT != "BT-2" || res.Changes[0].To != "2015-01-09" || !res.Report.Valid ||
		!strings.Contains(res.XML, "<cbc:IssueDate>2015-01-09</cbc:IssueDate>") {
		t.Errorf("repair response %+v", res.Changes)
	}
	if calls := st.usageCalls(); !slices.ContainsFunc(calls, func(c usageCall) bool { return c.op == "repair_ubl" && c.billable }) {
		t.Errorf("repair not metered as billable: %+v", calls)
	}
	fs := fieldErrors(t, do(t, s, "POST", "/v1/repair/cii", broken, xmlCT, keyHdr))
	if !hasField(fs, wire.TypeValueError, "body") {
		t.Errorf("UBL to repair/cii: %v", fs)
	}
}

func TestASCIIJSON(t *testing.T) {
	in, _ := json.Marshal([]string{"Größe", "€", "😀", "plain"})
	out := asciiJSON(in)
	for _, r := range out {
		if r > 0x7f {
			t.Fatalf("non-ASCII left in %q", out)
		}
	}
	var back []string
	mustJSON(t, []byte(out), &back)
	if !slices.Equal(back, []string{"Größe", "€", "😀", "plain"}) {
		t.Fatalf("round trip %q -> %v", out, back)
	}
}

func TestJoinCapped(t *testing.T) {
	if got := joinCapped([]string{"/invoice/a", "/invoice/b"}); got != "/invoice/a,/invoice/b" {
		t.Errorf("short list: %q", got)
	}
	many := make([]string, 2000)
	for i := range many {
		many[i] = "/invoice/unknown_member_" + strconv.Itoa(i)
	}
	got := joinCapped(many)
	if len(got) > maxListHeader+32 || !strings.HasPrefix(got, "/invoice/unknown_member_0,") || !strings.HasSuffix(got, " more)") {
		t.Errorf("capped list: %d bytes, ends %q", len(got), got[len(got)-40:])
	}
	kept := strings.Count(got, "/invoice/")
	if !strings.HasSuffix(got, ",...(+"+strconv.Itoa(2000-kept)+" more)") {
		t.Errorf("count of the rest wrong: kept %d, ends %q", kept, got[len(got)-30:])
	}
}

// FuzzGenerateHTTP posts arbitrary bodies to generate/ubl and generate/cii
// (validate=false, no validator: the whole path up to the writers): never a
// 5xx, and a 422 always has the Pydantic shape.
func FuzzGenerateHTTP(f *testing.F) {
	f.Add([]byte(`{"invoice": {}}`), false)
	f.Add([]byte(`{"invoice": {"id": "1", "lines": [{"quantity": "1e9999"}]}}`), true)
	f.Add([]byte(`{"invoice": []}`), false)
	f.Add([]byte(`{"invoice": {"process_control": {"specification_id": "x"}}, "invoice": {}}`), true)
	s, _ := newTestServer(f, nil)
	f.Fuzz(func(t *testing.T, body []byte, cii bool) {
		path := "/v1/generate/ubl?validate=false&profile=en16931"
		if cii {
			path = "/v1/generate/cii?validate=false"
		}
		w := do(t, s, "POST", path, body, jsonCT, keyHdr)
		switch {
		case w.Code >= 500:
			t.Fatalf("%d for %q: %s", w.Code, body, w.Body.String())
		case w.Code == http.StatusUnprocessableEntity:
			fieldErrors(t, w)
		case w.Code == http.StatusOK && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/xml"):
			t.Fatalf("200 without XML: %s", w.Header().Get("Content-Type"))
		}
	})
}
