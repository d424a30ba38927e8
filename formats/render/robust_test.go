package render

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// robustBase is the UBL example the robustness cases edit.
const robustBase = "corpus/en16931/ubl/examples/ubl-tc434-example2.xml"

// robustCase is a document the views must render without error, and
// values that must appear in every view.
type robustCase struct {
	name string
	xml  []byte
	inv  *model.Invoice // instead of xml
	want []string
}

func robustCases(t testing.TB) []robustCase {
	t.Helper()
	base, err := os.ReadFile(filepath.Join(testshared.Dir(t), robustBase))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(pairs ...string) []byte {
		out := base
		for i := 0; i < len(pairs); i += 2 {
			if !bytes.Contains(out, []byte(pairs[i])) {
				t.Fatalf("robust case: %q not in %s", pairs[i], robustBase)
			}
			out = bytes.Replace(out, []byte(pairs[i]), []byte(pairs[i+1]), 1)
		}
		return out
	}
	long := strings.Repeat("Sehr lange Firmenbezeichnung mit Zusatz ", 12) + strings.Repeat("X", 300)
	thousand := model.RandomInvoice(rand.New(rand.NewPCG(8, 8)), model.RandomOptions{Lines: 1000, Categories: []model.VATCategoryCode{model.VATStandard}})
	return []robustCase{
		{name: "empty-dates", xml: edit("<cbc:IssueDate>2013-06-30</cbc:IssueDate>", "<cbc:IssueDate></cbc:IssueDate>",
			"<cbc:DueDate>2013-07-20</cbc:DueDate>", "<cbc:DueDate/>")},
		{name: "payment-terms", xml: edit("</cac:PaymentTerms>", "</cac:PaymentTerms><cac:PaymentTerms><cbc:Note>2 % Skonto bis 2013-04-20</cbc:Note></cac:PaymentTerms><cac:PaymentTerms><cbc:Note>netto 30 Tage</cbc:Note></cac:PaymentTerms>")},
		{name: "date-lists", xml: edit("<cbc:DueDate>2013-07-20</cbc:DueDate>", "<cbc:DueDate>2013-07-20</cbc:DueDate><cbc:DueDate>2013-06-10</cbc:DueDate><cbc:DueDate/>",
			"<cac:Delivery>", "<cac:Delivery><cbc:ActualDeliveryDate>2013-04-01</cbc:ActualDeliveryDate><cbc:ActualDeliveryDate>2013-04-02</cbc:ActualDeliveryDate></cac:Delivery><cac:Delivery>")},
		{name: "long-names", xml: edit("<cbc:Name>Laptop computer</cbc:Name>", "<cbc:Name>"+long+"</cbc:Name>"), want: []string{long}},
		{name: "rtl", xml: edit("<cbc:Name>Laptop computer</cbc:Name>", "<cbc:Name>شركة الاختبار المحدودة</cbc:Name>"), want: []string{"شركة الاختبار المحدودة"}},
		{name: "cjk", xml: edit("<cbc:Name>Laptop computer</cbc:Name>", "<cbc:Name>株式会社テスト 北京测试有限公司</cbc:Name>"), want: []string{"株式会社テスト"}},
		{name: "markup", xml: edit("<cbc:Name>Laptop computer</cbc:Name>", "<cbc:Name>&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</cbc:Name>"), want: []string{"<script>alert(1)</script> & Co"}},
		{name: "1000-lines", inv: thousand, want: []string{thousand.Lines[999].Item.Name}},
		{name: "empty-model", inv: &model.Invoice{}},
	}
}

// TestRobust renders documents the official visualization is known to
// crash on, and extremes, as HTML and both PDFs.
func TestRobust(t *testing.T) {
	ctx := context.Background()
	for _, c := range robustCases(t) {
		t.Run(c.name, func(t *testing.T) {
			inv := c.inv
			if inv == nil {
				src, err := Read(c.xml)
				if err != nil {
					t.Fatal(err)
				}
				inv = src.Invoice
			}
			for _, lang := range []Lang{English, German} {
				page, err := HTML(ctx, inv, lang)
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(page, []byte("<script")) {
					t.Error("HTML carries a script element")
				}
				for _, w := range c.want {
					if !strings.Contains(squash(htmlText(page)), squash(w)) {
						t.Errorf("HTML (%s) lacks %.40q", lang, w)
					}
				}
			}
			for _, style := range []string{StyleCompact, StyleKosit} {
				pdf, err := PDF(ctx, inv, Options{Lang: German, Style: style})
				if err != nil {
					t.Fatal(err)
				}
				txt := squash(footerRE.ReplaceAllString(pdfText(t, pdf), ""))
				for _, w := range c.want {
					if !strings.Contains(txt, squash(w)) && !strings.Contains(txt, squash(reverseWords(w))) {
						t.Errorf("PDF %s lacks %.40q", style, w)
					}
				}
				checkPDFA(t, fmt.Sprintf("robust-%s-%s", c.name, style), pdf)
			}
		})
	}
}

// reverseWords reverses the characters of each word: pdftotext returns
// right-to-left words that way, because the PDF holds them in logical
// order (docs/RENDERING.md, "Scripts").
func reverseWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r := []rune(w)
		slices.Reverse(r)
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}
