package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderCLI renders a UBL and a CII example to PDF in both styles and
// to HTML, and checks refusals and usage errors.
func TestRenderCLI(t *testing.T) {
	dir := t.TempDir()
	ubl := filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml")
	cii := filepath.Join(sharedDir(), "corpus", "en16931", "cii", "examples", "CII_business_example_02.xml")
	out := filepath.Join(dir, "out.pdf")
	code, stdout, errs := cli(t, nil, "render", "--lang", "de", "--style", "kosit", ubl, "-o", out)
	if code != 0 || stdout != "" {
		t.Fatalf("render kosit: exit %d %s", code, errs)
	}
	pdf, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("render kosit wrote %.20q, %v", pdf, err)
	}
	txt, err := exec.Command("pdftotext", out, "-").Output()
	if err != nil || !strings.Contains(string(txt), "Rechnungsnummer") || !strings.Contains(string(txt), "12115118") {
		t.Fatalf("kosit PDF text: %v %.300s", err, txt)
	}
	code, stdout, errs = cli(t, nil, "render", cii)
	if code != 0 || !strings.HasPrefix(stdout, "%PDF-") {
		t.Fatalf("render compact to stdout: exit %d %s", code, errs)
	}
	code, stdout, errs = cli(t, nil, "render", "--html", "--lang", "en", cii)
	if code != 0 || !strings.Contains(stdout, `<html lang="en">`) || !strings.Contains(stdout, "Invoice number") {
		t.Fatalf("render --html: exit %d %s", code, errs)
	}
	bad := filepath.Join(dir, "bad.xml")
	mustWrite(t, bad, []byte("<Invoice><oops"))
	if code, _, errs := cli(t, nil, "render", bad); code != 1 || !strings.Contains(errs, "[xml_syntax]") {
		t.Errorf("malformed XML: exit %d %s", code, errs)
	}
	for _, args := range [][]string{{"render"}, {"render", "--lang", "fr", ubl}, {"render", "--style", "fancy", ubl}, {"render", ubl, cii}} {
		if code, _, _ := cli(t, nil, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
