package layout_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/layout"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
)

func newDoc(t testing.TB) *layout.Document {
	t.Helper()
	d, err := layout.New(layout.Options{PDF: pdfa.Options{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func finish(t testing.TB, d *layout.Document) []byte {
	t.Helper()
	b, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// words normalizes whitespace so wrapped text compares with its source.
func words(s string) string { return " " + strings.Join(strings.Fields(s), " ") + " " }

// TestWrap: no line is wider than the width unless it is a single
// character; the words survive in order (long words are cut, not lost).
func TestWrap(t *testing.T) {
	d := newDoc(t)
	st := layout.Style{Size: 10}
	for _, s := range []string{
		"", "one", "The quick brown fox jumps over the lazy dog. " + strings.Repeat("Lorem ipsum dolor sit amet ", 20),
		strings.Repeat("x", 300), "a\nb\n\nc", "Supercalifragilisticexpialidocious-and-then-some-more-text-without-spaces",
		"日本語のテキストには空白がありませんので文字ごとに折り返します", "tab\tseparated   spaces",
	} {
		for _, w := range []float64{5, 40, 120, 500} {
			lines := d.Wrap(s, st, w)
			for _, l := range lines {
				if d.Measure(l, st) > w+1e-9 && utf8.RuneCountInString(l) > 1 {
					t.Errorf("width %v: line %q is %v wide", w, l, d.Measure(l, st))
				}
			}
			if got, want := strings.ReplaceAll(strings.Join(lines, ""), " ", ""), strings.Join(strings.Fields(s), ""); got != want {
				t.Errorf("width %v: text changed:\n%q\n%q", w, got, want)
			}
			if n := strings.Count(s, "\n") + 1; len(lines) < n {
				t.Errorf("width %v: %d lines for %d paragraphs", w, len(lines), n)
			}
		}
	}
}

// TestTablePages: a long table spans pages, its header is repeated on
// every page, rows are never lost, "Page x of y" is on every page and the
// result is PDF/A-3b.
func TestTablePages(t *testing.T) {
	d := newDoc(t)
	d.Paragraph("Ελληνικά, Кириллица, 中文 العربية — a long table follows", layout.Style{Font: layout.Bold, Size: 14})
	grey := pdfa.Color{R: 0.9, G: 0.9, B: 0.9}
	tb := &layout.Table{
		Columns:    []layout.Column{{Width: 40}, {Weight: 2}, {Weight: 1, Align: layout.Right}},
		Header:     []layout.Row{{Cells: []layout.Cell{{Text: "No"}, {Text: "Description"}, {Text: "Amount"}}}},
		HeaderFill: &grey, Border: layout.BorderRows,
	}
	const rows = 150
	for i := range rows {
		desc := layout.Cell{Text: fmt.Sprintf("Item %03d", i)}
		if i%7 == 0 {
			desc.More = []layout.Para{{Text: strings.Repeat("a long description that wraps ", 6), Style: layout.Style{Size: 7}}}
		}
		tb.Rows = append(tb.Rows, layout.Row{Cells: []layout.Cell{{Text: fmt.Sprint(i)}, desc, {Text: fmt.Sprintf("%d.00", i*10)}}})
	}
	d.Table(tb)
	d.Runs([]layout.Run{{Text: "Amount due: ", Style: layout.Style{Font: layout.Bold}}, {Text: "1,234.56", Style: layout.Style{Size: 14}},
		{Text: " EUR", Style: layout.Style{Font: layout.Italic}}}, layout.Right)
	b := finish(t, d)
	pages := pdfatest.Pages(t, b)
	if pages < 3 {
		t.Fatalf("%d pages for %d rows", pages, rows)
	}
	text := pdfatest.Text(t, b)
	for i, page := range strings.Split(strings.TrimSuffix(text, "\f"), "\f") {
		if !strings.Contains(page, "Description") || !strings.Contains(page, fmt.Sprintf("Page %d of %d", i+1, pages)) {
			t.Errorf("page %d lacks the header or its page label:\n%s", i+1, page)
		}
	}
	for i := range rows {
		if !strings.Contains(text, fmt.Sprintf("Item %03d", i)) {
			t.Errorf("row %d lost", i)
		}
	}
	if !strings.Contains(text, "Amount due: 1,234.56 EUR") {
		t.Error("runs not extracted as one line")
	}
	verapdftest.AssertPDFA3B(t, b)
}

// TestRuns: mixed-style runs keep their words in order, honour "\n" and
// the spaces between runs (and their absence), and cut a word longer than
// the line without losing a character.
func TestRuns(t *testing.T) {
	d := newDoc(t)
	runs := []layout.Run{{Text: "Label:", Style: layout.Style{Font: layout.Bold}}, {Text: " value with several words", Style: layout.Style{Size: 12}},
		{Text: "glued", Style: layout.Style{Font: layout.Italic}}, {Text: "\nsecond line " + strings.Repeat("word ", 60)}, {Text: strings.Repeat("x", 400), Style: layout.Style{Font: layout.Mono}}}
	y0 := d.Y()
	d.RunsAt(runs, layout.Left, d.Left(), 200)
	if d.Y() <= y0 {
		t.Fatal("cursor did not move")
	}
	b := finish(t, d)
	text := words(pdfatest.Text(t, b))
	for _, w := range []string{" Label: value with several wordsglued ", " second line word word "} {
		if !strings.Contains(text, w) {
			t.Errorf("%q not in %s", w, text)
		}
	}
	if got := strings.Count(strings.ReplaceAll(text, " ", ""), "x"); got != 400 {
		t.Errorf("%d of 400 x kept", got)
	}
}

// TestTallRow: a cell taller than a page is split across pages, line by
// line, without losing or repeating a line and without hanging; so is a
// paragraph longer than a page.
func TestTallRow(t *testing.T) {
	d := newDoc(t)
	var sb strings.Builder
	for i := range 200 {
		fmt.Fprintf(&sb, "line-%03d\n", i)
	}
	d.Table(&layout.Table{Columns: []layout.Column{{}, {}}, Border: layout.BorderGrid,
		Header: []layout.Row{{Cells: []layout.Cell{{Text: "A"}, {Text: "B"}}}},
		Rows:   []layout.Row{{Cells: []layout.Cell{{Text: sb.String()}, {Text: "short"}}}}})
	d.Paragraph(strings.ReplaceAll(sb.String(), "line", "para"), layout.Style{})
	d.Table(&layout.Table{Columns: []layout.Column{{}}, Border: layout.BorderOutline,
		Rows: []layout.Row{{Cells: []layout.Cell{{Text: "huge", Style: &layout.Style{Size: 900}}}}}})
	b := finish(t, d)
	text := words(pdfatest.Text(t, b))
	for i := range 200 {
		for _, p := range []string{"line", "para"} {
			w := fmt.Sprintf(" %s-%03d ", p, i)
			if n := strings.Count(text, w); n != 1 {
				t.Errorf("%q appears %d times", w, n)
			}
		}
	}
	verapdftest.AssertPDFA3B(t, b)
}

// TestEmptyAndOptions: an empty document is one page; bad margins are an
// error; a PageLabel returning "" writes no footer.
func TestEmptyAndOptions(t *testing.T) {
	if _, err := layout.New(layout.Options{Margins: layout.Margins{Left: 400, Right: 400}}); err == nil {
		t.Error("margins wider than the page accepted")
	}
	d, err := layout.New(layout.Options{PageLabel: func(int, int) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	d.Table(&layout.Table{})
	d.PageBreak()
	b := finish(t, d)
	if n := pdfatest.Pages(t, b); n != 1 {
		t.Errorf("pages = %d", n)
	}
	if strings.TrimSpace(pdfatest.Text(t, b)) != "" {
		t.Error("footer written although PageLabel returns empty")
	}
}

// FuzzWrap: any text at any width wraps without panicking or losing
// characters.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"", "a b c", "日本語", "\t\n\r", strings.Repeat("w ", 100), "\xff\xfe"} {
		f.Add(s, 50.0)
	}
	d := newDoc(f)
	f.Fuzz(func(t *testing.T, s string, w float64) {
		if w != w || w < 0.01 || w > 1e6 {
			return
		}
		lines := d.Wrap(s, layout.Style{}, w)
		got := strings.ReplaceAll(strings.Join(lines, ""), " ", "")
		want := strings.Join(strings.Fields(s), "")
		if got != want {
			t.Fatalf("text changed: %q -> %q", want, got)
		}
	})
}

// BenchmarkInvoiceLayout lays out and serializes a 10-row invoice-like
// page: heading, two parties, a table with header, totals.
func BenchmarkInvoiceLayout(b *testing.B) {
	icc, err := pdfa.ReadICCProfile("")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d, err := layout.New(layout.Options{PDF: pdfa.Options{ICC: icc}})
		if err != nil {
			b.Fatal(err)
		}
		d.Paragraph("Invoice INV-2026-0001", layout.Style{Font: layout.Bold, Size: 16})
		d.Table(&layout.Table{Columns: []layout.Column{{}, {}}, Rows: []layout.Row{{Cells: []layout.Cell{
			{Text: "Seller GmbH", More: []layout.Para{{Text: "Street 1"}, {Text: "12345 Berlin"}, {Text: "DE"}}},
			{Text: "Buyer SARL", More: []layout.Para{{Text: "Rue 2"}, {Text: "75001 Paris"}, {Text: "FR"}}}}}}})
		tb := &layout.Table{Columns: []layout.Column{{Width: 30}, {Weight: 1}, {Width: 60, Align: layout.Right}, {Width: 80, Align: layout.Right}},
			Header: []layout.Row{{Cells: []layout.Cell{{Text: "#"}, {Text: "Item"}, {Text: "Qty"}, {Text: "Net"}}}}, Border: layout.BorderRows}
		for i := range 10 {
			tb.Rows = append(tb.Rows, layout.Row{Cells: []layout.Cell{{Text: fmt.Sprint(i + 1)}, {Text: "Consulting services, on site, per hour"}, {Text: "12.5"}, {Text: "1,234.56"}}})
		}
		d.Table(tb)
		d.Paragraph("Amount due 13,580.16 EUR", layout.Style{Font: layout.Bold, Align: layout.Right})
		if _, err := d.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzRuns: any two runs at any width lay out without panicking or
// hanging, and the document still serializes.
func FuzzRuns(f *testing.F) {
	f.Add("Label: ", "value", 100.0)
	f.Add("", "\n\n", 1.0)
	f.Add("日本語", strings.Repeat("x", 500), 30.0)
	f.Fuzz(func(t *testing.T, a, b string, w float64) {
		if w != w || w < 0.01 || w > 1e6 {
			return
		}
		d := newDoc(t)
		d.RunsAt([]layout.Run{{Text: a, Style: layout.Style{Font: layout.Bold}}, {Text: b, Style: layout.Style{Size: 20}}}, layout.Center, d.Left(), w)
		if _, err := d.Bytes(); err != nil {
			t.Fatal(err)
		}
	})
}
