package render

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// subLineCorpus are the corpus files with sub-invoice lines (BG-DEX-01):
// the XRechnung BR-DEX-02/03 instances (UBL, read into Line.SubLines) and
// Mustang's CII hierarchy example (ram:ParentLineID, which the CII reader
// does not carry: its lines are shown flat).
var subLineCorpus = []string{
	"corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-0[23]-*.xml",
	"corpus/mustang/validator-test-resources/invalidSubInvoiceLineHierarchy.xml",
}

func subLineFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, g := range subLineCorpus {
		m, err := filepath.Glob(filepath.Join(testshared.Dir(t), g))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) < 7 {
		t.Fatalf("only %d sub-line examples", len(out))
	}
	return out
}

// TestSubLineCoverage is TestCoverage for the sub-line examples in both
// languages: every consumed value, the sub-lines' included, is in the HTML
// and in both PDFs; the UBL examples do have consumed sub-line values.
func TestSubLineCoverage(t *testing.T) {
	ctx := context.Background()
	for _, f := range subLineFiles(t) {
		name := filepath.Base(f)
		src := readSource(t, f)
		leaves := consumedLeaves(src)
		sub := 0
		for _, l := range leaves {
			if strings.Contains(l.path, "/SubInvoiceLine[") {
				sub++
			}
		}
		if strings.HasPrefix(name, "ubl-") && sub == 0 {
			t.Errorf("%s: no consumed sub-line value", name)
		}
		for _, lang := range []Lang{English, German} {
			for _, view := range []string{"html", StyleCompact, StyleKosit} {
				if m := missing(lang, leaves, viewText(t, ctx, src, lang, view)); len(m) > 0 {
					t.Errorf("%s: %s (%s) lacks %d values:\n  %s", name, view, lang, len(m), strings.Join(m, "\n  "))
				}
			}
		}
	}
}

// viewText renders src in lang as view ("html" or a PDF style) and
// returns the view's text.
func viewText(t *testing.T, ctx context.Context, src *Source, lang Lang, view string) string {
	t.Helper()
	if view == "html" {
		page, err := HTML(ctx, src.Invoice, lang)
		if err != nil {
			t.Fatal(err)
		}
		return htmlText(page)
	}
	pdf, err := PDF(ctx, src.Invoice, Options{Lang: lang, Style: view})
	if err != nil {
		t.Fatal(err)
	}
	return pdfText(t, pdf)
}

const dexSums = "corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-02-check-correct-sums-sub-invoice-line.xml"

