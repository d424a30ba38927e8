package xdm

import (
	"math"
	"math/big"
	"strconv"
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

// FuzzDecimalCmpFloat: a double's exact decimal value (DecimalFromFloat,
// checked against math/big), compared with a decimal or with another
// double's, orders as the exact comparison of the aligned coefficients
// (Cmp's float64 shortcut, cmpApprox, may only decide what that decides);
// a decimal's Float64 is the nearest double to its digits.
func FuzzDecimalCmpFloat(f *testing.F) {
	f.Add(math.Float64bits(1233.56), int64(123456), uint8(2), math.Float64bits(0.1))
	f.Add(math.Float64bits(-1233.56), int64(-123356), uint8(2), uint64(0))
	f.Add(uint64(0x0000000000000001), int64(1), uint8(200), uint64(0x7FEFFFFFFFFFFFFF))
	f.Add(uint64(0x4340000000000001), int64(9007199254740993), uint8(0), uint64(0x3FF0000000000000))
	f.Fuzz(func(t *testing.T, fbits uint64, c int64, scale uint8, gbits uint64) {
		d := normInt(c, int32(scale%40))
		if want, _ := strconv.ParseFloat(d.String(), 64); d.Float64() != want {
			t.Fatalf("Float64(%s) = %v, want %v", d, d.Float64(), want)
		}
		x := math.Float64frombits(fbits)
		a, err := DecimalFromFloat(x)
		if err != nil {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				t.Fatalf("DecimalFromFloat(%v): %v", x, err)
			}
			return
		}
		if r, _ := new(big.Rat).SetString(a.String()); r.Cmp(new(big.Rat).SetFloat64(x)) != 0 {
			t.Fatalf("DecimalFromFloat(%v) = %s", x, a)
		}
		// d, a's sum with it, a less one unit of its last digit (the
		// closest pair: the shortcut must leave it to the exact path)
		// and less 10^-scale.
		others := []Decimal{d, a.Add(d), a.Sub(normInt(1, a.Scale())), a.Sub(normInt(1, int32(scale%60)))}
		if y := math.Float64frombits(gbits); !math.IsNaN(y) && !math.IsInf(y, 0) {
			b, _ := DecimalFromFloat(y)
			others = append(others, b)
		}
		for _, b := range others {
			x, y, _ := alignBig(a, b)
			if got, want := a.Cmp(b), x.Cmp(y); got != want {
				t.Fatalf("cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
			if got, want := b.Cmp(a), y.Cmp(x); got != want {
				t.Fatalf("cmp(%s, %s) = %d, want %d", b, a, got, want)
			}
		}
	})
}
