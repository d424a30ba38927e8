package model

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Decimal is an exact decimal number. It wraps engine/xdm.Decimal (the
// engine's xs:decimal: an int64 or big.Int coefficient and a scale), so the
// model and the rule engine agree on every value; it is never held in
// floating point. The zero value is 0.
//
// Besides its value a Decimal keeps a display scale: the number of
// fractional digits it was written with ("12.50" keeps 2) or computed to
// (Round(2), Div(…, 2) give 2; Add and Sub keep the larger scale, Mul the sum
// of both). String writes that many digits, so amounts read "127.20".
// Comparisons (Cmp, Equal, IsZero) ignore the display scale: 1.50 equals 1.5.
type Decimal struct {
	v     xdm.Decimal
	scale int32 // digits after the point when written; >= v.Scale()
}

func mk(v xdm.Decimal, scale int32) Decimal {
	return Decimal{v: v, scale: max(scale, v.Scale())}
}

// NewDecimal returns coef × 10^-scale (scale >= 0), written with scale
// fractional digits (NewDecimal(1000, 2) is "10.00").
func NewDecimal(coef int64, scale int32) Decimal {
	return mk(xdm.NewDecimal(coef, scale), scale)
}

// DecimalFromInt returns i as a Decimal.
func DecimalFromInt(i int64) Decimal { return Decimal{v: xdm.DecimalFromInt(i)} }

// DecimalFromXDM wraps an engine decimal.
func DecimalFromXDM(d xdm.Decimal) Decimal { return mk(d, 0) }

// XDM returns the engine decimal of d.
func (d Decimal) XDM() xdm.Decimal { return d.v }

// maxDecimalDigits bounds the digits (and exponent) accepted by the parsers,
// so that untrusted input cannot make a number of unbounded size.
const maxDecimalDigits = 64

// DecimalError is the error of ParseDecimal and of parsing a JSON number.
type DecimalError struct {
	Input string
	Msg   string
}

func (e *DecimalError) Error() string { return fmt.Sprintf("decimal %q: %s", e.Input, e.Msg) }

// ParseDecimal parses a decimal in the lexical form of xs:decimal
// ("-12.50", "+3", ".5"; no exponent, no surrounding spaces).
func ParseDecimal(s string) (Decimal, error) {
	if s == "" {
		return Decimal{}, &DecimalError{Input: s, Msg: "empty"}
	}
	// The digits that count are those String prints: the integer part
	// without its leading zeros and every fractional digit (".5" and
	// "-0.5" both have one), so a value accepted here is accepted again in
	// its canonical form. A sign, a leading 0 and the point come on top.
	if len(s) > maxDecimalDigits+3 {
		return Decimal{}, &DecimalError{Input: s[:maxDecimalDigits] + "...", Msg: "too many digits"}
	}
	digits, leading := 0, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if c != '0' || !leading {
				digits++
				leading = false
			}
		case c == '.':
			leading = false
		case i == 0 && (c == '-' || c == '+'):
		default:
			return Decimal{}, &DecimalError{Input: s, Msg: "not a decimal number (digits with an optional sign and decimal point)"}
		}
	}
	if digits > maxDecimalDigits {
		return Decimal{}, &DecimalError{Input: s[:maxDecimalDigits] + "...", Msg: "too many digits"}
	}
	v, ok := xdm.ParseDecimal(s)
	if !ok {
		return Decimal{}, &DecimalError{Input: s, Msg: "not a decimal number (digits with an optional sign and decimal point)"}
	}
	scale := int32(0)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		scale = int32(len(s) - i - 1)
	}
	return mk(v, scale), nil
}

// MustParseDecimal is ParseDecimal for constants in code and tests; it
// panics on a malformed literal.
func MustParseDecimal(s string) Decimal {
	d, err := ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

// parseJSONNumber parses the text of a JSON number (which may carry an
// exponent) exactly.
func parseJSONNumber(s string) (Decimal, error) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > maxDecimalDigits || e < -maxDecimalDigits {
			return Decimal{}, &DecimalError{Input: s, Msg: "exponent out of range"}
		}
		exp = e
	}
	d, err := ParseDecimal(mant)
	if err != nil {
		return Decimal{}, &DecimalError{Input: s, Msg: "not a decimal number"}
	}
	switch {
	case exp > 0:
		d = d.shift(exp)
		d.scale = d.v.Scale()
	case exp < 0:
		d = d.Mul(NewDecimal(1, int32(-exp)))
		d.scale = d.v.Scale()
	}
	return d, nil
}

// shift returns d × 10^n for n >= 0.
func (d Decimal) shift(n int) Decimal {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
	x, _ := xdm.ParseDecimal(p.String())
	return mk(d.v.Mul(x), d.scale)
}

// Add returns d+e.
func (d Decimal) Add(e Decimal) Decimal { return mk(d.v.Add(e.v), max(d.scale, e.scale)) }

// Sub returns d-e.
func (d Decimal) Sub(e Decimal) Decimal { return mk(d.v.Sub(e.v), max(d.scale, e.scale)) }

// Mul returns d×e exactly.
func (d Decimal) Mul(e Decimal) Decimal { return mk(d.v.Mul(e.v), d.scale+e.scale) }

// Neg returns -d.
func (d Decimal) Neg() Decimal { return mk(d.v.Neg(), d.scale) }

// Abs returns |d|.
func (d Decimal) Abs() Decimal { return mk(d.v.Abs(), d.scale) }

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int { return d.v.Sign() }

