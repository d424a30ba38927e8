package httpapi

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func TestOpenAPIGolden(t *testing.T) {
	s, _ := newTestServer(t, nil)
	w := do(t, s, "GET", "/openapi.json", nil)
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %q", w.Code, w.Header().Get("Content-Type"))
	}
	got := w.Body.Bytes()
	golden := filepath.Join("testdata", "openapi.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./httpapi -run OpenAPIGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("/openapi.json differs from %s; if the change is intended run: go test ./httpapi -run OpenAPIGolden -update", golden)
	}
	// The document describes the interface, not the deployment.
	s2, _ := newTestServer(t, func(c *Config) { c.GatewaySecret = "x"; c.Ops = &ops.Service{Validator: stubValidator{}} })
	if !bytes.Equal(openAPIOf(t, s2), got) {
		t.Error("OpenAPI document depends on configuration")
	}
}

func TestOpenAPIContent(t *testing.T) {
	s, _ := newTestServer(t, nil)
	if err := s.PrepareReference(); err != nil { // as serve does once the rule sets are compiled
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Paths      map[string]map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas         map[string]map[string]any `json:"schemas"`
			SecuritySchemes map[string]map[string]any `json:"securitySchemes"`
		} `json:"components"`
	}
	mustJSON(t, openAPIOf(t, s), &doc)
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "0.1.0" {
		t.Fatalf("openapi %q version %q", doc.OpenAPI, doc.Info.Version)
	}
	for _, name := range []string{"Report", "Finding", "HTTPValidationError", "ValidationError", "ErrorDetail", "Health", "Usage"} {
		if doc.Components.Schemas[name] == nil {
			t.Errorf("schema %s missing", name)
		}
	}
	if doc.Components.SecuritySchemes["APIKeyHeader"]["name"] != "x-api-key" ||
		doc.Components.SecuritySchemes["GatewaySecret"]["name"] != "x-gateway-proxy-secret" {
		t.Errorf("security schemes %v", doc.Components.SecuritySchemes)
	}
	// Every route is in the document with its operation id, and protection
	// and 422 declarations follow the table.
	for _, rt := range s.Routes() {
		op := doc.Paths[rt.Path][strings.ToLower(rt.Method)]
		if op == nil {
			t.Errorf("%s %s missing", rt.Method, rt.Path)
			continue
		}
		if op["operationId"] != rt.OperationID {
			t.Errorf("%s: operationId %v", rt.Path, op["operationId"])
		}
		_, hasSec := op["security"]
		if hasSec != rt.Protected {
			t.Errorf("%s: security %v, protected %v", rt.OperationID, hasSec, rt.Protected)
		}
		resp := op["responses"].(map[string]any)
		_, has422 := resp["422"]
		if has422 == rt.No422 && (rt.RequestTypes != nil || rt.params != nil && len(rt.params.fields) > 0) {
			t.Errorf("%s: 422 declared=%v No422=%v", rt.OperationID, has422, rt.No422)
		}
	}
	for _, rt := range []string{"/health", "/v1/validate/facturapa", "/v1/validate/orderx"} {
		m := "post"
		if rt == "/health" {
			m = "get"
		}
		if _, ok := doc.Paths[rt][m]["responses"].(map[string]any)["422"]; ok {
			t.Errorf("%s must declare only 200 per the interface", rt)
		}
	}
	// Parameters carry enums and defaults.
	params := doc.Paths["/v1/pdfa/validate"]["post"]["parameters"].([]any)
	p := params[0].(map[string]any)
	sch := p["schema"].(map[string]any)
	if p["name"] != "flavour" || sch["default"] != "auto" || len(sch["enum"].([]any)) != 12 {
		t.Errorf("flavour param %v", p)
	}
	gp := doc.Paths["/v1/generate/ubl"]["post"]["parameters"].([]any)[1].(map[string]any)
	if gp["name"] != "validate" || gp["schema"].(map[string]any)["default"] != true {
		t.Errorf("validate param %v", gp)
	}
	// Request media types.
	rb := doc.Paths["/v1/generate/facturx/embed"]["post"]["requestBody"].(map[string]any)["content"].(map[string]any)
	if _, ok := rb["multipart/form-data"]; !ok {
		t.Errorf("embed body %v", rb)
	}
	rb = doc.Paths["/v1/validate/ubl"]["post"]["requestBody"].(map[string]any)["content"].(map[string]any)
	if _, ok := rb["application/xml"]; !ok {
		t.Errorf("validate body %v", rb)
	}
	// Finding.declared_flag is optional, rule_id required.
	req := doc.Components.Schemas["Finding"]["required"].([]any)
	reqs := map[any]bool{}
	for _, r := range req {
		reqs[r] = true
	}
	if !reqs["rule_id"] || reqs["declared_flag"] || reqs["line"] {
		t.Errorf("Finding required = %v", req)
	}
}

