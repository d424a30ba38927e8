package render

import (
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// Formatting per language. English: 1,234.56 and 2026-12-31; German:
// 1.234,56 and 31.12.2026. A decimal keeps the digits the document gave
// (the model's display scale); amounts get at least two decimals. The
// coverage test formats source values with these same functions.

// FormatDate returns d in lang's form; "" for nil.
func FormatDate(lang Lang, d *model.Date) string {
	if d == nil {
		return ""
	}
	if lang == German {
		return pad2(d.Day) + "." + pad2(int(d.Month)) + "." + pad4(d.Year)
	}
	return d.String()
}

func pad2(n int) string {
	if n >= 0 && n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func pad4(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

// FormatNumber returns d with the digits the document gave, grouped and
// punctuated for lang; "" for nil.
func FormatNumber(lang Lang, d *model.Decimal) string {
	if d == nil {
		return ""
	}
	return groupDigits(lang, d.String())
}

// FormatAmount returns d with at least two decimals, grouped and
// punctuated for lang; "" for nil.
func FormatAmount(lang Lang, d *model.Decimal) string {
	if d == nil {
		return ""
	}
	return groupDigits(lang, d.StringFixed(max(d.DisplayScale(), 2)))
}

// FormatPercent returns a rate or percentage with a percent sign.
func FormatPercent(lang Lang, d *model.Decimal) string {
	if d == nil {
		return ""
	}
	return FormatNumber(lang, d) + " %"
}

// groupDigits rewrites a plain decimal string ("-1234.5") with lang's
// thousands separator and decimal mark.
func groupDigits(lang Lang, s string) string {
	thousands, mark := ",", "."
	if lang == German {
		thousands, mark = ".", ","
	}
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	b.Grow(len(s) + len(s)/3 + 2)
	b.WriteString(sign)
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(thousands)
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString(mark)
		b.WriteString(frac)
	}
	return b.String()
}
