package ubl

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// WriteOptions configure Write.
type WriteOptions struct {
	// Indent indents the output by this string per level ("" writes one
	// line).
	Indent string
	// SpecificationID is written as BT-24 when the model has none; empty
	// means DefaultSpecificationID.
	SpecificationID string
}

// ErrNotWritable is wrapped by Write's errors for a model UBL cannot carry
// as given (nil invoice, a credit note due date without payment means).
var ErrNotWritable = errors.New("ubl: model cannot be written")

// Write writes inv as a UBL 2.1 Invoice, or a CreditNote when its type code
// is a credit note code (model.DocumentTypeCode.IsCreditNote). The output is
// deterministic: the same model and options give the same bytes. Write does
// not validate the model (that is the rule gate's job); it writes every
// field that is set.
func Write(out io.Writer, inv *model.Invoice, opts WriteOptions) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("ubl.Write: %w", err)
		}
	}()
	if inv == nil {
		return fmt.Errorf("nil invoice: %w", ErrNotWritable)
	}
	credit := inv.TypeCode.IsCreditNote()
	if credit && inv.DueDate != nil && !writesPaymentMeans(inv.PaymentInstructions) {
		return fmt.Errorf("BT-9 on a credit note is cac:PaymentMeans/cbc:PaymentDueDate and needs BG-16 payment instructions: %w", ErrNotWritable)
	}
	if err := syntaxDetails(inv); err != nil {
		return err
	}
	if len(inv.VATBreakdown) > 0 && (inv.Totals == nil || inv.Totals.TaxAmount == nil) {
		// cac:TaxTotal/cbc:TaxAmount is mandatory and is BT-110;
		// model.Invoice.TotalVATFromBreakdown completes it.
		return fmt.Errorf("BG-23 without BT-110 (cac:TaxTotal needs cbc:TaxAmount): %w", ErrNotWritable)
	}
	var lineErr error
	model.WalkLines(inv.Lines, func(l *model.Line, loc []any) {
		if l.GrossPrice != nil && l.PriceDiscount == nil && lineErr == nil {
			// cac:Price/cac:AllowanceCharge requires cbc:Amount (BT-147);
			// model.Line.PriceParts derives it where EN 16931 allows.
			lineErr = fmt.Errorf("%s: BT-148 without BT-147 (cac:Price/cac:AllowanceCharge needs cbc:Amount): %w", lineLabel(loc), ErrNotWritable)
		}
	})
	if lineErr != nil {
		return lineErr
	}
	w := &writer{x: xmlio.NewWriter(out, xmlio.Options{Indent: opts.Indent}), inv: inv, credit: credit, cur: inv.CurrencyCode}
	w.invoice(opts)
	return w.x.Close()
}

type writer struct {
	x      *xmlio.Writer
	inv    *model.Invoice
	credit bool
	cur    string
}

func (w *writer) cbc(name, v string) {
	if v != "" {
		w.x.Element(name, v)
	}
}

func (w *writer) cbcAttr(name, v string, attrs ...xmlio.Attr) {
	if v == "" {
		return
	}
	kept := attrs[:0:0]
	for _, a := range attrs {
		if a.Value != "" {
			kept = append(kept, a)
		}
	}
	w.x.Element(name, v, kept...)
}

func (w *writer) ident(name string, id *model.Identifier) {
	if id != nil {
		w.cbcAttr(name, id.ID, xmlio.Attr{Name: "schemeID", Value: id.SchemeID})
	}
}

func (w *writer) date(name string, d *model.Date) {
	if d != nil {
		w.x.Element(name, d.String())
	}
}

func (w *writer) dec(name string, d *model.Decimal) {
	if d != nil {
		w.x.Element(name, d.String())
	}
}

func (w *writer) amountIn(name string, d *model.Decimal, cur string) {
	if d != nil {
		w.x.Element(name, d.String(), xmlio.Attr{Name: "currencyID", Value: cur})
	}
}

func (w *writer) amount(name string, d *model.Decimal) { w.amountIn(name, d, w.cur) }

func (w *writer) start(name string) { w.x.Start(name) }
func (w *writer) end()              { w.x.End() }

