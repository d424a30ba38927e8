package xslfunc

import (
	"context"
	"math"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// tinVerification is u:TinVerification($val as xs:string) (Greek AFM): the
// doubles number(character k) weighted 256,128,...,2 for k = 1..8, mod 11,
// mod 10, equal number(character 9). A missing or non-numeric character is
// NaN, which makes the comparison false.
func tinVerification(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, _, err := stringParam(doc, args[0], false, "u:TinVerification")
	if err != nil {
		return nil, err
	}
	rs := []rune(s)
	digit := func(k int) float64 { // number($digits[k])
		if k > len(rs) {
			return math.NaN()
		}
		return number(string(rs[k-1]))
	}
	sum := 0.0
	for k := 1; k <= 8; k++ {
		sum += digit(k) * float64(int(1)<<(9-k))
	}
	return boolSeq(math.Mod(math.Mod(sum, 11), 10) == digit(9)), nil
}
