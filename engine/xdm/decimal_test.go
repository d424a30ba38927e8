package xdm

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func dec(t *testing.T, s string) Decimal {
	t.Helper()
	d, ok := ParseDecimal(s)
	if !ok {
		t.Fatalf("ParseDecimal(%q) failed", s)
	}
	return d
}

func TestParseDecimal(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"0", "0", true}, {"1.50", "1.5", true}, {"-0.0", "0", true}, {"+3", "3", true},
		{" 12.340 ", "12.34", true}, {".5", "0.5", true}, {"5.", "5", true},
		{"-.25", "-0.25", true}, {"00012", "12", true},
		{"123456789012345678901234567890.123456789", "123456789012345678901234567890.123456789", true},
		{"1e3", "", false}, {"", "", false}, {".", "", false}, {"1.2.3", "", false}, {"--1", "", false},
		{"1,5", "", false}, {"INF", "", false}, {"NaN", "", false}, {"0x10", "", false}, {"- 1", "", false},
	} {
		d, ok := ParseDecimal(c.in)
		if ok != c.ok || (ok && d.String() != c.want) {
			t.Errorf("ParseDecimal(%q) = %v %v, want %q %v", c.in, d, ok, c.want, c.ok)
		}
	}
}

func TestDecimalArithmetic(t *testing.T) {
	for _, c := range []struct{ a, op, b, want string }{
		{"0.1", "+", "0.2", "0.3"},
		{"1.10", "-", "0.1", "1"},
		{"9223372036854775807", "+", "1", "9223372036854775808"},
		{"-9223372036854775808", "-", "1", "-9223372036854775809"},
		{"3037000500", "*", "3037000500", "9223372037000250000"},
		{"0.001", "*", "0.001", "0.000001"},
		{"1", "/", "3", "0.333333333333333333"},
		{"2", "/", "3", "0.666666666666666667"},
		{"-2", "/", "3", "-0.666666666666666667"},
		{"1", "/", "8", "0.125"},
		{"100", "/", "0.5", "200"},
		// half-down at the 18th digit: 5e-19 exactly rounds down
		{"0.0000000000000000005", "/", "1", "0.0000000000000000005"},
		// xs:decimal 2000000000000000000 has Java scale -18: 36 digits are kept
		{"1", "/", "2000000000000000000", "0.0000000000000000005"},
		{"1", "/", "4000000000000000000", "0.00000000000000000025"},
		{"1", "/", "300", "0.003333333333333333"}, {"1", "/", "300.0", "0.00333333333333333333"},
		{"2", "/", "3", "0.666666666666666667"},
		{"0.666666666666666667", "/", "7", "0.095238095238095238142857142857142857"},
		{"7", "idiv", "2", "3"}, {"-7", "idiv", "2", "-3"}, {"7.5", "idiv", "2", "3"},
		{"7", "mod", "3", "1"}, {"-7", "mod", "3", "-1"}, {"7", "mod", "-3", "1"}, {"7.5", "mod", "2", "1.5"},
		{"123456789012345678901234567890", "idiv", "10", "12345678901234567890123456789"},
		{"123456789012345678901234567890", "mod", "7", "0"}, {"123456789012345678901234567891", "mod", "7", "1"},
	} {
		a, b := dec(t, c.a), dec(t, c.b)
		var got Decimal
		var err error
		switch c.op {
		case "+":
			got = a.Add(b)
		case "-":
			got = a.Sub(b)
		case "*":
			got = a.Mul(b)
		case "/":
			got, err = a.Div(b)
		case "idiv":
			got, err = a.IDiv(b)
		case "mod":
			got, err = a.Mod(b)
		}
		if err != nil || got.String() != c.want {
			t.Errorf("%s %s %s = %s (%v), want %s", c.a, c.op, c.b, got, err, c.want)
		}
	}
	for _, f := range []func(Decimal, Decimal) (Decimal, error){Decimal.Div, Decimal.IDiv, Decimal.Mod} {
		_, err := f(dec(t, "1"), dec(t, "0.0"))
		var xe *Error
		if !errors.As(err, &xe) || xe.Code != ErrDivZero {
			t.Errorf("division by zero: %v", err)
		}
	}
}

