package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// RandomOptions shapes RandomInvoice.
type RandomOptions struct {
	// Lines is the number of lines; 0 picks 1 to 8.
	Lines int
	// Categories limits the VAT categories used; nil allows S, Z, E, AE, K,
	// G, L, M and O (O only alone, as BR-O-11..14 require).
	Categories []VATCategoryCode
	// Incomplete leaves every value Complete would compute absent (for
	// property tests of the calculation).
	Incomplete bool
}

var defaultRandomCategories = []VATCategoryCode{VATStandard, VATZero, VATExempt, VATReverseCharge,
	VATIntraCommunity, VATExport, VATCanaryIGIC, VATCeutaMelillaIPS, VATOutOfScope}

// RandomInvoice returns a random invoice that is valid under the EN 16931
// rules: parties with the identifiers each VAT category needs (seller VAT
// id except for O; buyer VAT id for K and AE; no VAT ids with O), rates 0 for
// Z, E, AE, K and G, no rate for O, exemption reasons (given as partial
// VAT breakdown entries) for E, AE, K, G and O, delivery country and date
// for K, reasons on every allowance and charge, payment terms and due date,
// credit notes via type code 381. Unless opts.Incomplete is set it is
// completed (Complete) so totals and the VAT breakdown are present. The
// same r gives the same invoice.
func RandomInvoice(r *rand.Rand, opts RandomOptions) *Invoice {
	g := &randGen{r: r}
	return g.invoice(opts)
}

type randGen struct{ r *rand.Rand }

