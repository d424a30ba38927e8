package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// mod11 is u:mod11($val): number($val) > 0 and the modulus-11 check digit
// (weights 2..7 repeating from the right over all but the last character)
// equals the last character.
func mod11(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	val, err := anyString(doc, args[0], "u:mod11")
	if err != nil {
		return nil, err
	}
	length := runeCount(val) - 1
	digits := reversedDigits(substring(val, 0, length+1))
	var sum int64
	for i := 0; i <= length-1 && i < len(digits); i++ {
		sum += digits[i] * (xmod(int64(i), 6) + 2)
	}
	check := xmod(11-xmod(sum, 11), 11)
	return boolSeq(number(val) > 0 && float64(check) == number(substring(val, length+1, 1))), nil
}
