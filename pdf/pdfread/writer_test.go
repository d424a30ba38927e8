package pdfread

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/pdf/layout"
)

// TestTextOfOurWriter: the PDFs our own writer (pdf/layout on pdf/pdfa:
// embedded Go fonts, Identity-H with ToUnicode) read back as pdftotext
// reads them, including non-Latin text.
func TestTextOfOurWriter(t *testing.T) {
	doc, err := layout.New(layout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"Rechnung Nr. RE-2026/0042 vom 31.12.2026",
		"Zahlbetrag: 1.234,56 € — Straße, Ünïcödé, Ærøskøbing, Łódź, Παράδειγμα, Пример",
		"Invoice total amount with VAT 1,612,254.76 GBP",
	}
	for _, l := range lines {
		doc.Paragraph(l, layout.Style{Size: 10})
	}
	for i := 0; i < 120; i++ { // several pages
		doc.Paragraph("Line item "+itoa(i)+" Widget 55.19 KGM 865.01", layout.Style{Size: 9})
	}
	pdf, err := doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(pdf, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ours, err := d.Text(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !strings.Contains(ours, l) {
			t.Errorf("line %q not in our text:\n%s", l, ours[:min(len(ours), 600)])
		}
	}
	f := filepath.Join(t.TempDir(), "w.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	ref, err := exec.Command("pdftotext", "-q", "-enc", "UTF-8", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext (poppler-utils): %v", err)
	}
	if r, missing := wordRecall(ours, string(ref)); r < 1 {
		t.Errorf("recall %.3f against pdftotext; missing %q", r, missing)
	}
}
