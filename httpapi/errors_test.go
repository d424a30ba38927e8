package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// testDecimal stands in for the model's decimal type: a json.Unmarshaler that
// accepts strings and numbers.
type testDecimal string

func (d *testDecimal) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	for _, c := range s {
		if (c < '0' || c > '9') && c != '.' && c != '-' {
			return fmt.Errorf("%q is not a decimal", s)
		}
	}
	if s == "" {
		return errors.New("empty decimal")
	}
	*d = testDecimal(s)
	return nil
}

type testLine struct {
	ID       string      `json:"id" required:"true"`
	VatRate  testDecimal `json:"vat_rate"`
	Category string      `json:"category,omitempty" enum:"STANDARD,ZERO,EXEMPT"`
	Quantity int         `json:"quantity,omitempty"`
}

type testInvoice struct {
	Number string     `json:"number"`
	Paid   bool       `json:"paid,omitempty"`
	Lines  []testLine `json:"lines"`
}

type testRequest struct {
	Invoice testInvoice `json:"invoice"`
}

func TestDecodeJSONLocations(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []wire.ValidationError
	}{
		{"nested type error", `{"invoice":{"number":"1","lines":[{"id":"a","vat_rate":"19"},{"id":"b","vat_rate":"x1"}]}}`,
			[]wire.ValidationError{{Loc: []any{"body", "invoice", "lines", float64(1), "vat_rate"}, Type: "value_error"}}},
		{"missing fields", `{"invoice":{"lines":[{"vat_rate":7}]}}`,
			[]wire.ValidationError{
				{Loc: []any{"body", "invoice", "number"}, Type: "missing"},
				{Loc: []any{"body", "invoice", "lines", float64(0), "id"}, Type: "missing"},
			}},
		{"wrong types", `{"invoice":{"number":5,"paid":"yes","lines":{}}}`,
			[]wire.ValidationError{
				{Loc: []any{"body", "invoice", "number"}, Type: "string_type"},
				{Loc: []any{"body", "invoice", "paid"}, Type: "bool_type"},
				{Loc: []any{"body", "invoice", "lines"}, Type: "list_type"},
			}},
		{"enum and int", `{"invoice":{"number":"1","lines":[{"id":"a","vat_rate":1,"category":"HIGH","quantity":1.5}]}}`,
			[]wire.ValidationError{
				{Loc: []any{"body", "invoice", "lines", float64(0), "category"}, Type: "enum"},
				{Loc: []any{"body", "invoice", "lines", float64(0), "quantity"}, Type: "int_parsing"},
			}},
		{"not an object", `[1,2]`, []wire.ValidationError{{Loc: []any{"body"}, Type: "model_attributes_type"}}},
		{"syntax", `{"invoice": {"number": }`, []wire.ValidationError{{Loc: []any{"body", float64(23)}, Type: "json_invalid"}}},
		{"truncated", `{"invoice": {`, []wire.ValidationError{{Loc: []any{"body", float64(13)}, Type: "json_invalid"}}},
		{"trailing", `{"invoice":{"number":"1","lines":[]}} {}`, []wire.ValidationError{{Loc: []any{"body", float64(38)}, Type: "json_invalid"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dst testRequest
			errs := decodeJSON([]byte(tc.body), &dst)
			// Round-trip through JSON so loc integers compare as the client sees them.
			var got []wire.ValidationError
			b, _ := json.Marshal(errs)
			mustJSON(t, b, &got)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d errors %+v, want %d", len(got), got, len(tc.want))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i].Loc, tc.want[i].Loc) || got[i].Type != tc.want[i].Type {
					t.Errorf("error %d = %v %s (%s), want %v %s", i, got[i].Loc, got[i].Type, got[i].Msg, tc.want[i].Loc, tc.want[i].Type)
				}
				if got[i].Msg == "" {
					t.Errorf("error %d has no msg", i)
				}
			}
		})
	}
	var dst testRequest
	if errs := decodeJSON([]byte(`{"invoice":{"number":"7","extra":true,"lines":[{"id":"a","vat_rate":"0.10"}]}}`), &dst); errs != nil {
		t.Fatalf("valid body rejected: %+v", errs)
	}
	if dst.Invoice.Number != "7" || dst.Invoice.Lines[0].VatRate != "0.10" {
		t.Fatalf("decoded %+v", dst)
	}
}

