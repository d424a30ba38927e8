package ops

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// consistencyMaxPages bounds the pages whose text is compared.
const consistencyMaxPages = 50

// invoiceHeader holds the values consistency compares, read from a CII
// document (D16B, and ZUGFeRD 1.0's older element names).
type invoiceHeader struct {
	ID, IssueDate, Currency, Payable string
}

// readCIIHeader reads BT-1, BT-2, BT-5 and BT-115 by local-name paths.
func readCIIHeader(doc []byte) invoiceHeader {
	var h invoiceHeader
	walkXML(doc, func(path []string, text string) bool {
		n := len(path)
		text = strings.TrimSpace(text)
		parent := func(k int) string {
			if n-1-k >= 0 {
				return path[n-1-k]
			}
			return ""
		}
		switch path[n-1] {
		case "ID":
			if (parent(1) == "ExchangedDocument" || parent(1) == "HeaderExchangedDocument") && n == 3 && h.ID == "" {
				h.ID = text
			}
		case "DateTimeString":
			if parent(1) == "IssueDateTime" && (parent(2) == "ExchangedDocument" || parent(2) == "HeaderExchangedDocument") && h.IssueDate == "" {
				h.IssueDate = text
			}
		case "InvoiceCurrencyCode":
			if h.Currency == "" {
				h.Currency = text
			}
		case "DuePayableAmount":
			if strings.HasSuffix(parent(1), "MonetarySummation") && (parent(2) == "ApplicableHeaderTradeSettlement" || parent(2) == "ApplicableSupplyChainTradeSettlement") && h.Payable == "" {
				h.Payable = text
			}
		}
		return true
	})
	return h
}

// Consistency compares invoice id, issue date, currency and payable
// amount of the embedded CII with the text printed on the pages (at most
// the first 50). A PDF without embedded XML is a 422.
func (s *Service) Consistency(ctx context.Context, pdf []byte) (_ *wire.ConsistencyResult, err error) {
	defer func() { wrap(&err, "ops.Consistency") }()
	defer recoverPDF(&err)
	d, err := OpenPDF(pdf)
	if err != nil {
		return nil, err
	}
	inv, err := extractXML(ctx, d)
	if err != nil {
		return nil, err
	}
	h := readCIIHeader(inv.XML)
	if h.ID == "" && h.Payable == "" && h.IssueDate == "" {
		return nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError,
			Msg: fmt.Sprintf("Value error, the embedded %s is not a CII invoice (no invoice id, date or amount found)", inv.FileName)}}}
	}
	pages, err := pageLines(ctx, d)
	if err != nil {
		return nil, err
	}
	res := &wire.ConsistencyResult{Consistent: true, XMLFile: inv.FileName}
	add := func(name, bt, val string, find func(string) (string, bool), how string) {
		it := wire.ConsistencyItem{Name: name, BT: bt, XMLValue: val}
		switch {
		case val == "":
			it.Note = "the XML has no value"
		default:
			it.Evidence = search(pages, find)
			it.Found = it.Evidence != nil
			if !it.Found {
				it.Note = "not printed on any page (" + how + ")"
			}
		}
		if !it.Found {
			res.Consistent = false
		}
		res.Items = append(res.Items, it)
	}
	add("invoice_id", "BT-1", h.ID, idMatcher(h.ID), "formats tried: the exact identifier as a word")
	date, derr := parseCIIDate(h.IssueDate)
	if derr != nil && h.IssueDate != "" {
		res.Items = append(res.Items, wire.ConsistencyItem{Name: "issue_date", BT: "BT-2", XMLValue: h.IssueDate, Note: "the XML date is not in format 102 (YYYYMMDD)"})
		res.Consistent = false
	} else {
		add("issue_date", "BT-2", h.IssueDate, dateMatcher(date), "formats tried: YYYY-MM-DD, DD.MM.YYYY, DD/MM/YYYY, MM/DD/YYYY, DD-MM-YYYY, two-digit years, YYYYMMDD, day and month name in English, German or French")
	}
	add("currency", "BT-5", h.Currency, currencyMatcher(h.Currency), "formats tried: the ISO 4217 code as a word, its symbol")
	amount, ok := new(big.Rat).SetString(h.Payable)
	if !ok && h.Payable != "" {
		res.Items = append(res.Items, wire.ConsistencyItem{Name: "payable_amount", BT: "BT-115", XMLValue: h.Payable, Note: "the XML amount is not a decimal"})
		res.Consistent = false
	} else {
		add("payable_amount", "BT-115", h.Payable, amountMatcher(amount), "formats tried: decimal comma or point, grouping by point, comma, apostrophe or space; sign ignored")
	}
	return res, nil
}

