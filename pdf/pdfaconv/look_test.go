package pdfaconv

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
)

// Thresholds of sameLook: the mean absolute difference per colour channel
// (0-255) and the share of pixels differing by more than 48 in a channel.
// They admit anti-aliasing, font substitution (URW for an unembedded
// base-14 font) and ICC conversion of CMYK to sRGB, and catch a lost
// image, a lost transparency or a blank page.
const (
	maxMeanDiff    = 6.0
	maxChangedFrac = 0.03
)

// sameLook renders every page of a and b with poppler at 36 dpi and fails
// when they differ beyond the thresholds: the evidence that conversion
// keeps what the PDF shows (docs/PDF.md, "PDF/A conversion").
func sameLook(t testing.TB, a, b []byte, pages int) {
	t.Helper()
	for p := 1; p <= pages; p++ {
		mean, frac := lookDiff(t, a, b, p)
		if mean > maxMeanDiff || frac > maxChangedFrac {
			t.Errorf("page %d looks different after conversion: mean difference %.2f (max %.1f), %.2f%% of pixels changed (max %.0f%%)", p, mean, maxMeanDiff, 100*frac, 100*maxChangedFrac)
		}
	}
}

// lookDiff returns the mean absolute channel difference and the share of
// changed pixels between page p of a and of b.
func lookDiff(t testing.TB, a, b []byte, p int) (mean, frac float64) {
	t.Helper()
	ra, rb := render(t, a, p), render(t, b, p)
	if ra.w != rb.w || ra.h != rb.h {
		return 255, 1
	}
	var sum, changed int
	for i := 0; i < len(ra.px); i += 3 {
		big := false
		for c := range 3 {
			d := int(ra.px[i+c]) - int(rb.px[i+c])
			if d < 0 {
				d = -d
			}
			sum += d
			big = big || d > 48
		}
		if big {
			changed++
		}
	}
	return float64(sum) / float64(len(ra.px)), float64(changed) / float64(len(ra.px)/3)
}

// TestLookDiffSeesChanges: the look comparison is not blind: a page that
// lost its images and transparency, or a blank page, is beyond the limits.
func TestLookDiffSeesChanges(t *testing.T) {
	pdftestgen.Need(t, "pdftoppm")
	tr, txt, blank := pdftestgen.Transparency().PDF, pdftestgen.Helvetica().PDF, pdftestgen.MultiPage(1).PDF
	for _, pair := range [][2][]byte{{tr, txt}, {txt, blank}} {
		mean, frac := lookDiff(t, pair[0], pair[1], 1)
		if mean <= maxMeanDiff && frac <= maxChangedFrac {
			t.Errorf("different pages pass as the same: mean %.2f, changed %.2f%%", mean, 100*frac)
		}
	}
	if mean, frac := lookDiff(t, tr, tr, 1); mean != 0 || frac != 0 {
		t.Errorf("a page differs from itself: %.2f %.2f", mean, frac)
	}
}

type raster struct {
	w, h int
	px   []byte
}

func render(t testing.TB, pdf []byte, page int) raster {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("pdftoppm", "-r", "36", "-f", fmt.Sprint(page), "-l", fmt.Sprint(page), in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftoppm: %v", err)
	}
	r := bufio.NewReader(bytes.NewReader(out))
	var magic string
	var w, h, maxv int
	if _, err := fmt.Fscan(r, &magic, &w, &h, &maxv); err != nil || magic != "P6" || maxv != 255 {
		t.Fatalf("pdftoppm output is not an 8-bit PPM: %v %q", err, magic)
	}
	if _, err := r.ReadByte(); err != nil { // the single whitespace after maxval
		t.Fatal(err)
	}
	px := make([]byte, 3*w*h)
	if _, err := r.Read(px[:0]); err != nil {
		t.Fatal(err)
	}
	n := 0
	for n < len(px) {
		m, err := r.Read(px[n:])
		if err != nil {
			t.Fatalf("short PPM: %v", err)
		}
		n += m
	}
	return raster{w, h, px}
}
