package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

const (
	goodKey    = "ek_live_goodgoodgoodgoodgoodgoodgood00"
	revokedKey = "ek_live_revokedrevokedrevokedrevoke0"
)

func newTestServer(t testing.TB, mutate func(*Config)) (*Server, *fakeStore) {
	t.Helper()
	st := newFakeStore()
	st.add(goodKey, "key1", "test key", false)
	st.add(revokedKey, "key2", "old key", true)
	cfg := Config{Version: "test-1", Store: st}
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s, st
}

type reqOpt func(*http.Request)

func withHeader(k, v string) reqOpt { return func(r *http.Request) { r.Header.Set(k, v) } }

func do(t testing.TB, h http.Handler, method, target string, body []byte, opts ...reqOpt) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	r := httptest.NewRequest(method, target, rd)
	for _, o := range opts {
		o(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// detailString decodes a {"detail": "..."} body.
func detailString(t testing.TB, w *httptest.ResponseRecorder) string {
	t.Helper()
	var b struct {
		Detail string `json:"detail"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("body %q is not {detail: string}: %v", w.Body.String(), err)
	}
	if b.Detail == "" {
		t.Fatalf("empty detail in %q", w.Body.String())
	}
	return b.Detail
}

// fieldErrors decodes a 422 body strictly into the Pydantic shape.
func fieldErrors(t testing.TB, w *httptest.ResponseRecorder) []map[string]any {
	t.Helper()
	if w.Code != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422; body %s", w.Code, w.Body.String())
	}
	var b struct {
		Detail    []map[string]any `json:"detail"`
		RequestID string           `json:"request_id"`
	}
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	// An entry's "input" echoes what the caller sent, numbers as written:
	// a 300-digit number is valid JSON but overflows float64 (FuzzGenerateHTTP
	// crasher 9582ce18d99e55b7: a test-side decoding failure, not a server
	// one). Numbers are read as written, then as float64 where they fit.
	dec.UseNumber()
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("422 body %q: %v", w.Body.String(), err)
	}
	for i := range b.Detail {
		b.Detail[i] = floatsWhereTheyFit(b.Detail[i]).(map[string]any)
	}
	if len(b.Detail) == 0 {
		t.Fatalf("422 without entries: %s", w.Body.String())
	}
	if b.RequestID == "" || b.RequestID != w.Header().Get("X-Request-Id") {
		t.Errorf("422 body request_id %q, X-Request-Id %q", b.RequestID, w.Header().Get("X-Request-Id"))
	}
	for _, e := range b.Detail {
		for k := range e {
			switch k {
			case "loc", "msg", "type", "input", "ctx":
			default:
				t.Errorf("422 entry has key %q not in the Pydantic shape: %v", k, e)
			}
		}
		if _, ok := e["loc"].([]any); !ok {
			t.Errorf("entry without loc array: %v", e)
		}
		if _, ok := e["msg"].(string); !ok {
			t.Errorf("entry without msg: %v", e)
		}
		if _, ok := e["type"].(string); !ok {
			t.Errorf("entry without type: %v", e)
		}
	}
	return b.Detail
}

// sampleBody returns a well-formed body for a route's first media type.
func sampleBody(rt Route) ([]byte, string) {
	if rt.RequestTypes == nil {
		return nil, ""
	}
	switch rt.RequestTypes[0] {
	case mediaJSON:
		switch rt.OperationID {
		case "generate_facturapa":
			return []byte(`{"invoice":{},"extras":{}}`), mediaJSON
		case "generate_orderx":
			return []byte(`{"id":"O1","issue_date":"2026-01-01","currency":"EUR","buyer":{},"seller":{},"lines":[]}`), mediaJSON
		case "generate_facturae", "generate_ksef":
			return []byte(`{}`), mediaJSON
		}
		return []byte(`{"invoice":{}}`), mediaJSON
	case mediaMultipart:
		var buf bytes.Buffer
		buf.WriteString("--XX\r\nContent-Disposition: form-data; name=\"pdf\"; filename=\"a.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n")
		if rt.OperationID == "generate_facturx_embed" {
			buf.WriteString("--XX\r\nContent-Disposition: form-data; name=\"invoice\"\r\n\r\n{}\r\n")
		}
		buf.WriteString("--XX--\r\n")
		return buf.Bytes(), "multipart/form-data; boundary=XX"
	case mediaPDF:
		return []byte("%PDF-1.7\n%%EOF\n"), mediaPDF
	}
	return []byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`), mediaXML
}

func mustJSON(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
}

func newChunkedRequest(target string, body []byte) *http.Request {
	r := httptest.NewRequest("POST", target, io.NopCloser(bytes.NewReader(body)))
	r.ContentLength = -1
	r.Header.Set("Content-Type", "application/xml")
	return r
}

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// floatsWhereTheyFit turns the json.Number values of a decoded JSON value
// into float64 (as a plain decode gives them), except those that float64
// cannot hold, which stay json.Number.
func floatsWhereTheyFit(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
	case map[string]any:
		for k, e := range x {
			x[k] = floatsWhereTheyFit(e)
		}
	case []any:
		for i, e := range x {
			x[i] = floatsWhereTheyFit(e)
		}
	}
	return v
}