func TestJSONNumbersStayExact(t *testing.T) {
	var req wire.GenerateRequest
	if errs := decodeJSON([]byte(`{"invoice":{"amount":12345678901234567890.123456789}}`), &req); errs != nil {
		t.Fatal(errs)
	}
	if n, ok := req.Invoice["amount"].(json.Number); !ok || n.String() != "12345678901234567890.123456789" {
		t.Fatalf("amount = %#v, want the exact json.Number", req.Invoice["amount"])
	}
}

func TestHTTP422Shapes(t *testing.T) {
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	jsonCT := withHeader("Content-Type", "application/json")

	// Bad JSON on a generate route: json_invalid at the byte offset.
	e := fieldErrors(t, do(t, s, "POST", "/v1/generate/ubl", []byte(`{"invoice": [`), key, jsonCT))
	if e[0]["type"] != "json_invalid" || !reflect.DeepEqual(e[0]["loc"], []any{"body", float64(13)}) {
		t.Errorf("bad JSON: %v", e)
	}
	// Missing field.
	e = fieldErrors(t, do(t, s, "POST", "/v1/generate/facturapa", []byte(`{"invoice":{}}`), key, jsonCT))
	if e[0]["type"] != "missing" || !reflect.DeepEqual(e[0]["loc"], []any{"body", "extras"}) || e[0]["msg"] != "Field required" {
		t.Errorf("missing: %v", e)
	}
	// Wrong type inside the body.
	e = fieldErrors(t, do(t, s, "POST", "/v1/generate/orderx",
		[]byte(`{"id":"1","issue_date":"2026-01-01","currency":"EUR","buyer":{"name":"b"},"seller":{"name":"s"},"lines":[3]}`), key, jsonCT))
	if !reflect.DeepEqual(e[0]["loc"], []any{"body", "lines", float64(0)}) || e[0]["type"] != "model_attributes_type" {
		t.Errorf("nested: %v", e)
	}
	// Enum query value: type enum, ctx.expected lists the allowed values.
	e = fieldErrors(t, do(t, s, "POST", "/v1/validate/ubl?profile=nope", []byte("<a/>")))
	if e[0]["type"] != "enum" || !reflect.DeepEqual(e[0]["loc"], []any{"query", "profile"}) || e[0]["input"] != "nope" {
		t.Errorf("enum: %v", e)
	}
	ctx, _ := e[0]["ctx"].(map[string]any)
	if !reflect.DeepEqual(ctx["expected"], []any{"peppol", "xrechnung", "ro_cius", "br_fr", "en16931"}) {
		t.Errorf("enum ctx: %v", ctx)
	}
	// Bad boolean and an unknown parameter, reported together with the body problem.
	e = fieldErrors(t, do(t, s, "POST", "/v1/generate/cii?validate=perhaps&profil=x", []byte(`{}`), key, jsonCT))
	types := []string{}
	for _, x := range e {
		types = append(types, fmt.Sprint(x["type"], x["loc"]))
	}
	want := []string{"bool_parsing[query validate]", "extra_forbidden[query profil]", "missing[body invoice]"}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("combined: %v, want %v", types, want)
	}
	// Empty body.
	e = fieldErrors(t, do(t, s, "POST", "/v1/validate/cii", nil, withHeader("Content-Type", "application/xml")))
	if e[0]["type"] != "missing" || !reflect.DeepEqual(e[0]["loc"], []any{"body"}) {
		t.Errorf("empty body: %v", e)
	}
	// Multipart with a missing part and an extra part.
	mp := "--B\r\nContent-Disposition: form-data; name=\"invoice\"\r\n\r\n{}\r\n--B\r\nContent-Disposition: form-data; name=\"logo\"\r\n\r\nx\r\n--B--\r\n"
	e = fieldErrors(t, do(t, s, "POST", "/v1/generate/facturx/embed", []byte(mp), key, withHeader("Content-Type", "multipart/form-data; boundary=B")))
	if len(e) != 2 || !reflect.DeepEqual(e[0]["loc"], []any{"body", "logo"}) || !reflect.DeepEqual(e[1]["loc"], []any{"body", "pdf"}) {
		t.Errorf("multipart: %v", e)
	}
}

