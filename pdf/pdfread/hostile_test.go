package pdfread

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// hostilePDFs are hand-made malformed or hostile documents; every one must
// open or fail with a typed error, quickly, without a recovered panic.
func hostilePDFs(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	simple := simplePDF("BT /F1 12 Tf 72 700 Td (Hello) Tj ET")

	// /Prev chain pointing at itself and two sections pointing at each other.
	{
		var b bytes.Buffer
		b.WriteString("%PDF-1.7\n")
		o1 := b.Len()
		b.WriteString("1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n")
		o2 := b.Len()
		b.WriteString("2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n")
		x1 := b.Len()
		fmt.Fprintf(&b, "xref\n0 3\n0000000000 65535 f \n%010d 00000 n \n%010d 00000 n \n", o1, o2)
		x2pos := x1 + 200 // guessed offset of the second section, fixed below
		_ = x2pos
		tr1 := b.Len()
		_ = tr1
		b.WriteString("trailer <</Size 3 /Root 1 0 R /Prev XXXXXXXXXX>>\n")
		x2 := b.Len()
		fmt.Fprintf(&b, "xref\n0 1\n0000000000 65535 f \ntrailer <</Size 3 /Root 1 0 R /Prev %010d>>\nstartxref\n%d\n%%%%EOF\n", x1, x2)
		data := bytes.Replace(b.Bytes(), []byte("XXXXXXXXXX"), []byte(fmt.Sprintf("%010d", x2)), 1)
		out["prev-cycle"] = data
	}
	// Self-referencing stream /Length and a reference cycle.
	out["length-cycle"] = buildPDF([]string{
		"<</Type /Catalog /Pages 2 0 R /Loop 3 0 R>>",
		"<</Type /Pages /Kids [2 0 R 4 0 R] /Count 1>>",
		"3 0 R",
		"<</Type /Page /Parent 2 0 R /Contents 5 0 R>>",
		"<</Length 5 0 R>>\nstream\nBT (x) Tj ET\nendstream",
	}, "")
	// Flate bomb as page content.
	out["flate-bomb"] = buildPDF([]string{
		"<</Type /Catalog /Pages 2 0 R>>",
		"<</Type /Pages /Kids [3 0 R] /Count 1>>",
		"<</Type /Page /Parent 2 0 R /Contents 4 0 R>>",
		streamObj("/Filter /FlateDecode", flateBytes(make([]byte, 100<<20))),
	}, "")
	// 100,000 pages.
	{
		objs := []string{"<</Type /Catalog /Pages 2 0 R>>", ""}
		var kids strings.Builder
		for i := 0; i < 100_000; i++ {
			fmt.Fprintf(&kids, "%d 0 R ", i+3)
			objs = append(objs, "<</Type /Page /Parent 2 0 R>>")
		}
		objs[1] = "<</Type /Pages /Count 100000 /Kids [" + kids.String() + "]>>"
		out["100k-pages"] = buildPDF(objs, "")
	}
	// Deep nesting.
	out["deep-nesting"] = buildPDF([]string{
		"<</Type /Catalog /X " + strings.Repeat("[", 100_000) + ">>",
	}, "")
	// Truncated in the middle, and a broken trailer.
	out["truncated"] = simple[:len(simple)/2]
	out["broken-trailer"] = bytes.Replace(simple, []byte("trailer\n<<"), []byte("trailer\n<<<<[(/"), 1)
	out["no-objects"] = []byte("%PDF-1.4\nhello\nstartxref\n99999\n%%EOF")
	out["not-a-pdf"] = []byte("GIF89a")
	out["xref-garbage"] = bytes.Replace(simple, []byte("0000000000 65535 f"), []byte("zzzzzzzzzz zzzzz f"), 1)
	// An xref stream at startxref claiming 2^31 entries.
	{
		var b bytes.Buffer
		b.WriteString("%PDF-1.7\n")
		x := b.Len()
		row := []byte("\x01\x00\x00\x00\x00")
		fmt.Fprintf(&b, "1 0 obj\n%s\nendobj\nstartxref\n%d\n%%%%EOF\n",
			streamObj("/Type /XRef /W [1 4 0] /Index [0 2147483647] /Size 2147483647 /Root 1 0 R", row), x)
		out["huge-xref-stream"] = b.Bytes()
	}
	return out
}

func exercise(d *Doc) error {
	if _, err := d.Pages(); err != nil {
		return err
	}
	if _, err := d.Attachments(); err != nil {
		return err
	}
	_, err := d.Text(5)
	return err
}

func TestHostile(t *testing.T) {
	for name, data := range hostilePDFs(t) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			d, err := Open(data, Limits{})
			if err == nil {
				err = exercise(d)
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("took %v", el)
			}
			if err != nil {
				if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrEncrypted) {
					t.Errorf("untyped error %v", err)
				}
				var pe *PanicError
				if errors.As(err, &pe) {
					t.Errorf("recovered panic: %v\n%s", err, pe.Stack)
				}
			}
			t.Logf("%s: err=%v", name, err)
		})
	}
}

// FuzzOpen is seeded with every corpus PDF and the hostile ones. Run it
// with a short minimization time, or the engine spends its time shrinking
// large inputs:
//
//	go test ./pdf/pdfread -run XXX -fuzz FuzzOpen -fuzztime 60s -fuzzminimizetime 2s
func FuzzOpen(f *testing.F) {
	for _, p := range corpusPDFs(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for name, b := range hostilePDFs(f) {
		if len(b) < 1<<20 && name != "flate-bomb" { // the bomb is TestHostile's; here it would eat the time
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Open(data, Limits{MaxWork: 8 << 20, MaxDecoded: 1 << 20})
		if err == nil {
			err = exercise(d)
		}
		var pe *PanicError
		if errors.As(err, &pe) {
			t.Fatalf("recovered panic: %v\n%s", err, pe.Stack)
		}
	})
}
