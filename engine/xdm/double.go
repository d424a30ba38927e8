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
	s = trimWS(s)
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
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}