func (w *writer) invoice(opts WriteOptions) {
	inv := w.inv
	root, ns := "Invoice", NSInvoice
	if w.credit {
		root, ns = "CreditNote", NSCreditNote
	}
	w.x.Root(root, []xmlio.Namespace{{Prefix: "", URI: ns}, {Prefix: "cac", URI: NSCAC}, {Prefix: "cbc", URI: NSCBC}})
	spec := opts.SpecificationID
	if spec == "" {
		spec = DefaultSpecificationID
	}
	proc := ""
	if pc := inv.ProcessControl; pc != nil {
		if pc.SpecificationID != "" {
			spec = pc.SpecificationID
		}
		proc = pc.BusinessProcess
	}
	w.cbc("cbc:CustomizationID", spec)
	w.cbc("cbc:ProfileID", proc)
	w.cbc("cbc:ID", inv.ID)
	w.x.Element("cbc:IssueDate", inv.IssueDate.String())
	if w.credit {
		w.date("cbc:TaxPointDate", inv.TaxPointDate)
		w.cbc("cbc:CreditNoteTypeCode", string(inv.TypeCode))
		w.notes()
	} else {
		w.date("cbc:DueDate", inv.DueDate)
		w.cbc("cbc:InvoiceTypeCode", string(inv.TypeCode))
		w.notes()
		w.date("cbc:TaxPointDate", inv.TaxPointDate)
	}
	w.cbc("cbc:DocumentCurrencyCode", inv.CurrencyCode)
	w.cbc("cbc:TaxCurrencyCode", inv.TaxCurrencyCode)
	w.cbc("cbc:AccountingCost", inv.BuyerAccountingReference)
	w.cbc("cbc:BuyerReference", inv.BuyerReference)
	if inv.InvoicingPeriod != nil || inv.TaxPointDateCode != "" {
		w.start("cac:InvoicePeriod")
		if p := inv.InvoicingPeriod; p != nil {
			w.date("cbc:StartDate", p.Start)
			w.date("cbc:EndDate", p.End)
		}
		w.cbc("cbc:DescriptionCode", inv.TaxPointDateCode)
		w.end()
	}
	if inv.PurchaseOrderReference != "" || inv.SalesOrderReference != "" {
		w.start("cac:OrderReference")
		po := inv.PurchaseOrderReference
		if po == "" {
			po = "NA"
		}
		w.cbc("cbc:ID", po)
		w.cbc("cbc:SalesOrderID", inv.SalesOrderReference)
		w.end()
	}
	for _, p := range inv.PrecedingInvoices {
		w.start("cac:BillingReference")
		w.start("cac:InvoiceDocumentReference")
		w.x.Element("cbc:ID", p.ID)
		w.date("cbc:IssueDate", p.IssueDate)
		w.end()
		w.end()
	}
	w.docRef("cac:DespatchDocumentReference", inv.DespatchAdviceReference)
	w.docRef("cac:ReceiptDocumentReference", inv.ReceivingAdviceReference)
	if w.credit {
		w.docRef("cac:ContractDocumentReference", inv.ContractReference)
		w.additionalDocs()
		w.docRef("cac:OriginatorDocumentReference", inv.TenderOrLotReference)
	} else {
		w.docRef("cac:OriginatorDocumentReference", inv.TenderOrLotReference)
		w.docRef("cac:ContractDocumentReference", inv.ContractReference)
		w.additionalDocs()
		w.docRef("cac:ProjectReference", inv.ProjectReference)
	}
	w.seller()
	w.buyer()
	w.payee()
	w.taxRepresentative()
	w.delivery()
	w.paymentMeans()
	if inv.PaymentTerms != "" {
		w.start("cac:PaymentTerms")
		w.cbc("cbc:Note", inv.PaymentTerms)
		w.end()
	}
	for i := range inv.Allowances {
		w.docAllowanceCharge(false, &inv.Allowances[i])
	}
	for i := range inv.Charges {
		w.docAllowanceCharge(true, &inv.Charges[i])
	}
	w.taxTotals()
	w.monetaryTotal()
	for i := range inv.Lines {
		w.line(&inv.Lines[i], false)
	}
	w.end()
}

