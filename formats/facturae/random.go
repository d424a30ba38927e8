package facturae

import (
	"fmt"
	"math/rand/v2"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// RandomRequest returns a random invoice within Facturae's scope and its
// extras: model.RandomInvoice with the members Facturae cannot carry
// stripped (formats/carry), in euros, with a buyer tax number, Spanish
// parties half of the time, IRPF a third of the time, and the corrective
// data a credit note needs. The same r gives the same request. Property
// tests use it.
func RandomRequest(r *rand.Rand) (*model.Invoice, *Extras, error) {
	inv, err := carry.Strip(model.RandomInvoice(r, model.RandomOptions{Incomplete: true}), carried)
	if err != nil {
		return nil, nil, err
	}
	inv.CurrencyCode = "EUR"
	if inv.Seller.VATID == "" { // out of scope (O) invoices carry no VAT id; Facturae needs the tax number
		inv.Seller.VATID = fmt.Sprintf("%s%09d", inv.Seller.Address.CountryCode, r.IntN(1000000000))
	}
	if inv.Buyer.VATID == "" {
		inv.Buyer.VATID = fmt.Sprintf("%s%09d", inv.Buyer.Address.CountryCode, r.IntN(1000000000))
	}
	if r.IntN(2) == 0 {
		inv.Seller.Address = model.Address{Line1: "Calle Mayor 1", City: "Madrid", PostCode: fmt.Sprintf("28%03d", r.IntN(1000)), CountryCode: "ES"}
		inv.Seller.VATID = fmt.Sprintf("ESB%08d", r.IntN(100000000))
	}
	for _, a := range []*model.Address{&inv.Seller.Address, &inv.Buyer.Address} {
		if a.CountryCode == "ES" && (len(a.PostCode) != 5 || provinces[a.PostCode[:2]] == "") {
			a.PostCode = "28001"
		}
	}
	ex := &Extras{}
	if r.IntN(3) == 0 {
		ex.IRPFRate = model.Dec(model.NewDecimal(int64(r.IntN(3000)), 2))
	}
	if inv.TypeCode == "381" {
		ex.Corrective = &Corrective{ReasonCode: "01", CorrectionMethod: "01"}
		if len(inv.PrecedingInvoices) == 0 {
			inv.PrecedingInvoices = []model.PrecedingInvoice{{ID: "INV-1"}}
		}
		inv.PrecedingInvoices = inv.PrecedingInvoices[:1]
	} else {
		inv.PrecedingInvoices = nil
	}
	return inv, ex, nil
}
