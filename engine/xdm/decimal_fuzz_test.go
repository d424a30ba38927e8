package xdm

import (
	"math/big"
	"strings"
	"testing"
)

// FuzzParseDecimal: ParseDecimal agrees with math/big on every lexically
// valid xs:decimal of at most MaxDecimalDigits digits (value, and the
// canonical String round-trips), refuses longer ones (DecimalTooLarge)
// and never accepts a string math/big and the lexical rules reject.
// Crashers are kept in testdata/fuzz/FuzzParseDecimal.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "-0.0", "+12.50", ".5", "5.", "12345678901234567890.123456789",
		" 7 ", "1e5", "--1", "", ".", "00000000000000000000001", strings.Repeat("9", MaxDecimalDigits+1)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseDecimal(s)
		lexical := decimalLexical(TrimSpace(s))
		if !lexical {
			if ok {
				t.Fatalf("ParseDecimal(%q) accepted a non-decimal", s)
			}
			return
		}
		digits := strings.Count(s, "0") + strings.Count(s, "1") + strings.Count(s, "2") + strings.Count(s, "3") +
			strings.Count(s, "4") + strings.Count(s, "5") + strings.Count(s, "6") + strings.Count(s, "7") +
			strings.Count(s, "8") + strings.Count(s, "9")
		if digits > MaxDecimalDigits {
			if ok || !DecimalTooLarge(s) {
				t.Fatalf("%d digits: ParseDecimal ok=%v, DecimalTooLarge=%v", digits, ok, DecimalTooLarge(s))
			}
			return
		}
		if !ok || DecimalTooLarge(s) {
			t.Fatalf("ParseDecimal(%q) refused a valid decimal", s)
		}
		want, _ := new(big.Rat).SetString(strings.TrimPrefix(TrimSpace(s), "+"))
		got, okr := new(big.Rat).SetString(d.String())
		if !okr || want.Cmp(got) != 0 {
			t.Fatalf("ParseDecimal(%q) = %s", s, d)
		}
		if back, ok := ParseDecimal(d.String()); !ok || back.Cmp(d) != 0 {
			t.Fatalf("String %q does not round-trip", d.String())
		}
	})
}

// decimalLexical is the xs:decimal lexical rule, written independently of
// ParseDecimal: optional sign, digits with at most one point, one digit at
// least.
func decimalLexical(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart+frac == "" {
		return false
	}
	for _, r := range intPart + frac {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
