package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkHealth measures the full middleware chain (request id, logging,
// metrics, recover, timeout) on GET /health.
func BenchmarkHealth(b *testing.B) {
	s, _ := newTestServer(b, nil)
	r := httptest.NewRequest("GET", "/health", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkProtected501 measures auth, metering, parameter parsing, body
// reading and the 501 answer of a protected route.
func BenchmarkProtected501(b *testing.B) {
	s, _ := newTestServer(b, nil)
	body := []byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`)
	b.ReportAllocs()
	for b.Loop() {
		r := newChunkedRequest("/v1/repair/ubl?profile=xrechnung", body)
		r.Header.Set("x-api-key", goodKey)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusNotImplemented {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkDecodeJSON measures the checked JSON decoder on a small body.
func BenchmarkDecodeJSON(b *testing.B) {
	data := []byte(`{"invoice":{"number":"1","lines":[{"id":"a","vat_rate":"19"},{"id":"b","vat_rate":7,"category":"ZERO"}]}}`)
	b.ReportAllocs()
	for b.Loop() {
		var dst testRequest
		if errs := decodeJSON(data, &dst); errs != nil {
			b.Fatal(errs)
		}
	}
}
