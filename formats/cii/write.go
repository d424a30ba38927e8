package cii

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// DefaultSpecificationID is written as BT-24 when the model has none.
const DefaultSpecificationID = "urn:cen.eu:en16931:2017"

// WriteOptions configure Write.
type WriteOptions struct {
	// SpecificationID is BT-24 when the model has none; empty means
	// DefaultSpecificationID.
	SpecificationID string
	// Indent, when non-empty, indents each level by it.
	Indent string
}

// ErrNotRepresentable is wrapped by Write's error for a model field CII
// D16B cannot carry.
var ErrNotRepresentable = errors.New("cii: not representable in CII D16B")

// Write writes inv as a CII D16B CrossIndustryInvoice (credit notes too:
// they are type code 381 in the same root). The output is deterministic and
// follows the XSD's sequence order. Write does not complete or validate the
// model; it fails for a nil model and for fields CII cannot carry.
func Write(w io.Writer, inv *model.Invoice, opts WriteOptions) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("cii.Write: %w", err)
		}
	}()
	if inv == nil {
		return errors.New("nil invoice")
	}
	if err := representable(inv); err != nil {
		return err
	}
	x := xmlio.NewWriter(w, xmlio.Options{Indent: opts.Indent})
	cw := &writer{x: x, inv: inv}
	cw.invoice(opts)
	return x.Close()
}

// representable rejects what the XSD cannot hold.
func representable(inv *model.Invoice) error {
	if len(inv.PrecedingInvoices) > 1 {
		return fmt.Errorf("BG-3: %d preceding invoice references, ram:InvoiceReferencedDocument holds one: %w", len(inv.PrecedingInvoices), ErrNotRepresentable)
	}
	if inv.TaxCurrencyCode != "" && inv.TaxCurrencyCode == inv.CurrencyCode {
		// UBL accepts it; the CII form of BR-53 requires the two to differ,
		// so the document would be non-conformant by construction.
		return fmt.Errorf("BT-6 %q equal to BT-5 (CII's BR-53 requires the VAT accounting currency to differ from the invoice currency): %w", inv.TaxCurrencyCode, ErrNotRepresentable)
	}
	if sch := inv.Seller.TaxRegistrationScheme; sch != "" {
		return fmt.Errorf("BT-32: tax scheme %q (CII marks BT-32 by schemeID FC; another scheme would not be BT-32): %w", sch, ErrNotRepresentable)
	}
	if pi := inv.PaymentInstructions; pi != nil && pi.Card != nil && pi.Card.NetworkID != "" {
		return fmt.Errorf("BG-18: card network id %q (ram:ApplicableTradeSettlementFinancialCard has no place for it): %w", pi.Card.NetworkID, ErrNotRepresentable)
	}
	if (inv.TaxPointDate != nil || inv.TaxPointDateCode != "") && len(inv.VATBreakdown) == 0 {
		return fmt.Errorf("BT-7/BT-8: CII carries them in a VAT breakdown (BG-23) and there is none: %w", ErrNotRepresentable)
	}
	if _, ok := model.TaxPointCodeToCII(inv.TaxPointDateCode); inv.TaxPointDateCode != "" && !ok {
		return fmt.Errorf("BT-8: code %q is not one of 3, 35, 432 (UNTDID 2005), which CII writes as 5, 29, 72: %w", inv.TaxPointDateCode, ErrNotRepresentable)
	}
	if inv.Totals != nil && inv.Totals.TaxAmountInTaxCurrency != nil && inv.TaxCurrencyCode == "" {
		return fmt.Errorf("BT-111 without BT-6: ram:TaxTotalAmount is told apart by its currency: %w", ErrNotRepresentable)
	}
	for i := range inv.Lines {
		l := &inv.Lines[i]
		if len(l.SubLines) > 0 {
			// Factur-X EXTENDED flattens sub-lines into lines with
			// ram:ParentLineID, but EN 16931 CII and XRechnung CII have
			// no such lines (XRechnung's BR-DEX-15 flags ParentLineID):
			// written flat they would enter the totals.
			return fmt.Errorf("line %d: %d sub invoice lines (BG-DEX-01, XRechnung extension; CII has no nested lines): %w", i+1, len(l.SubLines), ErrNotRepresentable)
		}
		if l.BaseQuantityUnitCode != "" && l.BaseQuantity == nil {
			return fmt.Errorf("line %d: BT-150 without BT-149 (it is the unitCode of ram:BasisQuantity): %w", i+1, ErrNotRepresentable)
		}
		if (l.GrossBaseQuantity != nil || l.GrossBaseQuantityUnitCode != "") && (l.GrossPrice == nil || l.GrossBaseQuantity == nil) {
			return fmt.Errorf("line %d: a gross price base quantity needs BT-148 and its quantity: %w", i+1, ErrNotRepresentable)
		}
		if l.PriceDiscount != nil && l.GrossPrice == nil {
			return fmt.Errorf("line %d: BT-147 without BT-148 (ram:GrossPriceProductTradePrice needs its ram:ChargeAmount): %w", i+1, ErrNotRepresentable)
		}
	}
	return nil
}

