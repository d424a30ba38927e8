package httpapi

import (
	"net/http"
	"strconv"

	"github.com/einvoice-dev/einvoice/formats/cii"
)

// Response headers of generate/cii for a profile that carries only part of
// the model (facturx_minimum, facturx_basicwl; docs/API.md, docs/GENERATION.md).
const (
	// HeaderDroppedTerms lists the request values the profile cannot carry
	// and the document therefore does not have, comma-separated, each
	// "BT-153=/invoice/lines/0/item/name" (business term = JSON Pointer
	// into the request), capped like X-Ignored-Properties.
	HeaderDroppedTerms = "X-Dropped-Terms"
	// HeaderDroppedCount is the number of dropped values (the whole list's
	// length, also when X-Dropped-Terms is capped).
	HeaderDroppedCount = "X-Dropped-Count"
)

// setDroppedTerms sets X-Dropped-Terms and X-Dropped-Count (none when
// nothing was dropped).
func setDroppedTerms(h http.Header, dropped []cii.Dropped) {
	if len(dropped) == 0 {
		return
	}
	entries := make([]string, len(dropped))
	for i, d := range dropped {
		entries[i] = d.String()
	}
	h.Set(HeaderDroppedTerms, joinCapped(entries))
	h.Set(HeaderDroppedCount, strconv.Itoa(len(dropped)))
}
