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

// TestCompareUntypedBoolean: CompareGeneral's path for an untypedAtomic
// against an xs:boolean (either side) answers what promoting the
// untypedAtomic (Cast to xs:boolean) and compareAtomic answer, and raises
// the cast's error where it does.
func TestCompareUntypedBoolean(t *testing.T) {
	for _, s := range []string{"true", "false", "1", "0", " true ", "\tfalse\n", "TRUE", "yes", "", "01", "true false"} {
		for _, b := range []bool{false, true} {
			for op := OpEq; op <= OpGe; op++ {
				u, v := Untyped(s), Bool(b)
				for _, pair := range [][2]Item{{u, v}, {v, u}} {
					x, y := pair[0], pair[1]
					got, err := CompareGeneral(op, x, y)
					var want bool
					var werr error
					if x.T == TUntyped {
						x, werr = Cast(x, TBoolean)
					} else {
						y, werr = Cast(y, TBoolean)
					}
					if werr == nil {
						want, werr = compareAtomic(op, &x, &y)
					}
					if got != want || (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
						t.Errorf("%q %s %v (untyped first: %v) = %v, %v; want %v, %v", s, op, b, pair[0].T == TUntyped, got, err, want, werr)
					}
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

// viaDoubles is the general comparison of the untypedAtomic s with the
// numeric item d as the casts make it: s cast to xs:double.
func viaDoubles(op CmpOp, s string, d Item, swap bool) (bool, error) {
	u, err := promoteUntyped(Untyped(s), d.T)
	if err != nil {
		return false, err
	}
	if swap {
		return compareAtomic(op, &d, &u)
	}
	return compareAtomic(op, &u, &d)
}

// checkUntypedDecimal fails t when CompareGeneral of s with d, either
// order, differs from the comparison of s cast to xs:double, error
// included.
func checkUntypedDecimal(t *testing.T, s string, d Item) {
	t.Helper()
	for op := OpEq; op <= OpGe; op++ {
		for _, swap := range []bool{false, true} {
			a, b := Untyped(s), d
			if swap {
				a, b = b, a
			}
			got, err := CompareGeneral(op, a, b)
			want, werr := viaDoubles(op, s, d, swap)
			if got != want || (err == nil) != (werr == nil) {
				t.Fatalf("%q %s %s (swapped %v) = %v, %v; the doubles say %v, %v", s, op, d.StringValue(), swap, got, err, want, werr)
			}
		}
	}
}

// TestCompareUntypedDecimal: a node's value against a numeric literal,
// compared exactly when both have at most 15 significant digits
// (untypedDecimalCmp), answers what the cast to xs:double answers: ties
// that the doubles round together (4.9999999999999999 against 5) and
// forms only a double has (1e3, INF, NaN) are left to the casts.
func TestCompareUntypedDecimal(t *testing.T) {
	strs := []string{"0", "-0", "+0", " 25 ", "25.00", "1.5", "-1.5", "0.1", "0.10000000000000001", "4.9999999999999999",
		"5", "5.", ".5", "-.5", "999999999999999", "1000000000000000", "99999999999999.9", "0.000000000000001",
		"1e3", "INF", "-INF", "NaN", "", " ", "abc", "1.2.3", "--1", "+", "-", ".", "12345678901234567890", "\t7\n"}
	nums := []Item{Integer(0), Integer(5), Integer(-5), Integer(100), Integer(999999999999999), Integer(1000000000000000),
		Dec(Decimal{c: 1, s: 1}), Dec(Decimal{c: 15, s: 1}), Dec(Decimal{c: -15, s: 1}), Dec(Decimal{c: 5, s: 0, plain: true})}
	nums = append(nums, smallSamples()...)
	for _, s := range strs {
		for _, d := range nums {
			checkUntypedDecimal(t, s, d)
		}
	}
}

// FuzzCompareUntypedDecimal: the exact comparison of an untypedAtomic
// value with a decimal agrees with the comparison of doubles.
func FuzzCompareUntypedDecimal(f *testing.F) {
	for _, s := range []string{"0", "-0", "25.00", "4.9999999999999999", "0.1", "1e3", "NaN", " 7 "} {
		f.Add(s, int64(5), uint8(0))
		f.Add(s, int64(1), uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, c int64, scale uint8) {
		d := Dec(normInt(c, int32(scale%20)))
		if scale >= 128 {
			d = Integer(c)
		}
		checkUntypedDecimal(t, s, d)
	})
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

// TestFloatMod: the double mod of integral operands by integer division
// gives math.Mod's bits (the sign of a zero remainder included), and
// leaves fractions, NaN, infinities and values beyond 2^53 to it.
func TestFloatMod(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 3, -3, 4, 7, -7, 100, 400, 2024, -2024, 1900, 2000,
		0.5, -2.5, 1e15, -1e15, 1 << 53, -(1 << 53), 1<<53 - 1, -(1<<53 - 1), 1e300, math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, 4503599627370497.0}
	for _, x := range vals {
		for _, y := range vals {
			got, want := floatMod(x, y), math.Mod(x, y)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("floatMod(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
		r, err := Arith(OpMod, Double(x), Integer(-4))
		if w := math.Mod(x, -4); err != nil || math.Float64bits(r.Float()) != math.Float64bits(w) && !math.IsNaN(w) {
			t.Fatalf("%v mod -4 = %v %v, want %v", x, r, err, w)
		}
	}
}
