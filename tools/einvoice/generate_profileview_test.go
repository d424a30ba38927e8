package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateProfileViewCLI: generate --profile facturx_minimum (CII
// implied) writes the profile's view and lists every dropped value on
// stderr; basicwl keeps the VAT breakdown.
func TestGenerateProfileViewCLI(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	inv := writeInvoiceJSON(t, dir, func(m map[string]any) { delete(m, "process_control") })
	code, stdout, errs := cli(t, env, "generate", "--profile", "facturx_minimum", inv)
	if code != 0 {
		t.Fatalf("minimum: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "urn:factur-x.eu:1p0:minimum</ram:ID>") || strings.Contains(stdout, "IncludedSupplyChainTradeLineItem") || strings.Contains(stdout, "ram:ApplicableTradeTax") {
		t.Errorf("minimum output:\n%.1200s", stdout)
	}
	for _, want := range []string{"profile facturx_minimum cannot carry", "dropped BT-153 /invoice/lines/0/item/name", "dropped BT-153 /invoice/lines/1/item/name", "dropped BT-117 /invoice/vat_breakdown/0/tax_amount"} {
		if !strings.Contains(errs, want) {
			t.Errorf("minimum stderr lacks %q:\n%s", want, errs)
		}
	}
	out := filepath.Join(dir, "wl.xml")
	code, _, errs = cli(t, env, "generate", "--syntax", "cii", "--profile", "facturx_basicwl", inv, "-o", out)
	if code != 0 || !strings.Contains(errs, "dropped BT-153 /invoice/lines/0/item/name") || strings.Contains(errs, "/invoice/vat_breakdown/") {
		t.Fatalf("basicwl: exit %d:\n%s", code, errs)
	}
	// A UBL syntax given explicitly still refuses the CII-only profile.
	if code, _, _ := cli(t, env, "generate", "--syntax", "ubl", "--profile", "facturx_minimum", inv); code != 1 {
		t.Errorf("--syntax ubl --profile facturx_minimum: exit %d, want 1", code)
	}
	// en16931 drops nothing.
	if code, _, errs := cli(t, env, "generate", "--syntax", "cii", inv); code != 0 || strings.Contains(errs, "dropped") {
		t.Errorf("en16931: exit %d %s", code, errs)
	}
}
