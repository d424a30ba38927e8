package ubl

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"

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

func (w *writer) cbc(local, v string) {
	if v != "" {
		w.x.Element("cbc:"+local, v)
	}
}

func (w *writer) cbcAttr(local, v string, attrs ...xmlio.Attr) {
	if v == "" {
		return
	}
	kept := attrs[:0:0]
	for _, a := range attrs {
		if a.Value != "" {
			kept = append(kept, a)
		}
	}
	w.x.Element("cbc:"+local, v, kept...)
}

func (w *writer) ident(local string, id *model.Identifier) {
	if id != nil {
		w.cbcAttr(local, id.ID, xmlio.Attr{Name: "schemeID", Value: id.SchemeID})
	}
}

func (w *writer) date(local string, d *model.Date) {
	if d != nil {
		w.x.Element("cbc:"+local, d.String())
	}
}

func (w *writer) dec(local string, d *model.Decimal) {
	if d != nil {
		w.x.Element("cbc:"+local, d.String())
	}
}

func (w *writer) amountIn(local string, d *model.Decimal, cur string) {
	if d != nil {
		w.x.Element("cbc:"+local, d.String(), xmlio.Attr{Name: "currencyID", Value: cur})
	}
}

func (w *writer) amount(local string, d *model.Decimal) { w.amountIn(local, d, w.cur) }

