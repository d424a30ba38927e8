package repair

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// dateOutcome classifies a date text.
type dateOutcome int

const (
	dateISO       dateOutcome = iota // already YYYY-MM-DD and a real date
	dateFixed                        // rewritten to YYYY-MM-DD
	dateAmbiguous                    // day and month cannot be told apart
	dateInvalid                      // not a date in any accepted form
)

// Accepted forms (see docs/REPAIR.md). Separators must be the same twice.
var (
	reISO        = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	reCompact    = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})$`)
	reYearFirst  = regexp.MustCompile(`^(\d{4})([-/.])(\d{1,2})([-/.])(\d{1,2})$`)
	reDots       = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})\.(\d{4})$`)
	reYearLast   = regexp.MustCompile(`^(\d{1,2})([-/])(\d{1,2})([-/])(\d{4})$`)
	reISODateTim = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$`)
)

// normalizeDate returns the ISO form of s (already trimmed) and what it did;
// reason explains a fix, an ambiguity or an invalid value.
func normalizeDate(s string) (iso string, out dateOutcome, reason string) {
	if m := reISO.FindStringSubmatch(s); m != nil {
		if d, ok := calendar(m[1], m[2], m[3]); ok {
			return d, dateISO, ""
		}
		return "", dateInvalid, "not a calendar date"
	}
	fixed := func(y, mo, d, form string) (string, dateOutcome, string) {
		if iso, ok := calendar(y, mo, d); ok {
			return iso, dateFixed, "date in " + form + " form rewritten to ISO 8601 (YYYY-MM-DD)"
		}
		return "", dateInvalid, "form " + form + " but not a calendar date"
	}
	if m := reCompact.FindStringSubmatch(s); m != nil {
		return fixed(m[1], m[2], m[3], "YYYYMMDD")
	}
	if m := reISODateTim.FindStringSubmatch(s); m != nil {
		iso, o, r := fixed(m[1], m[2], m[3], "date-time")
		if o == dateFixed {
			r += "; the time of day is dropped (a UBL date carries none)"
		}
		return iso, o, r
	}
	if m := reYearFirst.FindStringSubmatch(s); m != nil && m[2] == m[4] {
		return fixed(m[1], m[3], m[5], "YYYY"+m[2]+"MM"+m[2]+"DD")
	}
	if m := reDots.FindStringSubmatch(s); m != nil {
		return fixed(m[3], m[2], m[1], "DD.MM.YYYY")
	}
	if m := reYearLast.FindStringSubmatch(s); m != nil && m[2] == m[4] {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[3])
		sep := m[2]
		switch {
		case a == b:
			return fixed(m[5], m[3], m[1], "DD"+sep+"MM"+sep+"YYYY (day equals month)")
		case a > 12 && b <= 12:
			return fixed(m[5], m[3], m[1], "DD"+sep+"MM"+sep+"YYYY (day > 12)")
		case b > 12 && a <= 12:
			return fixed(m[5], m[1], m[3], "MM"+sep+"DD"+sep+"YYYY (day > 12)")
		case a <= 12 && b <= 12:
			return "", dateAmbiguous, fmt.Sprintf("ambiguous: %s could be day %d month %d or month %d day %d; not guessed", s, a, b, a, b)
		}
		return "", dateInvalid, "neither field is a month"
	}
	return "", dateInvalid, "not a date in an accepted form (YYYY-MM-DD, YYYYMMDD, YYYY/MM/DD, YYYY.MM.DD, DD.MM.YYYY, DD/MM/YYYY or DD-MM-YYYY with day > 12, MM/DD/YYYY with day > 12, YYYY-MM-DDThh:mm:ss)"
}

// calendar validates a date given as digit strings and formats it.
func calendar(ys, ms, ds string) (string, bool) {
	y, _ := strconv.Atoi(ys)
	m, _ := strconv.Atoi(ms)
	d, _ := strconv.Atoi(ds)
	if m < 1 || m > 12 || d < 1 || d > 31 || y < 1 {
		return "", false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || int(t.Month()) != m {
		return "", false
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), true
}