func (g *randGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// amount returns a random amount in [min, max) cents.
func (g *randGen) amount(minCents, maxCents int64) Decimal {
	return NewDecimal(minCents+g.r.Int64N(maxCents-minCents), 2)
}

// gln returns a random 13-digit GLN with a valid check digit.
func (g *randGen) gln() string {
	d := make([]byte, 13)
	sum := 0
	for i := 0; i < 12; i++ {
		n := g.r.IntN(10)
		if i == 0 && n == 0 {
			n = 4
		}
		d[i] = byte('0' + n)
		w := 1
		if i%2 == 1 {
			w = 3
		}
		sum += n * w
	}
	d[12] = byte('0' + (10-sum%10)%10)
	return string(d)
}

func (g *randGen) rate(c VATCategoryCode, used map[VATCategoryCode][]Decimal) *Decimal {
	var choices []string
	switch c {
	case VATStandard:
		choices = []string{"19", "7", "21", "25", "5.5", "20"}
	case VATCanaryIGIC:
		choices = []string{"7", "3", "9.5"}
	case VATCeutaMelillaIPS:
		choices = []string{"4", "10", "0.5"}
	case VATOutOfScope:
		return nil
	default:
		return Dec(DecimalFromInt(0))
	}
	if rs := used[c]; len(rs) > 0 && g.r.IntN(3) > 0 {
		return Dec(rs[g.r.IntN(len(rs))])
	}
	d := MustParseDecimal(choices[g.r.IntN(len(choices))])
	used[c] = append(used[c], d)
	return &d
}

func (g *randGen) invoice(opts RandomOptions) *Invoice {
	r := g.r
	allowed := opts.Categories
	if allowed == nil {
		allowed = defaultRandomCategories
	}
	var cats []VATCategoryCode
	nonO := slices.DeleteFunc(slices.Clone(allowed), func(c VATCategoryCode) bool { return c == VATOutOfScope })
	if slices.Contains(allowed, VATOutOfScope) && (len(nonO) == 0 || r.IntN(8) == 0) {
		cats = []VATCategoryCode{VATOutOfScope}
	} else {
		n := 1 + r.IntN(min(3, len(nonO)))
		perm := r.Perm(len(nonO))
		for _, i := range perm[:n] {
			cats = append(cats, nonO[i])
		}
	}
	has := func(c VATCategoryCode) bool { return slices.Contains(cats, c) }
	outOfScope := has(VATOutOfScope)

	base := time.Date(2024+r.IntN(3), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
	inv := &Invoice{
		ID:             fmt.Sprintf("INV-%d-%05d", base.Year(), r.IntN(100000)),
		IssueDate:      DateOf(base),
		TypeCode:       TypeCommercialInvoice,
		CurrencyCode:   g.pick("EUR", "EUR", "EUR", "USD", "GBP", "SEK"),
		BuyerReference: fmt.Sprintf("BR-%04d", r.IntN(10000)),
		PaymentTerms:   g.pick("Net 30 days", "Payable within 14 days", "Due on receipt"),
		DueDate:        Dt(DateOf(base.AddDate(0, 0, 14+r.IntN(30)))),
	}
	if r.IntN(5) == 0 {
		inv.TypeCode = TypeCreditNote
		inv.PrecedingInvoices = []PrecedingInvoice{{ID: fmt.Sprintf("INV-%d-%05d", base.Year(), r.IntN(100000)),
			IssueDate: Dt(DateOf(base.AddDate(0, 0, -30)))}}
	}
	if r.IntN(2) == 0 {
		inv.Notes = []Note{{Text: g.pick("Thank you for your business.", "Goods remain our property until paid in full.", "Please quote the invoice number.")}}
	}
	if r.IntN(3) == 0 {
		inv.PurchaseOrderReference = fmt.Sprintf("PO-%05d", r.IntN(100000))
	}
	// Sellers in NL, SE, DK, NO, GR, IS would need national identifier
	// formats (Peppol national rules); the generator keeps to countries
	// without supplier-side national rules.
	sellerCountry := g.pick("DE", "FR", "BE", "AT", "IT", "ES", "PT", "FI")
	if outOfScope && sellerCountry == "DE" {
		sellerCountry = "FR" // DE-R-014 (Peppol, German domestic) wants a rate even for O
	}
	inv.Seller = Seller{
		Name:                g.pick("Acme GmbH", "Muster AG", "Société Exemple SARL", "Voorbeeld BV", "Ejemplo SL"),
		LegalRegistrationID: &Identifier{ID: fmt.Sprintf("HRB%06d", r.IntN(1000000))},
		ElectronicAddress:   &ElectronicAddress{ID: g.gln(), SchemeID: "0088"},
		Address: Address{Line1: fmt.Sprintf("Main Street %d", 1+r.IntN(200)), City: g.pick("Berlin", "Paris", "Utrecht", "Gent"),
			PostCode: fmt.Sprintf("%05d", r.IntN(100000)), CountryCode: sellerCountry},
		Contact: &Contact{Name: "Accounts", Telephone: "+49 30 1234567", Email: "accounts@example.com"},
	}
	if !outOfScope {
		inv.Seller.VATID = fmt.Sprintf("%s%09d", sellerCountry, r.IntN(1000000000))
	}
	buyerCountry := g.pick("DE", "FR", "NL", "BE", "AT", "IT", "ES", "SE")
	if has(VATExport) && len(cats) == 1 && r.IntN(2) == 0 {
		buyerCountry = g.pick("US", "CH", "NO", "JP")
	}
	inv.Buyer = Buyer{
		Name:              g.pick("Buyer Ltd", "Kunde KG", "Client SA", "Afnemer NV"),
		ElectronicAddress: &ElectronicAddress{ID: g.gln(), SchemeID: "0088"},
		Address:           Address{Line1: "Customer Road 1", City: "Town", PostCode: "12345", CountryCode: buyerCountry},
	}
	if !outOfScope && (has(VATIntraCommunity) || has(VATReverseCharge) || r.IntN(2) == 0) {
		inv.Buyer.VATID = fmt.Sprintf("%s%09d", buyerCountry, r.IntN(1000000000))
	}
	if has(VATIntraCommunity) || r.IntN(4) == 0 {
		inv.Delivery = &Delivery{Date: Dt(DateOf(base.AddDate(0, 0, -r.IntN(10)))),
			Address: &Address{City: "Town", PostCode: "12345", CountryCode: buyerCountry}}
	}
	if r.IntN(3) == 0 {
		inv.InvoicingPeriod = &Period{Start: Dt(DateOf(base.AddDate(0, -1, 0))), End: Dt(DateOf(base.AddDate(0, 0, -1)))}
	}
	inv.PaymentInstructions = &PaymentInstructions{MeansCode: "58", RemittanceInformation: inv.ID,
		CreditTransfers: []CreditTransfer{{AccountID: "DE89370400440532013000", AccountName: inv.Seller.Name}}}
	if r.IntN(6) == 0 {
		inv.SupportingDocuments = []SupportingDocument{{ID: "timesheet", Description: "Timesheet",
			Attachment: &Attachment{Content: []byte("date,hours\n2024-01-02,8\n"), MimeCode: "text/csv", Filename: "timesheet.csv"}}}
	}

	used := map[VATCategoryCode][]Decimal{}
	n := opts.Lines
	if n <= 0 {
		n = 1 + r.IntN(8)
	}
	if len(cats) > n {
		cats = cats[:n] // every category used has a line
	}
	inv.Lines = make([]Line, n)
	for i := range inv.Lines {
		c := cats[r.IntN(len(cats))]
		if i < len(cats) {
			c = cats[i] // every chosen category has a line
		}
		l := Line{
			ID:              fmt.Sprint(i + 1),
			Quantity:        NewDecimal(1+r.Int64N(10000), int32(r.IntN(3))),
			UnitCode:        g.pick("C62", "H87", "HUR", "KGM", "EA"),
			NetPrice:        Dec(g.amount(1, 100000)),
			VATCategoryCode: c,
			Category:        c.Category(),
			VATRate:         g.rate(c, used),
			Item:            Item{Name: g.pick("Widget", "Consulting hour", "Cable 5 m", "Licence", "Paper A4")},
		}
		if r.IntN(4) == 0 {
			l.BaseQuantity = Dec(DecimalFromInt(int64(g.pick2(1, 10, 100))))
		}
		if r.IntN(3) == 0 {
			l.Item.SellerID = fmt.Sprintf("SKU-%05d", r.IntN(100000))
			l.Item.Description = "Random item"
			l.Item.Attributes = []ItemAttribute{{Name: "Colour", Value: g.pick("red", "blue", "green")}}
		}
		if r.IntN(4) == 0 {
			l.Allowances = []LineAllowanceCharge{{Amount: Dec(g.amount(1, 100)), Reason: "Discount", ReasonCode: "95"}}
		}
		if r.IntN(5) == 0 {
			l.Charges = []LineAllowanceCharge{{BaseAmount: Dec(g.amount(100, 10000)), Percentage: Dec(NewDecimal(r.Int64N(200), 1)),
				Reason: "Packing", ReasonCode: "ABL"}}
		}
		if r.IntN(5) == 0 { // within the invoicing period (PEPPOL-EN16931-R110/R111)
			l.Period = &Period{Start: Dt(DateOf(base.AddDate(0, -1, 0))), End: Dt(DateOf(base.AddDate(0, 0, -1)))}
		}
		inv.Lines[i] = l
	}
	// Document level allowances and charges, small enough to keep every
	// taxable amount positive.
	for k := r.IntN(3); k > 0; k-- {
		c := cats[r.IntN(len(cats))]
		a := AllowanceCharge{VATCategoryCode: c, Category: c.Category(), VATRate: g.rate(c, used), Reason: "Volume discount", ReasonCode: "95"}
		if r.IntN(2) == 0 {
			a.Amount = Dec(g.amount(1, 100))
		} else {
			a.BaseAmount = Dec(g.amount(100, 1000))
			a.Percentage = Dec(NewDecimal(1+r.Int64N(50), 1))
		}
		inv.Allowances = append(inv.Allowances, a)
	}
	for k := r.IntN(2); k > 0; k-- {
		c := cats[r.IntN(len(cats))]
		inv.Charges = append(inv.Charges, AllowanceCharge{VATCategoryCode: c, Category: c.Category(), VATRate: g.rate(c, used),
			Amount: Dec(g.amount(100, 5000)), Reason: "Freight", ReasonCode: "FC"})
	}
	// Exemption reasons: partial VAT breakdown entries that Complete fills.
	for _, c := range cats {
		if !c.RequiresExemptionReason() {
			continue
		}
		v := VATBreakdown{VATCategoryCode: c, Category: c.Category()}
		if c != VATOutOfScope {
			v.VATRate = Dec(DecimalFromInt(0))
		}
		switch c {
		case VATExempt:
			v.ExemptionReason = "Exempt under Article 132 of Directive 2006/112/EC"
		case VATReverseCharge:
			v.ExemptionReason, v.ExemptionReasonCode = "Reverse charge", "VATEX-EU-AE"
		case VATIntraCommunity:
			v.ExemptionReason, v.ExemptionReasonCode = "Intra-community supply", "VATEX-EU-IC"
		case VATExport:
			v.ExemptionReason, v.ExemptionReasonCode = "Export outside the EU", "VATEX-EU-G"
		case VATOutOfScope:
			v.ExemptionReason, v.ExemptionReasonCode = "Not subject to VAT", "VATEX-EU-O"
		}
		inv.VATBreakdown = append(inv.VATBreakdown, v)
	}
	if !opts.Incomplete {
		if _, err := inv.Complete(); err != nil {
			// Every generated line has a price and every allowance an
			// amount or a base and percentage: Complete cannot fail.
			panic(fmt.Sprintf("model: RandomInvoice produced an incomplete model: %v", err))
		}
	}
	return inv
}

func (g *randGen) pick2(xs ...int) int { return xs[g.r.IntN(len(xs))] }
