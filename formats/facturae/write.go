package facturae

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// rePostCode is a Spanish postal code (PostCodeType).
var rePostCode = regexp.MustCompile(`^[0-9]{5}$`)

// Namespace is the Facturae 3.2.2 namespace.
const Namespace = "http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml"

// Result is a generated document and the totals computed by Facturae's
// rules.
type Result struct {
	XML []byte
	// InvoiceTotal = TotalGrossAmountBeforeTaxes + TotalTaxOutputs -
	// TotalTaxesWithheld; TotalExecutableAmount is what the buyer pays.
	InvoiceTotal, TotalTaxOutputs, TotalTaxesWithheld, TotalExecutableAmount model.Decimal
	// Computed lists the model values Complete derived (JSON Pointers).
	Computed []string
}

type party struct {
	who      string // "seller" or "buyer"
	tin      string
	country  string // alpha-2
	province string
	name     string
	trading  string
	addr     *model.Address
	contact  *model.Contact
}

type line struct {
	l         *model.Line
	seq       string
	unit      string
	price     string // UnitPriceWithoutTax
	totalCost model.Decimal
	gross     model.Decimal
	taxCode   string
	rate      model.Decimal
	special   string // SpecialTaxableEventCode, "" for none
	reason    string
	irpf      bool // subject to the IRPF
}

type gen struct {
	carry.Problems
	inv *model.Invoice
	ex  *Extras
}

func (g *gen) bad(loc []any, typ, msg string, input any) { g.Bad(loc, typ, msg, input) }
func (g *gen) il(k ...any) []any                         { return g.IL(k...) }
func (g *gen) xl(k ...any) []any                         { return g.XL(k...) }

// maxLen refuses s longer than n characters (the XSD's TextMaxN types).
func (g *gen) maxLen(loc []any, s string, n int, elem string) { g.MaxLen(loc, s, n, "Facturae "+elem) }

// Generate writes inv (completed in place by model.Complete) with ex (nil
// for none) as a Facturae 3.2.2 document: one batch, one invoice, not
// signed. Problems (a model.Problems error, an HTTP 422) are located under
// locPrefix + "invoice" or locPrefix + "extras": a field Facturae cannot
// carry, a value its schema or this generator cannot take (non-euro
// currency, unknown country or unit, too long a text). Any other error is
// internal.
func Generate(inv *model.Invoice, ex *Extras, locPrefix ...any) (*Result, error) {
	if ex == nil {
		ex = &Extras{}
	}
	g := &gen{Problems: carry.NewProblems(locPrefix...), inv: inv, ex: ex}
	computed, err := carry.Prepare(inv, carried, g.Inv, "Facturae 3.2.2 cannot carry this field (see docs/FACTURAE.md)")
	if err != nil {
		return nil, err
	}
	g.header()
	g.extras()
	seller := g.party("seller", inv.Seller.Name, inv.Seller.TradingName, inv.Seller.VATID, "", &inv.Seller.Address, inv.Seller.Contact)
	var buyerLegal string
	if inv.Buyer.LegalRegistrationID != nil {
		buyerLegal = inv.Buyer.LegalRegistrationID.ID
	}
	buyer := g.party("buyer", inv.Buyer.Name, inv.Buyer.TradingName, inv.Buyer.VATID, buyerLegal, &inv.Buyer.Address, inv.Buyer.Contact)
	lines := g.lines()
	g.payment()
	if len(g.List) > 0 {
		return nil, g.List
	}
	t := inv.Totals
	res := &Result{Computed: computed, TotalTaxOutputs: carry.Round2(*t.TaxAmount), TotalTaxesWithheld: model.NewDecimal(0, 2)}
	irpfBase := model.NewDecimal(0, 2)
	for _, ln := range lines {
		if ln.irpf {
			irpfBase = irpfBase.Add(ln.gross)
		}
	}
	if ex.IRPFRate != nil {
		res.TotalTaxesWithheld = carry.Percent(irpfBase, *ex.IRPFRate)
	}
	res.InvoiceTotal = carry.Round2(*t.TaxExclusiveAmount).Add(res.TotalTaxOutputs).Sub(res.TotalTaxesWithheld)
	res.TotalExecutableAmount = res.InvoiceTotal
	doc, err := carry.WriteXML("facturae", func(w *xmlio.Writer) { g.write(w, res, seller, buyer, lines, irpfBase) })
	if err != nil {
		return nil, err
	}
	res.XML = doc
	return res, nil
}

