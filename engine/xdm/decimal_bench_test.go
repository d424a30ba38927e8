package xdm

import "testing"

// BenchmarkDecimal measures the int64 fast path against the math/big
// fallback on the operations the rule sets use for amounts.
func BenchmarkDecimal(b *testing.B) {
	small1, _ := ParseDecimal("1234.56")
	small2, _ := ParseDecimal("0.19")
	big1, _ := ParseDecimal("123456789012345678901234.56")
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ParseDecimal("1234.56")
		}
	})
	b.Run("parse-double", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ParseDouble("1234.56")
		}
	})
	b.Run("add-int64", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			small1.Add(small2)
		}
	})
	b.Run("mul-int64", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			small1.Mul(small2)
		}
	})
	b.Run("cmp-int64", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			small1.Cmp(small2)
		}
	})
	b.Run("round-int64", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			small1.Mul(small2).Round()
		}
	})
	b.Run("div-exact", func(b *testing.B) {
		x, _ := ParseDecimal("10730")
		y := DecimalFromInt(100)
		b.ReportAllocs()
		for b.Loop() {
			_, _ = x.Div(y)
		}
	})
	b.Run("div-inexact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = small1.Div(small2)
		}
	})
	b.Run("add-big", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			big1.Add(small2)
		}
	})
	// BR-S-08's xs:decimal(cbc:TaxableAmount - 1): a double's exact
	// binary value, compared with a sum of amounts.
	b.Run("from-double", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = DecimalFromFloat(1233.56)
		}
	})
	fromDouble, _ := DecimalFromFloat(1233.56)
	b.Run("cmp-from-double", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fromDouble.Cmp(small1)
		}
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			small1.Float64()
		}
	})
}
