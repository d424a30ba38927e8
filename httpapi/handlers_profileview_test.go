package httpapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGenerateProfileViewRoute: generate/cii?profile=facturx_minimum|
// facturx_basicwl answers 200 with the profile's view (no line) and lists
// every dropped value in X-Dropped-Terms / X-Dropped-Count; en16931 drops
// nothing and sets neither header.
func TestGenerateProfileViewRoute(t *testing.T) {
	s, _ := newModelServer(t)
	body := invoiceBody(t, 21, func(inv map[string]any) {
		delete(inv, "process_control") // the profile sets BT-24
		inv["seller"].(map[string]any)["contact"] = map[string]any{"name": "Jane", "email": "jane@example.com"}
	})
	for _, c := range []struct {
		profile, spec string
		want, not     []string
	}{
		{"facturx_basicwl", "urn:factur-x.eu:1p0:basicwl", []string{"BT-153=/invoice/lines/0/item/name", "BT-41=/invoice/seller/contact/name", "BT-43=/invoice/seller/contact/email"},
			[]string{"/invoice/seller/address/city", "/invoice/vat_breakdown/"}},
		{"facturx_minimum", "urn:factur-x.eu:1p0:minimum", []string{"BT-153=/invoice/lines/0/item/name", "BT-41=/invoice/seller/contact/name", "BT-55=/invoice/buyer/address/country_code", "BT-116=/invoice/vat_breakdown/0/taxable_amount"},
			[]string{"/invoice/seller/address/country_code", "/invoice/seller/name"}},
	} {
		w := do(t, s, "POST", "/v1/generate/cii?profile="+c.profile, body, jsonCT, keyHdr)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.profile, w.Code, w.Body.String())
		}
		x := w.Body.String()
		if !strings.Contains(x, c.spec+"</ram:ID>") || strings.Contains(x, "IncludedSupplyChainTradeLineItem") {
			t.Errorf("%s: BT-24 missing or a line written:\n%.800s", c.profile, x)
		}
		h := w.Header()
		got := strings.Split(h.Get(HeaderDroppedTerms), ",")
		for _, e := range c.want {
			if !slices.Contains(got, e) {
				t.Errorf("%s: %s lacks %s: %v", c.profile, HeaderDroppedTerms, e, got)
			}
		}
		for _, p := range c.not {
			for _, e := range got {
				if strings.Contains(e, "="+p) {
					t.Errorf("%s: %s dropped, the profile carries it", c.profile, e)
				}
			}
		}
		if n, err := strconv.Atoi(h.Get(HeaderDroppedCount)); err != nil || n != len(got) {
			t.Errorf("%s: %s = %q, list has %d", c.profile, HeaderDroppedCount, h.Get(HeaderDroppedCount), len(got))
		}
		if h.Get(HeaderProfile) != c.profile {
			t.Errorf("%s: profile header %q", c.profile, h.Get(HeaderProfile))
		}
	}
	w := do(t, s, "POST", "/v1/generate/cii?profile=en16931", body, jsonCT, keyHdr)
	if w.Code != http.StatusOK || w.Header().Get(HeaderDroppedTerms) != "" || w.Header().Get(HeaderDroppedCount) != "" {
		t.Errorf("en16931: %d dropped %q", w.Code, w.Header().Get(HeaderDroppedTerms))
	}
}
