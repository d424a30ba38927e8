package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// freeOps are the operations DECISIONS.md and the interface declare keyless.
var freeOps = map[string]bool{
	"validate_ubl": true, "validate_cii": true, "pdfa_validate": true, "validate_facturapa": true,
	"validate_orderx": true, "health": true, "openapi": true, "docs": true, "metrics": true,
	"schema_invoice": true, "schema_order": true, "rulesets": true,
}

// billableOps are the billable operations of DECISIONS.md.
var billableOps = map[string]bool{"repair_ubl": true, "repair_cii": true, "pdfa_consistency": true, "validate_ubl_report": true}

func routeRequest(t *testing.T, s *Server, rt Route, opts ...reqOpt) *httptest.ResponseRecorder {
	t.Helper()
	body, ct := sampleBody(rt)
	if ct != "" {
		opts = append(opts, withHeader("Content-Type", ct))
	}
	return do(t, s, rt.Method, rt.Path, body, opts...)
}

func TestRouteTableAuth(t *testing.T) {
	s, st := newTestServer(t, nil)
	if len(s.Routes()) != 40 {
		t.Fatalf("route table has %d routes", len(s.Routes()))
	}
	for _, rt := range s.Routes() {
		t.Run(rt.OperationID, func(t *testing.T) {
			if want := !freeOps[rt.OperationID]; rt.Protected != want {
				t.Fatalf("Protected = %v, want %v", rt.Protected, want)
			}
			if rt.Billable != billableOps[rt.OperationID] {
				t.Fatalf("Billable = %v, want %v", rt.Billable, billableOps[rt.OperationID])
			}
			if !rt.Protected {
				w := routeRequest(t, s, rt)
				if w.Code == http.StatusUnauthorized || w.Code == http.StatusForbidden {
					t.Fatalf("free route answered %d without a key: %s", w.Code, w.Body.String())
				}
				return
			}
			for _, tc := range []struct {
				name string
				opts []reqOpt
				want string
			}{
				{"missing", nil, "missing API key"},
				{"unknown", []reqOpt{withHeader("x-api-key", "ek_live_nosuchkeynosuchkeynosuchkey1")}, "invalid API key"},
				{"revoked", []reqOpt{withHeader("x-api-key", revokedKey)}, "revoked"},
			} {
				before := len(st.usageCalls())
				w := routeRequest(t, s, rt, tc.opts...)
				if w.Code != http.StatusUnauthorized {
					t.Fatalf("%s key: status %d, want 401; body %s", tc.name, w.Code, w.Body.String())
				}
				if got := w.Header().Get("WWW-Authenticate"); got != `ApiKey header="x-api-key"` {
					t.Errorf("%s key: WWW-Authenticate = %q", tc.name, got)
				}
				if d := detailString(t, w); !strings.Contains(d, tc.want) {
					t.Errorf("%s key: detail %q does not mention %q", tc.name, d, tc.want)
				}
				if n := len(st.usageCalls()); n != before {
					t.Errorf("%s key: refused call was metered", tc.name)
				}
			}
			before := len(st.usageCalls())
			w := routeRequest(t, s, rt, withHeader("x-api-key", goodKey))
			if w.Code == http.StatusUnauthorized || w.Code >= 500 && w.Code != http.StatusNotImplemented {
				t.Fatalf("good key: status %d; body %s", w.Code, w.Body.String())
			}
			calls := st.usageCalls()
			if len(calls) != before+1 {
				t.Fatalf("good key: %d usage records, want 1", len(calls)-before)
			}
			if c := calls[len(calls)-1]; c != (usageCall{"key1", rt.OperationID, rt.Billable}) {
				t.Errorf("metered %+v", c)
			}
		})
	}
}

func TestGatewaySecret(t *testing.T) {
	s, _ := newTestServer(t, func(c *Config) { c.GatewaySecret = "s3cret" })
	for _, rt := range s.Routes() {
		if !rt.Protected {
			w := routeRequest(t, s, rt)
			if w.Code == http.StatusForbidden || w.Code == http.StatusUnauthorized {
				t.Errorf("%s: free route needs no gateway secret, got %d", rt.OperationID, w.Code)
			}
			continue
		}
		for _, secret := range []string{"", "wrong", "s3cret-longer"} {
			opts := []reqOpt{withHeader("x-api-key", goodKey)}
			if secret != "" {
				opts = append(opts, withHeader("x-gateway-proxy-secret", secret))
			}
			if w := routeRequest(t, s, rt, opts...); w.Code != http.StatusForbidden {
				t.Errorf("%s secret %q: status %d, want 403", rt.OperationID, secret, w.Code)
			}
		}
		w := routeRequest(t, s, rt, withHeader("x-api-key", goodKey), withHeader("x-gateway-proxy-secret", "s3cret"))
		if w.Code == http.StatusForbidden || w.Code == http.StatusUnauthorized {
			t.Errorf("%s right secret: status %d", rt.OperationID, w.Code)
		}
	}
}