// projectNamePlaceholder is written as ram:SpecifiedProcuringProject/
// ram:Name (XSD-mandatory) when the model has no ProjectName, and read back
// as absent.
const projectNamePlaceholder = "Project reference"

type writer struct {
	x   *xmlio.Writer
	inv *model.Invoice
}

var namespaces = []xmlio.Namespace{
	{Prefix: "rsm", URI: NSRSM},
	{Prefix: "qdt", URI: NSQDT},
	{Prefix: "ram", URI: NSRAM},
	{Prefix: "udt", URI: NSUDT},
}

func (w *writer) start(name string, attrs ...xmlio.Attr) { w.x.Start(name, attrs...) }
func (w *writer) end()                                   { w.x.End() }

// el writes <name>text</name> unless text is empty.
func (w *writer) el(name, text string, attrs ...xmlio.Attr) {
	if text != "" {
		w.x.Element(name, text, attrs...)
	}
}

// dec writes <name>d</name> unless d is nil.
func (w *writer) dec(name string, d *model.Decimal, attrs ...xmlio.Attr) {
	if d != nil {
		w.x.Element(name, d.String(), attrs...)
	}
}

func opt(name, value string) []xmlio.Attr {
	if value == "" {
		return nil
	}
	return []xmlio.Attr{{Name: name, Value: value}}
}

// date writes <name><wrapper format="102">YYYYMMDD</wrapper></name>.
func (w *writer) date(name, wrapper string, d *model.Date) {
	if d == nil {
		return
	}
	w.start(name)
	w.x.Element(wrapper, d.Compact(), xmlio.Attr{Name: "format", Value: "102"})
	w.end()
}

func (w *writer) invoice(opts WriteOptions) {
	inv := w.inv
	w.x.Root("rsm:CrossIndustryInvoice", namespaces)

	w.start("rsm:ExchangedDocumentContext")
	spec := opts.SpecificationID
	if spec == "" {
		spec = DefaultSpecificationID
	}
	if pc := inv.ProcessControl; pc != nil {
		if pc.BusinessProcess != "" {
			w.start("ram:BusinessProcessSpecifiedDocumentContextParameter")
			w.el("ram:ID", pc.BusinessProcess)
			w.end()
		}
		if pc.SpecificationID != "" {
			spec = pc.SpecificationID
		}
	}
	w.start("ram:GuidelineSpecifiedDocumentContextParameter")
	w.el("ram:ID", spec)
	w.end()
	w.end()

	w.start("rsm:ExchangedDocument")
	w.x.Element("ram:ID", inv.ID)
	w.el("ram:TypeCode", string(inv.TypeCode))
	if inv.IssueDate != (model.Date{}) {
		w.date("ram:IssueDateTime", "udt:DateTimeString", &inv.IssueDate)
	}
	for _, n := range inv.Notes {
		w.start("ram:IncludedNote")
		w.el("ram:Content", n.Text)
		w.el("ram:SubjectCode", n.SubjectCode)
		w.end()
	}
	w.end()

	w.start("rsm:SupplyChainTradeTransaction")
	for i := range inv.Lines {
		w.line(&inv.Lines[i])
	}
	w.agreement()
	w.delivery()
	w.settlement()
	w.end()
	w.end()
}

