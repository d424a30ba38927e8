package ksef

import (
	"fmt"
	"math/rand/v2"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// RandomInvoice returns a random invoice within FA(3)'s scope:
// model.RandomInvoice with the members FA(3) cannot carry stripped
// (formats/carry), a Polish seller NIP, Polish VAT rates on the standard
// lines (23, 8 or 5; the Canary and Ceuta categories become standard), a
// buyer that is Polish half of the time, type code 380. The same r gives
// the same invoice. Property tests use it.
func RandomInvoice(r *rand.Rand) (*model.Invoice, error) {
	inv, err := carry.Strip(model.RandomInvoice(r, model.RandomOptions{Incomplete: true}), carried)
	if err != nil {
		return nil, err
	}
	inv.TypeCode = "380"
	inv.Seller.VATID = fmt.Sprintf("PL%d%09d", 1+r.IntN(9), 100000000+r.IntN(900000000))
	inv.Seller.Address.CountryCode = "PL"
	if r.IntN(2) == 0 {
		inv.Buyer.VATID = fmt.Sprintf("PL%d%09d", 1+r.IntN(9), 100000000+r.IntN(900000000))
		inv.Buyer.Address.CountryCode = "PL"
	}
	if inv.Delivery != nil && inv.InvoicingPeriod != nil {
		inv.Delivery = nil
	}
	for i := range inv.Lines {
		l := &inv.Lines[i]
		switch l.CategoryCode() {
		case model.VATStandard, model.VATCanaryIGIC, model.VATCeutaMelillaIPS:
			l.VATCategoryCode, l.Category = model.VATStandard, ""
			l.VATRate = model.Dec(model.DecimalFromInt([]int64{23, 8, 5}[r.IntN(3)]))
		}
	}
	return inv, nil
}