func (w *writer) start(local string) { w.x.Start("cac:" + local) }
func (w *writer) end()               { w.x.End() }

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
	w.cbc("CustomizationID", spec)
	w.cbc("ProfileID", proc)
	w.cbc("ID", inv.ID)
	w.x.Element("cbc:IssueDate", inv.IssueDate.String())
	if w.credit {
		w.date("TaxPointDate", inv.TaxPointDate)
		w.cbc("CreditNoteTypeCode", string(inv.TypeCode))
		w.notes()
	} else {
		w.date("DueDate", inv.DueDate)
		w.cbc("InvoiceTypeCode", string(inv.TypeCode))
		w.notes()
		w.date("TaxPointDate", inv.TaxPointDate)
	}
	w.cbc("DocumentCurrencyCode", inv.CurrencyCode)
	w.cbc("TaxCurrencyCode", inv.TaxCurrencyCode)
	w.cbc("AccountingCost", inv.BuyerAccountingReference)
	w.cbc("BuyerReference", inv.BuyerReference)
	if inv.InvoicingPeriod != nil || inv.TaxPointDateCode != "" {
		w.start("InvoicePeriod")
		if p := inv.InvoicingPeriod; p != nil {
			w.date("StartDate", p.Start)
			w.date("EndDate", p.End)
		}
		w.cbc("DescriptionCode", inv.TaxPointDateCode)
		w.end()
	}
	if inv.PurchaseOrderReference != "" || inv.SalesOrderReference != "" {
		w.start("OrderReference")
		po := inv.PurchaseOrderReference
		if po == "" {
			po = "NA"
		}
		w.cbc("ID", po)
		w.cbc("SalesOrderID", inv.SalesOrderReference)
		w.end()
	}
	for _, p := range inv.PrecedingInvoices {
		w.start("BillingReference")
		w.start("InvoiceDocumentReference")
		w.x.Element("cbc:ID", p.ID)
		w.date("IssueDate", p.IssueDate)
		w.end()
		w.end()
	}
	w.docRef("DespatchDocumentReference", inv.DespatchAdviceReference)
	w.docRef("ReceiptDocumentReference", inv.ReceivingAdviceReference)
	if w.credit {
		w.docRef("ContractDocumentReference", inv.ContractReference)
		w.additionalDocs()
		w.docRef("OriginatorDocumentReference", inv.TenderOrLotReference)
	} else {
		w.docRef("OriginatorDocumentReference", inv.TenderOrLotReference)
		w.docRef("ContractDocumentReference", inv.ContractReference)
		w.additionalDocs()
		w.docRef("ProjectReference", inv.ProjectReference)
	}
	w.seller()
	w.buyer()
	w.payee()
	w.taxRepresentative()
	w.delivery()
	w.paymentMeans()
	if inv.PaymentTerms != "" {
		w.start("PaymentTerms")
		w.cbc("Note", inv.PaymentTerms)
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
		w.line(&inv.Lines[i])
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

func (w *writer) docRef(local, id string) {
	if id == "" {
		return
	}
	w.start(local)
	w.cbc("ID", id)
	w.end()
}

func (w *writer) additionalDocs() {
	inv := w.inv
	for _, d := range inv.SupportingDocuments {
		w.start("AdditionalDocumentReference")
		w.x.Element("cbc:ID", d.ID)
		w.cbc("DocumentDescription", d.Description)
		if d.Attachment != nil || d.ExternalLocation != "" {
			w.start("Attachment")
			if a := d.Attachment; a != nil {
				w.x.Element("cbc:EmbeddedDocumentBinaryObject", base64.StdEncoding.EncodeToString(a.Content),
					xmlio.Attr{Name: "mimeCode", Value: a.MimeCode}, xmlio.Attr{Name: "filename", Value: a.Filename})
			}
			if d.ExternalLocation != "" {
				w.start("ExternalReference")
				w.cbc("URI", d.ExternalLocation)
				w.end()
			}
			w.end()
		}
		w.end()
	}
	if id := inv.InvoicedObjectID; id != nil {
		w.start("AdditionalDocumentReference")
		w.ident("ID", id)
		w.cbc("DocumentTypeCode", "130")
		w.end()
	}
	if w.credit && inv.ProjectReference != "" {
		w.start("AdditionalDocumentReference")
		w.cbc("ID", inv.ProjectReference)
		w.cbc("DocumentTypeCode", "50")
		w.end()
	}
}

func (w *writer) address(local string, a *model.Address) {
	w.start(local)
	w.cbc("StreetName", a.Line1)
	w.cbc("AdditionalStreetName", a.Line2)
	w.cbc("CityName", a.City)
	w.cbc("PostalZone", a.PostCode)
	w.cbc("CountrySubentity", a.Subdivision)
	if a.Line3 != "" {
		w.start("AddressLine")
		w.cbc("Line", a.Line3)
		w.end()
	}
	w.start("Country")
	w.x.Element("cbc:IdentificationCode", a.CountryCode)
	w.end()
	w.end()
}

func (w *writer) endpoint(ea *model.ElectronicAddress) {
	if ea != nil {
		w.cbcAttr("EndpointID", ea.ID, xmlio.Attr{Name: "schemeID", Value: ea.SchemeID})
	}
}

func (w *writer) partyID(id *model.Identifier) {
	if id == nil {
		return
	}
	w.start("PartyIdentification")
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
	w.start("PartyName")
	w.x.Element("cbc:Name", name)
	w.end()
}

func (w *writer) partyTaxScheme(companyID, scheme string) {
	if companyID == "" {
		return
	}
	w.start("PartyTaxScheme")
	w.x.Element("cbc:CompanyID", companyID)
	w.start("TaxScheme")
	w.x.Element("cbc:ID", scheme)
	w.end()
	w.end()
}

func (w *writer) contact(c *model.Contact) {
	if c == nil {
		return
	}
	w.start("Contact")
	w.cbc("Name", c.Name)
	w.cbc("Telephone", c.Telephone)
	w.cbc("ElectronicMail", c.Email)
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
	w.start("AccountingSupplierParty")
	w.start("Party")
	w.endpoint(s.ElectronicAddress)
	for i := range s.Identifiers {
		w.partyID(&s.Identifiers[i])
	}
	if w.creditorID() != "" && w.inv.Payee == nil {
		w.sepa()
	}
	w.partyName(s.TradingName)
	w.address("PostalAddress", &s.Address)
	w.partyTaxScheme(s.VATID, "VAT")
	w.partyTaxScheme(s.TaxRegistrationID, taxRegScheme)
	w.start("PartyLegalEntity")
	w.x.Element("cbc:RegistrationName", s.Name)
	w.ident("CompanyID", s.LegalRegistrationID)
	w.cbc("CompanyLegalForm", s.AdditionalLegalInfo)
	w.end()
	w.contact(s.Contact)
	w.end()
	w.end()
}

func (w *writer) buyer() {
	b := &w.inv.Buyer
	w.start("AccountingCustomerParty")
	w.start("Party")
	w.endpoint(b.ElectronicAddress)
	w.partyID(b.Identifier)
	w.partyName(b.TradingName)
	w.address("PostalAddress", &b.Address)
	w.partyTaxScheme(b.VATID, "VAT")
	w.start("PartyLegalEntity")
	w.x.Element("cbc:RegistrationName", b.Name)
	w.ident("CompanyID", b.LegalRegistrationID)
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
	w.start("PayeeParty")
	w.partyID(p.Identifier)
	if w.creditorID() != "" {
		w.sepa()
	}
	w.partyName(p.Name)
	if p.LegalRegistrationID != nil {
		w.start("PartyLegalEntity")
		w.ident("CompanyID", p.LegalRegistrationID)
		w.end()
	}
	w.end()
}

func (w *writer) taxRepresentative() {
	t := w.inv.TaxRepresentative
	if t == nil {
		return
	}
	w.start("TaxRepresentativeParty")
	w.partyName(t.Name)
	w.address("PostalAddress", &t.Address)
	w.partyTaxScheme(t.VATID, "VAT")
	w.end()
}

func (w *writer) delivery() {
	d := w.inv.Delivery
	if d == nil {
		return
	}
	w.start("Delivery")
	w.date("ActualDeliveryDate", d.Date)
	if d.LocationID != nil || d.Address != nil {
		w.start("DeliveryLocation")
		w.ident("ID", d.LocationID)
		if d.Address != nil {
			w.address("Address", d.Address)
		}
		w.end()
	}
	if d.PartyName != "" {
		w.start("DeliveryParty")
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
		w.start("PaymentMeans")
		w.x.Element("cbc:PaymentMeansCode", pi.MeansCode, nonEmpty("name", pi.MeansText)...)
		if w.credit {
			w.date("PaymentDueDate", w.inv.DueDate)
		}
		w.cbc("PaymentID", pi.RemittanceInformation)
		if c := pi.Card; c != nil && i == 0 {
			w.start("CardAccount")
			w.x.Element("cbc:PrimaryAccountNumberID", c.PrimaryAccountNumber)
			w.x.Element("cbc:NetworkID", cardNetworkNA)
			w.cbc("HolderName", c.HolderName)
			w.end()
		}
		if i < len(pi.CreditTransfers) {
			ct := &pi.CreditTransfers[i]
			w.start("PayeeFinancialAccount")
			w.x.Element("cbc:ID", ct.AccountID)
			w.cbc("Name", ct.AccountName)
			if ct.ServiceProviderID != "" {
				w.start("FinancialInstitutionBranch")
				w.cbc("ID", ct.ServiceProviderID)
				w.end()
			}
			w.end()
		}
		if mandate && i == 0 {
			w.start("PaymentMandate")
			w.cbc("ID", dd.MandateReference)
			if dd.DebitedAccountID != "" {
				w.start("PayerFinancialAccount")
				w.cbc("ID", dd.DebitedAccountID)
				w.end()
			}
			w.end()
		}
		w.end()
	}
}

func (w *writer) vatCategory(local string, code model.VATCategoryCode, rate *model.Decimal, exCode, exText string) {
	w.start(local)
	w.cbc("ID", string(code))
	w.dec("Percent", rate)
	w.cbc("TaxExemptionReasonCode", exCode)
	w.cbc("TaxExemptionReason", exText)
	w.start("TaxScheme")
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
	w.start("AllowanceCharge")
	w.x.Element("cbc:ChargeIndicator", chargeIndicator(charge))
	w.cbc("AllowanceChargeReasonCode", a.ReasonCode)
	w.cbc("AllowanceChargeReason", a.Reason)
	w.dec("MultiplierFactorNumeric", a.Percentage)
	w.amount("Amount", a.Amount)
	w.amount("BaseAmount", a.BaseAmount)
	w.vatCategory("TaxCategory", a.CategoryCode(), a.VATRate, "", "")
	w.end()
}

func (w *writer) taxTotals() {
	inv := w.inv
	var tax, taxCur *model.Decimal
	if t := inv.Totals; t != nil {
		tax, taxCur = t.TaxAmount, t.TaxAmountInTaxCurrency
	}
	if tax != nil || len(inv.VATBreakdown) > 0 {
		w.start("TaxTotal")
		w.amount("TaxAmount", tax)
		for i := range inv.VATBreakdown {
			v := &inv.VATBreakdown[i]
			w.start("TaxSubtotal")
			w.amount("TaxableAmount", v.TaxableAmount)
			w.amount("TaxAmount", v.TaxAmount)
			w.vatCategory("TaxCategory", v.CategoryCode(), v.VATRate, v.ExemptionReasonCode, v.ExemptionReason)
			w.end()
		}
		w.end()
	}
	if taxCur != nil {
		w.start("TaxTotal")
		w.amountIn("TaxAmount", taxCur, inv.TaxCurrencyCode)
		w.end()
	}
}

func (w *writer) monetaryTotal() {
	t := w.inv.Totals
	if t == nil {
		return
	}
	w.start("LegalMonetaryTotal")
	w.amount("LineExtensionAmount", t.LineNetTotal)
	w.amount("TaxExclusiveAmount", t.TaxExclusiveAmount)
	w.amount("TaxInclusiveAmount", t.TaxInclusiveAmount)
	w.amount("AllowanceTotalAmount", t.AllowanceTotal)
	w.amount("ChargeTotalAmount", t.ChargeTotal)
	w.amount("PrepaidAmount", t.PaidAmount)
	w.amount("PayableRoundingAmount", t.RoundingAmount)
	w.amount("PayableAmount", t.PayableAmount)
	w.end()
}

func (w *writer) lineAllowanceCharge(charge bool, a *model.LineAllowanceCharge) {
	w.start("AllowanceCharge")
	w.x.Element("cbc:ChargeIndicator", chargeIndicator(charge))
	w.cbc("AllowanceChargeReasonCode", a.ReasonCode)
	w.cbc("AllowanceChargeReason", a.Reason)
	w.dec("MultiplierFactorNumeric", a.Percentage)
	w.amount("Amount", a.Amount)
	w.amount("BaseAmount", a.BaseAmount)
	w.end()
}

func (w *writer) line(l *model.Line) {
	lineName, qtyName := "InvoiceLine", "cbc:InvoicedQuantity"
	if w.credit {
		lineName, qtyName = "CreditNoteLine", "cbc:CreditedQuantity"
	}
	w.start(lineName)
	w.x.Element("cbc:ID", l.ID)
	w.cbc("Note", l.Note)
	w.x.Element(qtyName, l.Quantity.String(), nonEmpty("unitCode", l.UnitCode)...)
	w.amount("LineExtensionAmount", l.NetAmount)
	w.cbc("AccountingCost", l.BuyerAccountingReference)
	if p := l.Period; p != nil {
		w.start("InvoicePeriod")
		w.date("StartDate", p.Start)
		w.date("EndDate", p.End)
		w.end()
	}
	if l.OrderLineReference != "" {
		w.start("OrderLineReference")
		w.cbc("LineID", l.OrderLineReference)
		w.end()
	}
	if l.ObjectID != nil {
		w.start("DocumentReference")
		w.ident("ID", l.ObjectID)
		w.cbc("DocumentTypeCode", "130")
		w.end()
	}
	for i := range l.Allowances {
		w.lineAllowanceCharge(false, &l.Allowances[i])
	}
	for i := range l.Charges {
		w.lineAllowanceCharge(true, &l.Charges[i])
	}
	it := &l.Item
	w.start("Item")
	w.cbc("Description", it.Description)
	w.x.Element("cbc:Name", it.Name)
	if it.BuyerID != "" {
		w.start("BuyersItemIdentification")
		w.cbc("ID", it.BuyerID)
		w.end()
	}
	if it.SellerID != "" {
		w.start("SellersItemIdentification")
		w.cbc("ID", it.SellerID)
		w.end()
	}
	if it.StandardID != nil {
		w.start("StandardItemIdentification")
		w.ident("ID", it.StandardID)
		w.end()
	}
	if it.OriginCountryCode != "" {
		w.start("OriginCountry")
		w.cbc("IdentificationCode", it.OriginCountryCode)
		w.end()
	}
	for _, c := range it.Classifications {
		w.start("CommodityClassification")
		attrs := nonEmpty("listID", c.SchemeID)
		attrs = append(attrs, nonEmpty("listVersionID", c.SchemeVersion)...)
		w.x.Element("cbc:ItemClassificationCode", c.ID, attrs...)
		w.end()
	}
	w.vatCategory("ClassifiedTaxCategory", l.CategoryCode(), l.VATRate, "", "")
	for _, a := range it.Attributes {
		w.start("AdditionalItemProperty")
		w.x.Element("cbc:Name", a.Name)
		w.x.Element("cbc:Value", a.Value)
		w.end()
	}
	w.end()
	w.start("Price")
	w.amount("PriceAmount", l.NetPrice)
	if l.BaseQuantity != nil {
		w.x.Element("cbc:BaseQuantity", l.BaseQuantity.String(), nonEmpty("unitCode", l.BaseQuantityUnitCode)...)
	}
	if l.PriceDiscount != nil || l.GrossPrice != nil {
		w.start("AllowanceCharge")
		w.x.Element("cbc:ChargeIndicator", "false")
		w.amount("Amount", l.PriceDiscount)
		w.amount("BaseAmount", l.GrossPrice)
		w.end()
	}
	w.end()
	w.end()
}
