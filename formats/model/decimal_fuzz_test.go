package model

import (
	"errors"
	"math/big"
	"testing"
)

// ratOf returns d as an exact rational.
func ratOf(t *testing.T, d Decimal) *big.Rat {
	r, ok := new(big.Rat).SetString(d.String())
	if !ok {
		t.Fatalf("String() %q is not a number", d.String())
	}
	return r
}

// roundRat rounds r to places digits, halves away from zero: the reference
// for Decimal.Round and Decimal.Div.
func roundRat(r *big.Rat, places int) *big.Rat {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil)
	x := new(big.Rat).Mul(new(big.Rat).Abs(r), new(big.Rat).SetInt(scale))
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if new(big.Int).Lsh(m, 1).Cmp(x.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return new(big.Rat).SetFrac(q, scale)
}

// FuzzDecimal checks parsing, printing and the arithmetic against math/big.
func FuzzDecimal(f *testing.F) {
	for _, s := range [][2]string{{"1.005", "3"}, {"-0.005", "7"}, {"123456789012345678901234567890.5", "-0.001"},
		{"0", "1"}, {"9223372036854775807", "9223372036854775807"}, {"-9223372036854775808", "-1"}, {".5", "5."}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, as, bs string) {
		a, errA := ParseDecimal(as)
		b, errB := ParseDecimal(bs)
		for _, e := range []error{errA, errB} {
			var de *DecimalError
			if e != nil && !errors.As(e, &de) {
				t.Fatalf("error type %T", e)
			}
		}
		if errA != nil || errB != nil {
			return
		}
		ra, rb := ratOf(t, a), ratOf(t, b)
		if want, ok := new(big.Rat).SetString(as); !ok || want.Cmp(ra) != 0 {
			t.Fatalf("ParseDecimal(%q) = %s", as, a)
		}
		if back, err := ParseDecimal(a.String()); err != nil || !back.Equal(a) || back.String() != a.String() {
			t.Fatalf("String() %q does not round-trip", a.String())
		}
		check := func(op string, got Decimal, want *big.Rat) {
			if ratOf(t, got).Cmp(want) != 0 {
				t.Fatalf("%s %s %s = %s, want %s", as, op, bs, got, want.FloatString(30))
			}
		}
		check("+", a.Add(b), new(big.Rat).Add(ra, rb))
		check("-", a.Sub(b), new(big.Rat).Sub(ra, rb))
		check("*", a.Mul(b), new(big.Rat).Mul(ra, rb))
		check("round2", a.Round(2), roundRat(ra, 2))
		if a.Round(2).DisplayScale() != 2 {
			t.Fatalf("Round(2) of %s has display scale %d", as, a.Round(2).DisplayScale())
		}
		if c := a.Cmp(b); c != ra.Cmp(rb) {
			t.Fatalf("Cmp(%s, %s) = %d", as, bs, c)
		}
		if b.Sign() != 0 {
			q, err := a.Div(b, 4)
			if err != nil {
				t.Fatal(err)
			}
			check("/4", q, roundRat(new(big.Rat).Quo(ra, rb), 4))
		}
	})
}
