package xslfunc

import (
	"math"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// NSPeppol is the namespace of the Peppol utility functions (prefix u).
const NSPeppol = "utils"

// atom returns the atomized value of an item: nodes become xs:untypedAtomic.
func atom(doc *xmltree.Document, it xdm.Item) xdm.Item {
	if it.IsNode() {
		return xdm.Untyped(doc.StringValue(xmltree.NodeID(it.Node)))
	}
	return it
}

// anyString is the string value of an untyped param used where XPath
// expects xs:string? (string-length, substring, ...): () is "", more than
// one item is a type error.
func anyString(doc *xmltree.Document, s xdm.Sequence, fn string) (string, error) {
	switch len(s) {
	case 0:
		return "", nil
	case 1:
		return atom(doc, s[0]).StringValue(), nil
	}
	return "", xdm.Errorf(xdm.ErrType, "%s: a sequence of %d items where one string was expected", fn, len(s))
}

// stringParam applies the function conversion rules for a param declared
// as="xs:string" (optional: as="xs:string?"): untypedAtomic is cast, other
// atomic types are a type error (no promotion to string).
func stringParam(doc *xmltree.Document, s xdm.Sequence, optional bool, fn string) (str string, empty bool, err error) {
	switch {
	case len(s) == 0 && optional:
		return "", true, nil
	case len(s) != 1:
		return "", false, xdm.Errorf(xdm.ErrType, "%s: expected exactly one xs:string, got %d items", fn, len(s))
	}
	it := atom(doc, s[0])
	if it.T != xdm.TString && it.T != xdm.TUntyped {
		return "", false, xdm.Errorf(xdm.ErrType, "%s: expected xs:string, got %s", fn, it.T)
	}
	return it.S, false, nil
}

// decimalParam applies the conversion rules for as="xs:decimal":
// untypedAtomic is cast (FORG0001 if invalid), xs:integer is accepted,
// xs:double is a type error.
func decimalParam(doc *xmltree.Document, s xdm.Sequence, fn string) (xdm.Decimal, error) {
	if len(s) != 1 {
		return xdm.Decimal{}, xdm.Errorf(xdm.ErrType, "%s: expected exactly one xs:decimal, got %d items", fn, len(s))
	}
	it := atom(doc, s[0])
	switch it.T {
	case xdm.TDecimal, xdm.TInteger:
		return it.Decimal(), nil
	case xdm.TUntyped:
		c, err := xdm.Cast(it, xdm.TDecimal)
		if err != nil {
			return xdm.Decimal{}, err
		}
		return c.Decimal(), nil
	}
	return xdm.Decimal{}, xdm.Errorf(xdm.ErrType, "%s: expected xs:decimal, got %s", fn, it.T)
}

// integerParam applies the conversion rules for as="xs:integer".
func integerParam(doc *xmltree.Document, s xdm.Sequence, fn string) (int64, error) {
	if len(s) != 1 {
		return 0, xdm.Errorf(xdm.ErrType, "%s: expected exactly one xs:integer, got %d items", fn, len(s))
	}
	it := atom(doc, s[0])
	switch it.T {
	case xdm.TInteger:
	case xdm.TUntyped:
		c, err := xdm.Cast(it, xdm.TInteger)
		if err != nil {
			return 0, err
		}
		it = c
	default:
		return 0, xdm.Errorf(xdm.ErrType, "%s: expected xs:integer, got %s", fn, it.T)
	}
	v, ok := it.Decimal().Int64()
	if !ok {
		return 0, xdm.Errorf(xdm.ErrOverflow, "%s: integer out of range", fn)
	}
	return v, nil
}

// substring is fn:substring($s, $start, $length) for integer arguments:
// the code points at 1-based positions p with start <= p < start+length.
func substring(s string, start, length int) string {
	end := start + length
	if start < 1 {
		start = 1
	}
	if end <= start {
		return ""
	}
	var b []byte
	p := 0
	for _, r := range s {
		p++
		if p >= end {
			break
		}
		if p >= start {
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// substringFrom is fn:substring($s, $start) (to the end).
func substringFrom(s string, start int) string {
	return substring(s, start, math.MaxInt32)
}

// number is fn:number of a string: the xs:double value or NaN.
func number(s string) float64 {
	if f, ok := xdm.ParseDouble(s); ok {
		return f
	}
	return math.NaN()
}

// castableInteger is `$s castable as xs:integer`.
func castableInteger(s string) bool { return xdm.Castable(xdm.String(s), xdm.TInteger) }

// castInteger is xs:integer($s): FORG0001 when not castable.
func castInteger(s string) (int64, error) {
	it, err := xdm.Cast(xdm.String(s), xdm.TInteger)
	if err != nil {
		return 0, err
	}
	v, ok := it.Decimal().Int64()
	if !ok {
		return 0, xdm.Errorf(xdm.ErrOverflow, "integer %q out of range", s)
	}
	return v, nil
}

// xmod is the XPath integer mod (the sign of the dividend; Go's % agrees).
func xmod(a, b int64) int64 { return a % b }

// seqTrue and seqFalse are the functions' boolean results, shared: the
// evaluator never modifies a sequence it is given (it returns its
// literals' sequences the same way).
var seqTrue, seqFalse = xdm.Sequence{xdm.Bool(true)}, xdm.Sequence{xdm.Bool(false)}

func boolSeq(b bool) xdm.Sequence {
	if b {
		return seqTrue
	}
	return seqFalse
}

func intSeq(v int64) xdm.Sequence { return xdm.Sequence{xdm.Integer(v)} }

func runeCount(s string) int { return utf8.RuneCountInString(s) }
