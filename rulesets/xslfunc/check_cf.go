package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// checkCF is u:checkCF($arg as xs:string?) (Italian codice fiscale): 16
// characters shaped as checkCF16 says, or 11 characters castable as
// xs:integer.
func checkCF(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, _, err := stringParam(doc, args[0], true, "u:checkCF")
	if err != nil {
		return nil, err
	}
	switch runeCount(s) {
	case 16:
		return boolSeq(cf16(s)), nil
	case 11:
		return boolSeq(castableInteger(s)), nil
	}
	return boolSeq(false), nil
}
