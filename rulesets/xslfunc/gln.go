package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// gln is u:gln($val): the GS1 check digit of a GLN (weights 3,1,3,... from
// the right over all but the last character, each character taken as its
// code point minus 48) equals the last character.
func gln(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	val, err := anyString(doc, args[0], "u:gln")
	if err != nil {
		return nil, err
	}
	length := runeCount(val) - 1
	digits := reversedDigits(substring(val, 0, length+1))
	var sum int64
	for i := 0; i <= length-1 && i < len(digits); i++ {
		sum += digits[i] * (1 + xmod(int64(i+1), 2)*2)
	}
	check := xmod(10-xmod(sum, 10), 10)
	return boolSeq(float64(check) == number(substring(val, length+1, 1))), nil
}

// reversedDigits is reverse(for $i in string-to-codepoints($s) return $i - 48).
func reversedDigits(s string) []int64 {
	rs := []rune(s)
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[len(rs)-1-i] = int64(r) - 48
	}
	return out
}
