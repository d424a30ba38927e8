package render

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/testshared"
)

var update = flag.Bool("update", false, "rewrite the golden screenshots under testdata/golden")

// goldenCases are the examples of the golden screenshots.
var goldenCases = []struct {
	name, file string
	lang       Lang
}{
	{"ubl-tc434-example1-de", "corpus/en16931/ubl/examples/ubl-tc434-example1.xml", German},
	{"cii-business-example-02-en", "corpus/en16931/cii/examples/CII_business_example_02.xml", English},
	{"xrechnung-comprehensive-de", "corpus/xrechnung-testsuite/technical-cases/cius/01.01_comprehensive_test_ubl.xml", German},
}

// maxDiffRatio is the share of pixels that may differ (by more than
// pixelTolerance in a channel) from the golden before the test fails:
// anti-aliasing and font hinting vary a little between machines.
const (
	maxDiffRatio   = 0.01
	pixelTolerance = 48
)

// TestGoldenScreenshots renders a few examples and compares pictures of
// them with the goldens: the HTML through headless Chromium, the first
// page of each PDF style through pdftoppm. Regenerate with -update.
func TestGoldenScreenshots(t *testing.T) {
	dir := testshared.Dir(t)
	ctx := context.Background()
	fixed := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			src := readSource(t, filepath.Join(dir, c.file))
			page, err := HTML(ctx, src.Invoice, c.lang)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, c.name+"-html", screenshotHTML(t, page))
			for _, style := range []string{StyleCompact, StyleKosit} {
				pdf, err := PDF(ctx, src.Invoice, Options{Lang: c.lang, Style: style, Time: fixed})
				if err != nil {
					t.Fatal(err)
				}
				checkPDFA(t, c.name+"-"+style, pdf)
				compareGolden(t, c.name+"-"+style, rasterPDF(t, pdf))
			}
		})
	}
}

// screenshotHTML photographs page with Debian's headless Chromium.
func screenshotHTML(t *testing.T, page []byte) []byte {
	t.Helper()
	tmp := t.TempDir()
	in := filepath.Join(tmp, "page.html")
	out := filepath.Join(tmp, "shot.png")
	if err := os.WriteFile(in, page, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := "chromium"
	if _, err := exec.LookPath(bin); err != nil {
		t.Fatalf("chromium not found (scripts/deps.sh installs it): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--no-first-run", "--user-data-dir="+filepath.Join(tmp, "profile"), "--window-size=1024,1600",
		"--screenshot="+out, "file://"+in)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	return b
}

// rasterPDF renders the first page of pdf at 60 dpi with pdftoppm.
func rasterPDF(t *testing.T, pdf []byte) []byte {
	t.Helper()
	cmd := exec.Command("pdftoppm", "-r", "60", "-f", "1", "-l", "1", "-png", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, stderr.String())
	}
	return out
}

// compareGolden compares a PNG with testdata/golden/<name>.png.
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".png")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./formats/render -run GoldenScreenshots -update)", err)
	}
	ratio, err := pixelDiff(got, want)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if ratio > maxDiffRatio {
		bad := filepath.Join(t.TempDir(), name+".png")
		_ = os.WriteFile(bad, got, 0o644)
		t.Errorf("%s: %.2f %% of the pixels differ from the golden (limit %.2f %%); got %s; if intended run with -update",
			name, ratio*100, maxDiffRatio*100, bad)
	}
}

// pixelDiff is the share of pixels of a and b that differ by more than
// pixelTolerance in any channel; pictures of different size are an error.
func pixelDiff(a, b []byte) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, fmt.Errorf("decoding the new picture: %w", err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, fmt.Errorf("decoding the golden: %w", err)
	}
	if ia.Bounds().Size() != ib.Bounds().Size() {
		return 0, fmt.Errorf("size %v, golden %v", ia.Bounds().Size(), ib.Bounds().Size())
	}
	return diffRatio(ia, ib), nil
}

func diffRatio(a, b image.Image) float64 {
	ra, rb := a.Bounds(), b.Bounds()
	diff := 0
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			r1, g1, b1, _ := a.At(ra.Min.X+x, ra.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(rb.Min.X+x, rb.Min.Y+y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) {
				diff++
			}
		}
	}
	return float64(diff) / float64(ra.Dx()*ra.Dy())
}

func far(x, y uint32) bool {
	d := int(x>>8) - int(y>>8)
	return d > pixelTolerance || d < -pixelTolerance
}
