package xdm

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Decimal is an exact xs:decimal: coefficient × 10^-scale. The coefficient is
// an int64 while it fits and a *big.Int otherwise. Results are normalised
// (no trailing fractional zeros), so equal values have equal representations.
// The zero value is 0.
type Decimal struct {
	c int64    // coefficient when b == nil
	b *big.Int // coefficient when it does not fit in an int64 (never mutated)
	s int32    // scale, >= 0
	// plain marks an integral value that Saxon holds with scale 0 rather
	// than with its trailing zeros stripped (a lexical form without a
	// decimal point, an xs:integer or integral xs:double cast to decimal);
	// it only affects JavaScale, i.e. the digits kept by division.
	plain bool
}

// DivisionScale is the minimum number of fractional digits kept by decimal
// division (Saxon's BigDecimalValue.DIVIDE_PRECISION).
const DivisionScale = 18

var pow10 = [...]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

var bigTen = big.NewInt(10)

// bigPow10 returns 10^n, n >= 0. The result is shared: callers only read it.
func bigPow10(n int32) *big.Int {
	if int(n) < len(bigPow10s) {
		return bigPow10s[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// bigPow10s holds 10^0 .. 10^63, built once and never written: aligning a
// decimal cast from a double (xs:decimal(cbc:TaxableAmount - 1) in the
// BR-x-08 rules: its exact binary value has up to ~50 fraction digits) with
// an amount needs a power beyond int64, and big.Int.Exp cost about 2,000
// instructions per comparison.
var bigPow10s = func() [64]*big.Int {
	var t [64]*big.Int
	t[0] = big.NewInt(1)
	for i := 1; i < len(t); i++ {
		t[i] = new(big.Int).Mul(t[i-1], bigTen)
	}
	return t
}()

// DecimalFromInt returns the decimal value of i.
func DecimalFromInt(i int64) Decimal { return Decimal{c: i} }

// NewDecimal returns coef × 10^-scale (scale >= 0).
func NewDecimal(coef int64, scale int32) Decimal {
	return normInt(coef, scale)
}

func normInt(c int64, s int32) Decimal {
	for s > 0 && c%10 == 0 {
		c /= 10
		s--
	}
	return Decimal{c: c, s: s}
}

// normBig returns b × 10^-s without trailing fractional zeros. b is a
// value its caller has just made (every caller's is), divided in place,
// and only when a trailing zero is there (mod10): a double's exact value
// ends in 5, and most products and sums do not end in 0.
func normBig(b *big.Int, s int32) Decimal {
	if s > 0 && mod10(b) == 0 {
		var r big.Int
		for s > 0 && mod10(b) == 0 {
			b.QuoRem(b, bigTen, &r)
			s--
		}
	}
	if b.IsInt64() {
		return normInt(b.Int64(), s)
	}
	return Decimal{b: b, s: s}
}

// mod10 returns |b| mod 10 without allocating: a word's weight, 2^64 or
// 2^32 to a positive power, is 6 mod 10 (6 × 6 = 36).
func mod10(b *big.Int) uint {
	ws := b.Bits()
	if len(ws) == 0 {
		return 0
	}
	hi := uint(0)
	for _, w := range ws[1:] {
		hi += uint(w % 10)
	}
	return (uint(ws[0]%10) + 6*(hi%10)) % 10
}

func (d Decimal) coef() *big.Int {
	if d.b != nil {
		return d.b
	}
	return big.NewInt(d.c)
}

// Small returns d's coefficient and scale when the coefficient fits in an
// int64 (ok=false otherwise). A Decimal has no trailing fractional zeros,
// so two values are equal exactly when their pairs are.
func (d Decimal) Small() (c int64, s int32, ok bool) { return d.c, d.s, d.b == nil }

// Scale returns the number of fractional digits of the normalised value.
func (d Decimal) Scale() int32 { return d.s }

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	if d.b != nil {
		return d.b.Sign()
	}
	switch {
	case d.c < 0:
		return -1
	case d.c > 0:
		return 1
	}
	return 0
}

// IsInteger reports whether d has no fractional part.
func (d Decimal) IsInteger() bool { return d.s == 0 }

// Int64 returns d as an int64 when d is an integer that fits.
func (d Decimal) Int64() (int64, bool) {
	if d.s != 0 || d.b != nil {
		return 0, false
	}
	return d.c, true
}

// Neg returns -d.
func (d Decimal) Neg() Decimal {
	if d.b == nil && d.c != math.MinInt64 {
		return Decimal{c: -d.c, s: d.s}
	}
	return normBig(new(big.Int).Neg(d.coef()), d.s)
}

// Abs returns |d|.
func (d Decimal) Abs() Decimal {
	if d.Sign() < 0 {
		return d.Neg()
	}
	return d
}

// mulPow10 returns c*10^n when it fits in an int64.
func mulPow10(c int64, n int32) (int64, bool) {
	if n == 0 {
		return c, true
	}
	if int(n) >= len(pow10) {
		return 0, c == 0
	}
	return mul64(c, pow10[n])
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	ua, ub := uabs(a), uabs(b)
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || lo > math.MaxInt64 {
		if neg && hi == 0 && lo == 1<<63 {
			return math.MinInt64, true
		}
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

func uabs(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

// align returns both coefficients at the common scale when they fit.
func align(a, b Decimal) (x, y int64, s int32, ok bool) {
	if a.b != nil || b.b != nil {
		return 0, 0, 0, false
	}
	switch {
	case a.s == b.s:
		return a.c, b.c, a.s, true
	case a.s < b.s:
		x, ok = mulPow10(a.c, b.s-a.s)
		return x, b.c, b.s, ok
	default:
		y, ok = mulPow10(b.c, a.s-b.s)
		return a.c, y, a.s, ok
	}
}

func alignBig(a, b Decimal) (x, y *big.Int, s int32) {
	x, y = a.coef(), b.coef()
	switch {
	case a.s < b.s:
		x = new(big.Int).Mul(x, bigPow10(b.s-a.s))
		s = b.s
	case a.s > b.s:
		y = new(big.Int).Mul(y, bigPow10(a.s-b.s))
		s = a.s
	default:
		s = a.s
	}
	return x, y, s
}

// Add returns a+b.
func (a Decimal) Add(b Decimal) Decimal {
	if x, y, s, ok := align(a, b); ok {
		r := x + y
		if (r > x) == (y > 0) {
			return normInt(r, s)
		}
	}
	x, y, s := alignBig(a, b)
	return normBig(new(big.Int).Add(x, y), s)
}

// Sub returns a-b.
func (a Decimal) Sub(b Decimal) Decimal { return a.Add(b.Neg()) }

// Mul returns a×b.
func (a Decimal) Mul(b Decimal) Decimal {
	if a.b == nil && b.b == nil {
		if r, ok := mul64(a.c, b.c); ok {
			return normInt(r, a.s+b.s)
		}
	}
	return normBig(new(big.Int).Mul(a.coef(), b.coef()), a.s+b.s)
}

// Cmp compares a and b: -1, 0 or +1.
func (a Decimal) Cmp(b Decimal) int {
	if x, y, _, ok := align(a, b); ok {
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	if c, ok := cmpApprox(a, b); ok {
		return c
	}
	x, y, _ := alignBig(a, b)
	return x.Cmp(y)
}

// bigApprox returns x within a relative 2^-52, without allocating
// (big.Int.Float64 goes through a big.Float): the top 64 bits of its
// magnitude (the rest truncated: under 2^-63), rounded to a float64
// (2^-53) and scaled by the bits left out.
func bigApprox(x *big.Int) float64 {
	n := x.BitLen()
	if n <= 63 {
		return float64(x.Int64())
	}
	ws := x.Bits()
	var m uint64
	got := 0
	for i := len(ws) - 1; i >= 0 && got < 64; i-- {
		w, wb := uint64(ws[i]), bits.UintSize
		if i == len(ws)-1 {
			wb = bits.Len64(w)
		}
		take := min(wb, 64-got)
		m = m<<take | w>>(wb-take)
		got += take
	}
	f := math.Ldexp(float64(m), n-got)
	if x.Sign() < 0 {
		f = -f
	}
	return f
}

// cmpApprox orders a and b by float64 approximations when they are far
// enough apart for the order to be certain, without the big.Int products
// of alignBig: an xs:decimal cast from an xs:double (BR-S-08's
// xs:decimal(cbc:TaxableAmount - 1)) holds its binary value exactly, some
// fifty digits, and is compared with sums of amounts. Each approximation
// is within a relative 2^-50 of its value (approx), so two values whose
// approximations differ by more than 2^-40 of the larger are in that
// order; ok=false otherwise, and where approx cannot say.
func cmpApprox(a, b Decimal) (int, bool) {
	fa, ok := a.approx()
	if !ok {
		return 0, false
	}
	fb, ok := b.approx()
	if !ok {
		return 0, false
	}
	d := fa - fb
	if math.Abs(d) <= max(math.Abs(fa), math.Abs(fb))*0x1p-40 {
		return 0, false
	}
	if d < 0 {
		return -1, true
	}
	return 1, true
}

// approx returns a float64 within a relative 2^-50 of d: the coefficient
// within 2^-52 (bigApprox), divided by math.Pow10 of the scale (at most
// four more roundings of 2^-53: the power's two table factors, their
// product, and the quotient). ok=false when the coefficient or the
// value leaves the normal range of float64, where that bound fails.
func (d Decimal) approx() (float64, bool) {
	c := float64(d.c)
	if d.b != nil {
		c = bigApprox(d.b)
	}
	if d.s > 300 || math.IsInf(c, 0) {
		return 0, false
	}
	v := c / math.Pow10(int(d.s))
	if c != 0 && !(math.Abs(v) >= 0x1p-1000) {
		return 0, false // near underflow: the relative bound fails
	}
	return v, true
}

// Div divides two xs:decimal values (see DivScaled).
func (a Decimal) Div(b Decimal) (Decimal, error) {
	return a.DivScaled(b, a.JavaScale(), b.JavaScale())
}

// JavaScale returns the scale Saxon's BigDecimal holds for this xs:decimal:
// trailing zeros stripped, so 1.50 has scale 1 and 100.0 (or 50.0 * 2) has
// scale -2; but xs:decimal('100'), an integer cast to decimal and an
// integral double cast to decimal have scale 0. (An xs:integer operand has
// scale 0 whatever its value.)
func (d Decimal) JavaScale() int32 {
	if d.s > 0 || d.plain || d.Sign() == 0 {
		return d.s
	}
	n := int32(0)
	if d.b == nil {
		for c := d.c; c%10 == 0; c /= 10 {
			n++
		}
		return -n
	}
	var q, r big.Int
	q.Set(d.b)
	for {
		q.QuoRem(&q, bigTen, &r)
		if r.Sign() != 0 {
			return -n
		}
		n++
	}
}

// DivScaled returns a÷b as Saxon computes xs:decimal division
// (Calculator.decimalDivide): the quotient keeps max(18, sa - sb + 18)
// fractional digits, where sa and sb are the operands' Java scales
// (JavaScale, or 0 for xs:integer), rounded half-down; trailing zeros are
// then removed. It fails with FOAR0001 when b is zero.
func (a Decimal) DivScaled(b Decimal, sa, sb int32) (Decimal, error) {
	if b.Sign() == 0 {
		return Decimal{}, &Error{Code: ErrDivZero, Msg: "decimal division by zero"}
	}
	S := max(int32(DivisionScale), sa-sb+DivisionScale)
	S = max(S, a.s) // never below the dividend's own digits (always true for Java scales)
	if d, ok := divExact(a, b, S); ok {
		return d, nil
	}
	if d, ok := divFast(a, b, S); ok {
		return d, nil
	}
	num := new(big.Int).Mul(a.coef(), bigPow10(S+b.s-a.s))
	den := b.coef()
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() != 0 {
		r2 := new(big.Int).Abs(r)
		r2.Lsh(r2, 1)
		if r2.Cmp(new(big.Int).Abs(den)) > 0 {
			if (num.Sign() < 0) != (den.Sign() < 0) {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	return normBig(q, S), nil
}

// divExact returns a÷b when the quotient is exact with at most S
// fractional digits and fits an int64 coefficient (e.g. 10730 div 100).
func divExact(a, b Decimal, S int32) (Decimal, bool) {
	if a.b != nil || b.b != nil || b.c == -1 {
		return Decimal{}, false
	}
	for k := int32(0); k <= 18; k++ {
		num, ok := mulPow10(a.c, k)
		if !ok {
			return Decimal{}, false
		}
		if num%b.c != 0 {
			continue
		}
		q := num / b.c
		scale := a.s - b.s + k
		if scale > S {
			return Decimal{}, false
		}
		if scale < 0 {
			if q, ok = mulPow10(q, -scale); !ok {
				return Decimal{}, false
			}
			scale = 0
		}
		return normInt(q, scale), true
	}
	return Decimal{}, false
}

// divFast divides with 128-bit intermediate arithmetic when the operands
// are int64 coefficients and the scaled quotient fits in an int64.
func divFast(a, b Decimal, S int32) (Decimal, bool) {
	e := S + b.s - a.s
	if a.b != nil || b.b != nil || e < 0 || e > 19 {
		return Decimal{}, false
	}
	p := uint64(1e19)
	if e < 19 {
		p = uint64(pow10[e])
	}
	ua, ub := uabs(a.c), uabs(b.c)
	hi, lo := bits.Mul64(ua, p)
	if hi >= ub {
		return Decimal{}, false
	}
	q, r := bits.Div64(hi, lo, ub)
	if r > ub-r { // 2r > |b|: round half-down
		q++
	}
	if q > math.MaxInt64 {
		return Decimal{}, false
	}
	c := int64(q)
	if (a.c < 0) != (b.c < 0) {
		c = -c
	}
	return normInt(c, S), true
}

// IDiv returns the integer part of a÷b truncated towards zero (FOAR0001 when b is zero).
func (a Decimal) IDiv(b Decimal) (Decimal, error) {
	if b.Sign() == 0 {
		return Decimal{}, &Error{Code: ErrDivZero, Msg: "integer division by zero"}
	}
	if x, y, _, ok := align(a, b); ok && !(x == math.MinInt64 && y == -1) {
		return Decimal{c: x / y}, nil
	}
	x, y, _ := alignBig(a, b)
	return normBig(new(big.Int).Quo(x, y), 0), nil
}

// Mod returns a - b×trunc(a÷b); the sign follows a (FOAR0001 when b is zero).
func (a Decimal) Mod(b Decimal) (Decimal, error) {
	if b.Sign() == 0 {
		return Decimal{}, &Error{Code: ErrDivZero, Msg: "modulus by zero"}
	}
	if x, y, s, ok := align(a, b); ok && y != -1 {
		return normInt(x%y, s), nil
	}
	x, y, s := alignBig(a, b)
	return normBig(new(big.Int).Rem(x, y), s), nil
}

// floorParts returns floor(d) and whether d had a fractional part.
func (d Decimal) floorInt() (Decimal, bool) {
	if d.s == 0 {
		return d, false
	}
	if d.b == nil && int(d.s) < len(pow10) {
		p := pow10[d.s]
		q, r := d.c/p, d.c%p
		if r < 0 {
			q--
		}
		return Decimal{c: q}, true
	}
	q, m := new(big.Int).DivMod(d.coef(), bigPow10(d.s), new(big.Int)) // Euclidean: m >= 0
	_ = m
	return normBig(q, 0), true
}

// Floor returns the largest integer <= d.
func (d Decimal) Floor() Decimal { f, _ := d.floorInt(); return f }

// Ceil returns the smallest integer >= d.
func (d Decimal) Ceil() Decimal {
	f, frac := d.floorInt()
	if frac {
		return f.Add(Decimal{c: 1})
	}
	return f
}

var half = Decimal{c: 5, s: 1}

// Round rounds to the nearest integer, halves towards positive infinity
// (fn:round: round(2.5) = 3, round(-2.5) = -2).
func (d Decimal) Round() Decimal {
	if d.s == 0 {
		return d
	}
	return d.Add(half).Floor()
}

// RoundHalfEven rounds to the nearest integer, halves to even.
func (d Decimal) RoundHalfEven() Decimal {
	if d.s == 0 {
		return d
	}
	f := d.Floor()
	c := d.Sub(f).Cmp(half)
	if c > 0 || (c == 0 && f.Sub(f.Mul(half).Floor().Mul(Decimal{c: 2})).Sign() != 0) {
		return f.Add(Decimal{c: 1})
	}
	return f
}

// Float64 returns the nearest float64.
func (d Decimal) Float64() float64 {
	if d.b == nil && d.s == 0 {
		return float64(d.c)
	}
	if d.b == nil && d.s < int32(len(exactPow10)) && -1<<53 <= d.c && d.c <= 1<<53 {
		// The coefficient and the power of ten are exact float64
		// values, so one IEEE division gives the nearest double, as
		// ParseFloat of the digits does (without building them: a
		// decimal compared with a double, CII's BR-S-08 and kin).
		return float64(d.c) / exactPow10[d.s]
	}
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// DecimalFromFloat converts a finite double to the exact decimal value of
// its binary representation, as Saxon does (new BigDecimal(double)): 0.1e0
// becomes 0.1000000000000000055511151231257827021181583404541015625.
// NaN and infinities fail with FOCA0002.
func DecimalFromFloat(f float64) (Decimal, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Decimal{}, &Error{Code: ErrInvalidLexical, Msg: "cannot convert " + FormatDouble(f) + " to xs:decimal"}
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<62 {
		return Decimal{c: int64(f), plain: true}, nil // new BigDecimal(100.0) has scale 0
	}
	b := math.Float64bits(f)
	neg := b>>63 != 0
	exp := int((b >> 52) & 0x7ff)
	frac := b & (1<<52 - 1)
	if exp == 0 {
		exp = 1 // subnormal
	} else {
		frac |= 1 << 52
	}
	e := exp - 1075 // f = ±frac × 2^e
	if e >= 0 {
		coef := new(big.Int).SetUint64(frac)
		coef.Lsh(coef, uint(e))
		if neg {
			coef.Neg(coef)
		}
		return normBig(coef, 0), nil
	}
	k := -e
	for k > 0 && frac&1 == 0 {
		frac >>= 1
		k--
	}
	// frac / 2^k = frac × 5^k / 10^k, in one allocation for the
	// usual amounts: the coefficient's header, frac's words and
	// room for the product (a 53-bit fraction times 5^k, k up to
	// 87, fits in 256 bits), which Mul then fills.
	m := new(fromFloat)
	coef := &m.coef
	coef.SetBits(m.prod[:0])
	var x big.Int
	x.SetBits(uint64Words(frac, m.frac[:0]))
	if k < len(powersOf5) {
		coef.Mul(&x, powersOf5[k])
	} else {
		coef.Mul(&x, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil))
	}
	scale := int32(k)
	if neg {
		coef.Neg(coef)
	}
	// frac is odd here, so frac × 5^k ends in 5: no trailing zero
	// for normBig to remove.
	if coef.IsInt64() {
		return normInt(coef.Int64(), scale), nil
	}
	return Decimal{b: coef, s: scale}, nil
}

// fromFloat is the one allocation of DecimalFromFloat: a coefficient
// and the words it and its factor are read from.
type fromFloat struct {
	coef big.Int
	frac [2]big.Word
	prod [8 * 32 / bits.UintSize]big.Word
}

// uint64Words appends the words of v, least significant first, to dst
// (big.Int.SetBits' order).
func uint64Words(v uint64, dst []big.Word) []big.Word {
	if bits.UintSize == 32 {
		return append(dst, big.Word(v&0xffffffff), big.Word(v>>32))
	}
	return append(dst, big.Word(v))
}

// powersOf5[k] is 5^k, for the exact decimal value of a double whose
// binary exponent is -k (DecimalFromFloat); amounts need k up to ~50.
// Read-only once built.
var powersOf5 = func() []*big.Int {
	p := make([]*big.Int, 80)
	p[0] = big.NewInt(1)
	for k := 1; k < len(p); k++ {
		p[k] = new(big.Int).Mul(p[k-1], big.NewInt(5))
	}
	return p
}()

// MaxDecimalDigits bounds the digits of an xs:decimal or xs:integer lexical
// form (leading and trailing zeros included). A longer value is a dynamic
// error FOCA0001 ("input value too large for decimal") when a rule casts it,
// never a silently different verdict: math/big parses decimal strings in
// quadratic time, so an unbounded value would let one field cost seconds
// (800,000 digits: ~6 s). 4,096 digits is far beyond any amount, quantity,
// percentage or identifier of a real invoice, and beyond the exact decimal
// expansion of any xs:double (at most 1,074 fractional digits), so the limit
// never changes a verdict on a real document. See docs/XPATH.md.
const MaxDecimalDigits = 4096

// ParseDecimal parses the xs:decimal lexical form (surrounding XML
// whitespace allowed, no exponent). It fails for a lexical form with more
// than MaxDecimalDigits digits (DecimalTooLarge tells that case apart).
func ParseDecimal(s string) (Decimal, bool) {
	d, st := parseDecimal(s)
	return d, st == parseOK
}

type parseStatus uint8

const (
	parseOK parseStatus = iota
	parseInvalid
	parseTooLarge
)

// DecimalTooLarge reports whether s is a lexically valid xs:decimal with
// more than MaxDecimalDigits digits (which ParseDecimal refuses). It runs
// in linear time.
func DecimalTooLarge(s string) bool {
	_, st := parseDecimal(s)
	return st == parseTooLarge
}

// parseDecimal is ParseDecimal with the reason of a failure. Its cost is
// linear in len(s) up to MaxDecimalDigits digits, and the big.Int parse
// only sees the significant digits.
func parseDecimal(s string) (Decimal, parseStatus) {
	s = TrimSpace(s)
	if s == "" {
		return Decimal{}, parseInvalid
	}
	neg := false
	switch s[0] {
	case '-':
		neg = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	if len(s) <= 18 {
		// At most 18 digits: the coefficient fits in an int64 without a
		// check per digit (amounts, rates, quantities).
		return parseShortDecimal(s, neg)
	}
	var c int64
	var s32 int32
	digits, point, fits := 0, false, true
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '.':
			if point {
				return Decimal{}, parseInvalid
			}
			point = true
		case ch >= '0' && ch <= '9':
			digits++
			if point {
				s32++
			}
			if fits {
				if c > (math.MaxInt64-9)/10 {
					fits = false
				} else {
					c = c*10 + int64(ch-'0')
				}
			}
		default:
			return Decimal{}, parseInvalid
		}
	}
	if digits == 0 {
		return Decimal{}, parseInvalid
	}
	if digits > MaxDecimalDigits {
		return Decimal{}, parseTooLarge
	}
	if fits {
		if neg {
			c = -c
		}
		d := normInt(c, s32)
		// Saxon parses "300" (no point, < 16 digits) as a long: scale 0.
		d.plain = !point && digits < 16
		return d, parseOK
	}
	// Strip trailing fractional zeros as text (normBig would divide by ten
	// once per zero) and leading zeros, then parse the significant digits.
	if point {
		for s32 > 0 && s[len(s)-1] == '0' {
			s = s[:len(s)-1]
			s32--
		}
		s = strings.TrimSuffix(s, ".")
	}
	digitsOnly := strings.TrimLeft(strings.Replace(s, ".", "", 1), "0")
	if digitsOnly == "" {
		return Decimal{}, parseOK
	}
	b, ok := new(big.Int).SetString(digitsOnly, 10)
	if !ok {
		return Decimal{}, parseInvalid
	}
	if neg {
		b.Neg(b)
	}
	return normBig(b, s32), parseOK
}

// parseShortDecimal is parseDecimal for s (sign removed, neg its sign) of
// at most 18 characters.
func parseShortDecimal(s string, neg bool) (Decimal, parseStatus) {
	var c int64
	var s32 int32
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch-'0' <= 9:
			c = c*10 + int64(ch-'0')
			digits++
			if point {
				s32++
			}
		case ch == '.' && !point:
			point = true
		default:
			return Decimal{}, parseInvalid
		}
	}
	if digits == 0 {
		return Decimal{}, parseInvalid
	}
	if neg {
		c = -c
	}
	d := normInt(c, s32)
	d.plain = !point && digits < 16 // as parseDecimal's
	return d, parseOK
}

// ParseInteger parses the xs:integer lexical form.
func ParseInteger(s string) (Decimal, bool) {
	t := TrimSpace(s)
	if t == "" {
		return Decimal{}, false
	}
	u := t
	if u[0] == '-' || u[0] == '+' {
		u = u[1:]
	}
	if u == "" {
		return Decimal{}, false
	}
	for i := 0; i < len(u); i++ {
		if u[i] < '0' || u[i] > '9' {
			return Decimal{}, false
		}
	}
	return ParseDecimal(t)
}

// String returns the canonical lexical form: no exponent, no trailing
// fractional zeros, no decimal point for integral values.
func (d Decimal) String() string {
	if d.b == nil && d.s == 0 {
		return strconv.FormatInt(d.c, 10)
	}
	var digits string
	if d.b != nil {
		digits = d.b.String()
	} else {
		digits = strconv.FormatInt(d.c, 10)
	}
	neg := false
	if digits[0] == '-' {
		neg = true
		digits = digits[1:]
	}
	if d.s > 0 {
		if int(d.s) >= len(digits) {
			digits = strings.Repeat("0", int(d.s)-len(digits)+1) + digits
		}
		k := len(digits) - int(d.s)
		digits = digits[:k] + "." + digits[k:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// IsSpace reports whether c is XML whitespace (space, tab, CR, LF).
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// TrimSpace returns s without its leading and trailing XML whitespace.
func TrimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && IsSpace(s[i]) {
		i++
	}
	for j > i && IsSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}
