package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// slack is u:slack($exp as xs:decimal, $val as xs:decimal, $slack as
// xs:decimal): $exp - $slack <= $val <= $exp + $slack, in exact decimals.
func slack(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	exp, err := decimalParam(doc, args[0], "u:slack")
	if err != nil {
		return nil, err
	}
	val, err := decimalParam(doc, args[1], "u:slack")
	if err != nil {
		return nil, err
	}
	sl, err := decimalParam(doc, args[2], "u:slack")
	if err != nil {
		return nil, err
	}
	return boolSeq(exp.Add(sl).Cmp(val) >= 0 && exp.Sub(sl).Cmp(val) <= 0), nil
}