func TestMediaTypeAndSize(t *testing.T) {
	s, _ := newTestServer(t, func(c *Config) { c.MaxBody = 64 })
	for _, ct := range []string{"application/json", "application/x-www-form-urlencoded", "text/plain", "bad;;type"} {
		w := do(t, s, "POST", "/v1/validate/ubl", []byte("<a/>"), withHeader("Content-Type", ct))
		if w.Code != http.StatusUnsupportedMediaType {
			t.Errorf("%s: %d, want 415", ct, w.Code)
		}
		detailString(t, w)
	}
	for _, ct := range []string{"application/xml", "text/xml; charset=utf-8", "application/vnd.x+xml"} {
		if w := do(t, s, "POST", "/v1/validate/ubl", []byte("<a/>"), withHeader("Content-Type", ct)); w.Code != http.StatusNotImplemented {
			t.Errorf("%s: %d, want 501 (accepted)", ct, w.Code)
		}
	}
	big := bytes.Repeat([]byte("x"), 65)
	w := do(t, s, "POST", "/v1/validate/ubl", big, withHeader("Content-Type", "application/xml"))
	if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(detailString(t, w), "64 bytes") {
		t.Fatalf("too large: %d %s", w.Code, w.Body.String())
	}
	// Without Content-Length (chunked), the limit still holds.
	r := newChunkedRequest("/v1/validate/ubl", big)
	rec := serve(s, r)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked too large: %d", rec.Code)
	}
}

func TestRateLimit429(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s, _ := newTestServer(t, func(c *Config) { c.RateLimit = 0.5; c.RateBurst = 2; c.Now = clock })
	key := withHeader("x-api-key", goodKey)
	for i := range 2 {
		if w := do(t, s, "GET", "/v1/usage", nil, key); w.Code != http.StatusOK {
			t.Fatalf("call %d: %d", i, w.Code)
		}
	}
	w := do(t, s, "GET", "/v1/usage", nil, key)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "2" {
		t.Fatalf("third call: %d Retry-After=%q", w.Code, w.Header().Get("Retry-After"))
	}
	detailString(t, w)
	// Another key has its own bucket; free routes are not limited.
	if w := do(t, s, "POST", "/v1/validate/ubl", []byte("<a/>"), withHeader("Content-Type", mediaXML)); w.Code == http.StatusTooManyRequests {
		t.Fatal("free route rate-limited")
	}
	mu.Lock()
	now = now.Add(2 * time.Second)
	mu.Unlock()
	if w := do(t, s, "GET", "/v1/usage", nil, key); w.Code != http.StatusOK {
		t.Fatalf("after refill: %d", w.Code)
	}
}

// addTestRoute registers an extra route on a built server (tests only).
func addTestRoute(s *Server, rt *Route) {
	spec, _ := newParamSpec(nil)
	rt.params, rt.Landed = spec, true
	s.byPath[rt.Path] = map[string]*Route{rt.Method: rt}
}

func TestTimeout503(t *testing.T) {
	s, _ := newTestServer(t, func(c *Config) { c.RequestTimeout = 50 * time.Millisecond })
	addTestRoute(s, &Route{Method: "GET", Path: "/slow", OperationID: "slow",
		handle: func(ctx context.Context, w http.ResponseWriter, _ *input) error {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(5 * time.Second):
			}
			_, _ = w.Write([]byte("late"))
			return nil
		}})
	w := do(t, s, "GET", "/slow", nil)
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d: %s", w.Code, w.Body.String())
	}
	if d := detailString(t, w); !strings.Contains(d, "time limit of 50ms") {
		t.Errorf("detail %q", d)
	}
}

