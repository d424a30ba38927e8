package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// checkPIVAseIT is u:checkPIVAseIT($arg as xs:string): for an "IT"/"it"
// prefix, the rest must be 11 characters with a valid partita IVA check
// (checkPIVA = 0); any other prefix passes.
func checkPIVAseIT(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	s, _, err := stringParam(doc, args[0], false, "u:checkPIVAseIT")
	if err != nil {
		return nil, err
	}
	country, code := substring(s, 1, 2), substringFrom(s, 3)
	if country != "IT" && country != "it" {
		return boolSeq(true), nil
	}
	if runeCount(code) != 11 {
		return boolSeq(false), nil
	}
	r, err := piva(code, false)
	if err != nil {
		return nil, err
	}
	return boolSeq(r == 0), nil
}
