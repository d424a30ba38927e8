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
	// Profile makes the invoice valid for a CIUS or a Factur-X profile as
	// well: it adds the business terms the profile requires and leaves out
	// those it cannot carry (see the RandomProfile constants). The zero
	// value is EN 16931 (and Peppol BIS Billing, which needs nothing more).
	Profile RandomProfile
}

// RandomProfile names what RandomOptions.Profile shapes the invoice for.
type RandomProfile string

// The profiles RandomInvoice can shape an invoice for. Each adds only data
// of the random model itself; none asks a writer to invent a term.
const (
	// RandomXRechnung: a VAT rate of 0 on the "not subject to VAT" (O)
	// breakdown (BR-DE-14 wants BT-119 on every breakdown). Buyer reference
	// (BT-10), seller contact (BG-6), electronic addresses and payment
	// instructions are always present.
	RandomXRechnung RandomProfile = "xrechnung"
	// RandomROCIUS: a Romanian seller with a county code (ISO 3166-2:RO,
	// BR-RO-110; Bucharest "RO-B" with a SECTOR1..6 city, BR-RO-100) and a
	// tax registration identifier (BT-32, BR-RO-065, also with category O),
	// invoices in RON (BR-RO-030), a buyer legal registration identifier
	// (BT-47, BR-RO-120), delivery addresses with line 1 and subdivision
	// (BR-RO-180/210).
	RandomROCIUS RandomProfile = "ro_cius"
	// RandomBRFR: a French seller with its SIREN (BT-30, scheme 0002,
	// BR-FR-10), the PMT, PMD and AAB notes (BR-FR-05), a billing framework
	// (BT-23 B1/S1/M1, BR-FR-08), EUR (BR-FR-CO-12), no L or M category
	// (BR-FR-15), French standard rates (BR-FR-16) and supporting document
	// descriptions from the BR-FR-17 list.
	RandomBRFR RandomProfile = "br_fr"
	// RandomFacturXBasic: Factur-X BASIC carries no seller contact (BG-6),
	// payment account name (BT-85), item seller identifier (BT-155), item
	// description (BT-154), item attributes (BG-32) or supporting documents
	// (BG-24): the invoice has none.
	RandomFacturXBasic RandomProfile = "facturx_basic"
)

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
	g := &randGen{r: r, profile: opts.Profile}
	return g.invoice(opts)
}

type randGen struct {
	r       *rand.Rand
	profile RandomProfile
}

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
		if g.profile == RandomBRFR {
			choices = []string{"20", "10", "5.5", "2.1"}
		}
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
	if g.profile == RandomBRFR { // BR-FR-15: L and M are not French
		allowed = slices.DeleteFunc(slices.Clone(allowed), func(c VATCategoryCode) bool {
			return c == VATCanaryIGIC || c == VATCeutaMelillaIPS
		})
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
	switch g.profile {
	case RandomROCIUS:
		inv.CurrencyCode = "RON"
	case RandomBRFR:
		inv.CurrencyCode = "EUR"
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
	switch g.profile {
	case RandomROCIUS:
		sellerCountry = "RO"
	case RandomBRFR:
		sellerCountry = "FR"
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
	switch g.profile {
	case RandomROCIUS:
		g.roAddress(&inv.Seller.Address)
		inv.Seller.TaxRegistrationID = fmt.Sprintf("%08d", 1+r.IntN(99999999))
	case RandomBRFR:
		inv.Seller.LegalRegistrationID = &Identifier{ID: fmt.Sprintf("%09d", 100000000+r.IntN(900000000)), SchemeID: "0002"}
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
	if g.profile == RandomROCIUS {
		inv.Buyer.LegalRegistrationID = &Identifier{ID: fmt.Sprintf("J40/%d/%d", 1+r.IntN(99999), 1990+r.IntN(35))}
		if buyerCountry == "RO" {
			g.roAddress(&inv.Buyer.Address)
		}
	}
	if has(VATIntraCommunity) || r.IntN(4) == 0 {
		inv.Delivery = &Delivery{Date: Dt(DateOf(base.AddDate(0, 0, -r.IntN(10)))),
			Address: &Address{City: "Town", PostCode: "12345", CountryCode: buyerCountry}}
		if g.profile == RandomROCIUS {
			a := inv.Delivery.Address
			a.Line1, a.Subdivision = "Depot Street 5", "Region"
			if buyerCountry == "RO" {
				g.roAddress(a)
			}
		}
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
	g.profileTerms(inv)
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

// roAddress gives a Romanian address its county (ISO 3166-2:RO) and a city
// that goes with it (Bucharest: a sector, BR-RO-100).
func (g *randGen) roAddress(a *Address) {
	a.CountryCode = "RO"
	switch g.r.IntN(3) {
	case 0:
		a.Subdivision, a.City = "RO-B", fmt.Sprintf("SECTOR%d", 1+g.r.IntN(6))
	case 1:
		a.Subdivision, a.City = "RO-CJ", "Cluj-Napoca"
	default:
		a.Subdivision, a.City = "RO-TM", "Timisoara"
	}
	if a.Line1 == "" {
		a.Line1 = fmt.Sprintf("Strada Lunga %d", 1+g.r.IntN(200))
	}
}

// profileTerms adds the terms g.profile requires once the invoice is built
// and removes those it cannot carry.
func (g *randGen) profileTerms(inv *Invoice) {
	switch g.profile {
	case RandomXRechnung:
		for i := range inv.VATBreakdown {
			if v := &inv.VATBreakdown[i]; v.VATCategoryCode == VATOutOfScope {
				v.VATRate = Dec(DecimalFromInt(0)) // matches the lines without a rate (Complete)
			}
		}
	case RandomBRFR:
		inv.ProcessControl = &ProcessControl{BusinessProcess: g.pick("B1", "S1", "M1")}
		inv.Notes = append(inv.Notes,
			Note{SubjectCode: "PMT", Text: "Indemnité forfaitaire pour frais de recouvrement : 40 EUR"},
			Note{SubjectCode: "PMD", Text: "Pénalités de retard : trois fois le taux d'intérêt légal"},
			Note{SubjectCode: "AAB", Text: "Pas d'escompte pour paiement anticipé"})
		for i := range inv.SupportingDocuments {
			inv.SupportingDocuments[i].Description = g.pick("DOCUMENT_ANNEXE", "BON_LIVRAISON", "PJA")
		}
	case RandomFacturXBasic:
		inv.Seller.Contact = nil
		inv.SupportingDocuments = nil
		if p := inv.PaymentInstructions; p != nil {
			for i := range p.CreditTransfers {
				p.CreditTransfers[i].AccountName = ""
			}
		}
		for i := range inv.Lines {
			it := &inv.Lines[i].Item
			it.SellerID, it.Description, it.Attributes = "", "", nil
		}
	}
}