func (w *writer) address(a *model.Address) {
	if *a == (model.Address{}) {
		return // no address at all (a profile view without BG-8)
	}
	w.start("ram:PostalTradeAddress")
	w.el("ram:PostcodeCode", a.PostCode)
	w.el("ram:LineOne", a.Line1)
	w.el("ram:LineTwo", a.Line2)
	w.el("ram:LineThree", a.Line3)
	w.el("ram:CityName", a.City)
	w.el("ram:CountryID", a.CountryCode)
	w.el("ram:CountrySubDivisionName", a.Subdivision)
	w.end()
}

func (w *writer) contact(c *model.Contact) {
	if c == nil {
		return
	}
	w.start("ram:DefinedTradeContact")
	if c.NameIsDepartment {
		w.el("ram:DepartmentName", c.Name)
	} else {
		w.el("ram:PersonName", c.Name)
	}
	if c.Telephone != "" {
		w.start("ram:TelephoneUniversalCommunication")
		w.el("ram:CompleteNumber", c.Telephone)
		w.end()
	}
	if c.Email != "" {
		w.start("ram:EmailURIUniversalCommunication")
		w.el("ram:URIID", c.Email)
		w.end()
	}
	w.end()
}

func (w *writer) electronicAddress(e *model.ElectronicAddress) {
	if e == nil {
		return
	}
	w.start("ram:URIUniversalCommunication")
	w.x.Element("ram:URIID", e.ID, opt("schemeID", e.SchemeID)...)
	w.end()
}

func (w *writer) taxRegistration(id, scheme string) {
	if id == "" {
		return
	}
	w.start("ram:SpecifiedTaxRegistration")
	w.x.Element("ram:ID", id, xmlio.Attr{Name: "schemeID", Value: scheme})
	w.end()
}

// partyID writes a party identifier: ram:GlobalID with a scheme, ram:ID
// without.
func (w *writer) partyID(id *model.Identifier) {
	if id == nil {
		return
	}
	if id.SchemeID != "" {
		w.x.Element("ram:GlobalID", id.ID, xmlio.Attr{Name: "schemeID", Value: id.SchemeID})
	} else {
		w.x.Element("ram:ID", id.ID)
	}
}

func (w *writer) legalOrg(id *model.Identifier, trading string) {
	if id == nil && trading == "" {
		return
	}
	w.start("ram:SpecifiedLegalOrganization")
	if id != nil {
		w.x.Element("ram:ID", id.ID, opt("schemeID", id.SchemeID)...)
	}
	w.el("ram:TradingBusinessName", trading)
	w.end()
}

