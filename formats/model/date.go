package model

import (
	"fmt"
	"strconv"
	"time"
)

// Date is a calendar date without time or zone, written YYYY-MM-DD in the
// canonical JSON (as xs:date without timezone in UBL, format 102 in CII).
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateError is the error of ParseDate.
type DateError struct {
	Input string
	Msg   string
}

func (e *DateError) Error() string { return fmt.Sprintf("date %q: %s", e.Input, e.Msg) }

// ParseDate parses YYYY-MM-DD (exactly four year digits, a real calendar date).
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		if len(s) > 10 && len(s) <= 40 && s[10] == 'T' {
			return Date{}, &DateError{Input: s, Msg: "a date-time is not a date; give YYYY-MM-DD"}
		}
		return Date{}, &DateError{Input: s, Msg: "not a date in the form YYYY-MM-DD"}
	}
	y, e1 := strconv.Atoi(s[0:4])
	m, e2 := strconv.Atoi(s[5:7])
	d, e3 := strconv.Atoi(s[8:10])
	if e1 != nil || e2 != nil || e3 != nil || s[0] == '+' || s[0] == '-' || s[5] == '+' || s[8] == '+' || s[5] == '-' || s[8] == '-' {
		return Date{}, &DateError{Input: s, Msg: "not a date in the form YYYY-MM-DD"}
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if m < 1 || m > 12 || d < 1 || t.Day() != d || t.Month() != time.Month(m) {
		return Date{}, &DateError{Input: s, Msg: "no such calendar date"}
	}
	return Date{Year: y, Month: time.Month(m), Day: d}, nil
}

// NewDate returns the date y-m-d (not checked; use ParseDate for input).
func NewDate(y int, m time.Month, d int) Date { return Date{Year: y, Month: m, Day: d} }

// DateOf returns the calendar date of t in its own location.
func DateOf(t time.Time) Date { return Date{Year: t.Year(), Month: t.Month(), Day: t.Day()} }

// Time returns midnight UTC of d.
func (d Date) Time() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// String returns YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// Compact returns YYYYMMDD (CII format 102).
func (d Date) Compact() string {
	return fmt.Sprintf("%04d%02d%02d", d.Year, int(d.Month), d.Day)
}

// Before reports whether d is earlier than e.
func (d Date) Before(e Date) bool { return d.Time().Before(e.Time()) }

// MarshalJSON encodes d as "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) { return strconv.AppendQuote(nil, d.String()), nil }

// UnmarshalJSON accepts a JSON string YYYY-MM-DD.
func (d *Date) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return &DateError{Input: string(b), Msg: "a date must be a JSON string"}
	}
	v, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Dt is a convenience for optional fields: it returns a pointer to d.
func Dt(d Date) *Date { return &d }