func TestPanicIs500WithRequestID(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	s, _ := newTestServer(t, func(c *Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&lockedWriter{w: &logs, mu: &mu}, nil))
	})
	addTestRoute(s, &Route{Method: "GET", Path: "/boom", OperationID: "boom",
		handle: func(context.Context, http.ResponseWriter, *input) error { panic("secret internal /etc/path") }})
	w := do(t, s, "GET", "/boom", nil, withHeader("X-Request-Id", "req-42"))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", w.Code)
	}
	d := detailString(t, w)
	if d != "internal server error (request id req-42)" || w.Header().Get("X-Request-Id") != "req-42" {
		t.Errorf("body %q header %q", w.Body.String(), w.Header().Get("X-Request-Id"))
	}
	if strings.Contains(w.Body.String(), "goroutine") || strings.Contains(w.Body.String(), "/etc/path") {
		t.Errorf("body leaks internals: %s", w.Body.String())
	}
	mu.Lock()
	logged := logs.String()
	mu.Unlock()
	if !strings.Contains(logged, "secret internal") || !strings.Contains(logged, "req-42") || !strings.Contains(logged, "goroutine") {
		t.Errorf("panic not logged with id and stack: %s", logged)
	}
	// An insane request id is replaced.
	w = do(t, s, "GET", "/health", nil, withHeader("X-Request-Id", "bad id\nwith newline"))
	if id := w.Header().Get("X-Request-Id"); len(id) != 32 {
		t.Errorf("generated id %q", id)
	}
}

func TestInternalErrorHidesCause(t *testing.T) {
	s, _ := newTestServer(t, nil)
	addTestRoute(s, &Route{Method: "GET", Path: "/err", OperationID: "err",
		handle: func(context.Context, http.ResponseWriter, *input) error {
			return errors.New("open /var/lib/secret: permission denied")
		}})
	w := do(t, s, "GET", "/err", nil)
	if w.Code != 500 || strings.Contains(w.Body.String(), "/var/lib") {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
}

func TestErrorKindTable(t *testing.T) {
	want := map[Kind]int{KindInternal: 500, KindInvalid: 422, KindUnauthenticated: 401, KindForbidden: 403,
		KindNotFound: 404, KindMethodNotAllowed: 405, KindTooLarge: 413, KindUnsupportedMediaType: 415,
		KindRateLimited: 429, KindNotImplemented: 501, KindUnavailable: 503, KindTimeout: 503}
	for k, st := range want {
		if k.Status() != st {
			t.Errorf("kind %d -> %d, want %d", k, k.Status(), st)
		}
	}
	if k := classify(fmt.Errorf("x: %w", context.DeadlineExceeded), time.Second).Kind; k != KindTimeout {
		t.Errorf("deadline -> %d", k)
	}
	if k := classify(fmt.Errorf("x: %w", ErrUnavailable), time.Second).Kind; k != KindUnavailable {
		t.Errorf("unavailable -> %d", k)
	}
	if k := classify(&http.MaxBytesError{Limit: 1}, time.Second).Kind; k != KindTooLarge {
		t.Errorf("max bytes -> %d", k)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestClassifyInvalidXMLChar: a writer refusing a character XML cannot
// carry is the caller's input (422), never a 500.
func TestClassifyInvalidXMLChar(t *testing.T) {
	err := fmt.Errorf("ops.Generate(ubl): writing ubl: %w", fmt.Errorf("xmlio: control character 0x3 at byte 12: %w", xmlio.ErrInvalidChar))
	if e := classify(err, time.Second); e.Kind != KindInvalid || len(e.Fields) != 1 || e.Fields[0].Type != wire.TypeValueError {
		t.Fatalf("classify = %+v", e)
	}
}
