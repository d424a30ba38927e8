package render

import (
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

func TestFormat(t *testing.T) {
	d := func(s string) *model.Decimal { v := model.MustParseDecimal(s); return &v }
	date := model.NewDate(2026, 12, 31)
	for _, c := range []struct {
		lang                 Lang
		in                   string
		number, amount, date string
	}{
		{English, "1234.56", "1,234.56", "1,234.56", "2026-12-31"},
		{German, "1234.56", "1.234,56", "1.234,56", "31.12.2026"},
		{English, "-1234567.5", "-1,234,567.5", "-1,234,567.50", "2026-12-31"},
		{German, "100", "100", "100,00", "31.12.2026"},
		{German, "0.125", "0,125", "0,125", "31.12.2026"},
		{English, "999", "999", "999.00", "2026-12-31"},
	} {
		if got := FormatNumber(c.lang, d(c.in)); got != c.number {
			t.Errorf("FormatNumber(%s, %s) = %q, want %q", c.lang, c.in, got, c.number)
		}
		if got := FormatAmount(c.lang, d(c.in)); got != c.amount {
			t.Errorf("FormatAmount(%s, %s) = %q, want %q", c.lang, c.in, got, c.amount)
		}
		if got := FormatDate(c.lang, &date); got != c.date {
			t.Errorf("FormatDate(%s) = %q, want %q", c.lang, got, c.date)
		}
	}
	if FormatDate(German, nil) != "" || FormatAmount(English, nil) != "" || FormatPercent(English, nil) != "" {
		t.Error("nil values must format as empty")
	}
}

// TestLabelsComplete: every business term and group the views use has an
// English and a German label, and both differ from the key.
func TestLabelsComplete(t *testing.T) {
	for k, l := range labels {
		if l.en == "" || l.de == "" || strings.HasPrefix(l.en, "BT-") || strings.HasPrefix(l.de, "BT-") {
			t.Errorf("label %s: %+v", k, l)
		}
	}
	doc := Build(fullInvoice(), German)
	var walk func(b *Block)
	seen := 0
	walk = func(b *Block) {
		for _, f := range b.Fields {
			seen++
			if f.Label == f.BT || f.Label == "" {
				t.Errorf("field %s has no label", f.BT)
			}
		}
		for _, tb := range b.Tables {
			for _, c := range tb.Cols {
				if c.Label == c.BT || c.Label == "" {
					t.Errorf("column %s has no label", c.BT)
				}
			}
		}
		for _, c := range b.Blocks {
			walk(c)
		}
	}
	for _, s := range doc.Sections {
		for _, b := range s.Blocks {
			walk(b)
		}
	}
	if seen < 100 {
		t.Errorf("only %d fields for the full model", seen)
	}
}
