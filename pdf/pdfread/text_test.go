package pdfread

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// squeeze removes white space (line breaks and spacing differ between
// extractors; the characters and their order must not).
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '\u00a0' || r == '\u00ad' {
			return -1
		}
		return r
	}, s)
}

// wordRecall is the share of pdftotext's words (two characters or more)
// found in our text, with white space removed from both.
func wordRecall(ours, ref string) (float64, []string) {
	flat := squeeze(ours)
	var total, hit int
	var missing []string
	for _, w := range strings.Fields(ref) {
		if len([]rune(w)) < 2 {
			continue
		}
		total++
		if strings.Contains(flat, w) {
			hit++
		} else if len(missing) < 8 {
			missing = append(missing, w)
		}
	}
	if total == 0 {
		return 1, nil
	}
	return float64(hit) / float64(total), missing
}

func TestTextAgainstPdftotext(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatalf("pdftotext not installed (scripts/deps.sh): %v", err)
	}
	for _, c := range openCorpus(t) {
		f, d := c.path, c.doc
		ours, err := d.Text(0)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		ref, err := exec.Command("pdftotext", "-q", "-enc", "UTF-8", f, "-").Output()
		if err != nil {
			t.Logf("%s: pdftotext failed (%v); ours has %d characters", filepath.Base(f), err, len(ours))
			continue
		}
		r, missing := wordRecall(ours, string(ref))
		t.Logf("%s: recall %.3f", filepath.Base(f), r)
		if r < 0.97 {
			t.Errorf("%s: only %.1f%% of pdftotext's words found; missing e.g. %q", filepath.Base(f), r*100, missing)
		}
	}
}

// A landscape page: /Rotate 90 and text drawn rotated by cm reads as one
// horizontal line, as in a viewer (and pdftotext).
func TestRotatedPageText(t *testing.T) {
	b := buildPDF([]string{
		"<</Type /Catalog /Pages 2 0 R>>",
		"<</Type /Pages /Kids [3 0 R] /Count 1 /Rotate 90>>",
		"<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>>",
		streamObj("", []byte("q 0 1 -1 0 595 0 cm BT /F1 12 Tf 50 500 Td (Total) Tj 60 0 Td (1.234,56) Tj 0 -20 Td (EUR) Tj ET Q")),
		"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding>>",
	}, "")
	d, err := Open(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	txt, err := d.Text(0)
	if err != nil || txt != "Total 1.234,56\nEUR\n" {
		t.Fatalf("got %q %v", txt, err)
	}
}

// Fake bold: the same string drawn twice half a point apart reads once.
func TestOverprintedTextReadsOnce(t *testing.T) {
	d, err := Open(simplePDF("BT /F1 12 Tf 72 700 Td (Total 1.234,56) Tj ET BT /F1 12 Tf 72.4 700.3 Td (Total 1.234,56) Tj ET"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if txt, err := d.Text(0); err != nil || txt != "Total 1.234,56\n" {
		t.Fatalf("got %q %v", txt, err)
	}
}

// A filled form field: its appearance stream is placed on the widget's
// /Rect and read with the page, on the same line as the label.
func TestFormFieldAppearanceText(t *testing.T) {
	b := buildPDF([]string{
		"<</Type /Catalog /Pages 2 0 R>>",
		"<</Type /Pages /Kids [3 0 R] /Count 1>>",
		"<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>> /Annots [6 0 R 7 0 R]>>",
		streamObj("", []byte("BT /F1 12 Tf 72 700 Td (Amount due:) Tj ET")),
		"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding>>",
		"<</Type /Annot /Subtype /Widget /FT /Tx /Rect [300 695 400 715] /AP <</N 8 0 R>>>>",
		"<</Type /Annot /Subtype /Widget /FT /Tx /F 2 /Rect [300 600 400 620] /AP <</N 9 0 R>>>>",
		streamObj("/Type /XObject /Subtype /Form /BBox [0 0 100 20] /Resources <</Font <</F1 5 0 R>>>>", []byte("/Tx BMC BT /F1 12 Tf 2 5 Td (1.234,56 EUR) Tj ET EMC")),
		streamObj("/Type /XObject /Subtype /Form /BBox [0 0 100 20] /Resources <</Font <</F1 5 0 R>>>>", []byte("BT /F1 12 Tf 2 5 Td (hidden) Tj ET")),
	}, "")
	d, err := Open(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if txt, err := d.Text(0); err != nil || txt != "Amount due: 1.234,56 EUR\n" {
		t.Fatalf("got %q %v", txt, err)
	}
}
