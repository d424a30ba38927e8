package main

import (
	"crypto/sha256"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// TestExtractCLI: einvoice extract writes the embedded XML byte for byte
// (as pdfdetach saves it), lists attachments, checks consistency, and
// refuses a PDF without XML with exit 1.
func TestExtractCLI(t *testing.T) {
	dir := filepath.Join(sharedDir(), "corpus", "pdf", "mustang")
	pdf := filepath.Join(dir, "zugferd_invoice.pdf")
	tmp := t.TempDir()
	if err := exec.Command("pdfdetach", "-saveall", "-o", tmp, pdf).Run(); err != nil {
		t.Fatalf("pdfdetach (poppler-utils): %v", err)
	}
	want, err := os.ReadFile(filepath.Join(tmp, "ZUGFeRD-invoice.xml"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out.xml")
	code, _, stderr := cli(t, nil, "extract", "-o", out, pdf)
	got, _ := os.ReadFile(out)
	if code != 0 || sha256.Sum256(got) != sha256.Sum256(want) || !strings.Contains(stderr, "ZUGFeRD-invoice.xml (ZUGFeRD") {
		t.Fatalf("extract: exit %d, %d bytes (want %d), stderr %q", code, len(got), len(want), stderr)
	}

	code, stdout, _ := cli(t, nil, "extract", "--attachments", "--include-content", pdf)
	var atts wire.Attachments
	if err := json.Unmarshal([]byte(stdout), &atts); code != 0 || err != nil || len(atts.Attachments) != 1 || atts.Attachments[0].ContentBase64 == "" {
		t.Fatalf("--attachments: exit %d %v %s", code, err, stdout)
	}

	code, stdout, _ = cli(t, nil, "extract", "--consistency", pdf)
	var res wire.ConsistencyResult
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil || !res.Consistent {
		t.Fatalf("--consistency: exit %d %v %s", code, err, stdout)
	}
	// The Mustang sample whose page disagrees with its XML.
	code, _, stderr = cli(t, nil, "extract", "--consistency", filepath.Join(dir, "validXRechnung.pdf"))
	if code != 1 || !strings.Contains(stderr, "invoice_id") {
		t.Fatalf("--consistency on drifted PDF: exit %d %q", code, stderr)
	}

	code, _, stderr = cli(t, nil, "extract", filepath.Join(dir, "MustangGnuaccountingBeispielRE-20170509_505blanko.pdf"))
	if code != 1 || !strings.Contains(stderr, "no embedded invoice XML") {
		t.Fatalf("no XML: exit %d %q", code, stderr)
	}
	notPDF := filepath.Join(tmp, "x.pdf")
	if err := os.WriteFile(notPDF, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr = cli(t, nil, "extract", notPDF); code != 1 || !strings.Contains(stderr, "cannot be read") {
		t.Fatalf("not a PDF: exit %d %q", code, stderr)
	}
	if code, _, _ = cli(t, nil, "extract", "--include-content", pdf); code != 2 {
		t.Fatalf("usage: exit %d", code)
	}
}

// TestExtractCLICorpus: for every corpus PDF with an invoice XML (as
// pdfdetach lists it), einvoice extract writes the same bytes.
func TestExtractCLICorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedDir(), "corpus", "pdf", "*", "*.pdf"))
	n := 0
	for _, pdf := range files {
		tmp := t.TempDir()
		if err := exec.Command("pdfdetach", "-saveall", "-o", tmp, pdf).Run(); err != nil {
			t.Fatalf("pdfdetach (poppler-utils) %s: %v", pdf, err)
		}
		code, stdout, stderr := cli(t, nil, "extract", pdf)
		if code != 0 {
			continue // no invoice XML: the 422 paths are TestExtractCLI's
		}
		name := strings.TrimPrefix(strings.SplitN(stderr, " (", 2)[0], "einvoice: extract: ")
		want, err := os.ReadFile(filepath.Join(tmp, name))
		if err != nil {
			if strings.HasSuffix(pdf, "corruptedV2PDF.pdf") {
				continue // poppler cannot read it; we reconstruct it
			}
			t.Errorf("%s: we extract %q, pdfdetach saved no such file: %v", filepath.Base(pdf), name, err)
			continue
		}
		if sha256.Sum256([]byte(stdout)) != sha256.Sum256(want) {
			t.Errorf("%s: %s differs from pdfdetach's", filepath.Base(pdf), name)
		}
		n++
	}
	if n < 15 {
		t.Errorf("only %d corpus PDFs extracted", n)
	}
}