func (w *writer) notes() {
	for _, n := range w.inv.Notes {
		text := n.Text
		if n.SubjectCode != "" {
			text = "#" + n.SubjectCode + "#" + text
		}
		w.x.Element("cbc:Note", text)
	}
}

func (w *writer) docRef(name, id string) {
	if id == "" {
		return
	}
	w.start(name)
	w.cbc("cbc:ID", id)
	w.end()
}

func (w *writer) additionalDocs() {
	inv := w.inv
	for _, d := range inv.SupportingDocuments {
		w.start("cac:AdditionalDocumentReference")
		w.x.Element("cbc:ID", d.ID)
		w.cbc("cbc:DocumentDescription", d.Description)
		if d.Attachment != nil || d.ExternalLocation != "" {
			w.start("cac:Attachment")
			if a := d.Attachment; a != nil {
				w.x.Element("cbc:EmbeddedDocumentBinaryObject", base64.StdEncoding.EncodeToString(a.Content),
					xmlio.Attr{Name: "mimeCode", Value: a.MimeCode}, xmlio.Attr{Name: "filename", Value: a.Filename})
			}
			if d.ExternalLocation != "" {
				w.start("cac:ExternalReference")
				w.cbc("cbc:URI", d.ExternalLocation)
				w.end()
			}
			w.end()
		}
		w.end()
	}
	if id := inv.InvoicedObjectID; id != nil {
		w.start("cac:AdditionalDocumentReference")
		w.ident("cbc:ID", id)
		w.cbc("cbc:DocumentTypeCode", "130")
		w.end()
	}
	if w.credit && inv.ProjectReference != "" {
		w.start("cac:AdditionalDocumentReference")
		w.cbc("cbc:ID", inv.ProjectReference)
		w.cbc("cbc:DocumentTypeCode", "50")
		w.end()
	}
}

func (w *writer) address(name string, a *model.Address) {
	w.start(name)
	w.cbc("cbc:StreetName", a.Line1)
	w.cbc("cbc:AdditionalStreetName", a.Line2)
	w.cbc("cbc:CityName", a.City)
	w.cbc("cbc:PostalZone", a.PostCode)
	w.cbc("cbc:CountrySubentity", a.Subdivision)
	if a.Line3 != "" {
		w.start("cac:AddressLine")
		w.cbc("cbc:Line", a.Line3)
		w.end()
	}
	w.start("cac:Country")
	w.x.Element("cbc:IdentificationCode", a.CountryCode)
	w.end()
	w.end()
}

func (w *writer) endpoint(ea *model.ElectronicAddress) {
	if ea != nil {
		w.cbcAttr("cbc:EndpointID", ea.ID, xmlio.Attr{Name: "schemeID", Value: ea.SchemeID})
	}
}

func (w *writer) partyID(id *model.Identifier) {
	if id == nil {
		return
	}
	w.start("cac:PartyIdentification")
	w.x.Element("cbc:ID", id.ID, nonEmpty("schemeID", id.SchemeID)...)
	w.end()
}

func nonEmpty(name, v string) []xmlio.Attr {
	if v == "" {
		return nil
	}
	return []xmlio.Attr{{Name: name, Value: v}}
}

func (w *writer) partyName(name string) {
	if name == "" {
		return
	}
	w.start("cac:PartyName")
	w.x.Element("cbc:Name", name)
	w.end()
}

func (w *writer) partyTaxScheme(companyID, scheme string) {
	if companyID == "" {
		return
	}
	w.start("cac:PartyTaxScheme")
	w.x.Element("cbc:CompanyID", companyID)
	w.start("cac:TaxScheme")
	w.x.Element("cbc:ID", scheme)
	w.end()
	w.end()
}

func (w *writer) contact(c *model.Contact) {
	if c == nil {
		return
	}
	w.start("cac:Contact")
	w.cbc("cbc:Name", c.Name)
	w.cbc("cbc:Telephone", c.Telephone)
	w.cbc("cbc:ElectronicMail", c.Email)
	w.end()
}

// creditorID returns BT-90 when set.
func (w *writer) creditorID() string {
	if pi := w.inv.PaymentInstructions; pi != nil && pi.DirectDebit != nil {
		return pi.DirectDebit.CreditorID
	}
	return ""
}

