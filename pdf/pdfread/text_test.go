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
