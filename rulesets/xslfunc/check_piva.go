package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// checkPIVA is u:checkPIVA($arg as xs:string?) as xs:integer: 1 when $arg
// is not castable as xs:integer, else u:addPIVA($arg, 0) mod 10 (0 = valid).
func checkPIVA(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, empty, err := stringParam(doc, args[0], true, "u:checkPIVA")
	if err != nil {
		return nil, err
	}
	r, err := piva(s, empty)
	if err != nil {
		return nil, err
	}
	return intSeq(r), nil
}

func piva(s string, empty bool) (int64, error) {
	if empty || !castableInteger(s) {
		return 1, nil
	}
	sum, err := addPIVAString(s, 0)
	if err != nil {
		return 0, err
	}
	return xmod(sum, 10), nil
}
