package orderx

import (
	"math/rand/v2"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// RandomOrder returns a random valid order built from the parties and
// lines of model.RandomInvoice (the same r gives the same order), with the
// optional members Order-X BASIC carries filled at random. Property tests
// use it.
func RandomOrder(r *rand.Rand) *Order {
	inv := model.RandomInvoice(r, model.RandomOptions{Incomplete: true})
	o := FromInvoice(inv)
	if r.IntN(2) == 0 {
		o.Notes = []string{"Please deliver before noon", "Ref & <special> \"chars\""}
		d := o.IssueDate
		d.Day = 28
		o.DeliveryDate = &d
		o.QuotationReference = "Q-" + inv.ID
		o.ContractReference = inv.ContractReference
	}
	for i := range o.Lines {
		if r.IntN(3) == 0 {
			yes := r.IntN(2) == 0
			o.Lines[i].PartialDeliveryAllowed = &yes
			o.Lines[i].Item.StandardID = &Identifier{ID: "4012345678901", SchemeID: "0160"}
			o.Lines[i].Item.BuyerID = "B-" + o.Lines[i].ID
		}
	}
	return o
}

// FromInvoice builds the order an invoice could answer: its id, date,
// currency, buyer reference, the seller and buyer (name, VAT id, legal
// registration, trading name, postal address, contact) and each line's id,
// note, item name and ids, quantity, unit, net price and base quantity.
// Everything an order has no place for (VAT, totals, payment) is left out.
func FromInvoice(inv *model.Invoice) *Order {
	o := &Order{ID: inv.ID, IssueDate: inv.IssueDate, Currency: string(inv.CurrencyCode), BuyerReference: inv.BuyerReference}
	s, b := &inv.Seller, &inv.Buyer
	o.Seller = Party{Name: s.Name, VATID: s.VATID, TradingName: s.TradingName, Address: address(&s.Address)}
	if s.LegalRegistrationID != nil {
		o.Seller.LegalRegistrationID = &Identifier{ID: s.LegalRegistrationID.ID, SchemeID: s.LegalRegistrationID.SchemeID}
	}
	if c := s.Contact; c != nil {
		o.Seller.Contact = &Contact{Name: c.Name, Telephone: c.Telephone, Email: c.Email}
	}
	o.Buyer = Party{Name: b.Name, VATID: b.VATID, TradingName: b.TradingName, Address: address(&b.Address)}
	if b.LegalRegistrationID != nil {
		o.Buyer.LegalRegistrationID = &Identifier{ID: b.LegalRegistrationID.ID, SchemeID: b.LegalRegistrationID.SchemeID}
	}
	if c := b.Contact; c != nil {
		o.Buyer.Contact = &Contact{Name: c.Name, Telephone: c.Telephone, Email: c.Email}
	}
	for i := range inv.Lines {
		l := &inv.Lines[i]
		ol := Line{ID: l.ID, Note: l.Note, Item: Item{Name: l.Item.Name, SellerID: l.Item.SellerID, BuyerID: l.Item.BuyerID},
			Quantity: l.Quantity, UnitCode: l.UnitCode, BaseQuantity: l.BaseQuantity}
		if l.NetPrice != nil {
			ol.NetPrice = *l.NetPrice
		}
		if l.Item.StandardID != nil && l.Item.StandardID.SchemeID != "" {
			ol.Item.StandardID = &Identifier{ID: l.Item.StandardID.ID, SchemeID: l.Item.StandardID.SchemeID}
		}
		o.Lines = append(o.Lines, ol)
	}
	return o
}

func address(a *model.Address) *Address {
	if a.CountryCode == "" {
		return nil
	}
	return &Address{Line1: a.Line1, Line2: a.Line2, Line3: a.Line3, City: a.City, PostCode: a.PostCode,
		Subdivision: a.Subdivision, CountryCode: string(a.CountryCode)}
}