func (w *writer) sepa() {
	w.partyID(&model.Identifier{ID: w.creditorID(), SchemeID: "SEPA"})
}

func (w *writer) seller() {
	s := &w.inv.Seller
	w.start("cac:AccountingSupplierParty")
	w.start("cac:Party")
	w.endpoint(s.ElectronicAddress)
	for i := range s.Identifiers {
		w.partyID(&s.Identifiers[i])
	}
	if w.creditorID() != "" && w.inv.Payee == nil {
		w.sepa()
	}
	w.partyName(s.TradingName)
	w.address("cac:PostalAddress", &s.Address)
	w.partyTaxScheme(s.VATID, "VAT")
	w.partyTaxScheme(s.TaxRegistrationID, cmp.Or(s.TaxRegistrationScheme, taxRegScheme))
	w.start("cac:PartyLegalEntity")
	w.x.Element("cbc:RegistrationName", s.Name)
	w.ident("cbc:CompanyID", s.LegalRegistrationID)
	w.cbc("cbc:CompanyLegalForm", s.AdditionalLegalInfo)
	w.end()
	w.contact(s.Contact)
	w.end()
	w.end()
}

func (w *writer) buyer() {
	b := &w.inv.Buyer
	w.start("cac:AccountingCustomerParty")
	w.start("cac:Party")
	w.endpoint(b.ElectronicAddress)
	w.partyID(b.Identifier)
	w.partyName(b.TradingName)
	w.address("cac:PostalAddress", &b.Address)
	w.partyTaxScheme(b.VATID, "VAT")
	w.start("cac:PartyLegalEntity")
	w.x.Element("cbc:RegistrationName", b.Name)
	w.ident("cbc:CompanyID", b.LegalRegistrationID)
	w.end()
	w.contact(b.Contact)
	w.end()
	w.end()
}

func (w *writer) payee() {
	p := w.inv.Payee
	if p == nil {
		return
	}
	w.start("cac:PayeeParty")
	w.partyID(p.Identifier)
	if w.creditorID() != "" {
		w.sepa()
	}
	w.partyName(p.Name)
	if p.LegalRegistrationID != nil {
		w.start("cac:PartyLegalEntity")
		w.ident("cbc:CompanyID", p.LegalRegistrationID)
		w.end()
	}
	w.end()
}

func (w *writer) taxRepresentative() {
	t := w.inv.TaxRepresentative
	if t == nil {
		return
	}
	w.start("cac:TaxRepresentativeParty")
	w.partyName(t.Name)
	w.address("cac:PostalAddress", &t.Address)
	w.partyTaxScheme(t.VATID, "VAT")
	w.end()
}

func (w *writer) delivery() {
	d := w.inv.Delivery
	if d == nil {
		return
	}
	w.start("cac:Delivery")
	w.date("cbc:ActualDeliveryDate", d.Date)
	if d.LocationID != nil || d.Address != nil {
		w.start("cac:DeliveryLocation")
		w.ident("cbc:ID", d.LocationID)
		if d.Address != nil {
			w.address("cac:Address", d.Address)
		}
		w.end()
	}
	if d.PartyName != "" {
		w.start("cac:DeliveryParty")
		w.partyName(d.PartyName)
		w.end()
	}
	w.end()
}

func hasMandate(dd *model.DirectDebit) bool {
	return dd != nil && (dd.MandateReference != "" || dd.DebitedAccountID != "")
}

// writesPaymentMeans reports whether pi gives at least one cac:PaymentMeans
// (BT-90 alone is written in a party).
func writesPaymentMeans(pi *model.PaymentInstructions) bool {
	return pi != nil && (pi.MeansCode != "" || pi.MeansText != "" || pi.RemittanceInformation != "" || pi.Card != nil ||
		len(pi.CreditTransfers) != 0 || hasMandate(pi.DirectDebit))
}