func TestDecimalRounding(t *testing.T) {
	for _, c := range []struct{ in, round, floor, ceil, even string }{
		{"2.5", "3", "2", "3", "2"},
		{"-2.5", "-2", "-3", "-2", "-2"},
		{"3.5", "4", "3", "4", "4"},
		{"2.4999", "2", "2", "3", "2"},
		{"-0.5", "0", "-1", "0", "0"},
		{"7", "7", "7", "7", "7"},
		{"12345678901234567890.5", "12345678901234567891", "12345678901234567890", "12345678901234567891", "12345678901234567890"},
	} {
		d := dec(t, c.in)
		if g := d.Round().String(); g != c.round {
			t.Errorf("round(%s) = %s, want %s", c.in, g, c.round)
		}
		if g := d.Floor().String(); g != c.floor {
			t.Errorf("floor(%s) = %s, want %s", c.in, g, c.floor)
		}
		if g := d.Ceil().String(); g != c.ceil {
			t.Errorf("ceiling(%s) = %s, want %s", c.in, g, c.ceil)
		}
		if g := d.RoundHalfEven().String(); g != c.even {
			t.Errorf("round-half-to-even(%s) = %s, want %s", c.in, g, c.even)
		}
	}
}

func TestDecimalCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1.0", "1", 0}, {"0.3", "0.30000", 0}, {"-1", "1", -1}, {"10", "9.99", 1},
		{"99999999999999999999", "99999999999999999998", 1}, {"-0.000000000000000000001", "0", -1},
	} {
		if g := dec(t, c.a).Cmp(dec(t, c.b)); g != c.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.a, c.b, g, c.want)
		}
	}
}

