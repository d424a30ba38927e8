package xdm

import (
	"cmp"
	"math"
	"strings"
)

// Comparison operators.
type CmpOp uint8

// The six comparison operators (shared by value and general comparisons).
const (
	OpEq CmpOp = iota
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
)

var cmpNames = [...]string{"eq", "ne", "lt", "le", "gt", "ge"}

func (o CmpOp) String() string { return cmpNames[o] }

func (o CmpOp) holds(c int) bool {
	switch o {
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpGt:
		return c > 0
	}
	return c >= 0
}

// CompareValues applies a value comparison (eq, ne, lt, ...) to two atomic
// items. xs:untypedAtomic is treated as xs:string. Incomparable types fail
// with XPTY0004. NaN compares false except for ne.
func CompareValues(op CmpOp, a, b Item) (bool, error) {
	if a.T == TUntyped {
		a.T = TString
	}
	if b.T == TUntyped {
		b.T = TString
	}
	return compareAtomic(op, &a, &b)
}

func compareAtomic(op CmpOp, a, b *Item) (bool, error) {
	switch {
	case a.T.IsNumeric() && b.T.IsNumeric():
		if a.T == TDouble || b.T == TDouble {
			return op.floats(a.AsFloat(), b.AsFloat()), nil
		}
		return op.holds(a.Decimal().Cmp(b.Decimal())), nil
	case a.T == TString && b.T == TString:
		return op.holds(strings.Compare(a.S, b.S)), nil
	case a.T == TBoolean && b.T == TBoolean:
		return op.holds(boolCmp(a.B, b.B)), nil
	case a.T == TDate && b.T == TDate:
		return op.holds(a.Date().Compare(b.Date())), nil
	}
	return false, Errorf(ErrType, "cannot compare %s with %s", a.T, b.T)
}

// boolCmp orders two xs:boolean values (false before true): -1, 0 or 1.
func boolCmp(x, y bool) int {
	switch {
	case x == y:
		return 0
	case y:
		return -1
	}
	return 1
}

// floats is op on two doubles: NaN compares unequal to everything.
// CompareDoubles is CompareGeneral on two xs:double values.
func CompareDoubles(op CmpOp, x, y float64) bool { return op.floats(x, y) }

func (op CmpOp) floats(x, y float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return op == OpNe
	}
	c := 0
	if x < y {
		c = -1
	} else if x > y {
		c = 1
	}
	return op.holds(c)
}

// CompareGeneral compares two atomic items as one pair of a general
// comparison (=, !=, <, ...): untypedAtomic against a numeric is cast to
// xs:double, against untypedAtomic or xs:string to xs:string, against any
// other type to that type (FORG0001 when the cast fails).
func CompareGeneral(op CmpOp, a, b Item) (bool, error) {
	if (a.T == TString || a.T == TUntyped) && (b.T == TString || b.T == TUntyped) {
		// The most common pair (a node's value against a string
		// literal): both compare as xs:string, by codepoints.
		switch op {
		case OpEq:
			return a.S == b.S, nil
		case OpNe:
			return a.S != b.S, nil
		}
		return op.holds(strings.Compare(a.S, b.S)), nil
	}
	if a.T.isDec() && b.T.isDec() && a.big == nil && b.big == nil && a.Node == b.Node {
		// Two xs:integer or xs:decimal of one scale (counts, amounts
		// of one precision): their coefficients compare (Decimal.Cmp).
		return op.holds(cmp.Compare(int64(a.n), int64(b.n))), nil
	}
	if a.T == TDouble && b.T.isDec() && b.big == nil && b.Node == 0 {
		// A double against an integral decimal or integer (BR-FR's
		// number(substring($date, 6, 2)) = (1, 3, 5, 7, 8, 10, 12)):
		// the integer as a double is its coefficient's (Decimal.Float64).
		return op.floats(a.Float(), float64(int64(b.n))), nil
	}
	if a.T == TUntyped && b.T.isDec() && b.big == nil {
		// A node's value against a numeric literal (BR-27's
		// cac:Price/cbc:PriceAmount >= 0): see untypedDecimalCmp.
		if c, ok := untypedDecimalCmp(a.S, b); ok {
			return op.holds(c), nil
		}
	} else if b.T == TUntyped && a.T.isDec() && a.big == nil {
		if c, ok := untypedDecimalCmp(b.S, a); ok {
			return op.holds(-c), nil
		}
	}
	switch {
	case a.T == TUntyped && b.T == TBoolean:
		// A node's value against true() or false() (CII's
		// ram:ChargeIndicator/udt:Indicator = false()): cast to
		// xs:boolean as promoteUntyped does, without the items.
		x, ok := parseBoolean(a.S)
		if !ok {
			return false, castErr(a, TBoolean)
		}
		return op.holds(boolCmp(x, b.B)), nil
	case a.T == TBoolean && b.T == TUntyped:
		y, ok := parseBoolean(b.S)
		if !ok {
			return false, castErr(b, TBoolean)
		}
		return op.holds(boolCmp(a.B, y)), nil
	}
	var err error
	switch {
	case a.T == TUntyped && b.T == TUntyped:
		a.T, b.T = TString, TString
	case a.T == TUntyped:
		if a, err = promoteUntyped(a, b.T); err != nil {
			return false, err
		}
	case b.T == TUntyped:
		if b, err = promoteUntyped(b, a.T); err != nil {
			return false, err
		}
	}
	return compareAtomic(op, &a, &b)
}

// exactBound is 10^15: a coefficient below it has at most 15 significant
// digits, as many as every xs:double keeps (DBL_DIG), so two such
// decimals convert to two different doubles, in the same order.
const exactBound = 1e15

// untypedDecimalCmp compares the untypedAtomic value s with the xs:decimal
// or xs:integer d as the general comparison does, both cast to xs:double,
// without the casts: ok=false unless s is a plain decimal numeral
// (surrounding whitespace, a sign, at most 18 characters) and both values
// have at most 15 significant digits (exactBound). Converting such a
// decimal to the nearest double is monotonic and, for at most 15
// significant digits, one-to-one, so the doubles compare as the exact
// values do (-0 and 0 equal in both). Any other form ("1e3", "INF", "NaN",
// 19 digits or more, text that does not cast) is left to the casts, with
// their errors.
func untypedDecimalCmp(s string, d Item) (c int, ok bool) {
	if c := int64(d.n); c <= -exactBound || c >= exactBound {
		return 0, false
	}
	s = TrimSpace(s)
	if s == "" {
		return 0, false
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	if len(s) > 18 {
		return 0, false
	}
	x, st := parseShortDecimal(s, neg)
	if st != parseOK || x.c <= -exactBound || x.c >= exactBound {
		return 0, false
	}
	return x.Cmp(d.Decimal()), true
}

func promoteUntyped(u Item, other Type) (Item, error) {
	switch {
	case other.IsNumeric():
		return Cast(u, TDouble)
	case other == TString:
		u.T = TString
		return u, nil
	}
	return Cast(u, other)
}