func (w *writer) paymentMeans() {
	pi := w.inv.PaymentInstructions
	if !writesPaymentMeans(pi) {
		return // nothing, or only BT-90 (written in the seller or payee party)
	}
	dd := pi.DirectDebit
	mandate := hasMandate(dd)
	n := max(1, len(pi.CreditTransfers))
	for i := range n {
		w.start("cac:PaymentMeans")
		// BT-81 is repeated (UBL requires it); BT-82, BT-83 and a credit
		// note's BT-9 go into the first only (UBL-SR-44, -45, -46).
		if i == 0 {
			w.x.Element("cbc:PaymentMeansCode", pi.MeansCode, nonEmpty("name", pi.MeansText)...)
			if w.credit {
				w.date("cbc:PaymentDueDate", w.inv.DueDate)
			}
			w.cbc("cbc:PaymentID", pi.RemittanceInformation)
		} else {
			w.x.Element("cbc:PaymentMeansCode", pi.MeansCode)
		}
		if c := pi.Card; c != nil && i == 0 {
			w.start("cac:CardAccount")
			w.x.Element("cbc:PrimaryAccountNumberID", c.PrimaryAccountNumber)
			w.x.Element("cbc:NetworkID", cmp.Or(c.NetworkID, cardNetworkNA))
			w.cbc("cbc:HolderName", c.HolderName)
			w.end()
		}
		if i < len(pi.CreditTransfers) {
			ct := &pi.CreditTransfers[i]
			w.start("cac:PayeeFinancialAccount")
			w.x.Element("cbc:ID", ct.AccountID)
			w.cbc("cbc:Name", ct.AccountName)
			if ct.ServiceProviderID != "" {
				w.start("cac:FinancialInstitutionBranch")
				w.cbc("cbc:ID", ct.ServiceProviderID)
				w.end()
			}
			w.end()
		}
		if mandate && i == 0 {
			w.start("cac:PaymentMandate")
			w.cbc("cbc:ID", dd.MandateReference)
			if dd.DebitedAccountID != "" {
				w.start("cac:PayerFinancialAccount")
				w.cbc("cbc:ID", dd.DebitedAccountID)
				w.end()
			}
			w.end()
		}
		w.end()
	}
}

func (w *writer) vatCategory(local string, code model.VATCategoryCode, rate *model.Decimal, exCode, exText string) {
	w.start(local)
	w.cbc("cbc:ID", string(code))
	w.dec("cbc:Percent", rate)
	w.cbc("cbc:TaxExemptionReasonCode", exCode)
	w.cbc("cbc:TaxExemptionReason", exText)
	w.start("cac:TaxScheme")
	w.x.Element("cbc:ID", "VAT")
	w.end()
	w.end()
}

func chargeIndicator(charge bool) string {
	if charge {
		return "true"
	}
	return "false"
}

func (w *writer) docAllowanceCharge(charge bool, a *model.AllowanceCharge) {
	w.allowanceChargeStart(charge, a.ReasonCode, a.Reason, a.Percentage, a.Amount, a.BaseAmount)
	w.vatCategory("cac:TaxCategory", a.CategoryCode(), a.VATRate, "", "")
	w.end()
}

// allowanceChargeStart opens a cac:AllowanceCharge and writes the elements
// document (BG-20/21) and line (BG-27/28) allowances and charges share; the
// caller adds what only its level has and closes it.
func (w *writer) allowanceChargeStart(charge bool, reasonCode, reason string, pct, amount, base *model.Decimal) {
	w.start("cac:AllowanceCharge")
	w.x.Element("cbc:ChargeIndicator", chargeIndicator(charge))
	w.cbc("cbc:AllowanceChargeReasonCode", reasonCode)
	w.cbc("cbc:AllowanceChargeReason", reason)
	w.dec("cbc:MultiplierFactorNumeric", pct)
	w.amount("cbc:Amount", amount)
	w.amount("cbc:BaseAmount", base)
}

func (w *writer) taxTotals() {
	inv := w.inv
	var tax, taxCur *model.Decimal
	if t := inv.Totals; t != nil {
		tax, taxCur = t.TaxAmount, t.TaxAmountInTaxCurrency
	}
	if tax != nil || len(inv.VATBreakdown) > 0 {
		w.start("cac:TaxTotal")
		w.amount("cbc:TaxAmount", tax)
		for i := range inv.VATBreakdown {
			v := &inv.VATBreakdown[i]
			w.start("cac:TaxSubtotal")
			w.amount("cbc:TaxableAmount", v.TaxableAmount)
			w.amount("cbc:TaxAmount", v.TaxAmount)
			w.vatCategory("cac:TaxCategory", v.CategoryCode(), v.VATRate, v.ExemptionReasonCode, v.ExemptionReason)
			w.end()
		}
		w.end()
	}
	if taxCur != nil {
		w.start("cac:TaxTotal")
		w.amountIn("cbc:TaxAmount", taxCur, inv.TaxCurrencyCode)
		w.end()
	}
}

