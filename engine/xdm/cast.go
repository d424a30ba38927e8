package xdm

import (
	"math"
	"strings"
)

// Cast converts an atomic item to the target atomic type following the
// XPath 2.0 casting table. Invalid values fail with FORG0001 (or FOCA0002
// for NaN/INF to decimal); impossible casts with XPTY0004.
func Cast(it Item, to Type) (Item, error) {
	if it.T == TNode {
		return Item{}, &Error{Code: ErrType, Msg: "cannot cast a node; atomize first"}
	}
	if it.T == to {
		return it, nil
	}
	switch to {
	case TString:
		return String(it.StringValue()), nil
	case TUntyped:
		return Untyped(it.StringValue()), nil
	case TBoolean:
		switch it.T {
		case TString, TUntyped:
			if v, ok := parseBoolean(it.S); ok {
				return Bool(v), nil
			}
			return Item{}, castErr(it, to)
		case TDecimal, TInteger:
			return Bool(it.Decimal().Sign() != 0), nil
		case TDouble:
			return Bool(it.Float() != 0 && !math.IsNaN(it.Float())), nil
		}
	case TDecimal:
		switch it.T {
		case TString, TUntyped:
			d, ok := ParseDecimal(it.S)
			if !ok {
				return Item{}, castErr(it, to)
			}
			return Dec(d), nil
		case TInteger:
			d := it.Decimal()
			d.plain = true // BigDecimal.valueOf(long): scale 0
			return Dec(d), nil
		case TDouble:
			d, err := DecimalFromFloat(it.Float())
			if err != nil {
				return Item{}, err
			}
			return Dec(d), nil
		case TBoolean:
			if it.B {
				return Dec(DecimalFromInt(1)), nil
			}
			return Dec(Decimal{}), nil
		}
	case TInteger:
		switch it.T {
		case TString, TUntyped:
			d, ok := ParseInteger(it.S)
			if !ok {
				return Item{}, castErr(it, to)
			}
			return IntegerD(d), nil
		case TDecimal:
			return IntegerD(truncate(it.Decimal())), nil
		case TDouble:
			if math.IsNaN(it.Float()) || math.IsInf(it.Float(), 0) {
				return Item{}, &Error{Code: ErrInvalidLexical, Msg: "cannot cast " + FormatDouble(it.Float()) + " to xs:integer"}
			}
			d, err := DecimalFromFloat(math.Trunc(it.Float()))
			if err != nil {
				return Item{}, err
			}
			return IntegerD(d), nil
		case TBoolean:
			if it.B {
				return Integer(1), nil
			}
			return Integer(0), nil
		}
	case TDouble:
		switch it.T {
		case TString, TUntyped:
			f, ok := ParseDouble(it.S)
			if !ok {
				return Item{}, castErr(it, to)
			}
			return Double(f), nil
		case TDecimal, TInteger:
			return Double(it.Decimal().Float64()), nil
		case TBoolean:
			if it.B {
				return Double(1), nil
			}
			return Double(0), nil
		}
	case TDate:
		switch it.T {
		case TString, TUntyped:
			d, ok := ParseDate(it.S)
			if !ok {
				return Item{}, castErr(it, to)
			}
			return DateItem(d), nil
		}
	}
	return Item{}, Errorf(ErrType, "cannot cast %s to %s", it.T, to)
}

// parseBoolean reads the lexical forms of xs:boolean, surrounding
// whitespace allowed; ok=false for any other string.
func parseBoolean(s string) (v, ok bool) {
	switch TrimSpace(s) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

func truncate(d Decimal) Decimal {
	if d.Sign() < 0 {
		return d.Ceil()
	}
	return d.Floor()
}

func castErr(it Item, to Type) error {
	if (to == TDecimal || to == TInteger && !strings.Contains(it.S, ".")) && (it.T == TString || it.T == TUntyped) && DecimalTooLarge(it.S) {
		return Errorf(ErrDecimalTooLarge, "cannot cast a value of more than %d digits to %s", MaxDecimalDigits, to)
	}
	s := it.StringValue()
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return Errorf(ErrInvalidCast, "cannot cast %q to %s", s, to)
}

// Castable reports whether Cast(it, to) would succeed.
func Castable(it Item, to Type) bool {
	_, err := Cast(it, to)
	return err == nil
}

// CastableErr is Castable for the evaluator: a value Cast refuses only
// because it exceeds MaxDecimalDigits is an error (FOCA0001), not false, so
// the limit can never turn into a different verdict.
func CastableErr(it Item, to Type) (bool, error) {
	_, err := Cast(it, to)
	if err == nil {
		return true, nil
	}
	if xe, ok := err.(*Error); ok && xe.Code == ErrDecimalTooLarge {
		return false, err
	}
	return false, nil
}

// TypeByName maps an xs: local name to a Type (ok=false if unsupported).
func TypeByName(local string) (Type, bool) {
	switch local {
	case "string":
		return TString, true
	case "untypedAtomic":
		return TUntyped, true
	case "boolean":
		return TBoolean, true
	case "decimal":
		return TDecimal, true
	case "integer":
		return TInteger, true
	case "double":
		return TDouble, true
	case "date":
		return TDate, true
	}
	return 0, false
}

// InstanceOf reports whether an atomic item's type is t or derived from it
// (xs:integer is an xs:decimal).
func InstanceOf(it Item, t Type) bool {
	return it.T == t || (t == TDecimal && it.T == TInteger)
}
