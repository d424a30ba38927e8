package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// mod97_0208 is u:mod97-0208($val) (Belgian enterprise number): characters
// 9-10 equal 97 - (xs:integer(characters 1-8) mod 97). The cast raises
// FORG0001 when characters 1-8 are not an integer, as in the reference.
func mod97_0208(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	val, err := anyString(doc, args[0], "u:mod97-0208")
	if err != nil {
		return nil, err
	}
	check := substring(val, 9, 2)
	head, err := castInteger(substring(val, 1, 8))
	if err != nil {
		return nil, err
	}
	calc := 97 - xmod(head, 97)
	return boolSeq(number(check) == float64(calc)), nil
}