func (w *writer) monetaryTotal() {
	t := w.inv.Totals
	if t == nil {
		return
	}
	w.start("cac:LegalMonetaryTotal")
	w.amount("cbc:LineExtensionAmount", t.LineNetTotal)
	w.amount("cbc:TaxExclusiveAmount", t.TaxExclusiveAmount)
	w.amount("cbc:TaxInclusiveAmount", t.TaxInclusiveAmount)
	w.amount("cbc:AllowanceTotalAmount", t.AllowanceTotal)
	w.amount("cbc:ChargeTotalAmount", t.ChargeTotal)
	w.amount("cbc:PrepaidAmount", t.PaidAmount)
	w.amount("cbc:PayableRoundingAmount", t.RoundingAmount)
	w.amount("cbc:PayableAmount", t.PayableAmount)
	w.end()
}

func (w *writer) lineAllowanceCharge(charge bool, a *model.LineAllowanceCharge) {
	w.allowanceChargeStart(charge, a.ReasonCode, a.Reason, a.Percentage, a.Amount, a.BaseAmount)
	w.end()
}

// lineLabel names a line by its model path (model.WalkLines):
// "line 2", "line 2 sub-line 1", "line 2 sub-line 1.3".
func lineLabel(loc []any) string {
	var b strings.Builder
	for i, seg := range loc {
		n, ok := seg.(int)
		if !ok {
			continue
		}
		switch {
		case i == 1:
			fmt.Fprintf(&b, "line %d", n+1)
		case i == 3:
			fmt.Fprintf(&b, " sub-line %d", n+1)
		default:
			fmt.Fprintf(&b, ".%d", n+1)
		}
	}
	return b.String()
}