func TestStoreDownIs503Not401(t *testing.T) {
	s, st := newTestServer(t, nil)
	st.setDown(true)
	w := do(t, s, "GET", "/v1/usage", nil, withHeader("x-api-key", goodKey))
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", w.Code, w.Body.String())
	}
	detailString(t, w)
	// A missing key is still the caller's fault: 401 without asking the store.
	if w := do(t, s, "GET", "/v1/usage", nil); w.Code != http.StatusUnauthorized {
		t.Fatalf("missing key with store down: %d", w.Code)
	}
}

func TestNotLandedIs501AfterChecks(t *testing.T) {
	s, _ := newTestServer(t, nil)
	for _, rt := range s.Routes() {
		if rt.Landed {
			continue
		}
		var opts []reqOpt
		if rt.Protected {
			opts = append(opts, withHeader("x-api-key", goodKey))
		}
		w := routeRequest(t, s, rt, opts...)
		if w.Code != http.StatusNotImplemented {
			t.Errorf("%s: status %d, want 501: %s", rt.OperationID, w.Code, w.Body.String())
			continue
		}
		want := rt.OperationID + " is not implemented yet: " + rt.Capability
		if d := detailString(t, w); d != want {
			t.Errorf("%s: detail %q, want %q", rt.OperationID, d, want)
		}
		// Parameter checks come first: an unknown query parameter is a 422.
		w = do(t, s, rt.Method, rt.Path+"?bogus=1", nil, append(opts, withHeader("Content-Type", firstType(rt)))...)
		if w.Code != http.StatusUnprocessableEntity {
			t.Errorf("%s with bad input: status %d, want 422 before 501", rt.OperationID, w.Code)
		}
	}
}

func firstType(rt Route) string {
	if rt.RequestTypes == nil {
		return ""
	}
	_, ct := sampleBody(rt)
	return ct
}

func TestConvertDirections(t *testing.T) {
	s, _ := newTestServer(t, nil)
	if n := len(ConvertDirections()); n != 10 {
		t.Fatalf("%d convert directions, want 10", n)
	}
	for _, dir := range ConvertDirections() {
		w := do(t, s, "POST", "/v1/convert/"+dir, []byte("<a/>"), withHeader("x-api-key", goodKey),
			withHeader("Content-Type", map[bool]string{true: mediaPDF, false: mediaXML}[strings.HasPrefix(dir, "facturx-")]))
		if w.Code != http.StatusNotImplemented {
			t.Errorf("%s: %d, want 501", dir, w.Code)
		}
	}
	w := do(t, s, "POST", "/v1/convert/ubl-to-ksef", []byte("<a/>"), withHeader("x-api-key", goodKey))
	fs := fieldErrors(t, w) // 422 (DECISIONS.md, "Conversion"): the entry lists the supported directions
	if len(fs) != 1 || fs[0]["input"] != "ubl-to-ksef" || !strings.Contains(fs[0]["msg"].(string), "ubl-to-cii") {
		t.Errorf("422 entry %v should name the direction and the supported ones", fs)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	s, _ := newTestServer(t, nil)
	w := do(t, s, "GET", "/v1/nope", nil)
	if w.Code != http.StatusNotFound || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("unknown route: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	detailString(t, w)
	w = do(t, s, "GET", "/v1/validate/ubl", nil)
	if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "POST" {
		t.Fatalf("wrong method: %d Allow=%q", w.Code, w.Header().Get("Allow"))
	}
	detailString(t, w)
}

func TestUsageEndpoint(t *testing.T) {
	s, _ := newTestServer(t, nil)
	for range 3 {
		do(t, s, "POST", "/v1/repair/ubl", []byte("<a/>"), withHeader("x-api-key", goodKey), withHeader("Content-Type", mediaXML))
	}
	w := do(t, s, "GET", "/v1/usage", nil, withHeader("x-api-key", goodKey))
	if w.Code != http.StatusOK {
		t.Fatalf("usage: %d %s", w.Code, w.Body.String())
	}
	var u wire.Usage
	mustJSON(t, w.Body.Bytes(), &u)
	if u.KeyID != "key1" || u.Name != "test key" {
		t.Fatalf("usage of %+v", u)
	}
	got := map[string]wire.UsageRow{}
	for _, r := range u.Rows {
		got[r.Operation] = r
	}
	if r := got["repair_ubl"]; r.Count != 3 || !r.Billable || len(r.Day) != 10 {
		t.Errorf("repair_ubl row %+v, want 3 billable", r)
	}
	// The usage call itself is metered before it reads the counts.
	if r := got["usage"]; r.Count != 1 || r.Billable {
		t.Errorf("usage row %+v", r)
	}
}