// pageLines returns the text lines of the first pages.
func pageLines(ctx context.Context, d *pdfread.Doc) ([][]string, error) {
	pages, err := d.Pages()
	if err != nil && len(pages) == 0 {
		return nil, pdfError(err)
	}
	var out [][]string
	for i, p := range pages {
		if i >= consistencyMaxPages {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lines, err := d.PageText(p)
		if err != nil {
			return nil, pdfError(err)
		}
		texts := make([]string, len(lines))
		for k, l := range lines {
			texts[k] = l.Text
		}
		out = append(out, texts)
	}
	return out, nil
}

func search(pages [][]string, find func(string) (string, bool)) *wire.ConsistencyEvidence {
	for i, lines := range pages {
		for _, l := range lines {
			if m, ok := find(l); ok {
				return &wire.ConsistencyEvidence{Page: i + 1, Line: l, Match: m}
			}
		}
	}
	return nil
}

// normSpace turns the space-like characters of extracted text into spaces.
func normSpace(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u00a0', '\u202f', '\u2009', '\u2007', '\t':
			return ' '
		}
		return r
	}, s)
}

// idMatcher finds the identifier as a whole token (not inside a longer
// run of letters or digits).
func idMatcher(id string) func(string) (string, bool) {
	return func(line string) (string, bool) {
		line = normSpace(line)
		for from := 0; ; {
			i := strings.Index(line[from:], id)
			if i < 0 {
				return "", false
			}
			i += from
			j := i + len(id)
			if (i == 0 || !isAlnum(line[i-1]) || !isAlnum(id[0])) && (j == len(line) || !isAlnum(line[j]) || !isAlnum(id[len(id)-1])) {
				return id, true
			}
			from = i + 1
		}
	}
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

var currencySymbols = map[string][]string{
	"EUR": {"€"}, "USD": {"$", "US$"}, "GBP": {"£"}, "JPY": {"¥"}, "CHF": {"Fr."}, "INR": {"₹"},
	"PLN": {"zł"}, "SEK": {"kr"}, "NOK": {"kr"}, "DKK": {"kr"}, "CZK": {"Kč"}, "HUF": {"Ft"},
}

func currencyMatcher(code string) func(string) (string, bool) {
	code = strings.ToUpper(code)
	byCode := idMatcher(code)
	return func(line string) (string, bool) {
		if m, ok := byCode(line); ok {
			return m, true
		}
		for _, sym := range currencySymbols[code] {
			if strings.Contains(line, sym) {
				return sym, true
			}
		}
		return "", false
	}
}

// numberRe finds printed numbers: digits with grouping (. , space ' and
// the narrow spaces) and an optional decimal part.
var numberRe = regexp.MustCompile(`\d[\d.,' \x{00a0}\x{202f}\x{2009}]*\d|\d`)

// amountMatcher finds a printed number equal to amount (or its absolute
// value: credit notes print negatives in many ways), reading each number
// both with decimal comma and with decimal point.
func amountMatcher(amount *big.Rat) func(string) (string, bool) {
	abs := new(big.Rat)
	if amount != nil {
		abs.Abs(amount)
	}
	return func(line string) (string, bool) {
		for _, m := range numberRe.FindAllString(line, -1) {
			// A run may hold several numbers separated by spaces
			// ("2 1.234,56"); try the whole run, then its space-separated tails.
			cands := []string{m}
			parts := strings.FieldsFunc(m, func(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009' })
			for i := range parts {
				cands = append(cands, strings.Join(parts[i:], " "), parts[i])
			}
			for _, c := range cands {
				for _, v := range readNumber(c) {
					if v.Cmp(abs) == 0 {
						return strings.TrimSpace(c), true
					}
				}
			}
		}
		return "", false
	}
}

// readNumber returns the values a printed number can mean.
func readNumber(s string) []*big.Rat {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\u00a0', '\u202f', '\u2009', '\'':
			return -1
		}
		return r
	}, s)
	var out []*big.Rat
	try := func(dec byte) {
		var b strings.Builder
		seenDec := false
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= '0' && c <= '9':
				b.WriteByte(c)
			case c == dec:
				if seenDec {
					return
				}
				seenDec = true
				b.WriteByte('.')
			case c == '.' || c == ',':
				// grouping: must be followed by exactly three digits
				if seenDec || !digits3(s[i+1:]) {
					return
				}
			}
		}
		if r, ok := new(big.Rat).SetString(b.String()); ok {
			out = append(out, r)
		}
	}
	try(',')
	try('.')
	return out
}

