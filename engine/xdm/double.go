package xdm

import (
	"math"
	"strconv"
	"strings"
)

// FormatDouble returns the canonical xs:string form of a double as XPath 2.0
// casting defines it: decimal notation for 1e-6 <= |f| < 1e6, otherwise
// mantissa "E" exponent ("1.0E7"); NaN, INF, -INF.
func FormatDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "INF"
	case math.IsInf(f, -1):
		return "-INF"
	case f == 0:
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e-6 && a < 1e6 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'E', -1, 64) // 1.5E+07
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	if exp[0] == '+' {
		exp = exp[1:]
	}
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
	if exp == "" {
		exp = "0"
	}
	if neg {
		exp = "-" + exp
	}
	return mant + "E" + exp
}

// ParseDouble parses the xs:double lexical form (decimal with optional
// exponent, INF, -INF, NaN; surrounding whitespace allowed).
func ParseDouble(s string) (float64, bool) {
	s = TrimSpace(s)
	switch s {
	case "INF", "+INF":
		return math.Inf(1), true
	case "-INF":
		return math.Inf(-1), true
	case "NaN":
		return math.NaN(), true
	case "":
		return 0, false
	}
	// Reject forms strconv accepts but XSD does not (hex, underscores, inf words).
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	if f, ok := parsePlainFloat(s); ok {
		return f, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// float64Pow10 holds the powers of ten a float64 represents exactly.
var float64Pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parsePlainFloat parses an amount without an exponent ("1234.56", "-0.5")
// whose digits, the point removed, are an integer below 2^53 with at most
// 22 after the point: that integer and the power of ten are then exact
// float64s, and one division rounds as strconv.ParseFloat does. ok=false
// for any other form, which ParseFloat then parses.
func parsePlainFloat(s string) (float64, bool) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var m uint64
	digits, frac, point, seen := 0, 0, false, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if digits == 19 {
				return 0, false
			}
			m = m*10 + uint64(c-'0')
			if m != 0 {
				digits++
			}
			if point {
				frac++
			}
			seen = true
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	if !seen || m > 1<<53 || frac > 22 {
		return 0, false
	}
	f := float64(m) / float64Pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}