func TestCastAndCompare(t *testing.T) {
	for _, c := range []struct {
		in   Item
		to   Type
		want string
		code string
	}{
		{Untyped(" true "), TBoolean, "true", ""}, {String("0"), TBoolean, "false", ""},
		{String("TRUE"), TBoolean, "", ErrInvalidCast}, {Dec(dec(t, "0.0")), TBoolean, "false", ""},
		{Double(1e7), TString, "1.0E7", ""}, {Double(123456.5), TString, "123456.5", ""},
		{Double(0.000001), TString, "0.000001", ""}, {Double(1.5e-7), TString, "1.5E-7", ""},
		{Double(1e300), TDecimal, "1" + string(make([]byte, 0)), ""},
		{String("2024-02-29+01:30"), TDate, "2024-02-29+01:30", ""}, {String("2024-2-29"), TDate, "", ErrInvalidCast},
		{String("0000-01-01"), TDate, "", ErrInvalidCast}, {Integer(1), TDate, "", ErrType},
		{String("-1.5E2"), TDouble, "-150", ""}, {String("1.5E"), TDouble, "", ErrInvalidCast},
		{String("12"), TInteger, "12", ""}, {Double(-3.9), TInteger, "-3", ""},
	} {
		got, err := Cast(c.in, c.to)
		if c.code != "" {
			var xe *Error
			if !errors.As(err, &xe) || xe.Code != c.code {
				t.Errorf("cast %v to %s: err %v, want %s", c.in, c.to, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("cast %v to %s: %v", c.in, c.to, err)
			continue
		}
		if c.in.T == TDouble && c.to == TDecimal {
			continue // only checks that a huge finite double converts
		}
		if got.StringValue() != c.want {
			t.Errorf("cast %v to %s = %q, want %q", c.in, c.to, got.StringValue(), c.want)
		}
	}
	// General comparison promotion rules.
	for _, c := range []struct {
		a, b Item
		want bool
		code string
	}{
		{Untyped("false"), Bool(false), true, ""},
		{Untyped("1.0"), Integer(1), true, ""},
		{Untyped("1.0"), String("1"), false, ""},
		{Untyped("abc"), Untyped("abc"), true, ""},
		{Untyped("abc"), Integer(1), false, ErrInvalidCast},
		{Untyped("2024-01-01"), DateItem(Date{Year: 2024, Month: 1, Day: 1}), true, ""},
		{String("1"), Integer(1), false, ErrType},
	} {
		got, err := CompareGeneral(OpEq, c.a, c.b)
		if c.code != "" {
			var xe *Error
			if !errors.As(err, &xe) || xe.Code != c.code {
				t.Errorf("%v = %v: err %v, want %s", c.a, c.b, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v = %v: %v %v, want %v", c.a, c.b, got, err, c.want)
		}
	}
}

// TestDivisionPaths checks that the exact, 128-bit and big.Int division
// paths agree on the same quotients.
func TestDivisionPaths(t *testing.T) {
	cases := [][2]string{{"10730", "100"}, {"1", "3"}, {"2", "0.5"}, {"-7.5", "0.25"}, {"1234.56", "0.19"},
		{"0.000001", "7"}, {"5", "-8"}, {"123456789", "1000000000000"}, {"1", "9"}, {"8", "9"}}
	for _, c := range cases {
		a, b := dec(t, c[0]), dec(t, c[1])
		got, err := a.Div(b)
		if err != nil {
			t.Fatal(err)
		}
		// reference: the big.Int path, forced by a big coefficient operand
		ab := Decimal{b: a.coef(), s: a.s}
		want, _ := ab.Div(b)
		if got.Cmp(want) != 0 {
			t.Errorf("%s / %s: fast %s, big %s", c[0], c[1], got, want)
		}
	}
}

// TestIntegerDivisionScale checks Saxon's scale rule with xs:integer
// operands (scale 0): 18 digits, half-down.
func TestIntegerDivisionScale(t *testing.T) {
	for _, c := range []struct {
		a, b Item
		want string
	}{
		{Integer(1), Integer(2000000000000000000), "0"},                    // 5e-19: half-down
		{Integer(3), Integer(4000000000000000000), "0.000000000000000001"}, // 7.5e-19 rounds up
		{Integer(1), Integer(300), "0.003333333333333333"},
		{Dec(DecimalFromInt(1)), Dec(DecimalFromInt(300)), "0.00333333333333333333"},
		{Dec(NewDecimal(15, 1)), Integer(7), "0.2142857142857142857"}, // scale 1 - 0 + 18 = 19
		{Integer(10), Integer(4), "2.5"},
	} {
		got, err := Arith(OpDiv, c.a, c.b)
		if err != nil || got.StringValue() != c.want || got.T != TDecimal {
			t.Errorf("%v div %v = %v (%v), want xs:decimal %s", c.a.StringValue(), c.b.StringValue(), got.StringValue(), err, c.want)
		}
	}
}

// TestDecimalFromFloatExact checks the exact binary expansion Saxon uses
// when casting xs:double to xs:decimal (checked with Python's Decimal(float)).
func TestDecimalFromFloatExact(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0.1, "0.1000000000000000055511151231257827021181583404541015625"},
		{0.285, "0.284999999999999975575093458246556110680103302001953125"},
		{-2.5, "-2.5"},
		{1e20, "100000000000000000000"},
		{123.456, "123.4560000000000030695446184836328029632568359375"},
	} {
		d, err := DecimalFromFloat(c.f)
		if err != nil || d.String() != c.want {
			t.Errorf("DecimalFromFloat(%v) = %s (%v), want %s", c.f, d, err, c.want)
		}
	}
	d, err := DecimalFromFloat(1e300)
	if err != nil || len(d.String()) != 301 || d.String()[:20] != "10000000000000000525" {
		t.Errorf("1e300: %s %v", d, err)
	}
	d, err = DecimalFromFloat(5e-324)
	if err != nil || len(d.String()) != 1076 {
		t.Errorf("5e-324: %d digits %v", len(d.String()), err)
	}
}

// TestDecimalFromFloatRat compares DecimalFromFloat with math/big's exact
// rational value of the double, printed with as many fractional digits as
// its denominator 2^k needs, on doubles of every binary exponent range
// (the table of powers of 5 and past it, coefficients in an int64 and not).
// TestDecimalCmpApprox compares Cmp, which orders values far apart by
// float64 approximations (cmpApprox), with the exact comparison of the
// aligned big coefficients, on decimals cast from doubles (BR-S-08's
// xs:decimal(cbc:TaxableAmount - 1)) against sums of amounts, nearly equal
// pairs (a few units of the last of 15 to 60 digits apart), equal values
// in two forms, zeros and both signs. Deciding pairs closer than the
// approximations' error (a tolerance of 0) fails it.
func TestDecimalCmpApprox(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	exact := func(a, b Decimal) int {
		x, y, _ := alignBig(a, b)
		return x.Cmp(y)
	}
	random := func() Decimal {
		switch rnd.IntN(4) {
		case 0:
			d, _ := DecimalFromFloat(math.Ldexp(float64(rnd.Int64N(1<<53)), -rnd.IntN(80)) * float64(1-2*rnd.IntN(2)))
			return d
		case 1:
			return normInt(rnd.Int64N(1e12)-5e11, int32(rnd.IntN(20)))
		case 2:
			c := make([]byte, 8+rnd.IntN(24))
			for i := range c {
				c[i] = byte(rnd.Uint32())
			}
			x := new(big.Int).SetBytes(c)
			if rnd.IntN(2) == 0 {
				x.Neg(x)
			}
			return normBig(x, int32(rnd.IntN(70)))
		}
		return Decimal{}
	}
	decided := 0
	for range 200000 {
		a := random()
		b := random()
		if rnd.IntN(2) == 0 {
			// b a few units of a's last digits away from a, or a itself
			k := int32(15 + rnd.IntN(46))
			b = a.Add(normInt(rnd.Int64N(7)-3, k+a.s))
		}
		if _, ok := cmpApprox(a, b); ok {
			decided++
		}
		if got, want := a.Cmp(b), exact(a, b); got != want {
			t.Fatalf("cmp(%s, %s) = %d, want %d", a, b, got, want)
		}
	}
	if decided == 0 {
		t.Fatal("cmpApprox decided no pair")
	}
}

// TestDecimalFloat64 compares Float64, which divides small coefficients by
// an exact power of ten, with ParseFloat of the decimal's digits (the
// nearest double): coefficients up to and just past 2^53, every scale up
// to 30 (a power of ten beyond 1e22 is not exact, and using one fails it).
func TestDecimalFloat64(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range 300000 {
		var c int64
		switch i % 3 {
		case 0:
			c = rnd.Int64N(1 << 54)
		case 1:
			c = 1<<53 - 4 + rnd.Int64N(8)
		default:
			c = rnd.Int64N(1e6)
		}
		if rnd.IntN(2) == 0 {
			c = -c
		}
		d := normInt(c, int32(rnd.IntN(31)))
		want, _ := strconv.ParseFloat(d.String(), 64)
		if got := d.Float64(); got != want {
			t.Fatalf("Float64(%s) = %v, want %v", d, got, want)
		}
	}
}

// TestMod10 compares mod10 with math/big on values of one to sixty words,
// both signs, multiples of ten among them.
func TestMod10(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	ten := big.NewInt(10)
	for i := range 20000 {
		c := make([]byte, 1+rnd.IntN(480))
		for j := range c {
			c[j] = byte(rnd.Uint32())
		}
		x := new(big.Int).SetBytes(c)
		if i%3 == 0 {
			x.Mul(x, ten)
		}
		if rnd.IntN(2) == 0 {
			x.Neg(x)
		}
		want := new(big.Int).Mod(new(big.Int).Abs(x), ten).Uint64()
		if got := mod10(x); uint64(got) != want {
			t.Fatalf("mod10(%s) = %d, want %d", x, got, want)
		}
	}
}

func TestDecimalFromFloatRat(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	fs := []float64{0.5, -0.75, 2.25, 1233.56, -0.01, 1e-10, 3.0000001, 1.5e-20, 7e-30, 123456789.123}
	for range 2000 {
		f := math.Float64frombits(rnd.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		fs = append(fs, f, math.Ldexp(float64(rnd.IntN(1<<20)), -rnd.IntN(120)))
	}
	for _, f := range fs {
		d, err := DecimalFromFloat(f)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		r := new(big.Rat).SetFloat64(f)
		want := r.FloatString(r.Denom().BitLen() - 1)
		if strings.Contains(want, ".") {
			want = strings.TrimRight(strings.TrimRight(want, "0"), ".")
		}
		if got := d.String(); got != want && !(want == "-0" && got == "0") {
			t.Fatalf("DecimalFromFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

// TestDivisionScaleProvenance: Saxon keeps scale 0 for decimals parsed
// without a point, so the divisor's trailing zeros only add digits when
// the value came from a form like 300.0 or from arithmetic.
func TestDivisionScaleProvenance(t *testing.T) {
	plain, _ := ParseDecimal("300")
	pointed, _ := ParseDecimal("300.0")
	one := DecimalFromInt(1)
	for _, c := range []struct {
		b    Decimal
		want string
	}{
		{plain, "0.003333333333333333"},
		{pointed, "0.00333333333333333333"},
		{DecimalFromInt(3).Mul(DecimalFromInt(100)), "0.00333333333333333333"},
	} {
		got, err := Arith(OpDiv, Dec(one), Dec(c.b))
		if err != nil || got.StringValue() != c.want {
			t.Errorf("1 div %s = %s (%v), want %s", c.b, got.StringValue(), err, c.want)
		}
	}
	cast, _ := Cast(Integer(300), TDecimal)
	if got, _ := Arith(OpDiv, Dec(one), cast); got.StringValue() != "0.003333333333333333" {
		t.Errorf("1 div xs:decimal(300 as integer) = %s", got.StringValue())
	}
}

// TestBigPow10: the shared table of powers of ten is exact, and decimal
// arithmetic that aligns scales through it leaves it unchanged.
func TestBigPow10(t *testing.T) {
	check := func() {
		t.Helper()
		for n := int32(0); n < 70; n++ {
			want := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
			if got := bigPow10(n); got.Cmp(want) != 0 {
				t.Fatalf("bigPow10(%d) = %s", n, got)
			}
		}
	}
	check()
	a, _ := ParseDecimal("1234.5599999999999454303178936243057250976562")
	b, _ := ParseDecimal("1234.56")
	huge, _ := ParseDecimal("123456789012345678901234567890.5")
	_ = a.Add(b)
	_ = a.Cmp(b)
	_ = huge.Sub(a)
	_, _ = huge.IDiv(b)
	_ = huge.Floor()
	check()
}

// TestCompareGeneralStrings: xs:string and xs:untypedAtomic against each
// other compare as xs:string by codepoints, for every operator, as
// compareAtomic compares two xs:string.
func TestCompareGeneralStrings(t *testing.T) {
	vals := []string{"", "S", "s", "AE", "AE ", "ä", "a\u0308", "10", "9", "B"}
	mk := []func(string) Item{String, Untyped}
	for _, op := range []CmpOp{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe} {
		for _, x := range vals {
			for _, y := range vals {
				want, err := compareAtomic(op, ptr(String(x)), ptr(String(y)))
				if err != nil {
					t.Fatal(err)
				}
				for _, fa := range mk {
					for _, fb := range mk {
						a, b := fa(x), fb(y)
						if got, err := CompareGeneral(op, a, b); err != nil || got != want {
							t.Errorf("%v %v %v: %v, %v; want %v", a, op, b, got, err, want)
						}
					}
				}
			}
		}
	}
}

// TestParseDecimalPlain: the plain mark (scale 0 kept, as Saxon's long)
// is set for a form without a point of fewer than 16 digits, on both
// paths of the parse (at most 18 characters, and longer).
func TestParseDecimalPlain(t *testing.T) {
	for _, c := range []struct {
		s     string
		plain bool
	}{
		{"300", true}, {"-300", true}, {" +7 ", true}, {"300.0", false}, {"300.", false}, {".5", false},
		{"123456789012345", true}, {"1234567890123456", false}, {"-123456789012345678", false},
		{"0000000000000000300", false}, {"00000000000000000000.5", false}, {"1234567890123456789012", false},
	} {
		d, ok := ParseDecimal(c.s)
		if !ok || d.plain != c.plain {
			t.Errorf("ParseDecimal(%q): ok %v, plain %v, want plain %v", c.s, ok, d.plain, c.plain)
		}
	}
}

// TestDecimalSmall: equal values have equal Small pairs, whatever their
// lexical forms and origins (trailing zeros, integers, doubles, sums), and
// values that differ have different ones; a coefficient beyond int64 has
// none.
func TestDecimalSmall(t *testing.T) {
	parse := func(s string) Decimal { return dec(t, s) }
	fromFloat := func(f float64) Decimal {
		d, err := DecimalFromFloat(f)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	groups := [][]Decimal{
		{parse("6"), parse("6.0"), parse("06.000"), DecimalFromInt(6), fromFloat(6), parse("5.5").Add(parse("0.50"))},
		{parse("6.5"), parse("6.50"), fromFloat(6.5), NewDecimal(650, 2)},
		{parse("0"), parse("-0.00"), DecimalFromInt(0), parse("1.25").Sub(parse("1.250"))},
		{parse("-21"), parse("-21.000"), DecimalFromInt(-21)},
		{parse("0.1"), parse("0.10"), NewDecimal(1, 1)},
		{parse("12345678901234567.8"), parse("12345678901234567.80")},
	}
	type pair struct {
		c int64
		s int32
	}
	seen := map[pair]int{}
	for g, ds := range groups {
		for _, d := range ds {
			c, s, ok := d.Small()
			if !ok {
				t.Fatalf("group %d: %s has no Small pair", g, d)
			}
			p := pair{c, s}
			if h, dup := seen[p]; dup && h != g {
				t.Errorf("%s (group %d) has the pair of group %d", d, g, h)
			}
			seen[p] = g
		}
	}
	if len(seen) != len(groups) {
		t.Errorf("%d pairs for %d values: %v", len(seen), len(groups), seen)
	}
	if _, _, ok := parse("123456789012345678901234567890").Small(); ok {
		t.Error("a 30-digit coefficient has a Small pair")
	}
}