// digits3 reports whether s starts with exactly three digits followed by
// a non-digit or the end.
func digits3(s string) bool {
	if len(s) < 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) == 3 || s[3] < '0' || s[3] > '9'
}

func parseCIIDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse("20060102", s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02", s)
}

var monthNames = [][]string{
	{"january", "jan"}, {"february", "feb"}, {"march", "mar"}, {"april", "apr"}, {"may"}, {"june", "jun"},
	{"july", "jul"}, {"august", "aug"}, {"september", "sep", "sept"}, {"october", "oct"}, {"november", "nov"}, {"december", "dec"},
}

// German and French month names (and common abbreviations).
var monthNamesDEFR = [][]string{
	{"januar", "jänner", "janvier", "janv"}, {"februar", "février", "fevrier", "févr"}, {"märz", "maerz", "mars", "mrz"},
	{"april", "avril", "avr"}, {"mai"}, {"juni", "juin"}, {"juli", "juillet", "juil"}, {"august", "août", "aout"},
	{"september", "septembre"}, {"oktober", "okt", "octobre"}, {"november", "novembre"}, {"dezember", "dez", "décembre", "decembre", "déc"},
}

var (
	isoDateRe  = regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
	numDateRe  = regexp.MustCompile(`\b(\d{1,2})([./-])(\d{1,2})([./-])(\d{4}|\d{2})\b`)
	compactRe  = regexp.MustCompile(`\b(\d{4})(\d{2})(\d{2})\b`)
	dayMonthRe = regexp.MustCompile(`(?i)\b(\d{1,2})\.?\s*(?:de\s+)?([\p{L}]+)\.?,?\s+(\d{4})\b`)
	monthDayRe = regexp.MustCompile(`(?i)\b([\p{L}]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
)

func monthIndex(name string) int {
	n := strings.ToLower(name)
	for _, tab := range [][][]string{monthNames, monthNamesDEFR} {
		for i, names := range tab {
			for _, m := range names {
				if n == m {
					return i + 1
				}
			}
		}
	}
	return 0
}

// dateMatcher finds date printed in any of the tolerated forms.
func dateMatcher(date time.Time) func(string) (string, bool) {
	y, mo, d := date.Year(), int(date.Month()), date.Day()
	same := func(yy, mm, dd int) bool {
		if yy < 100 {
			yy += 2000
		}
		return yy == y && mm == mo && dd == d
	}
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return func(line string) (string, bool) {
		line = normSpace(line)
		for _, m := range isoDateRe.FindAllStringSubmatch(line, -1) {
			if same(atoi(m[1]), atoi(m[2]), atoi(m[3])) {
				return m[0], true
			}
		}
		for _, m := range numDateRe.FindAllStringSubmatch(line, -1) {
			if m[2] != m[4] {
				continue
			}
			a, b, yy := atoi(m[1]), atoi(m[3]), atoi(m[5])
			// Day first everywhere; month first also for "/" (US).
			if same(yy, b, a) || (m[2] == "/" && same(yy, a, b)) {
				return m[0], true
			}
		}
		for _, m := range compactRe.FindAllStringSubmatch(line, -1) {
			if same(atoi(m[1]), atoi(m[2]), atoi(m[3])) {
				return m[0], true
			}
		}
		for _, m := range dayMonthRe.FindAllStringSubmatch(line, -1) {
			if mm := monthIndex(m[2]); mm > 0 && same(atoi(m[3]), mm, atoi(m[1])) {
				return m[0], true
			}
		}
		for _, m := range monthDayRe.FindAllStringSubmatch(line, -1) {
			if mm := monthIndex(m[1]); mm > 0 && same(atoi(m[3]), mm, atoi(m[2])) {
				return m[0], true
			}
		}
		return "", false
	}
}