// line writes an invoice line and, after its cac:Price, its sub-lines
// (BG-DEX-01) as cac:SubInvoiceLine / cac:SubCreditNoteLine of the same
// type, recursively (sub is false for a document level line).
func (w *writer) line(l *model.Line, sub bool) {
	lineName, qtyName := "cac:InvoiceLine", "cbc:InvoicedQuantity"
	if w.credit {
		lineName, qtyName = "cac:CreditNoteLine", "cbc:CreditedQuantity"
	}
	if sub {
		lineName = "cac:Sub" + strings.TrimPrefix(lineName, "cac:")
	}
	w.start(lineName)
	w.x.Element("cbc:ID", l.ID)
	w.cbc("cbc:Note", l.Note)
	w.x.Element(qtyName, l.Quantity.String(), nonEmpty("unitCode", l.UnitCode)...)
	w.amount("cbc:LineExtensionAmount", l.NetAmount)
	w.cbc("cbc:AccountingCost", l.BuyerAccountingReference)
	if p := l.Period; p != nil {
		w.start("cac:InvoicePeriod")
		w.date("cbc:StartDate", p.Start)
		w.date("cbc:EndDate", p.End)
		w.end()
	}
	if l.OrderLineReference != "" {
		w.start("cac:OrderLineReference")
		w.cbc("cbc:LineID", l.OrderLineReference)
		w.end()
	}
	if l.ObjectID != nil {
		w.start("cac:DocumentReference")
		w.ident("cbc:ID", l.ObjectID)
		w.cbc("cbc:DocumentTypeCode", "130")
		w.end()
	}
	for i := range l.Allowances {
		w.lineAllowanceCharge(false, &l.Allowances[i])
	}
	for i := range l.Charges {
		w.lineAllowanceCharge(true, &l.Charges[i])
	}
	it := &l.Item
	w.start("cac:Item")
	w.cbc("cbc:Description", it.Description)
	w.x.Element("cbc:Name", it.Name)
	if it.BuyerID != "" {
		w.start("cac:BuyersItemIdentification")
		w.cbc("cbc:ID", it.BuyerID)
		w.end()
	}
	if it.SellerID != "" {
		w.start("cac:SellersItemIdentification")
		w.cbc("cbc:ID", it.SellerID)
		w.end()
	}
	if it.StandardID != nil {
		w.start("cac:StandardItemIdentification")
		w.ident("cbc:ID", it.StandardID)
		w.end()
	}
	if it.OriginCountryCode != "" {
		w.start("cac:OriginCountry")
		w.cbc("cbc:IdentificationCode", it.OriginCountryCode)
		w.end()
	}
	for _, c := range it.Classifications {
		w.start("cac:CommodityClassification")
		attrs := nonEmpty("listID", c.SchemeID)
		attrs = append(attrs, nonEmpty("listVersionID", c.SchemeVersion)...)
		w.x.Element("cbc:ItemClassificationCode", c.ID, attrs...)
		w.end()
	}
	w.vatCategory("cac:ClassifiedTaxCategory", l.CategoryCode(), l.VATRate, "", "")
	for _, a := range it.Attributes {
		w.start("cac:AdditionalItemProperty")
		w.x.Element("cbc:Name", a.Name)
		w.x.Element("cbc:Value", a.Value)
		w.end()
	}
	w.end()
	// cac:Price is optional but needs cbc:PriceAmount: a line without
	// price details (a sub-line may have none) has no cac:Price.
	if l.NetPrice != nil || l.BaseQuantity != nil || l.PriceDiscount != nil || l.GrossPrice != nil {
		w.start("cac:Price")
		w.amount("cbc:PriceAmount", l.NetPrice)
		if l.BaseQuantity != nil {
			w.x.Element("cbc:BaseQuantity", l.BaseQuantity.String(), nonEmpty("unitCode", l.BaseQuantityUnitCode)...)
		}
		if l.PriceDiscount != nil || l.GrossPrice != nil {
			w.start("cac:AllowanceCharge")
			w.x.Element("cbc:ChargeIndicator", "false")
			w.amount("cbc:Amount", l.PriceDiscount)
			w.amount("cbc:BaseAmount", l.GrossPrice)
			w.end()
		}
		w.end()
	}
	for i := range l.SubLines {
		w.line(&l.SubLines[i], true)
	}
	w.end()
}

// syntaxDetails refuses the model fields that record a CII distinction UBL
// has no place for (they would be lost, and the document altered, if the
// value were written the UBL way).
func syntaxDetails(inv *model.Invoice) error {
	if inv.Seller.TaxRegistrationScheme != "" && inv.Seller.TaxRegistrationID == "" {
		return fmt.Errorf("BT-32: tax scheme %q without the identifier: %w", inv.Seller.TaxRegistrationScheme, ErrNotWritable)
	}
	if inv.ProjectName != "" {
		return fmt.Errorf("BT-11: project name %q (cac:ProjectReference has no name): %w", inv.ProjectName, ErrNotWritable)
	}
	for _, c := range []struct {
		bt string
		c  *model.Contact
	}{{"BT-41", inv.Seller.Contact}, {"BT-56", inv.Buyer.Contact}} {
		if c.c != nil && c.c.NameIsDepartment {
			return fmt.Errorf("%s: the contact point is a department (cac:Contact/cbc:Name cannot say so): %w", c.bt, ErrNotWritable)
		}
	}
	var lineErr error
	model.WalkLines(inv.Lines, func(l *model.Line, loc []any) {
		if (l.GrossBaseQuantity != nil || l.GrossBaseQuantityUnitCode != "") && lineErr == nil {
			lineErr = fmt.Errorf("%s: BT-148 on its own base quantity (cac:Price has one cbc:BaseQuantity, BT-149): %w", lineLabel(loc), ErrNotWritable)
		}
	})
	if lineErr != nil {
		return lineErr
	}
	if pi := inv.PaymentInstructions; pi != nil {
		for i := range pi.CreditTransfers {
			if pi.CreditTransfers[i].ProprietaryAccountID {
				return fmt.Errorf("BT-84: account %d is a proprietary identifier, not an IBAN (cac:PayeeFinancialAccount/cbc:ID cannot say so): %w", i+1, ErrNotWritable)
			}
		}
	}
	return nil
}
