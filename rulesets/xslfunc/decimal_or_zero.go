package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// decimalOrZero is u:decimalOrZero($element) as xs:decimal (XRechnung CII):
// if boolean($element) then xs:decimal($element) else 0. The effective
// boolean value of several atomic values raises FORG0006, the cast of an
// invalid value FORG0001 and of several items XPTY0004, as in the reference.
func decimalOrZero(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s := args[0]
	ebv, err := effectiveBoolean(doc, s)
	if err != nil {
		return nil, err
	}
	if !ebv {
		return xdm.Sequence{xdm.Dec(xdm.DecimalFromInt(0))}, nil
	}
	if len(s) != 1 {
		return nil, xdm.Errorf(xdm.ErrType, "u:decimalOrZero: xs:decimal of %d items", len(s))
	}
	it, err := xdm.Cast(atom(doc, s[0]), xdm.TDecimal)
	if err != nil {
		return nil, err
	}
	return xdm.Sequence{it}, nil
}

// effectiveBoolean is fn:boolean.
func effectiveBoolean(doc *xmltree.Document, s xdm.Sequence) (bool, error) {
	if len(s) == 0 {
		return false, nil
	}
	if s[0].IsNode() {
		return true, nil
	}
	if len(s) > 1 {
		return false, xdm.Errorf("FORG0006", "effective boolean value of a sequence of %d atomic values", len(s))
	}
	it := s[0]
	switch it.T {
	case xdm.TBoolean:
		return it.B, nil
	case xdm.TString, xdm.TUntyped:
		return it.S != "", nil
	case xdm.TDecimal, xdm.TInteger:
		return it.Decimal().Sign() != 0, nil
	case xdm.TDouble:
		return it.Float() != 0 && it.Float() == it.Float(), nil
	}
	return false, xdm.Errorf("FORG0006", "no effective boolean value for %s", it.T)
}