func (w *writer) agreement() {
	inv := w.inv
	w.start("ram:ApplicableHeaderTradeAgreement")
	w.el("ram:BuyerReference", inv.BuyerReference)

	s := &inv.Seller
	w.start("ram:SellerTradeParty")
	for _, id := range s.Identifiers {
		if id.SchemeID == "" {
			w.x.Element("ram:ID", id.ID)
		}
	}
	for _, id := range s.Identifiers {
		if id.SchemeID != "" {
			w.x.Element("ram:GlobalID", id.ID, xmlio.Attr{Name: "schemeID", Value: id.SchemeID})
		}
	}
	w.x.Element("ram:Name", s.Name)
	w.el("ram:Description", s.AdditionalLegalInfo)
	w.legalOrg(s.LegalRegistrationID, s.TradingName)
	w.contact(s.Contact)
	w.address(&s.Address)
	w.electronicAddress(s.ElectronicAddress)
	w.taxRegistration(s.VATID, "VA")
	w.taxRegistration(s.TaxRegistrationID, "FC")
	w.end()

	b := &inv.Buyer
	w.start("ram:BuyerTradeParty")
	w.partyID(b.Identifier)
	w.x.Element("ram:Name", b.Name)
	w.legalOrg(b.LegalRegistrationID, b.TradingName)
	w.contact(b.Contact)
	w.address(&b.Address)
	w.electronicAddress(b.ElectronicAddress)
	w.taxRegistration(b.VATID, "VA")
	w.end()

	if t := inv.TaxRepresentative; t != nil {
		w.start("ram:SellerTaxRepresentativeTradeParty")
		w.x.Element("ram:Name", t.Name)
		w.address(&t.Address)
		w.taxRegistration(t.VATID, "VA")
		w.end()
	}
	w.refID("ram:SellerOrderReferencedDocument", inv.SalesOrderReference)
	w.refID("ram:BuyerOrderReferencedDocument", inv.PurchaseOrderReference)
	w.refID("ram:ContractReferencedDocument", inv.ContractReference)
	for _, sd := range inv.SupportingDocuments {
		w.start("ram:AdditionalReferencedDocument")
		w.x.Element("ram:IssuerAssignedID", sd.ID)
		w.el("ram:URIID", sd.ExternalLocation)
		w.x.Element("ram:TypeCode", "916")
		w.el("ram:Name", sd.Description)
		if a := sd.Attachment; a != nil {
			w.x.Element("ram:AttachmentBinaryObject", base64.StdEncoding.EncodeToString(a.Content),
				xmlio.Attr{Name: "mimeCode", Value: a.MimeCode}, xmlio.Attr{Name: "filename", Value: a.Filename})
		}
		w.end()
	}
	if inv.TenderOrLotReference != "" {
		w.start("ram:AdditionalReferencedDocument")
		w.x.Element("ram:IssuerAssignedID", inv.TenderOrLotReference)
		w.x.Element("ram:TypeCode", "50")
		w.end()
	}
	if o := inv.InvoicedObjectID; o != nil {
		w.start("ram:AdditionalReferencedDocument")
		w.x.Element("ram:IssuerAssignedID", o.ID)
		w.x.Element("ram:TypeCode", "130")
		w.el("ram:ReferenceTypeCode", o.SchemeID)
		w.end()
	}
	if inv.ProjectReference != "" {
		w.start("ram:SpecifiedProcuringProject")
		w.x.Element("ram:ID", inv.ProjectReference)
		w.x.Element("ram:Name", cmp.Or(inv.ProjectName, projectNamePlaceholder))
		w.end()
	}
	w.end()
}

func (w *writer) refID(name, id string) {
	if id == "" {
		return
	}
	w.start(name)
	w.x.Element("ram:IssuerAssignedID", id)
	w.end()
}

func (w *writer) delivery() {
	inv := w.inv
	w.start("ram:ApplicableHeaderTradeDelivery")
	if d := inv.Delivery; d != nil {
		if d.PartyName != "" || d.LocationID != nil || d.Address != nil {
			w.start("ram:ShipToTradeParty")
			w.partyID(d.LocationID)
			w.el("ram:Name", d.PartyName)
			if d.Address != nil {
				w.address(d.Address)
			}
			w.end()
		}
		if d.Date != nil {
			w.start("ram:ActualDeliverySupplyChainEvent")
			w.date("ram:OccurrenceDateTime", "udt:DateTimeString", d.Date)
			w.end()
		}
	}
	w.refID("ram:DespatchAdviceReferencedDocument", inv.DespatchAdviceReference)
	w.refID("ram:ReceivingAdviceReferencedDocument", inv.ReceivingAdviceReference)
	w.end()
}

func (w *writer) period(p *model.Period) {
	if p == nil {
		return
	}
	w.start("ram:BillingSpecifiedPeriod")
	w.date("ram:StartDateTime", "udt:DateTimeString", p.Start)
	w.date("ram:EndDateTime", "udt:DateTimeString", p.End)
	w.end()
}

func (w *writer) indicator(charge bool) {
	w.start("ram:ChargeIndicator")
	if charge {
		w.x.Element("udt:Indicator", "true")
	} else {
		w.x.Element("udt:Indicator", "false")
	}
	w.end()
}