func (g *gen) header() {
	inv := g.inv
	if inv.CurrencyCode != "EUR" {
		g.bad(g.il("currency_code"), model.ProblemValueError,
			"Facturae amounts in another currency need EquivalentInEuros and ExchangeRateDetails, which this generator does not write: give EUR", string(inv.CurrencyCode))
	}
	g.maxLen(g.il("id"), inv.ID, 20, "InvoiceNumber")
	g.maxLen(g.il("purchase_order_reference"), inv.PurchaseOrderReference, 20, "ReceiverTransactionReference")
	g.maxLen(g.il("contract_reference"), inv.ContractReference, 20, "ReceiverContractReference")
	var notes []string
	for _, n := range inv.Notes {
		notes = append(notes, n.Text)
	}
	g.maxLen(g.il("notes"), strings.Join(notes, "\n"), 2500, "InvoiceAdditionalInformation")
	switch inv.TypeCode {
	case "380":
		if len(inv.PrecedingInvoices) > 0 {
			g.bad(g.il("preceding_invoices"), model.ProblemValueError, "Facturae refers to a preceding invoice only from a corrective invoice (type code 381)", nil)
		}
		if g.ex.Corrective != nil {
			g.bad(g.xl("corrective"), model.ProblemValueError, "corrective data is only for a credit note (type code 381)", nil)
		}
	case "381":
		if len(inv.PrecedingInvoices) == 0 {
			g.bad(g.il("preceding_invoices"), model.ProblemMissing, "a Facturae corrective invoice (InvoiceClass OR) names the invoice it corrects: give preceding_invoices[0]", nil)
		} else {
			g.maxLen(g.il("preceding_invoices", 0, "id"), inv.PrecedingInvoices[0].ID, 20, "Corrective/InvoiceNumber")
		}
		if len(inv.PrecedingInvoices) > 1 {
			g.bad(g.il("preceding_invoices", 1), model.ProblemValueError, "Facturae's Corrective names one invoice", nil)
		}
		if g.ex.Corrective == nil {
			g.bad(g.xl("corrective"), model.ProblemMissing, "a credit note needs extras.corrective {reason_code, correction_method}", nil)
		}
	default:
		g.bad(g.il("type_code"), model.ProblemValueError, "Facturae writes an invoice (380, InvoiceClass OO) or a credit note (381, OR)", string(inv.TypeCode))
	}
	if p := inv.InvoicingPeriod; p != nil && (p.Start == nil || p.End == nil) {
		g.bad(g.il("invoicing_period"), model.ProblemMissing, "Facturae InvoicingPeriod needs both start and end", nil)
	}
}

func (g *gen) extras() {
	ex := g.ex
	if r := ex.IRPFRate; r != nil && (r.Sign() < 0 || r.Cmp(model.DecimalFromInt(100)) > 0 || !r.Round(2).Equal(*r)) {
		g.bad(g.xl("irpf_rate"), model.ProblemValueError, "Input should be between 0 and 100 with at most 2 decimals", r.String())
	}
	if c := ex.Corrective; c != nil {
		if _, ok := reasons[c.ReasonCode]; !ok {
			g.bad(g.xl("corrective", "reason_code"), model.ProblemEnum, "Input should be a Facturae ReasonCode (01-16, 80-85)", c.ReasonCode)
		}
		if _, ok := methods[c.CorrectionMethod]; !ok {
			g.bad(g.xl("corrective", "correction_method"), model.ProblemEnum, "Input should be 01, 02, 03 or 04", c.CorrectionMethod)
		}
	}
	if ex.Language != "" && !slices.Contains(languages, ex.Language) {
		g.bad(g.xl("language"), model.ProblemEnum, "Input should be one of: "+strings.Join(languages, ", "), ex.Language)
	}
	g.maxLen(g.xl("series_code"), ex.SeriesCode, 20, "InvoiceSeriesCode")
}

