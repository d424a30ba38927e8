package model

// PriceParts brings BG-29 of a line read from a syntax into the model's
// canonical form, in which the Item price discount (BT-147) and the Item
// gross price (BT-148) are either both present or both absent:
//
//   - BT-148 without BT-147: BT-147 = BT-148 − BT-146 (EN 16931 defines
//     the net price as the gross price minus the discount, all on the base
//     quantity BT-149), when that is not negative;
//   - BT-147 without BT-148: BT-148 = BT-146 + BT-147.
//
// UBL holds BT-147 in cbc:Amount (mandatory) and BT-148 in cbc:BaseAmount
// of cac:Price/cac:AllowanceCharge; CII holds the discount only inside
// ram:GrossPriceProductTradePrice, which needs the gross price. Deriving the
// missing part is a calculation on values of the document, so both syntaxes
// can hold every line and a conversion round trip gives the same model.
// Nothing is derived without BT-146, when the gross price has its own base
// quantity (GrossBaseQuantity), or when the derived discount would be
// negative (gross below net); a writer that cannot hold the line then
// refuses it. PriceParts reports whether it set a value.
func (l *Line) PriceParts() bool {
	if l.NetPrice == nil || l.GrossBaseQuantity != nil {
		// A gross price on another base quantity cannot be compared with
		// the net price.
		return false
	}
	switch {
	case l.GrossPrice != nil && l.PriceDiscount == nil:
		d := l.GrossPrice.Sub(*l.NetPrice)
		if d.Sign() < 0 {
			return false
		}
		l.PriceDiscount = &d
		return true
	case l.PriceDiscount != nil && l.GrossPrice == nil:
		g := l.NetPrice.Add(*l.PriceDiscount)
		l.GrossPrice = &g
		return true
	}
	return false
}

// TotalVATFromBreakdown sets the Invoice total VAT amount (BT-110) to the
// sum of the VAT category tax amounts (BT-117, BR-CO-14) when the document
// totals are there without it and every BG-23 entry has its BT-117. CII may
// leave BT-110 out (e.g. only category O, "not subject to VAT"); UBL cannot
// (cac:TaxTotal/cbc:TaxAmount is mandatory and is BT-110), so the CII
// reader completes it and both syntaxes give the same model. It reports
// whether it set the value.
func (inv *Invoice) TotalVATFromBreakdown() bool {
	t := inv.Totals
	if t == nil || t.TaxAmount != nil || len(inv.VATBreakdown) == 0 {
		return false
	}
	var sum Decimal
	for i := range inv.VATBreakdown {
		v := inv.VATBreakdown[i].TaxAmount
		if v == nil {
			return false
		}
		sum = sum.Add(*v)
	}
	t.TaxAmount = &sum
	return true
}
