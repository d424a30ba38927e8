package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// TestErrorBodiesCarryRequestID: every error body, 4xx and 5xx, names the
// request id that the X-Request-Id header carries, whether the client sent
// one or the server made it.
func TestErrorBodiesCarryRequestID(t *testing.T) {
	s, _ := newTestServer(t, nil)
	cases := []struct {
		name   string
		method string
		target string
		body   []byte
		opts   []reqOpt
		status int
	}{
		{"401 missing key", "POST", "/v1/generate/ubl", []byte(`{}`), []reqOpt{withHeader("Content-Type", "application/json")}, 401},
		{"401 unknown key", "POST", "/v1/generate/ubl", []byte(`{}`), []reqOpt{withHeader("Content-Type", "application/json"), withHeader("x-api-key", "ek_live_nope")}, 401},
		{"404", "GET", "/v1/nothing-here", nil, nil, 404},
		{"405", "GET", "/v1/validate/ubl", nil, nil, 405},
		{"415", "POST", "/v1/validate/ubl", []byte("x"), []reqOpt{withHeader("Content-Type", "image/png")}, 415},
		{"422 bad parameter", "POST", "/v1/validate/ubl?profile=nope", []byte("<a/>"), []reqOpt{withHeader("Content-Type", "application/xml")}, 422},
		{"422 client id kept", "POST", "/v1/validate/ubl?profile=nope", []byte("<a/>"), []reqOpt{withHeader("Content-Type", "application/xml"), withHeader("X-Request-Id", "client-req-42")}, 422},
	}
	for _, c := range cases {
		w := do(t, s, c.method, c.target, c.body, c.opts...)
		if w.Code != c.status {
			t.Errorf("%s: status %d, want %d: %s", c.name, w.Code, c.status, w.Body.String())
			continue
		}
		var b struct {
			RequestID string `json:"request_id"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
			t.Errorf("%s: body %q: %v", c.name, w.Body.String(), err)
			continue
		}
		hdr := w.Header().Get("X-Request-Id")
		if b.RequestID == "" || b.RequestID != hdr {
			t.Errorf("%s: body request_id %q, header %q", c.name, b.RequestID, hdr)
		}
		if strings.Contains(c.name, "client id") && b.RequestID != "client-req-42" {
			t.Errorf("%s: request_id %q, want the client's", c.name, b.RequestID)
		}
	}
}

// TestSecurityHeaders: every response, and the HTML of /docs in particular,
// forbids sniffing, framing, scripts and any fetch.
func TestSecurityHeaders(t *testing.T) {
	s, _ := newTestServer(t, nil)
	for _, target := range []string{"/docs", "/health", "/openapi.json", "/v1/nothing-here"} {
		w := do(t, s, http.MethodGet, target, nil)
		h := w.Header()
		if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", target, got)
		}
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: Content-Security-Policy %q lacks %q", target, csp, want)
			}
		}
		if strings.Contains(csp, "script-src") {
			t.Errorf("%s: the policy allows scripts: %q", target, csp)
		}
		if h.Get("X-Frame-Options") != "DENY" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: framing/referrer headers missing: %v", target, h)
		}
	}
	// The docs page must not need anything the policy forbids.
	w := do(t, s, http.MethodGet, "/docs", nil)
	body := strings.ToLower(w.Body.String())
	for _, bad := range []string{"<script", "<link", "src=\"http", "@import", "url(http"} {
		if strings.Contains(body, bad) {
			t.Errorf("/docs contains %q, which the security policy blocks", bad)
		}
	}
}

// TestSecretsNeverLogged: neither API keys (valid, unknown, revoked) nor the
// gateway secret appear in the log, whatever the outcome of the request and
// at the most verbose level.
func TestSecretsNeverLogged(t *testing.T) {
	var logs strings.Builder
	const secret = "gw-secret-0123456789-abcdef"
	s, _ := newTestServer(t, func(c *Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c.GatewaySecret = secret
	})
	json := withHeader("Content-Type", "application/json")
	for _, key := range []string{goodKey, revokedKey, "ek_live_unknownunknownunknownunknown0"} {
		for _, gw := range []string{secret, "wrong-secret-value-987654"} {
			do(t, s, "POST", "/v1/generate/ubl", []byte(`{"invoice":{}}`), json, withHeader("x-api-key", key), withHeader("x-gateway-proxy-secret", gw))
			do(t, s, "GET", "/v1/usage", nil, withHeader("x-api-key", key), withHeader("x-gateway-proxy-secret", gw))
		}
	}
	out := logs.String()
	if !strings.Contains(out, `"request_id"`) {
		t.Fatalf("nothing was logged; the test would prove nothing: %q", out)
	}
	for _, s := range []string{goodKey, revokedKey, "ek_live_unknownunknownunknownunknown0", secret, "wrong-secret-value-987654"} {
		if strings.Contains(out, s) {
			t.Errorf("the log contains the secret %q", s)
		}
	}
}