func (g *gen) party(who, name, trading, vatID, legal string, a *model.Address, c *model.Contact) *party {
	p := &party{who: who, name: name, trading: trading, addr: a, contact: c, country: string(a.CountryCode)}
	g.maxLen(g.il(who, "name"), name, 80, "CorporateName")
	g.maxLen(g.il(who, "trading_name"), trading, 40, "TradeName")
	switch {
	case vatID != "":
		p.tin = vatID
		if strings.HasPrefix(vatID, "ES") && p.country == "ES" {
			p.tin = vatID[2:] // a Spanish resident's NIF is written without the prefix
		}
		if n := len(p.tin); n < 3 || n > 30 {
			g.bad(g.il(who, "vat_id"), model.ProblemValueError, "Facturae TaxIdentificationNumber has 3 to 30 characters", vatID)
		}
	case legal != "":
		p.tin = legal
		if n := len(legal); n < 3 || n > 30 {
			g.bad(g.il(who, "legal_registration_id", "id"), model.ProblemValueError, "Facturae TaxIdentificationNumber has 3 to 30 characters", legal)
		}
	case who == "seller":
		g.bad(g.il(who, "vat_id"), model.ProblemMissing, "Facturae requires the seller's tax identification number (vat_id)", nil)
	default:
		g.bad(g.il(who, "vat_id"), model.ProblemMissing, "Facturae requires the buyer's tax identification number (vat_id or legal_registration_id)", nil)
	}
	if _, ok := alpha3[p.country]; !ok {
		g.bad(g.il(who, "address", "country_code"), model.ProblemValueError, "this Facturae generator writes parties of the countries listed in docs/FACTURAE.md", p.country)
	}
	if a.Line1 == "" {
		g.bad(g.il(who, "address", "line1"), model.ProblemMissing, "Facturae requires the address (Address)", nil)
	}
	g.maxLen(g.il(who, "address", "line1"), a.Line1, 80, "Address")
	if a.City == "" {
		g.bad(g.il(who, "address", "city"), model.ProblemMissing, "Facturae requires the town", nil)
	}
	p.province = a.Subdivision
	if p.country == "ES" {
		g.maxLen(g.il(who, "address", "city"), a.City, 50, "Town")
		if !rePostCode.MatchString(a.PostCode) {
			g.bad(g.il(who, "address", "post_code"), model.ProblemValueError, "Facturae AddressInSpain/PostCode is 5 digits", a.PostCode)
		} else if p.province == "" {
			p.province = provinces[a.PostCode[:2]]
			if p.province == "" {
				g.bad(g.il(who, "address", "post_code"), model.ProblemValueError, "no Spanish province has this postal code prefix: give subdivision", a.PostCode)
			}
		}
	} else {
		g.maxLen(g.il(who, "address", "city"), strings.TrimSpace(a.PostCode+" "+a.City), 50, "PostCodeAndTown (post_code and city)")
		if p.province == "" {
			p.province = a.City // OverseasAddress/Province is required; the town stands for it
		}
	}
	g.maxLen(g.il(who, "address", "subdivision"), p.province, 20, "Province")
	if c != nil {
		g.maxLen(g.il(who, "contact", "telephone"), c.Telephone, 15, "Telephone")
		g.maxLen(g.il(who, "contact", "email"), c.Email, 60, "ElectronicMail")
		g.maxLen(g.il(who, "contact", "name"), c.Name, 40, "ContactPersons")
	}
	return p
}

// taxCode returns the Facturae TaxTypeCode of a VAT category: IVA (01) for
// the EN 16931 VAT categories, IGIC (03) for the Canary Islands, IPSI (02)
// for Ceuta and Melilla.
func taxCode(c model.VATCategoryCode) (string, bool) {
	switch c {
	case model.VATStandard, model.VATZero, model.VATExempt, model.VATReverseCharge, model.VATIntraCommunity, model.VATExport, model.VATOutOfScope:
		return "01", true
	case model.VATCanaryIGIC:
		return "03", true
	case model.VATCeutaMelillaIPS:
		return "02", true
	}
	return "", false
}

