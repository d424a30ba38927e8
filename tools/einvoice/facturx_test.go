package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/facturx"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
)

// TestFacturXCLI: einvoice facturx from JSON and from UBL/CII XML writes
// PDF/A-3b Factur-X; the JSON case embeds exactly what einvoice generate
// --syntax cii --profile facturx_en16931 writes; refusals exit 1, usage
// errors 2, a missing ICC profile is reported.
func TestFacturXCLI(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	inv := writeInvoiceJSON(t, dir, nil)
	out := filepath.Join(dir, "out.pdf")
	code, _, errs := cli(t, env, "facturx", inv, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	code, cii, errs := cli(t, env, "generate", "--syntax", "cii", "--profile", "facturx_en16931", inv)
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	if got := pdfatest.Detach(t, pdf)[facturx.FileName]; !bytes.Equal(got, []byte(cii)) {
		t.Error("factur-x.xml differs from einvoice generate's CII")
	}
	verapdftest.AssertPDFA3B(t, pdf)

	src := filepath.Join(sharedDir(), "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	code, stdout, errs := cli(t, env, "facturx", "--from-xml", src)
	if code != 0 || !strings.HasPrefix(stdout, "%PDF-1.7") {
		t.Fatalf("--from-xml: exit %d stderr %s", code, errs)
	}
	if !strings.Contains(pdfatest.Text(t, []byte(stdout)), "12115118") {
		t.Error("--from-xml: the invoice number is not printed")
	}

	bad := writeInvoiceJSON(t, t.TempDir(), func(m map[string]any) { m["currency_code"] = "EURO" })
	if code, _, errs := cli(t, env, "facturx", bad); code != 1 || !strings.Contains(errs, "refused") {
		t.Errorf("refusal: exit %d %s", code, errs)
	}
	if code, _, _ := cli(t, env, "facturx"); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
	if code, _, _ := cli(t, env, "facturx", "--profile", "facturx_extended", inv); code != 2 {
		t.Errorf("--profile without --from-xml: exit %d", code)
	}
	env["EINVOICE_ICC_PROFILE"] = "/nonexistent/sRGB.icc"
	if code, _, errs := cli(t, env, "facturx", inv); code != 1 || !strings.Contains(errs, "icc-profiles-free") {
		t.Errorf("missing ICC profile: exit %d %s", code, errs)
	}
}
