package carry

import (
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// TrimZeros writes d without trailing fraction zeros (200.00000000 ->
// 200), as the national formats write their 8-digit unit prices.
func TrimZeros(d model.Decimal) string {
	s := d.String()
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
