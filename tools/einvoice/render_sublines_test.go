package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderSubLinesCLI: einvoice render shows an XRechnung document's
// sub-invoice lines (BG-DEX-01) in the kosit PDF and the HTML.
func TestRenderSubLinesCLI(t *testing.T) {
	src := filepath.Join(sharedDir(), "corpus", "xrechnung", "test", "instances", "ubl-inv", "ubl-inv-br-dex-02-check-correct-sums-sub-invoice-line.xml")
	out := filepath.Join(t.TempDir(), "sub.pdf")
	if code, _, errs := cli(t, nil, "render", "--style", "kosit", src, "-o", out); code != 0 {
		t.Fatalf("render kosit: exit %d %s", code, errs)
	}
	txt, err := exec.Command("pdftotext", "-raw", out, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"› 1 1", "› 1 2", "Sub invoice line 1 1 [BG-DEX-01]", "Hose Bernhard ws UKD", "15.40"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("kosit PDF lacks %q", want)
		}
	}
	code, stdout, errs := cli(t, nil, "render", "--html", "--lang", "de", src)
	if code != 0 || !strings.Contains(stdout, "Unterposition 1 2") || !strings.Contains(stdout, "Kasack Bodo blau UKD") {
		t.Fatalf("render --html: exit %d %s", code, errs)
	}
}
