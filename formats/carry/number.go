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

// Round2 is d rounded to 2 decimals (halves away from zero) and written
// with exactly 2, as the national formats write amounts.
func Round2(d model.Decimal) model.Decimal { return d.Round(2).WithScale(2) }

// Percent is base × rate / 100 rounded to 2 decimals (halves away from
// zero), as the national formats compute a tax or an allowance of a rate.
func Percent(base, rate model.Decimal) model.Decimal {
	return Round2(base.Mul(rate).Mul(model.NewDecimal(1, 2)))
}