func (w *writer) paymentMeans(pi *model.PaymentInstructions, ct *model.CreditTransfer, first bool) {
	w.start("ram:SpecifiedTradeSettlementPaymentMeans")
	w.el("ram:TypeCode", pi.MeansCode)
	w.el("ram:Information", pi.MeansText)
	if first {
		if c := pi.Card; c != nil {
			w.start("ram:ApplicableTradeSettlementFinancialCard")
			w.x.Element("ram:ID", c.PrimaryAccountNumber)
			w.el("ram:CardholderName", c.HolderName)
			w.end()
		}
		if dd := pi.DirectDebit; dd != nil && dd.DebitedAccountID != "" {
			w.start("ram:PayerPartyDebtorFinancialAccount")
			w.x.Element("ram:IBANID", dd.DebitedAccountID)
			w.end()
		}
	}
	if ct != nil {
		if ct.AccountID != "" || ct.AccountName != "" {
			w.start("ram:PayeePartyCreditorFinancialAccount")
			if ct.ProprietaryAccountID {
				w.el("ram:AccountName", ct.AccountName)
				w.el("ram:ProprietaryID", ct.AccountID)
			} else {
				w.el("ram:IBANID", ct.AccountID)
				w.el("ram:AccountName", ct.AccountName)
			}
			w.end()
		}
		if ct.ServiceProviderID != "" {
			w.start("ram:PayeeSpecifiedCreditorFinancialInstitution")
			w.x.Element("ram:BICID", ct.ServiceProviderID)
			w.end()
		}
	}
	w.end()
}

func (w *writer) settlement() {
	inv := w.inv
	pi := inv.PaymentInstructions
	w.start("ram:ApplicableHeaderTradeSettlement")
	if pi != nil {
		if dd := pi.DirectDebit; dd != nil {
			w.el("ram:CreditorReferenceID", dd.CreditorID)
		}
		w.el("ram:PaymentReference", pi.RemittanceInformation)
	}
	w.el("ram:TaxCurrencyCode", inv.TaxCurrencyCode)
	w.el("ram:InvoiceCurrencyCode", inv.CurrencyCode)
	if p := inv.Payee; p != nil {
		w.start("ram:PayeeTradeParty")
		w.partyID(p.Identifier)
		w.x.Element("ram:Name", p.Name)
		w.legalOrg(p.LegalRegistrationID, "")
		w.end()
	}
	if pi != nil {
		hasMeans := pi.MeansCode != "" || pi.MeansText != "" || pi.Card != nil || len(pi.CreditTransfers) > 0 ||
			(pi.DirectDebit != nil && pi.DirectDebit.DebitedAccountID != "")
		switch {
		case len(pi.CreditTransfers) > 0:
			for i := range pi.CreditTransfers {
				w.paymentMeans(pi, &pi.CreditTransfers[i], i == 0)
			}
		case hasMeans:
			w.paymentMeans(pi, nil, true)
		}
	}
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		w.start("ram:ApplicableTradeTax")
		w.dec("ram:CalculatedAmount", v.TaxAmount)
		w.x.Element("ram:TypeCode", "VAT")
		w.el("ram:ExemptionReason", v.ExemptionReason)
		w.dec("ram:BasisAmount", v.TaxableAmount)
		w.el("ram:CategoryCode", string(v.CategoryCode()))
		w.el("ram:ExemptionReasonCode", v.ExemptionReasonCode)
		if i == 0 {
			// BT-7 / BT-8 are document level; CII-SR-461/462 allow them once.
			w.date("ram:TaxPointDate", "udt:DateString", inv.TaxPointDate)
			if inv.TaxPointDateCode != "" {
				code, _ := model.TaxPointCodeToCII(inv.TaxPointDateCode) // checked by representable
				w.el("ram:DueDateTypeCode", code)
			}
		}
		w.dec("ram:RateApplicablePercent", v.VATRate)
		w.end()
	}
	w.period(inv.InvoicingPeriod)
	w.allowanceCharges(inv.Allowances, false)
	w.allowanceCharges(inv.Charges, true)
	var mandate string
	if pi != nil && pi.DirectDebit != nil {
		mandate = pi.DirectDebit.MandateReference
	}
	if inv.PaymentTerms != "" || inv.DueDate != nil || mandate != "" {
		w.start("ram:SpecifiedTradePaymentTerms")
		w.el("ram:Description", inv.PaymentTerms)
		w.date("ram:DueDateDateTime", "udt:DateTimeString", inv.DueDate)
		w.el("ram:DirectDebitMandateID", mandate)
		w.end()
	}
	if t := inv.Totals; t != nil {
		w.start("ram:SpecifiedTradeSettlementHeaderMonetarySummation")
		w.dec("ram:LineTotalAmount", t.LineNetTotal)
		w.dec("ram:ChargeTotalAmount", t.ChargeTotal)
		w.dec("ram:AllowanceTotalAmount", t.AllowanceTotal)
		w.dec("ram:TaxBasisTotalAmount", t.TaxExclusiveAmount)
		w.dec("ram:TaxTotalAmount", t.TaxAmount, xmlio.Attr{Name: "currencyID", Value: inv.CurrencyCode})
		if inv.TaxCurrencyCode != "" {
			w.dec("ram:TaxTotalAmount", t.TaxAmountInTaxCurrency, xmlio.Attr{Name: "currencyID", Value: inv.TaxCurrencyCode})
		}
		w.dec("ram:RoundingAmount", t.RoundingAmount)
		w.dec("ram:GrandTotalAmount", t.TaxInclusiveAmount)
		w.dec("ram:TotalPrepaidAmount", t.PaidAmount)
		w.dec("ram:DuePayableAmount", t.PayableAmount)
		w.end()
	}
	for _, p := range inv.PrecedingInvoices {
		w.start("ram:InvoiceReferencedDocument")
		w.x.Element("ram:IssuerAssignedID", p.ID)
		w.date("ram:FormattedIssueDateTime", "qdt:DateTimeString", p.IssueDate)
		w.end()
	}
	if inv.BuyerAccountingReference != "" {
		w.start("ram:ReceivableSpecifiedTradeAccountingAccount")
		w.x.Element("ram:ID", inv.BuyerAccountingReference)
		w.end()
	}
	w.end()
}

