package httpapi

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
)

func readShared(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testshared.Dir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRenderRoutes renders UBL and CII through the real routes: HTML in
// both languages, PDF in both styles; bad input is a 422.
func TestRenderRoutes(t *testing.T) {
	s, _ := newTestServer(t, nil)
	ubl := readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	cii := readShared(t, "corpus/en16931/cii/examples/CII_example1.xml")

	w := do(t, s, "POST", "/v1/render/html?lang=de", ubl, xmlCT, keyHdr)
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("render/html: %d %s %.300s", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	for _, want := range []string{`<html lang="de">`, "Rechnung 12115118", "Rechnungsnummer", "BT-1", "229,60", "09.01.2015"} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("render/html?lang=de lacks %q", want)
		}
	}
	w = do(t, s, "POST", "/v1/render/html", cii, xmlCT, keyHdr)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `<html lang="en">`) || !strings.Contains(w.Body.String(), "Invoice number") {
		t.Fatalf("render/html CII: %d %.300s", w.Code, w.Body.String())
	}
	for _, style := range []string{"compact", "kosit"} {
		w = do(t, s, "POST", "/v1/render/pdf?lang=en&style="+style, cii, xmlCT, keyHdr)
		if w.Code != 200 || w.Header().Get("Content-Type") != mediaPDF || !bytes.HasPrefix(w.Body.Bytes(), []byte("%PDF-")) {
			t.Fatalf("render/pdf style=%s: %d %s %.200q", style, w.Code, w.Header().Get("Content-Type"), w.Body.String())
		}
		verapdftest.AssertPDFA3B(t, w.Body.Bytes())
	}

	// Refusals.
	fs := fieldErrors(t, do(t, s, "POST", "/v1/render/html", []byte("<Invoice><broken"), xmlCT, keyHdr))
	if !hasField(fs, "xml_syntax", "body") {
		t.Errorf("malformed XML: %v", fs)
	}
	fs = fieldErrors(t, do(t, s, "POST", "/v1/render/pdf", []byte(`<Order xmlns="urn:x"/>`), xmlCT, keyHdr))
	if !hasField(fs, "value_error", "body") {
		t.Errorf("not an invoice: %v", fs)
	}
	fs = fieldErrors(t, do(t, s, "POST", "/v1/render/pdf?style=fancy", cii, xmlCT, keyHdr))
	if !hasField(fs, "enum", "query", "style") {
		t.Errorf("bad style: %v", fs)
	}
	fs = fieldErrors(t, do(t, s, "POST", "/v1/render/html?lang=fr", cii, xmlCT, keyHdr))
	if !hasField(fs, "enum", "query", "lang") {
		t.Errorf("bad lang: %v", fs)
	}
	if w := do(t, s, "POST", "/v1/render/html", cii, xmlCT); w.Code != 401 {
		t.Errorf("render/html without a key: %d, want 401", w.Code)
	}
}

// TestValidateReportRoute prints the UBL validation through the real
// engine: the banner and findings are in the PDF's text; bad XML is a 422.
func TestValidateReportRoute(t *testing.T) {
	s, _ := newModelServer(t)
	valid := readShared(t, "corpus/peppol-bis-billing/3.0.21/examples/base-example.xml")
	w := do(t, s, "POST", "/v1/validate/ubl/report", valid, xmlCT, keyHdr)
	if w.Code != 200 || w.Header().Get("Content-Type") != mediaPDF || w.Header().Get(HeaderValid) != "true" {
		t.Fatalf("valid document: %d %s valid=%s %.300s", w.Code, w.Header().Get("Content-Type"), w.Header().Get(HeaderValid), w.Body.String())
	}
	if txt := pdfText(t, w.Body.Bytes()); !strings.Contains(txt, "VALID") || strings.Contains(txt, "INVALID") || !strings.Contains(txt, "peppol") {
		t.Errorf("valid report text: %.500s", txt)
	}
	broken := bytes.Replace(valid, []byte("<cbc:IssueDate>"), []byte("<cbc:IssueDate>x"), 1)
	w = do(t, s, "POST", "/v1/validate/ubl/report", broken, xmlCT, keyHdr)
	if w.Code != 200 || w.Header().Get(HeaderValid) != "false" {
		t.Fatalf("invalid document: %d valid=%s %.300s", w.Code, w.Header().Get(HeaderValid), w.Body.String())
	}
	verapdftest.AssertPDFA3B(t, w.Body.Bytes())
	txt := pdfText(t, w.Body.Bytes())
	for _, want := range []string{"INVALID", "fatal", "IssueDate"} {
		if !strings.Contains(txt, want) {
			t.Errorf("invalid report lacks %q: %.800s", want, txt)
		}
	}
	fs := fieldErrors(t, do(t, s, "POST", "/v1/validate/ubl/report", []byte("<Invoice"), xmlCT, keyHdr))
	if len(fs) == 0 {
		t.Error("malformed XML: no 422 entries")
	}
}

// pdfText extracts the text of a PDF with pdftotext (poppler-utils).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	cmd := exec.Command("pdftotext", "-raw", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}