func (g *gen) lines() []line {
	out := make([]line, len(g.inv.Lines))
	subject := map[string]bool{}
	for i, id := range g.ex.IRPFLines {
		if !slices.ContainsFunc(g.inv.Lines, func(l model.Line) bool { return l.ID == id }) {
			g.bad(g.xl("irpf_lines", i), model.ProblemValueError, "no invoice line has this id", id)
		}
		subject[id] = true
	}
	if len(g.ex.IRPFLines) > 0 && g.ex.IRPFRate == nil {
		g.bad(g.xl("irpf_rate"), model.ProblemMissing, "irpf_lines needs irpf_rate", nil)
	}
	for i := range g.inv.Lines {
		l := &g.inv.Lines[i]
		ln := line{l: l, gross: carry.Round2(*l.NetAmount), rate: model.DecimalFromInt(0)}
		ln.irpf = g.ex.IRPFRate != nil && (len(g.ex.IRPFLines) == 0 || subject[l.ID])
		if l.VATRate != nil {
			ln.rate = *l.VATRate
		}
		if n, err := strconv.ParseUint(l.ID, 10, 32); err != nil || n == 0 || strconv.FormatUint(n, 10) != l.ID {
			g.bad(g.il("lines", i, "id"), model.ProblemValueError, "Facturae numbers lines (SequenceNumber): the line id must be a positive integer without leading zeros", l.ID)
		}
		ln.seq = l.ID
		var ok bool
		if ln.unit, ok = units[l.UnitCode]; !ok {
			g.bad(g.il("lines", i, "unit_code"), model.ProblemValueError, "no Facturae UnitOfMeasure for this unit code (see docs/FACTURAE.md)", l.UnitCode)
		}
		if ln.taxCode, ok = taxCode(l.CategoryCode()); !ok {
			g.bad(g.il("lines", i, "category"), model.ProblemValueError, "Facturae has no tax for this VAT category (split payment is Italian)", string(l.CategoryCode()))
		}
		ln.price = g.UnitPrice(l, i, "Facturae UnitPriceWithoutTax")
		ln.totalCost = ln.gross
		for _, a := range l.Allowances {
			ln.totalCost = ln.totalCost.Add(*a.Amount)
		}
		for _, c := range l.Charges {
			ln.totalCost = ln.totalCost.Sub(*c.Amount)
		}
		g.maxLen(g.il("lines", i, "item", "name"), l.Item.Name, 2500, "ItemDescription")
		g.maxLen(g.il("lines", i, "item", "description"), l.Item.Description, 2500, "AdditionalLineItemInformation")
		g.maxLen(g.il("lines", i, "item", "seller_id"), l.Item.SellerID, 20, "ArticleCode")
		if p := l.Period; p != nil && (p.Start == nil || p.End == nil) {
			g.bad(g.il("lines", i, "period"), model.ProblemMissing, "Facturae LineItemPeriod needs both start and end", nil)
		}
		switch l.CategoryCode() {
		case model.VATOutOfScope:
			ln.special, ln.reason = "02", g.exemption(l.CategoryCode())
		case model.VATExempt, model.VATIntraCommunity, model.VATExport, model.VATReverseCharge:
			ln.special, ln.reason = "01", g.exemption(l.CategoryCode())
		}
		out[i] = ln
	}
	return out
}

// exemption is the exemption reason of a category's VAT breakdown (its
// text, else its code), or the category's name.
func (g *gen) exemption(code model.VATCategoryCode) string {
	for i := range g.inv.VATBreakdown {
		v := &g.inv.VATBreakdown[i]
		if v.CategoryCode() != code {
			continue
		}
		if v.ExemptionReason != "" {
			return v.ExemptionReason
		}
		if v.ExemptionReasonCode != "" {
			return v.ExemptionReasonCode
		}
	}
	return "VAT category " + string(code)
}

func (g *gen) payment() {
	inv := g.inv
	pi := inv.PaymentInstructions
	if pi == nil {
		if inv.DueDate != nil {
			g.bad(g.il("due_date"), model.ProblemValueError, "Facturae carries the due date in PaymentDetails/Installment, which needs payment_instructions.means_code", inv.DueDate.String())
		}
		return
	}
	if _, ok := paymentMeans[pi.MeansCode]; !ok {
		g.bad(g.il("payment_instructions", "means_code"), model.ProblemValueError, "no Facturae PaymentMeans for this payment means code (see docs/FACTURAE.md)", pi.MeansCode)
	}
	if inv.DueDate == nil {
		g.bad(g.il("due_date"), model.ProblemMissing, "Facturae PaymentDetails/Installment needs InstallmentDueDate: give due_date", nil)
	}
	if len(pi.CreditTransfers) > 1 {
		g.bad(g.il("payment_instructions", "credit_transfers", 1), model.ProblemValueError, "Facturae carries one account to be credited", nil)
	}
	if len(pi.CreditTransfers) == 1 {
		ct := pi.CreditTransfers[0]
		if n := len(ct.AccountID); n < 5 || n > 34 {
			g.bad(g.il("payment_instructions", "credit_transfers", 0, "account_id"), model.ProblemValueError, "Facturae IBAN has 5 to 34 characters", ct.AccountID)
		}
		if n := utf8.RuneCountInString(ct.ServiceProviderID); n != 0 && n != 8 && n != 11 {
			g.bad(g.il("payment_instructions", "credit_transfers", 0, "service_provider_id"), model.ProblemValueError,
				"Facturae BIC has 11 characters (an 8-character BIC is written with the branch code XXX)", ct.ServiceProviderID)
		}
	}
}

// bic is Facturae's 11-character BIC of a BIC (service_provider_id) of 8
// or 11 characters: an 8-character BIC names the institution's main office,
// branch XXX, and the schema asks for the 11 positions with XXX (BICType;
// "utilizando los caracteres XXX cuando no se informe de la sucursal").
func bic(id string) string {
	if utf8.RuneCountInString(id) == 8 {
		return id + "XXX"
	}
	return id
}