func (w *writer) allowanceCharges(list []model.AllowanceCharge, charge bool) {
	for i := range list {
		a := &list[i]
		w.allowanceChargeStart(charge, a.Percentage, a.BaseAmount, a.Amount, a.ReasonCode, a.Reason)
		w.start("ram:CategoryTradeTax")
		w.x.Element("ram:TypeCode", "VAT")
		w.el("ram:CategoryCode", string(a.CategoryCode()))
		w.dec("ram:RateApplicablePercent", a.VATRate)
		w.end()
		w.end()
	}
}

// allowanceChargeStart opens a ram:SpecifiedTradeAllowanceCharge and writes
// the elements document (BG-20/21) and line (BG-27/28) allowances and
// charges share; the caller adds what only its level has and closes it.
func (w *writer) allowanceChargeStart(charge bool, pct, base, amount *model.Decimal, reasonCode, reason string) {
	w.start("ram:SpecifiedTradeAllowanceCharge")
	w.indicator(charge)
	w.dec("ram:CalculationPercent", pct)
	w.dec("ram:BasisAmount", base)
	w.dec("ram:ActualAmount", amount)
	w.el("ram:ReasonCode", reasonCode)
	w.el("ram:Reason", reason)
}

func (w *writer) lineAllowanceCharges(list []model.LineAllowanceCharge, charge bool) {
	for i := range list {
		a := &list[i]
		w.allowanceChargeStart(charge, a.Percentage, a.BaseAmount, a.Amount, a.ReasonCode, a.Reason)
		w.end()
	}
}

