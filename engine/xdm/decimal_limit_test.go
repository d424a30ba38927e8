package xdm

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"
)

// TestDecimalDigitLimit: a lexical decimal longer than MaxDecimalDigits is
// refused by ParseDecimal, and a cast or castable test on it is the
// dynamic error FOCA0001, never FORG0001 or false (a different verdict).
func TestDecimalDigitLimit(t *testing.T) {
	atLimit := strings.Repeat("9", MaxDecimalDigits)
	over := atLimit + "9"
	if _, ok := ParseDecimal(atLimit); !ok {
		t.Fatalf("a %d-digit decimal was refused", MaxDecimalDigits)
	}
	for _, s := range []string{over, "-" + over, "0." + atLimit, strings.Repeat("0", MaxDecimalDigits) + "1", over[:2000] + "." + over[2000:]} {
		if _, ok := ParseDecimal(s); ok {
			t.Errorf("ParseDecimal accepted %d digits", len(s))
		}
		if !DecimalTooLarge(s) {
			t.Errorf("DecimalTooLarge(%d digits) = false", len(s))
		}
		for _, to := range []Type{TDecimal, TInteger} {
			if strings.Contains(s, ".") && to == TInteger {
				continue
			}
			_, err := Cast(Untyped(s), to)
			var xe *Error
			if !errors.As(err, &xe) || xe.Code != ErrDecimalTooLarge {
				t.Errorf("Cast(%d digits, %v) = %v, want %s", len(s), to, err, ErrDecimalTooLarge)
			}
			if ok, err := CastableErr(Untyped(s), to); ok || err == nil {
				t.Errorf("CastableErr(%d digits, %v) = %v, %v; want an error", len(s), to, ok, err)
			}
		}
	}
	// Invalid forms stay FORG0001 and castable false, whatever their length.
	for _, s := range []string{over + "x", "1.5", "abc"} {
		if ok, err := CastableErr(Untyped(s), TInteger); ok || err != nil {
			t.Errorf("CastableErr(%.20q, integer) = %v, %v; want false, nil", s, ok, err)
		}
	}
	if DecimalTooLarge(over + "x") {
		t.Error("DecimalTooLarge accepted an invalid lexical form")
	}
}

// TestParseDecimalBigForms: the big.Int path strips leading and trailing
// zeros as text; the value is the same as math/big's.
func TestParseDecimalBigForms(t *testing.T) {
	for _, s := range []string{
		"123456789012345678901234567890",
		"-0000123456789012345678901234567890.1234567890000000",
		"00000000000000000000000000000000000.000000000000000000000000",
		"+98765432109876543210.5000",
		"1" + strings.Repeat("0", 40) + ".0000",
	} {
		d, ok := ParseDecimal(s)
		if !ok {
			t.Fatalf("ParseDecimal(%q) failed", s)
		}
		want, _ := new(big.Rat).SetString(s)
		got, _ := new(big.Rat).SetString(d.String())
		if want.Cmp(got) != 0 {
			t.Errorf("ParseDecimal(%q) = %s", s, d)
		}
		if d.s > 0 && strings.HasSuffix(d.String(), "0") {
			t.Errorf("ParseDecimal(%q) = %s: not normalised", s, d)
		}
	}
}

// TestDecimalTooLargeLinear: refusing a hostile value costs linear time
// (the quadratic big.Int parse is never reached): 8 MB of digits well
// under a second even on a loaded machine.
func TestDecimalTooLargeLinear(t *testing.T) {
	s := strings.Repeat("9", 4_000_000) + "." + strings.Repeat("9", 4_000_000)
	start := time.Now()
	_, err := Cast(Untyped(s), TDecimal)
	if el := time.Since(start); el > time.Second {
		t.Errorf("refusing 8,000,000 digits took %v", el)
	}
	if err == nil {
		t.Fatal("8,000,000 digits were accepted")
	}
}
