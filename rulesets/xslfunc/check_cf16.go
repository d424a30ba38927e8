package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// checkCF16 is u:checkCF16($arg as xs:string?): letters at 1-6, 9 and 16,
// integers at 7-8, 10-11 and 15 (characters 12-14 are free).
func checkCF16(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, _, err := stringParam(doc, args[0], true, "u:checkCF16")
	if err != nil {
		return nil, err
	}
	return boolSeq(cf16(s)), nil
}

func cf16(s string) bool {
	return onlyIn(substring(s, 1, 6), false) &&
		castableInteger(substring(s, 7, 2)) &&
		onlyIn(substring(s, 9, 1), false) &&
		castableInteger(substring(s, 10, 2)) &&
		castableInteger(substring(s, 15, 1)) &&
		onlyIn(substring(s, 16, 1), false)
}
