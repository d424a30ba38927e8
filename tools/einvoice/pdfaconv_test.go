package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// convEnv is the environment of the conversion commands in tests.
func convEnv(t *testing.T) map[string]string {
	t.Helper()
	pdftestgen.Need(t, "gs", "pdfdetach")
	jar := verapdftest.JarPath()
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("veraPDF worker jar not found at %s: run `make verapdf`", jar)
	}
	return map[string]string{"EINVOICE_VERAPDF_JAR": jar, "EINVOICE_SHARED": sharedDir()}
}

func TestPDFAConvertCLI(t *testing.T) {
	env := convEnv(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	tc := pdftestgen.Attached()
	mustWrite(t, in, tc.PDF)
	extra := filepath.Join(dir, "readme.txt")
	mustWrite(t, extra, []byte("read me\n"))
	out := filepath.Join(dir, "out.pdf")
	code, _, errs := cli(t, env, "pdfa", "convert", "--relationship", "Supplement", "--attach", extra, in, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	verapdftest.AssertCompliant(t, pdf, "3b")
	got := pdfatest.Detach(t, pdf)
	if !bytes.Equal(got["readme.txt"], []byte("read me\n")) || len(got) != len(tc.Attachments)+1 {
		t.Errorf("embedded files %v", keys(got))
	}
	for _, n := range tc.Attachments {
		if !bytes.Equal(got[n], pdftestgen.AttachedFiles[n]) {
			t.Errorf("%s not carried over byte-identical", n)
		}
	}
	doc, err := pdfread.Open(pdf, pdfread.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	atts, _ := doc.Attachments()
	for _, a := range atts {
		if a.Name == "readme.txt" && (a.Relationship != "Supplement" || a.MIME != "text/plain") {
			t.Errorf("readme.txt: relationship %q, MIME %q", a.Relationship, a.MIME)
		}
	}

	// Refusals: exit 1 with the reason; usage mistakes exit 2.
	notPDF := filepath.Join(dir, "x.pdf")
	mustWrite(t, notPDF, []byte("<Invoice/>"))
	if code, _, errs := cli(t, env, "pdfa", "convert", notPDF); code != 1 || !strings.Contains(errs, "not a PDF") {
		t.Errorf("not a PDF: exit %d, %q", code, errs)
	}
	if code, _, errs := cli(t, env, "pdfa", "convert", "--relationship", "Friend", in); code != 1 || !strings.Contains(errs, "relationship") {
		t.Errorf("bad relationship: exit %d, %q", code, errs)
	}
	if code, _, _ := cli(t, env, "pdfa", "convert"); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
	env["EINVOICE_GHOSTSCRIPT"] = filepath.Join(dir, "no-gs")
	if code, _, errs := cli(t, env, "pdfa", "convert", in); code != 1 || !strings.Contains(errs, "Ghostscript") {
		t.Errorf("no Ghostscript: exit %d, %q", code, errs)
	}
}

func TestEmbedCLI(t *testing.T) {
	env := convEnv(t)
	dir := t.TempDir()
	inv := writeInvoiceJSON(t, dir, nil)
	in := filepath.Join(dir, "mine.pdf")
	mustWrite(t, in, pdftestgen.Transparency().PDF)
	out := filepath.Join(dir, "fx.pdf")
	code, _, errs := cli(t, env, "embed", inv, in, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, cii, errs := cli(t, env, "generate", "--syntax", "cii", "--profile", "facturx_en16931", inv)
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	verapdftest.AssertCompliant(t, pdf, "3b")
	if got := pdfatest.Detach(t, pdf)["factur-x.xml"]; string(got) != cii {
		t.Errorf("factur-x.xml differs from generate --syntax cii (%d vs %d bytes)", len(got), len(cii))
	}
	bad := writeInvoiceJSON(t, t.TempDir(), func(m map[string]any) { delete(m, "seller") })
	if code, _, errs := cli(t, env, "embed", bad, in); code != 1 || !strings.Contains(errs, "seller") {
		t.Errorf("invoice without seller: exit %d, %q", code, errs)
	}
}

func keys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
