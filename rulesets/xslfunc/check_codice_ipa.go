package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// checkCodiceIPA is u:checkCodiceIPA($arg as xs:string?): exactly six
// characters, all ASCII letters or digits.
func checkCodiceIPA(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, _, err := stringParam(doc, args[0], true, "u:checkCodiceIPA")
	if err != nil {
		return nil, err
	}
	return boolSeq(onlyIn(s, true) && runeCount(s) == 6), nil
}

// onlyIn reports whether every character is an ASCII letter (or digit, if
// digits): string-length(translate($s, $allowed, ”)) = 0.
func onlyIn(s string, digits bool) bool {
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case digits && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
