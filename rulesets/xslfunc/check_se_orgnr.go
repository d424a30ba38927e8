package xslfunc

import (
	"context"
	"math"
	"unicode"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// checkSEOrgnr is u:checkSEOrgnr($number as xs:string) (Swedish
// organisation number): all digits (\d, i.e. Unicode Nd) and the Luhn check
// digit of characters 1-9 equals character 10. Non-ASCII digits reproduce the
// reference's errors: FOAR0002 from `idiv` on NaN at a doubled position,
// else FORG0001 when the NaN sum is cast to xs:integer.
func checkSEOrgnr(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, _, err := stringParam(doc, args[0], false, "u:checkSEOrgnr")
	if err != nil {
		return nil, err
	}
	if s == "" {
		return boolSeq(false), nil
	}
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return boolSeq(false), nil
		}
	}
	main, check := substring(s, 1, 9), substring(s, 10, 1)
	n := runeCount(main)
	sum := 0.0
	for pos := 1; pos <= n; pos++ {
		x := number(substring(main, n-pos+1, 1))
		if pos%2 == 1 {
			if math.IsNaN(x) {
				return nil, xdm.Errorf(xdm.ErrOverflow, "u:checkSEOrgnr: idiv of NaN")
			}
			sum += math.Mod(x*2, 10) + math.Trunc(x*2/10)
		} else {
			sum += x
		}
	}
	if math.IsNaN(sum) {
		return nil, xdm.Errorf(xdm.ErrInvalidCast, "u:checkSEOrgnr: cannot cast \"NaN\" to xs:integer")
	}
	total := int64(sum)
	calc := xmod(10-xmod(total, 10), 10)
	return boolSeq(float64(calc) == number(check)), nil
}
