package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// abnWeights are the weights of characters 2..11 of an Australian Business
// Number; character 1 has weight 10 after subtracting 1.
var abnWeights = [...]int64{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}

// abn is u:abn($val): the weighted sum of the 11 characters (code point
// minus 48, the first minus 49) is divisible by 89. A missing character
// makes the sum the empty sequence, so the result is false.
func abn(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	val, err := anyString(doc, args[0], "u:abn")
	if err != nil {
		return nil, err
	}
	rs := []rune(val)
	if len(rs) < 11 {
		return boolSeq(false), nil
	}
	sum := (int64(rs[0]) - 49) * 10
	for i, w := range abnWeights {
		sum += (int64(rs[i+1]) - 48) * w
	}
	return boolSeq(xmod(sum, 89) == 0), nil
}