func (w *writer) line(l *model.Line) {
	w.start("ram:IncludedSupplyChainTradeLineItem")
	w.start("ram:AssociatedDocumentLineDocument")
	w.x.Element("ram:LineID", l.ID)
	if l.Note != "" {
		w.start("ram:IncludedNote")
		w.x.Element("ram:Content", l.Note)
		w.end()
	}
	w.end()

	it := &l.Item
	w.start("ram:SpecifiedTradeProduct")
	if id := it.StandardID; id != nil {
		w.x.Element("ram:GlobalID", id.ID, opt("schemeID", id.SchemeID)...)
	}
	w.el("ram:SellerAssignedID", it.SellerID)
	w.el("ram:BuyerAssignedID", it.BuyerID)
	w.x.Element("ram:Name", it.Name)
	w.el("ram:Description", it.Description)
	for _, a := range it.Attributes {
		w.start("ram:ApplicableProductCharacteristic")
		w.x.Element("ram:Description", a.Name)
		w.x.Element("ram:Value", a.Value)
		w.end()
	}
	for _, c := range it.Classifications {
		w.start("ram:DesignatedProductClassification")
		attrs := opt("listID", c.SchemeID)
		attrs = append(attrs, opt("listVersionID", c.SchemeVersion)...)
		w.x.Element("ram:ClassCode", c.ID, attrs...)
		w.end()
	}
	if it.OriginCountryCode != "" {
		w.start("ram:OriginTradeCountry")
		w.x.Element("ram:ID", it.OriginCountryCode)
		w.end()
	}
	w.end()

	w.start("ram:SpecifiedLineTradeAgreement")
	if l.OrderLineReference != "" {
		w.start("ram:BuyerOrderReferencedDocument")
		w.x.Element("ram:LineID", l.OrderLineReference)
		w.end()
	}
	if l.GrossPrice != nil || l.PriceDiscount != nil {
		w.start("ram:GrossPriceProductTradePrice")
		w.dec("ram:ChargeAmount", l.GrossPrice)
		if l.GrossBaseQuantity != nil {
			w.dec("ram:BasisQuantity", l.GrossBaseQuantity, opt("unitCode", l.GrossBaseQuantityUnitCode)...)
		} else {
			w.basisQuantity(l)
		}
		if l.PriceDiscount != nil {
			w.start("ram:AppliedTradeAllowanceCharge")
			w.indicator(false)
			w.dec("ram:ActualAmount", l.PriceDiscount)
			w.end()
		}
		w.end()
	}
	w.start("ram:NetPriceProductTradePrice")
	w.dec("ram:ChargeAmount", l.NetPrice)
	w.basisQuantity(l)
	w.end()
	w.end()

	w.start("ram:SpecifiedLineTradeDelivery")
	w.x.Element("ram:BilledQuantity", l.Quantity.String(), opt("unitCode", l.UnitCode)...)
	w.end()

	w.start("ram:SpecifiedLineTradeSettlement")
	w.start("ram:ApplicableTradeTax")
	w.x.Element("ram:TypeCode", "VAT")
	w.el("ram:CategoryCode", string(l.CategoryCode()))
	w.dec("ram:RateApplicablePercent", l.VATRate)
	w.end()
	w.period(l.Period)
	w.lineAllowanceCharges(l.Allowances, false)
	w.lineAllowanceCharges(l.Charges, true)
	w.start("ram:SpecifiedTradeSettlementLineMonetarySummation")
	w.dec("ram:LineTotalAmount", l.NetAmount)
	w.end()
	if o := l.ObjectID; o != nil {
		w.start("ram:AdditionalReferencedDocument")
		w.x.Element("ram:IssuerAssignedID", o.ID)
		w.x.Element("ram:TypeCode", "130")
		w.el("ram:ReferenceTypeCode", o.SchemeID)
		w.end()
	}
	if l.BuyerAccountingReference != "" {
		w.start("ram:ReceivableSpecifiedTradeAccountingAccount")
		w.x.Element("ram:ID", l.BuyerAccountingReference)
		w.end()
	}
	w.end()
	w.end()
}

func (w *writer) basisQuantity(l *model.Line) {
	if l.BaseQuantity != nil {
		w.x.Element("ram:BasisQuantity", l.BaseQuantity.String(), opt("unitCode", l.BaseQuantityUnitCode)...)
	}
}
