package xdm

import (
	"math"
	"math/big"
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
