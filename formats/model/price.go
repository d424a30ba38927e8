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
// Nothing is derived without BT-146, or when the derived discount would be
// negative (gross below net); a writer that cannot hold the line then
// refuses it. PriceParts reports whether it set a value.
func (l *Line) PriceParts() bool {
	if l.NetPrice == nil {
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