func TestDocsHTML(t *testing.T) {
	s, _ := newTestServer(t, nil)
	w := do(t, s, "GET", "/docs", nil)
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("%d %q", w.Code, w.Header().Get("Content-Type"))
	}
	body := w.Body.String()
	if strings.Contains(body, "<script") {
		t.Error("/docs must not need JavaScript")
	}
	for _, rt := range s.Routes() {
		if !strings.Contains(body, `id="`+rt.OperationID+`"`) {
			t.Errorf("/docs lacks %s", rt.OperationID)
		}
	}
	for _, want := range []string{"x-api-key", "HTTPValidationError", "<code>compact</code>"} {
		if !strings.Contains(body, want) {
			t.Errorf("/docs lacks %q", want)
		}
	}
}

func TestHealth(t *testing.T) {
	s, st := newTestServer(t, func(c *Config) { c.Ops = &ops.Service{Validator: stubValidator{}} })
	var h wire.Health
	w := do(t, s, "GET", "/health", nil)
	mustJSON(t, w.Body.Bytes(), &h)
	if w.Code != 200 || h.Status != "ok" || h.Version != "test-1" || h.Components.Store.Status != "ok" ||
		h.Components.VeraPDF.Status != "not_configured" || len(h.Rulesets) != 1 {
		t.Fatalf("%d %+v", w.Code, h)
	}
	st.setDown(true)
	w = do(t, s, "GET", "/health", nil)
	mustJSON(t, w.Body.Bytes(), &h)
	if w.Code != 200 || h.Status != "degraded" || h.Components.Store.Status != "unavailable" {
		t.Fatalf("store down: %d %+v", w.Code, h)
	}
}

func TestMetrics(t *testing.T) {
	s, _ := newTestServer(t, nil)
	do(t, s, "GET", "/health", nil)
	do(t, s, "GET", "/v1/usage", nil)
	w := do(t, s, "GET", "/metrics", nil)
	body := w.Body.String()
	for _, want := range []string{
		`einvoice_http_requests_total{operation="health",status="200"} 1`,
		`einvoice_http_requests_total{operation="usage",status="401"} 1`,
		`einvoice_http_request_duration_seconds_bucket{operation="health"`,
		"einvoice_http_requests_in_flight 1", // the /metrics request itself
		"einvoice_http_connections_open 0",   // no ConnState hook in this test
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestMetricsConnections: with Server.ConnState as the hook, connections
// are counted while open.
func TestMetricsConnections(t *testing.T) {
	s, _ := newTestServer(t, nil)
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ConnState = s.ConnState
	ts.Start()
	defer ts.Close()
	get := func() string {
		resp, err := ts.Client().Get(ts.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if body := get(); !strings.Contains(body, "einvoice_http_connections_open 1") {
		t.Errorf("one open connection not counted")
	}
	ts.Client().Transport.(*http.Transport).CloseIdleConnections()
	for i := 0; i < 100; i++ { // the server sees the close asynchronously
		time.Sleep(10 * time.Millisecond)
		if body := get(); strings.Contains(body, "einvoice_http_connections_open 1") {
			return // the closed one is gone; this request's is the one counted
		}
	}
	t.Errorf("closed connection still counted")
}

// stubValidator is a canned ops.Validator.
type stubValidator struct{ rep *wire.Report }

func (v stubValidator) Validate(_ context.Context, req ops.ValidateRequest) (*wire.Report, error) {
	if v.rep != nil {
		r := *v.rep
		return &r, nil
	}
	return &wire.Report{Profile: req.Profile, Syntax: req.Syntax, Complete: true,
		Findings: []wire.Finding{{RuleID: "BR-01", Flag: "warning", Message: "m", Location: "/x", Test: "t", Source: "en16931"}}}, nil
}

func (stubValidator) Rulesets() []wire.RulesetRef {
	return []wire.RulesetRef{{Name: "en16931-ubl", Version: "1.3.16"}}
}

// openAPIOf is s.OpenAPI, failing the test on an error.
func openAPIOf(t *testing.T, s *Server) []byte {
	t.Helper()
	b, err := s.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
