package xdm

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestItemLayout: an Item is copied into every focus, sequence and memo,
// so it stays at 40 bytes; the values kept in its shared fields come back
// unchanged, and items of equal values built the same way are ==.
func TestItemLayout(t *testing.T) {
	if n := unsafe.Sizeof(Item{}); n != 40 {
		t.Errorf("an Item is %d bytes, want 40", n)
	}
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	for _, d := range []Decimal{
		DecimalFromInt(0), DecimalFromInt(-7), DecimalFromInt(math.MaxInt64), DecimalFromInt(math.MinInt64),
		dec(t, "12.50"), dec(t, "-0.001"), dec(t, "100"),
		{b: huge, s: 3}, {c: 5, s: 0, plain: true},
	} {
		for _, it := range []Item{Dec(d), IntegerD(d)} {
			if got := it.Decimal(); got != d {
				t.Errorf("%v: Decimal() = %#v, want %#v", it.T, got, d)
			}
			if got := it.WithDecimal(d.Neg()); got.T != it.T || got.Decimal().String() != d.Neg().String() || got.Decimal().JavaScale() != d.Neg().JavaScale() {
				t.Errorf("WithDecimal(%v) = %#v", d.Neg(), got)
			}
		}
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1.5, -3e300, math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64} {
		if got := Double(f).Float(); math.Float64bits(got) != math.Float64bits(f) {
			t.Errorf("Double(%v).Float() = %v", f, got)
		}
	}
	if !math.IsNaN(Double(math.NaN()).Float()) {
		t.Error("NaN did not come back")
	}
	for _, d := range []Date{
		{Year: 2026, Month: 11, Day: 23},
		{Year: -44, Month: 3, Day: 15, HasTZ: true, TZ: -14 * 60},
		{Year: 1, Month: 1, Day: 1, HasTZ: true, TZ: 14 * 60},
		{Year: 9999, Month: 12, Day: 31, HasTZ: true, TZ: 0},
		{Year: math.MaxInt32, Month: 2, Day: 29, HasTZ: true, TZ: -1},
	} {
		if got := DateItem(d).Date(); got != d {
			t.Errorf("DateItem(%+v).Date() = %+v", d, got)
		}
		if a, b := DateItem(d), DateItem(d); a != b {
			t.Errorf("two items of %+v differ", d)
		}
	}
}

// doubleInputs are lexical forms around parsePlainFloat's limits.
var doubleInputs = []string{
	"0", "-0", "+0", "1", "-1", "1.", ".5", "+.5", "-.5", ".", "-", "+", "", "1234.56", "-1234.56",
	"0.1", "0.30000000000000004", "9007199254740992", "9007199254740993", "9007199254740991.5",
	"1234567890123456789", "12345678901234567890", "0.0000000000000000000001", "0.00000000000000000000001",
	"1.5e3", "1E-7", "00012.500", "1..2", "1.2.3", "1-2", "--1", "3.14159265358979323846",
}

// TestParseDoubleFastPath: every form parses to the bits strconv gives.
func TestParseDoubleFastPath(t *testing.T) {
	for _, s := range doubleInputs {
		checkParseDouble(t, s)
	}
}

func FuzzParseDouble(f *testing.F) {
	for _, s := range doubleInputs {
		f.Add(s)
	}
	f.Fuzz(checkParseDouble)
}

// checkParseDouble compares ParseDouble with strconv.ParseFloat on an input
// of the characters ParseDouble hands to it.
func checkParseDouble(t *testing.T, s string) {
	if strings.Trim(s, "0123456789.+-eE") != "" {
		return
	}
	got, ok := ParseDouble(s)
	want, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		if ok {
			t.Errorf("ParseDouble(%q) = %v, strconv fails: %v", s, got, err)
		}
		return
	}
	if !ok || math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("ParseDouble(%q) = %v, %v; strconv %v", s, got, ok, want)
	}
}