// IsZero reports whether d equals 0.
func (d Decimal) IsZero() bool { return d.v.Sign() == 0 }

// Cmp compares d and e: -1, 0 or +1.
func (d Decimal) Cmp(e Decimal) int { return d.v.Cmp(e.v) }

// Equal reports whether d and e are the same number (1.50 equals 1.5).
func (d Decimal) Equal(e Decimal) bool { return d.v.Cmp(e.v) == 0 }

// Scale returns the number of fractional digits of the value itself
// (without trailing zeros: 1 for 12.50). BR-DEC checks use it.
func (d Decimal) Scale() int32 { return d.v.Scale() }

// DisplayScale returns the number of fractional digits String writes.
func (d Decimal) DisplayScale() int32 { return d.scale }

// WithScale returns d written with at least places fractional digits (the
// value is unchanged; it never rounds).
func (d Decimal) WithScale(places int32) Decimal { return mk(d.v, places) }

// ErrDivisionByZero is returned by Div for a zero divisor.
var ErrDivisionByZero = fmt.Errorf("decimal division by zero")

// Div returns d÷e rounded half away from zero to places fractional digits
// (a negative places counts as 0).
// The quotient is computed exactly before the single rounding step (no
// double rounding).
func (d Decimal) Div(e Decimal, places int32) (Decimal, error) {
	places = max(places, 0)
	if e.Sign() == 0 {
		return Decimal{}, ErrDivisionByZero
	}
	// d/e = (cd·10^-sd)/(ce·10^-se); scaled by 10^places:
	// q = cd·10^(places+se-sd) / ce
	cd, sd := d.bigParts()
	ce, se := e.bigParts()
	num := new(big.Int).Set(cd)
	den := new(big.Int).Set(ce)
	k := int64(places) + int64(se) - int64(sd)
	ten := big.NewInt(10)
	if k >= 0 {
		num.Mul(num, new(big.Int).Exp(ten, big.NewInt(k), nil))
	} else {
		den.Mul(den, new(big.Int).Exp(ten, big.NewInt(-k), nil))
	}
	neg := (num.Sign() < 0) != (den.Sign() < 0)
	num.Abs(num)
	den.Abs(den)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Lsh(r, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	return fromBig(q, places), nil
}

// bigParts returns the coefficient and scale of d.
func (d Decimal) bigParts() (*big.Int, int32) {
	s := d.v.String()
	scale := int32(0)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		scale = int32(len(s) - i - 1)
		s = s[:i] + s[i+1:]
	}
	c, _ := new(big.Int).SetString(s, 10)
	return c, scale
}

func fromBig(c *big.Int, scale int32) Decimal {
	s := c.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if scale > 0 {
		if int(scale) >= len(s) {
			s = strings.Repeat("0", int(scale)-len(s)+1) + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	}
	if neg {
		s = "-" + s
	}
	v, _ := xdm.ParseDecimal(s)
	return mk(v, scale)
}

var decHalf = NewDecimal(5, 1)

// Round rounds d to places fractional digits (a negative places counts as
// 0), halves away from zero
// (commercial rounding: 0.005 → 0.01, -0.005 → -0.01).
func (d Decimal) Round(places int32) Decimal {
	places = max(places, 0)
	if d.v.Scale() <= places {
		return mk(d.v, places)
	}
	up := d.shiftScale(places) // d × 10^places
	t := up.Abs().v.Floor()    // truncated magnitude
	if up.Abs().v.Sub(t).Cmp(decHalf.v) >= 0 {
		t = t.Add(xdm.DecimalFromInt(1))
	}
	if d.Sign() < 0 {
		t = t.Neg()
	}
	return mk(t.Mul(xdm.NewDecimal(1, places)), places)
}

func (d Decimal) shiftScale(places int32) Decimal {
	p := int64(1)
	if places <= 18 {
		for i := int32(0); i < places; i++ {
			p *= 10
		}
		return Decimal{v: d.v.Mul(xdm.DecimalFromInt(p))}
	}
	return d.shift(int(places))
}

// String returns the canonical form: no exponent, exactly DisplayScale
// fractional digits, no decimal point when that is 0 ("12.50", "-3",
// "0.07").
func (d Decimal) String() string { return d.StringFixed(d.scale) }

// StringFixed returns d with at least places fractional digits, padding
// with zeros ("12.50" for 12.5 and 2). It never rounds: a value with more
// digits keeps them all.
func (d Decimal) StringFixed(places int32) string {
	s := d.v.String()
	have := d.v.Scale()
	if have >= places {
		return s
	}
	if have == 0 {
		s += "."
	}
	return s + strings.Repeat("0", int(places-have))
}

// MarshalJSON encodes d as a JSON string in canonical form.
func (d Decimal) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, d.String()), nil
}

// UnmarshalJSON accepts a JSON string or a JSON number and parses it exactly.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) > 0 && s[0] == '"' {
		u, err := strconv.Unquote(s)
		if err != nil {
			return &DecimalError{Input: s, Msg: "malformed JSON string"}
		}
		v, err := ParseDecimal(u)
		if err != nil {
			return err
		}
		*d = v
		return nil
	}
	v, err := parseJSONNumber(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalText and UnmarshalText let a Decimal be used as a text value.
func (d Decimal) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText parses the lexical form of ParseDecimal.
func (d *Decimal) UnmarshalText(b []byte) error {
	v, err := ParseDecimal(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Dec is a convenience for optional fields: it returns a pointer to d.
func Dec(d Decimal) *Decimal { return &d }