// TestSubLineViews: the sub-lines are under their line in every view,
// indented and labelled as BG-DEX-01 in the language of the view.
func TestSubLineViews(t *testing.T) {
	ctx := context.Background()
	src := readSource(t, filepath.Join(testshared.Dir(t), dexSums))

	doc := Build(src.Invoice, German)
	var lines *Table
	for _, b := range doc.Sections[0].Blocks {
		for _, tb := range b.Tables {
			if tb.ID == "blk.lines" {
				lines = tb
			}
		}
	}
	if lines == nil || len(lines.Rows) != 3 || lines.Rows[1][0] != "1 1" || lines.Rows[2][1] != "Kasack Bodo blau UKD" ||
		lines.Level(0) != 0 || lines.Level(1) != 1 || lines.Level(2) != 1 {
		t.Fatalf("overview lines table = %+v", lines)
	}
	line := doc.Sections[1].Blocks[0]
	var subs []*Block
	for _, b := range line.Blocks {
		if b.ID == "BG-DEX-01" {
			subs = append(subs, b)
		}
	}
	if len(subs) != 2 || subs[0].Level != 1 || subs[0].Title != "Unterposition 1 1" || subs[0].Badge != "BG-DEX-01" {
		t.Fatalf("sub-line blocks of line 1 = %+v", subs)
	}
	var groups []string
	for _, b := range subs[1].Blocks {
		groups = append(groups, b.ID+"="+b.Title)
	}
	if got := strings.Join(groups, ", "); got != "BG-DEX-07=Preiseinzelheiten der Unterposition, BG-DEX-02=Artikelinformationen der Unterposition" {
		t.Errorf("sub-line 1 2 groups: %s", got)
	}

	for _, lang := range []Lang{English, German} {
		page, err := HTML(ctx, src.Invoice, lang)
		if err != nil {
			t.Fatal(err)
		}
		h := string(page)
		title := map[Lang]string{English: "Sub invoice line 1 2", German: "Unterposition 1 2"}[lang]
		for _, want := range []string{`<tr class="sub1"><td dir="auto">1 2</td>`, `<section class="sub subline">`,
			"<h4>" + title + ` <span class="bt">BG-DEX-01</span></h4>`, "Kasack Bodo blau UKD"} {
			if !strings.Contains(h, want) {
				t.Errorf("HTML (%s) lacks %s", lang, want)
			}
		}
		for _, style := range []string{StyleCompact, StyleKosit} {
			pdf, err := PDF(ctx, src.Invoice, Options{Lang: lang, Style: style})
			if err != nil {
				t.Fatal(err)
			}
			checkPDFA(t, "sub-lines "+style+" "+string(lang), pdf)
			txt := pdfText(t, pdf)
			for _, want := range []string{"› 1 1", "› 1 2", "Hose Bernhard ws UKD", title + " [BG-DEX-01]"} {
				if style == StyleCompact && strings.Contains(want, "[BG-DEX-01]") {
					continue // every value of these sub-lines is in the compact lines table
				}
				if !strings.Contains(txt, want) {
					t.Errorf("PDF %s (%s) lacks %q", style, lang, want)
				}
			}
		}
	}
}

// TestSubLineCompactFlatten: in the compact PDF's further details a
// sub-line is a block of its own after its line, never merged into it.
func TestSubLineCompactFlatten(t *testing.T) {
	line := &Block{ID: "BG-25", Title: "Line 1", Fields: []Field{{BT: "BT-127", Value: "n"}},
		Blocks: []*Block{
			{ID: "BG-29", Fields: []Field{{BT: "BT-149", Value: "2"}}},
			{ID: "BG-DEX-01", Title: "Sub 1.1", Level: 1, Fields: []Field{{BT: "BT-127", Value: "s"}}, Blocks: []*Block{
				{ID: "BG-DEX-07", Fields: []Field{{BT: "BT-149", Value: "3"}}},
				{ID: "BG-DEX-01", Title: "Sub 1.1.1", Level: 2, Fields: []Field{{BT: "BT-127", Value: "ss"}}},
			}},
		}}
	var got []string
	for _, b := range flatten(line) {
		var vs []string
		for _, f := range b.Fields {
			vs = append(vs, f.Value)
		}
		got = append(got, b.Title+":"+strings.Join(vs, ","))
	}
	if s := strings.Join(got, " | "); s != "Line 1:n,2 | Sub 1.1:s,3 | Sub 1.1.1:ss" {
		t.Errorf("flatten = %s", s)
	}
}

// TestSubLinesDeep: sub-lines nested 200 deep (about what the XML depth
// limit allows) render in every view, the indentation capped.
func TestSubLinesDeep(t *testing.T) {
	ctx := context.Background()
	inv := mustRead(filepath.Join(testshared.Dir(t), dexSums))
	l := &inv.Lines[0]
	for i := range 200 {
		l.SubLines = []model.Line{{ID: fmt.Sprintf("d%d", i), Quantity: l.Quantity, UnitCode: "C62", Item: model.Item{Name: fmt.Sprintf("deep item %d", i)}}}
		l = &l.SubLines[0]
	}
	for _, view := range []string{"html", StyleCompact, StyleKosit} {
		txt := squash(viewText(t, ctx, &Source{Invoice: inv}, English, view))
		for _, want := range []string{"deepitem0", "deepitem199"} {
			if !strings.Contains(txt, want) {
				t.Errorf("%s lacks %s", view, want)
			}
		}
	}
	if got := subLineMark(200, "x"); got != strings.Repeat("›", maxSubLevel)+" x" {
		t.Errorf("subLineMark(200) = %q", got)
	}
}
