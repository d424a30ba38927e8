package xdm

import (
	"math"
	"testing"
)

// smallSamples are xs:integer and xs:decimal items around the edges of
// CompareGeneral's same-scale path: zero, ±1, the int64 limits, several
// scales and the plain mark, and coefficients beyond an int64.
func smallSamples() []Item {
	var out []Item
	for _, c := range []int64{0, 1, -1, 7, -7, 10, 100, -250, 12345, math.MaxInt64, math.MinInt64, math.MaxInt64 / 10, math.MinInt64 + 1, 1 << 32, -(1 << 31)} {
		out = append(out, Integer(c))
		for _, s := range []int32{0, 1, 2, 3} {
			d := Dec(Decimal{c: c, s: s})
			out = append(out, d)
			d.B = true
			out = append(out, d)
		}
	}
	for _, s := range []string{"123456789012345678901234567890", "-123456789012345678901234567890", "98765432109876543210"} {
		d, ok := ParseDecimal(s)
		if !ok || d.b == nil {
			panic(s + ": not a big coefficient")
		}
		out = append(out, Dec(d), IntegerD(d))
	}
	return out
}

// TestCompareSameScale: CompareGeneral's path for two int64-sized
// decimals of one scale answers what compareAtomic (Decimal.Cmp) answers
// for every pair of samples and operator.
func TestCompareSameScale(t *testing.T) {
	xs := smallSamples()
	for _, a := range xs {
		for _, b := range xs {
			for op := OpEq; op <= OpGe; op++ {
				got, err := CompareGeneral(op, a, b)
				want, werr := compareAtomic(op, &a, &b)
				if got != want || (err == nil) != (werr == nil) {
					t.Fatalf("%s %s %s = %v, want %v", a.StringValue(), op, b.StringValue(), got, want)
				}
			}
		}
	}
}

// ptr returns the address of a copy of it (compareAtomic takes pointers).
func ptr(it Item) *Item { return &it }

// TestCompareDoubleInteger: CompareGeneral's path for a double against an
// integral int64-sized decimal or integer answers what compareAtomic
// (AsFloat) answers, NaN, infinities, -0, fractions and values beyond
// 2^53 among the doubles.
func TestCompareDoubleInteger(t *testing.T) {
	doubles := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 7, 7.5, 1e300,
		-250, 1 << 53, 1<<53 + 2, 9.223372036854775807e18, -9.223372036854775808e18, 0.1}
	for _, f := range doubles {
		a := Double(f)
		for _, b := range smallSamples() {
			for op := OpEq; op <= OpGe; op++ {
				got, err := CompareGeneral(op, a, b)
				want, werr := compareAtomic(op, &a, &b)
				if got != want || (err == nil) != (werr == nil) {
					t.Fatalf("%v %s %s = %v, want %v", f, op, b.StringValue(), got, want)
				}
			}
		}
	}
}

// TestArithIntegers: Arith's path for two int64-sized integers gives what
// the Decimal operations give (the item, its plain mark included), and
// leaves the results beyond an int64 to them.
func TestArithIntegers(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 55, 64, -250, 12345, 1 << 31, -(1 << 31), 1 << 32, math.MaxInt64, math.MinInt64,
		math.MaxInt64 - 1, math.MinInt64 + 1, math.MaxInt64 / 2, math.MinInt64 / 2, 3037000499, -3037000500}
	slow := map[ArithOp]func(a, b Decimal) Decimal{
		OpAdd: Decimal.Add, OpSub: Decimal.Sub, OpMul: Decimal.Mul,
	}
	for _, x := range vals {
		for _, y := range vals {
			for op, f := range slow {
				a, b := Integer(x), Integer(y)
				a.B = x%2 == 0 // the plain mark does not matter
				got, err := Arith(op, a, b)
				want := IntegerD(f(a.Decimal(), b.Decimal()))
				if err != nil || got.T != want.T || got.B != want.B || got.Node != want.Node || got.StringValue() != want.StringValue() {
					t.Fatalf("%d %s %d = %v %v, want %v", x, op, y, got, err, want)
				}
			}
		}
	}
}
