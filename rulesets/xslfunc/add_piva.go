package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// addPIVA is u:addPIVA($arg as xs:string, $pari as xs:integer) as
// xs:integer: the recursive partita IVA digit sum (odd positions as is,
// even positions mapped through '0246813579'); 0 once $arg is no longer
// castable as xs:integer. Casting a single character that is not a digit
// (e.g. a sign) raises FORG0001, as in the reference.
func addPIVA(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, _, err := stringParam(doc, args[0], false, "u:addPIVA")
	if err != nil {
		return nil, err
	}
	pari, err := integerParam(doc, args[1], "u:addPIVA")
	if err != nil {
		return nil, err
	}
	r, err := addPIVAString(s, pari)
	if err != nil {
		return nil, err
	}
	return intSeq(r), nil
}

func addPIVAString(s string, pari int64) (int64, error) {
	var total int64
	for castableInteger(s) {
		d, err := castInteger(substring(s, 1, 1))
		if err != nil {
			return 0, err
		}
		if pari == 1 {
			if d, err = castInteger(substring("0246813579", int(d)+1, 1)); err != nil {
				return 0, err
			}
		}
		total += d
		s = substringFrom(s, 2)
		if pari == 0 {
			pari = 1
		} else {
			pari = 0
		}
	}
	return total, nil
}
