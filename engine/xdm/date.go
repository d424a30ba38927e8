package xdm

import (
	"fmt"
	"time"
)

// Date is an xs:date: a proleptic Gregorian calendar date with an optional
// timezone offset in minutes.
type Date struct {
	Year       int32
	Month, Day uint8
	HasTZ      bool
	TZ         int16 // offset in minutes east of UTC
}

// ParseDate parses the xs:date lexical form YYYY-MM-DD with an optional
// timezone (Z or ±hh:mm), surrounding whitespace allowed.
func ParseDate(s string) (Date, bool) {
	s = TrimSpace(s)
	var d Date
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	y := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		y = y*10 + int(s[i]-'0')
		i++
		if y > 1e8 {
			return d, false
		}
	}
	n := i - start
	if n < 4 || (n > 4 && s[start] == '0') {
		return d, false
	}
	if y == 0 {
		return d, false // XSD 1.0: year 0000 not allowed
	}
	if neg {
		y = -y
	}
	if len(s)-i < 6 || s[i] != '-' || s[i+3] != '-' {
		return d, false
	}
	m, ok1 := two(s[i+1:])
	dd, ok2 := two(s[i+4:])
	if !ok1 || !ok2 || m < 1 || m > 12 || dd < 1 || dd > daysIn(y, m) {
		return d, false
	}
	i += 6
	d = Date{Year: int32(y), Month: uint8(m), Day: uint8(dd)}
	rest := s[i:]
	switch {
	case rest == "":
	case rest == "Z":
		d.HasTZ = true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		hh, ok1 := two(rest[1:])
		mm, ok2 := two(rest[4:])
		if !ok1 || !ok2 || mm > 59 || hh > 14 || (hh == 14 && mm != 0) {
			return Date{}, false
		}
		off := hh*60 + mm
		if rest[0] == '-' {
			off = -off
		}
		d.HasTZ, d.TZ = true, int16(off)
	default:
		return Date{}, false
	}
	return d, true
}

func two(s string) (int, bool) {
	if len(s) < 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// String returns the canonical lexical form.
func (d Date) String() string {
	var s string
	if d.Year < 0 {
		s = fmt.Sprintf("-%04d-%02d-%02d", -d.Year, d.Month, d.Day)
	} else {
		s = fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
	}
	if !d.HasTZ {
		return s
	}
	if d.TZ == 0 {
		return s + "Z"
	}
	off, sign := int(d.TZ), '+'
	if off < 0 {
		off, sign = -off, '-'
	}
	return fmt.Sprintf("%s%c%02d:%02d", s, sign, off/60, off%60)
}

// instant returns minutes since an epoch for ordering; dates without a
// timezone use the implicit timezone UTC.
func (d Date) instant() int64 {
	t := time.Date(int(d.Year), time.Month(d.Month), int(d.Day), 0, 0, 0, 0, time.UTC)
	days := t.Unix() / 86400
	return days*1440 - int64(d.TZ)
}

// Compare orders two dates (-1, 0, +1) as their starting instants.
func (d Date) Compare(e Date) int {
	a, b := d.instant(), e.instant()
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// DateOf returns the xs:date of a time, keeping its zone offset.
func DateOf(t time.Time) Date {
	_, off := t.Zone()
	return Date{Year: int32(t.Year()), Month: uint8(t.Month()), Day: uint8(t.Day()), HasTZ: true, TZ: int16(off / 60)}
}
