package fatturapa

import (
	"fmt"
	"math/rand/v2"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// RandomRequest returns a random invoice within FatturaPA's scope and its
// extras: model.RandomInvoice with the members FatturaPA cannot carry
// stripped (formats/carry), an Italian seller, Italian VAT rates on the
// standard lines (22, 10, 5 or 4; the Canary and Ceuta categories become
// standard, zero-rated ones exempt), line allowances and charges kept only
// when they spread exactly over the quantity, one payment account, and
// extras with a ritenuta, a cassa or a bollo now and then. The same r
// gives the same request. Property tests use it.
func RandomRequest(r *rand.Rand) (*model.Invoice, *Extras, error) {
	inv, err := carry.Strip(model.RandomInvoice(r, model.RandomOptions{Incomplete: true}), carried)
	if err != nil {
		return nil, nil, err
	}
	inv.Seller.VATID = fmt.Sprintf("IT%011d", r.Int64N(100000000000))
	inv.Seller.Address = model.Address{Line1: "Via Roma 1", City: "Sassari", PostCode: fmt.Sprintf("07%03d", r.IntN(1000)), Subdivision: "SS", CountryCode: "IT"}
	if c := inv.Seller.Contact; c != nil && c.Telephone != "" {
		c.Telephone = "079123456"
	}
	b := &inv.Buyer
	if b.VATID == "" && b.LegalRegistrationID == nil {
		b.VATID = fmt.Sprintf("%s%09d", b.Address.CountryCode, r.IntN(1000000000))
	}
	if b.Address.Line1 == "" {
		b.Address.Line1 = "Main Road 1"
	}
	if len(b.Address.PostCode) != 5 {
		b.Address.PostCode = "00000"
	}
	b.Address.Subdivision = ""
	if pi := inv.PaymentInstructions; pi != nil {
		if _, ok := modalita[pi.MeansCode]; !ok {
			pi.MeansCode = "58"
		}
		if len(pi.CreditTransfers) > 1 {
			pi.CreditTransfers = pi.CreditTransfers[:1]
		}
	}
	for i := range inv.Lines {
		l := &inv.Lines[i]
		switch l.CategoryCode() {
		case model.VATStandard, model.VATCanaryIGIC, model.VATCeutaMelillaIPS:
			l.VATCategoryCode, l.Category = model.VATStandard, ""
			l.VATRate = model.Dec(model.DecimalFromInt([]int64{22, 10, 5, 4}[r.IntN(4)]))
		case model.VATZero:
			l.VATCategoryCode, l.Category = model.VATExempt, ""
		}
		// exact: the amount (given, or base × percentage as Complete
		// computes it) spreads over the quantity with 8 decimals.
		exact := func(a *model.LineAllowanceCharge) bool {
			amount := a.Amount
			if amount == nil {
				if a.BaseAmount == nil || a.Percentage == nil {
					return false
				}
				amount = model.Dec(a.BaseAmount.Mul(*a.Percentage).Mul(model.NewDecimal(1, 2)).Round(2))
			}
			q, err := amount.Div(l.Quantity, 20)
			return err == nil && q.Round(8).Equal(q)
		}
		var allowances, charges []model.LineAllowanceCharge
		for _, a := range l.Allowances {
			if exact(&a) {
				allowances = append(allowances, a)
			}
		}
		for _, c := range l.Charges {
			if exact(&c) {
				charges = append(charges, c)
			}
		}
		l.Allowances, l.Charges = allowances, charges
		l.PriceDiscount, l.GrossPrice = nil, nil
	}
	hasExempt := false
	for _, l := range inv.Lines {
		hasExempt = hasExempt || l.CategoryCode() == model.VATExempt
	}
	if hasExempt && !breakdownHas(inv, model.VATExempt) {
		inv.VATBreakdown = append(inv.VATBreakdown, model.VATBreakdown{VATCategoryCode: model.VATExempt, ExemptionReason: "Esente art. 10"})
	}
	ex := &Extras{TrasmittenteIDPaese: "IT", TrasmittenteIDCodice: "01234567890", ProgressivoInvio: fmt.Sprintf("%05d", r.IntN(100000)),
		CodiceDestinatario: "ABC1234", RegimeFiscale: "RF01"}
	switch r.IntN(4) {
	case 0:
		ex.Ritenuta = &Ritenuta{Tipo: "RT01", Aliquota: model.DecimalFromInt(20), Causale: "A"}
	case 1:
		ex.Cassa = &Cassa{Tipo: "TC22", Aliquota: model.DecimalFromInt(4), AliquotaIVA: model.DecimalFromInt(22)}
	case 2:
		ex.Bollo = &Bollo{Importo: model.NewDecimal(200, 2)}
	}
	if inv.TypeCode != "380" && inv.TypeCode != "381" {
		ex.TipoDocumento = "TD01"
	}
	return inv, ex, nil
}

func breakdownHas(inv *model.Invoice, c model.VATCategoryCode) bool {
	for i := range inv.VATBreakdown {
		if inv.VATBreakdown[i].CategoryCode() == c {
			return true
		}
	}
	return false
}
