package ubl

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// Node is a source element or attribute the reader did not carry into the
// model: its path in the reference form, its line and the BT/BG it belongs
// to ("" if none).
type Node = xmlio.Node

// ReadResult is the outcome of Read.
type ReadResult struct {
	// Invoice is the model read; never nil when Read succeeds.
	Invoice *model.Invoice
	// CreditNote reports that the source was a UBL CreditNote.
	CreditNote bool
	// Unconsumed lists the topmost elements and attributes not carried into
	// the model, in document order.
	Unconsumed []Node
	// Warnings explain values that could not be carried (unparseable
	// amounts and dates, foreign currencies, conflicting repetitions).
	Warnings []string
	// SubLines lists the outermost sub-invoice lines (BG-DEX-01,
	// cac:SubInvoiceLine / cac:SubCreditNoteLine directly under a line),
	// which the model carries in Line.SubLines: a conversion to a syntax
	// without sub-lines names each as a loss.
	SubLines []Node
}

// ErrNotUBL is returned by Read for a document whose root is not a UBL 2.1
// Invoice or CreditNote.
var ErrNotUBL = errors.New("ubl: not a UBL 2.1 Invoice or CreditNote")

// Detect reports whether doc's root element is a UBL Invoice or CreditNote.
func Detect(doc *xmltree.Document) bool {
	_, ok := rootKind(doc)
	return ok
}

func rootKind(doc *xmltree.Document) (credit bool, ok bool) {
	if doc == nil || doc.Len() < 2 {
		return false, false
	}
	root := doc.Root()
	if root == xmltree.None {
		return false, false
	}
	id := doc.Name(root)
	switch {
	case doc.NameSpace(id) == NSInvoice && doc.NameLocal(id) == "Invoice":
		return false, true
	case doc.NameSpace(id) == NSCreditNote && doc.NameLocal(id) == "CreditNote":
		return true, true
	}
	return false, false
}

const xsiNS = "http://www.w3.org/2001/XMLSchema-instance"

// reader holds the state of one Read.
type reader struct {
	t        *xmlio.Tracker
	doc      *xmltree.Document
	credit   bool
	currency string // BT-5
	taxCur   string // BT-6
	warnings []string

	totalTax, totalTaxInTaxCur *model.Decimal // BT-110, BT-111 from cac:TaxTotal
	subLines                   []Node         // ReadResult.SubLines

	// btOf names the business term of a subtree where the path alone
	// cannot (a cac:PartyTaxScheme is BT-31 or BT-32 by its content).
	btOf map[xmltree.NodeID]string
}

// btFor is the BT/BG of an unconsumed node: the nearest override among it
// and its ancestors, else the binding of its path.
func (r *reader) btFor(n xmltree.NodeID) string {
	for a := n; a != xmltree.None && len(r.btOf) > 0; a = r.doc.Parent(a) {
		if bt, ok := r.btOf[a]; ok {
			return bt
		}
	}
	return sharedBTIndex().BTFor(r.doc.Path(n))
}

// setBT records the business term of the subtree under n.
func (r *reader) setBT(n xmltree.NodeID, bt string) {
	if r.btOf == nil {
		r.btOf = map[xmltree.NodeID]string{}
	}
	r.btOf[n] = bt
}

// Read reads a UBL 2.1 Invoice or CreditNote into the model. Its error is
// ErrNotUBL (wrapped) for another document; problems with single values are
// Warnings and leave the node unconsumed.
func Read(doc *xmltree.Document) (res *ReadResult, err error) {
	credit, ok := rootKind(doc)
	if !ok {
		name := ""
		if doc != nil && doc.Len() > 1 && doc.Root() != xmltree.None {
			id := doc.Name(doc.Root())
			name = "{" + doc.NameSpace(id) + "}" + doc.NameLocal(id)
		}
		return nil, fmt.Errorf("ubl.Read: root %s: %w", name, ErrNotUBL)
	}
	r := &reader{t: xmlio.NewTracker(doc), doc: doc, credit: credit}
	inv := r.invoice(doc.Root())
	unc := r.t.Report(r.btFor)
	return &ReadResult{Invoice: inv, CreditNote: credit, Unconsumed: unc, Warnings: r.warnings, SubLines: r.subLines}, nil
}

func (r *reader) warn(n xmltree.NodeID, format string, args ...any) {
	r.warnings = append(r.warnings, fmt.Sprintf("%s (line %d): ", r.doc.Path(n), r.doc.Line(n))+fmt.Sprintf(format, args...))
}

func (r *reader) cbc(n xmltree.NodeID, local string) xmltree.NodeID {
	return r.t.Child(n, NSCBC, local)
}

func (r *reader) cac(n xmltree.NodeID, local string) xmltree.NodeID {
	return r.t.Child(n, NSCAC, local)
}

// mark marks an aggregate element (its content is read separately).
func (r *reader) mark(n xmltree.NodeID) xmltree.NodeID {
	r.t.Mark(n)
	return n
}

// text reads the first cbc child local of n. A repeated element whose model
// field is single is left unconsumed from the second on.
func (r *reader) text(n xmltree.NodeID, local string) string {
	return r.t.Text(r.single(n, NSCBC, local))
}

// single returns the first child {space}local of n and warns about further
// ones (they stay unconsumed).
func (r *reader) single(n xmltree.NodeID, space, local string) xmltree.NodeID {
	first := xmltree.None
	for c := range r.t.Children(n, space, local) {
		if first == xmltree.None {
			first = c
			continue
		}
		r.warn(c, "repeated %s: the model has one", local)
	}
	return first
}

// scheme reads an identifier element with its @schemeID.
func (r *reader) ident(e xmltree.NodeID) *model.Identifier {
	if e == xmltree.None {
		return nil
	}
	id := &model.Identifier{ID: r.t.Text(e)}
	id.SchemeID, _ = r.t.Attr(e, "", "schemeID")
	return id
}

func (r *reader) date(e xmltree.NodeID) *model.Date {
	if e == xmltree.None {
		return nil
	}
	s := r.str(e)
	d, err := model.ParseDate(s)
	if err != nil {
		r.warn(e, "not carried: %v", err)
		return nil
	}
	r.t.Mark(e)
	return &d
}

// decimal reads a numeric element (quantity, percentage, rate).
func (r *reader) decimal(e xmltree.NodeID) *model.Decimal {
	if e == xmltree.None {
		return nil
	}
	s := r.str(e)
	d, err := model.ParseDecimal(s)
	if err != nil {
		r.warn(e, "not carried: %v", err)
		return nil
	}
	r.t.Mark(e)
	return &d
}

// amount reads an amount element; its @currencyID is consumed when it is
// the expected currency (BT-5, or BT-6 for BT-111).
func (r *reader) amountIn(e xmltree.NodeID, cur string) *model.Decimal {
	d := r.decimal(e)
	if d == nil {
		return nil
	}
	if c, ok := r.t.Attr(e, "", "currencyID"); ok && c != cur {
		// Unmark the attribute again: it is not carried.
		r.unmarkCurrency(e)
		r.warn(e, "currencyID %q is not the document currency %q", c, cur)
	}
	return d
}

func (r *reader) unmarkCurrency(e xmltree.NodeID) {
	// The tracker has no unmark; rebuild the mark state by not marking in
	// the first place: look the attribute up and clear its bit.
	name, ok := r.doc.LookupName("", "currencyID")
	if !ok {
		return
	}
	r.t.Unmark(r.doc.Attr(e, name))
}

func (r *reader) amount(n xmltree.NodeID, local string) *model.Decimal {
	return r.amountIn(r.single(n, NSCBC, local), r.currency)
}

func (r *reader) invoice(root xmltree.NodeID) *model.Invoice {
	r.t.Mark(root)
	// A schema location hint is not business data.
	r.t.Attr(root, xsiNS, "schemaLocation")
	inv := &model.Invoice{}
	r.currency = r.text(root, "DocumentCurrencyCode")
	inv.CurrencyCode = r.currency
	r.taxCur = r.text(root, "TaxCurrencyCode")
	inv.TaxCurrencyCode = r.taxCur

	spec, proc := r.text(root, "CustomizationID"), r.text(root, "ProfileID")
	if spec != "" || proc != "" {
		inv.ProcessControl = &model.ProcessControl{SpecificationID: spec, BusinessProcess: proc}
	}
	inv.ID = r.text(root, "ID")
	if d := r.date(r.single(root, NSCBC, "IssueDate")); d != nil {
		inv.IssueDate = *d
	}
	if r.credit {
		inv.TypeCode = model.DocumentTypeCode(r.text(root, "CreditNoteTypeCode"))
	} else {
		inv.TypeCode = model.DocumentTypeCode(r.text(root, "InvoiceTypeCode"))
		inv.DueDate = r.date(r.single(root, NSCBC, "DueDate"))
	}
	for n := range r.t.Children(root, NSCBC, "Note") {
		inv.Notes = append(inv.Notes, splitNote(r.t.Text(n)))
	}
	inv.TaxPointDate = r.date(r.single(root, NSCBC, "TaxPointDate"))
	inv.BuyerAccountingReference = r.text(root, "AccountingCost")
	inv.BuyerReference = r.text(root, "BuyerReference")
	if p := r.single(root, NSCAC, "InvoicePeriod"); p != xmltree.None {
		r.mark(p)
		inv.InvoicingPeriod = r.period(p)
		inv.TaxPointDateCode = r.text(p, "DescriptionCode")
		if inv.InvoicingPeriod.Start == nil && inv.InvoicingPeriod.End == nil {
			inv.InvoicingPeriod = nil
		}
	}
	if o := r.single(root, NSCAC, "OrderReference"); o != xmltree.None {
		r.mark(o)
		inv.PurchaseOrderReference = r.text(o, "ID")
		inv.SalesOrderReference = r.text(o, "SalesOrderID")
		if inv.PurchaseOrderReference == "NA" && inv.SalesOrderReference != "" {
			inv.PurchaseOrderReference = ""
		}
	}
	for b := range r.t.Children(root, NSCAC, "BillingReference") {
		r.mark(b)
		d := r.single(b, NSCAC, "InvoiceDocumentReference")
		if d == xmltree.None {
			continue
		}
		r.mark(d)
		inv.PrecedingInvoices = append(inv.PrecedingInvoices, model.PrecedingInvoice{
			ID: r.text(d, "ID"), IssueDate: r.date(r.single(d, NSCBC, "IssueDate"))})
	}
	inv.DespatchAdviceReference = r.refID(root, "DespatchDocumentReference")
	inv.ReceivingAdviceReference = r.refID(root, "ReceiptDocumentReference")
	inv.TenderOrLotReference = r.refID(root, "OriginatorDocumentReference")
	inv.ContractReference = r.refID(root, "ContractDocumentReference")
	for d := range r.t.Children(root, NSCAC, "AdditionalDocumentReference") {
		r.additionalDoc(inv, d)
	}
	if !r.credit {
		inv.ProjectReference = r.refID(root, "ProjectReference")
	}
	if p := r.partyOf(root, "AccountingSupplierParty"); p != xmltree.None {
		r.seller(inv, p)
	}
	if p := r.partyOf(root, "AccountingCustomerParty"); p != xmltree.None {
		r.buyer(inv, p)
	}
	if p := r.single(root, NSCAC, "PayeeParty"); p != xmltree.None {
		r.payee(inv, p)
	}
	if p := r.single(root, NSCAC, "TaxRepresentativeParty"); p != xmltree.None {
		r.mark(p)
		tr := &model.TaxRepresentative{}
		if pn := r.single(p, NSCAC, "PartyName"); pn != xmltree.None {
			r.mark(pn)
			tr.Name = r.text(pn, "Name")
		}
		if a := r.single(p, NSCAC, "PostalAddress"); a != xmltree.None {
			tr.Address = r.address(a)
		}
		for ts := range r.t.Children(p, NSCAC, "PartyTaxScheme") {
			if r.taxSchemeIs(ts, "VAT") && tr.VATID == "" {
				r.mark(ts)
				tr.VATID = r.text(ts, "CompanyID")
				r.markTaxScheme(ts)
				continue
			}
			r.warn(ts, "PartyTaxScheme not carried: the tax representative has one VAT identifier")
		}
		inv.TaxRepresentative = tr
	}
	if d := r.single(root, NSCAC, "Delivery"); d != xmltree.None {
		inv.Delivery = r.delivery(d)
	}
	r.paymentMeans(inv, root)
	for pt := range r.t.Children(root, NSCAC, "PaymentTerms") {
		if inv.PaymentTerms != "" {
			r.warn(pt, "repeated PaymentTerms: the model has one")
			continue
		}
		r.mark(pt)
		inv.PaymentTerms = r.text(pt, "Note")
	}
	for ac := range r.t.Children(root, NSCAC, "AllowanceCharge") {
		charge, a, ok := r.docAllowanceCharge(ac)
		if !ok {
			continue
		}
		if charge {
			inv.Charges = append(inv.Charges, a)
		} else {
			inv.Allowances = append(inv.Allowances, a)
		}
	}
	r.taxTotals(inv, root)
	if m := r.single(root, NSCAC, "LegalMonetaryTotal"); m != xmltree.None {
		r.mark(m)
		inv.Totals = &model.Totals{
			LineNetTotal:       r.amount(m, "LineExtensionAmount"),
			TaxExclusiveAmount: r.amount(m, "TaxExclusiveAmount"),
			TaxInclusiveAmount: r.amount(m, "TaxInclusiveAmount"),
			AllowanceTotal:     r.amount(m, "AllowanceTotalAmount"),
			ChargeTotal:        r.amount(m, "ChargeTotalAmount"),
			PaidAmount:         r.amount(m, "PrepaidAmount"),
			RoundingAmount:     r.amount(m, "PayableRoundingAmount"),
			PayableAmount:      r.amount(m, "PayableAmount"),
		}
	}
	if r.totalTax != nil || r.totalTaxInTaxCur != nil {
		if inv.Totals == nil {
			inv.Totals = &model.Totals{}
		}
		inv.Totals.TaxAmount, inv.Totals.TaxAmountInTaxCurrency = r.totalTax, r.totalTaxInTaxCur
	}
	names := r.lineNames()
	for l := range r.t.Children(root, NSCAC, names.line) {
		inv.Lines = append(inv.Lines, r.line(l))
		for sub := range r.t.Children(l, NSCAC, names.sub) {
			r.subLines = append(r.subLines, xmlio.Node{Path: r.doc.Path(sub), Line: r.doc.Line(sub), BT: "BG-DEX-01"})
		}
	}
	return inv
}

// splitNote splits a "#AAI#text" note into BT-21 and BT-22.
func splitNote(s string) model.Note {
	if len(s) > 2 && s[0] == '#' {
		if i := strings.IndexByte(s[1:], '#'); i > 0 {
			code := s[1 : 1+i]
			if isUpperAlpha(code) {
				return model.Note{SubjectCode: code, Text: s[i+2:]}
			}
		}
	}
	return model.Note{Text: s}
}

func isUpperAlpha(s string) bool {
	if len(s) == 0 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func (r *reader) refID(root xmltree.NodeID, local string) string {
	d := r.single(root, NSCAC, local)
	if d == xmltree.None {
		return ""
	}
	r.mark(d)
	return r.text(d, "ID")
}

func (r *reader) period(p xmltree.NodeID) *model.Period {
	return &model.Period{Start: r.date(r.single(p, NSCBC, "StartDate")), End: r.date(r.single(p, NSCBC, "EndDate"))}
}

func (r *reader) additionalDoc(inv *model.Invoice, d xmltree.NodeID) {
	tc := r.str(r.cbc(d, "DocumentTypeCode"))
	switch {
	case tc == "130" && inv.InvoicedObjectID == nil:
		r.mark(d)
		r.t.Mark(r.cbc(d, "DocumentTypeCode"))
		inv.InvoicedObjectID = r.ident(r.single(d, NSCBC, "ID"))
		return
	case tc == "50" && r.credit && inv.ProjectReference == "":
		r.mark(d)
		r.t.Mark(r.cbc(d, "DocumentTypeCode"))
		inv.ProjectReference = r.text(d, "ID")
		return
	case tc != "":
		// A document type code is not part of BG-24: leave it unconsumed.
	}
	r.mark(d)
	sd := model.SupportingDocument{ID: r.text(d, "ID"), Description: r.text(d, "DocumentDescription")}
	if a := r.single(d, NSCAC, "Attachment"); a != xmltree.None {
		r.mark(a)
		if b := r.single(a, NSCBC, "EmbeddedDocumentBinaryObject"); b != xmltree.None {
			raw := strings.Join(strings.Fields(r.doc.StringValue(b)), "")
			content, err := base64.StdEncoding.DecodeString(raw)
			if err != nil {
				r.warn(b, "attachment not carried: %v", err)
			} else {
				r.t.Mark(b)
				at := &model.Attachment{Content: content}
				at.MimeCode, _ = r.t.Attr(b, "", "mimeCode")
				at.Filename, _ = r.t.Attr(b, "", "filename")
				sd.Attachment = at
			}
		}
		if e := r.single(a, NSCAC, "ExternalReference"); e != xmltree.None {
			r.mark(e)
			sd.ExternalLocation = r.text(e, "URI")
		}
	}
	inv.SupportingDocuments = append(inv.SupportingDocuments, sd)
}

func (r *reader) partyOf(root xmltree.NodeID, local string) xmltree.NodeID {
	sp := r.single(root, NSCAC, local)
	if sp == xmltree.None {
		return xmltree.None
	}
	r.mark(sp)
	p := r.single(sp, NSCAC, "Party")
	return r.mark(p)
}

func (r *reader) taxSchemeIs(ts xmltree.NodeID, id string) bool {
	s := r.cac(ts, "TaxScheme")
	return strings.EqualFold(r.str(r.cbc(s, "ID")), id)
}

// markTaxScheme consumes cac:TaxScheme/cbc:ID of n.
func (r *reader) markTaxScheme(n xmltree.NodeID) {
	s := r.single(n, NSCAC, "TaxScheme")
	r.mark(s)
	r.text(s, "ID")
}

func (r *reader) address(a xmltree.NodeID) model.Address {
	r.mark(a)
	ad := model.Address{
		Line1:       r.text(a, "StreetName"),
		Line2:       r.text(a, "AdditionalStreetName"),
		City:        r.text(a, "CityName"),
		PostCode:    r.text(a, "PostalZone"),
		Subdivision: r.text(a, "CountrySubentity"),
	}
	if l := r.single(a, NSCAC, "AddressLine"); l != xmltree.None {
		r.mark(l)
		ad.Line3 = r.text(l, "Line")
	}
	if c := r.single(a, NSCAC, "Country"); c != xmltree.None {
		r.mark(c)
		ad.CountryCode = r.text(c, "IdentificationCode")
	}
	return ad
}

func (r *reader) contact(c xmltree.NodeID) *model.Contact {
	if c == xmltree.None {
		return nil
	}
	r.mark(c)
	return &model.Contact{Name: r.text(c, "Name"), Telephone: r.text(c, "Telephone"), Email: r.text(c, "ElectronicMail")}
}

func (r *reader) endpoint(p xmltree.NodeID) *model.ElectronicAddress {
	e := r.single(p, NSCBC, "EndpointID")
	if e == xmltree.None {
		return nil
	}
	ea := &model.ElectronicAddress{ID: r.t.Text(e)}
	ea.SchemeID, _ = r.t.Attr(e, "", "schemeID")
	return ea
}

func (r *reader) legalEntity(p xmltree.NodeID) (name string, id *model.Identifier, form string) {
	le := r.single(p, NSCAC, "PartyLegalEntity")
	if le == xmltree.None {
		return "", nil, ""
	}
	r.mark(le)
	return r.text(le, "RegistrationName"), r.ident(r.single(le, NSCBC, "CompanyID")), r.text(le, "CompanyLegalForm")
}

func (r *reader) partyName(p xmltree.NodeID) string {
	pn := r.single(p, NSCAC, "PartyName")
	if pn == xmltree.None {
		return ""
	}
	r.mark(pn)
	return r.text(pn, "Name")
}

// sepa reads a PartyIdentification with schemeID SEPA (BT-90) into the
// direct debit of inv.
func (r *reader) sepa(inv *model.Invoice, pid, id xmltree.NodeID) {
	if pi := inv.PaymentInstructions; pi != nil && pi.DirectDebit != nil && pi.DirectDebit.CreditorID != "" &&
		pi.DirectDebit.CreditorID != r.str(id) {
		r.warn(pid, "a second, different SEPA creditor identifier (BT-90 is single)")
		return
	}
	r.mark(pid)
	pi := inv.PaymentInstructions
	if pi == nil {
		pi = &model.PaymentInstructions{}
		inv.PaymentInstructions = pi
	}
	if pi.DirectDebit == nil {
		pi.DirectDebit = &model.DirectDebit{}
	}
	pi.DirectDebit.CreditorID = r.t.Text(id)
	r.t.Attr(id, "", "schemeID")
}

func isSEPA(r *reader, id xmltree.NodeID) bool {
	name, ok := r.doc.LookupName("", "schemeID")
	if !ok || id == xmltree.None {
		return false
	}
	a := r.doc.Attr(id, name)
	return a != xmltree.None && strings.TrimSpace(r.doc.Value(a)) == "SEPA"
}

func (r *reader) seller(inv *model.Invoice, p xmltree.NodeID) {
	s := &inv.Seller
	s.ElectronicAddress = r.endpoint(p)
	for pid := range r.t.Children(p, NSCAC, "PartyIdentification") {
		id := r.single(pid, NSCBC, "ID")
		if isSEPA(r, id) {
			r.sepa(inv, pid, id)
			continue
		}
		r.mark(pid)
		if id != xmltree.None {
			s.Identifiers = append(s.Identifiers, *r.ident(id))
		}
	}
	s.TradingName = r.partyName(p)
	if a := r.single(p, NSCAC, "PostalAddress"); a != xmltree.None {
		s.Address = r.address(a)
	}
	for ts := range r.t.Children(p, NSCAC, "PartyTaxScheme") {
		switch {
		case r.taxSchemeIs(ts, "VAT") && s.VATID == "":
			r.mark(ts)
			s.VATID = r.text(ts, "CompanyID")
			r.markTaxScheme(ts)
		case !r.taxSchemeIs(ts, "VAT") && s.TaxRegistrationID == "":
			r.mark(ts)
			s.TaxRegistrationID = r.text(ts, "CompanyID")
			// Any scheme but VAT makes BT-32; one other than the writer's
			// FC (e.g. LOC) is kept in TaxRegistrationScheme.
			if id := r.str(r.cbc(r.cac(ts, "TaxScheme"), "ID")); id != "" {
				if id != taxRegScheme {
					s.TaxRegistrationScheme = id
				}
				r.markTaxScheme(ts)
			} else {
				r.setBT(ts, "BT-32")
				r.warn(ts, "BT-32 without a tax scheme id")
			}
		default:
			r.warn(ts, "repeated PartyTaxScheme: the model has one of each")
		}
	}
	s.Name, s.LegalRegistrationID, s.AdditionalLegalInfo = r.legalEntity(p)
	s.Contact = r.contact(r.single(p, NSCAC, "Contact"))
}

// taxRegScheme is the cac:TaxScheme/cbc:ID written with BT-32.
const taxRegScheme = "FC"

func (r *reader) buyer(inv *model.Invoice, p xmltree.NodeID) {
	b := &inv.Buyer
	b.ElectronicAddress = r.endpoint(p)
	if pid := r.single(p, NSCAC, "PartyIdentification"); pid != xmltree.None {
		r.mark(pid)
		b.Identifier = r.ident(r.single(pid, NSCBC, "ID"))
	}
	b.TradingName = r.partyName(p)
	if a := r.single(p, NSCAC, "PostalAddress"); a != xmltree.None {
		b.Address = r.address(a)
	}
	for ts := range r.t.Children(p, NSCAC, "PartyTaxScheme") {
		if b.VATID == "" && r.taxSchemeIs(ts, "VAT") {
			r.mark(ts)
			b.VATID = r.text(ts, "CompanyID")
			r.markTaxScheme(ts)
		} else {
			r.warn(ts, "PartyTaxScheme not carried: the buyer has one VAT identifier")
		}
	}
	b.Name, b.LegalRegistrationID, _ = r.legalEntity(p)
	b.Contact = r.contact(r.single(p, NSCAC, "Contact"))
}

func (r *reader) payee(inv *model.Invoice, p xmltree.NodeID) {
	r.mark(p)
	pe := &model.Payee{}
	for pid := range r.t.Children(p, NSCAC, "PartyIdentification") {
		id := r.single(pid, NSCBC, "ID")
		if isSEPA(r, id) {
			r.sepa(inv, pid, id)
			continue
		}
		if pe.Identifier != nil {
			r.warn(pid, "repeated payee identifier: the model has one")
			continue
		}
		r.mark(pid)
		pe.Identifier = r.ident(id)
	}
	pe.Name = r.partyName(p)
	if le := r.single(p, NSCAC, "PartyLegalEntity"); le != xmltree.None {
		r.mark(le)
		pe.LegalRegistrationID = r.ident(r.single(le, NSCBC, "CompanyID"))
	}
	inv.Payee = pe
}

func (r *reader) delivery(d xmltree.NodeID) *model.Delivery {
	r.mark(d)
	dl := &model.Delivery{Date: r.date(r.single(d, NSCBC, "ActualDeliveryDate"))}
	if loc := r.single(d, NSCAC, "DeliveryLocation"); loc != xmltree.None {
		r.mark(loc)
		dl.LocationID = r.ident(r.single(loc, NSCBC, "ID"))
		if a := r.single(loc, NSCAC, "Address"); a != xmltree.None {
			ad := r.address(a)
			dl.Address = &ad
		}
	}
	if p := r.single(d, NSCAC, "DeliveryParty"); p != xmltree.None {
		r.mark(p)
		dl.PartyName = r.partyName(p)
	}
	return dl
}

// paymentMeans reads every cac:PaymentMeans into one BG-16. EN 16931 has
// one BT-81, BT-82 and BT-83 per invoice, spread over the cac:PaymentMeans
// (UBL-SR-44, -46, -47): a value present in several must be equal, a value
// absent from one is not a difference (the writer puts BT-82 and BT-83 on
// the first only). A payment means whose code, text or payment id conflicts
// with an earlier one is left unconsumed.
func (r *reader) paymentMeans(inv *model.Invoice, root xmltree.NodeID) {
	for pm := range r.t.Children(root, NSCAC, "PaymentMeans") {
		codeEl := r.single(pm, NSCBC, "PaymentMeansCode")
		code := r.str(codeEl)
		text := ""
		if name, ok := r.doc.LookupName("", "name"); ok && codeEl != xmltree.None {
			if a := r.doc.Attr(codeEl, name); a != xmltree.None {
				text = strings.TrimSpace(r.doc.Value(a))
			}
		}
		pid := r.str(r.single(pm, NSCBC, "PaymentID"))
		pi := inv.PaymentInstructions
		if pi != nil && (conflicts(pi.MeansCode, code) || conflicts(pi.MeansText, text) || conflicts(pi.RemittanceInformation, pid)) {
			r.warn(pm, "payment means conflicts with an earlier one (BT-81..BT-83 are single in EN 16931)")
			continue
		}
		if pi == nil {
			pi = &model.PaymentInstructions{}
			inv.PaymentInstructions = pi
		}
		pi.MeansCode = firstNonEmpty(pi.MeansCode, code)
		pi.MeansText = firstNonEmpty(pi.MeansText, text)
		pi.RemittanceInformation = firstNonEmpty(pi.RemittanceInformation, pid)
		r.mark(pm)
		r.t.Mark(codeEl)
		r.t.Attr(codeEl, "", "name")
		r.text(pm, "PaymentID")
		if r.credit {
			if due := r.single(pm, NSCBC, "PaymentDueDate"); due != xmltree.None {
				d := r.date(due)
				switch {
				case d == nil:
				case inv.DueDate == nil:
					inv.DueDate = d
				case *inv.DueDate != *d:
					r.t.Unmark(due)
					r.warn(due, "payment due date differs from an earlier one")
				}
			}
		}
		if ca := r.single(pm, NSCAC, "CardAccount"); ca != xmltree.None {
			if pi.Card != nil {
				r.warn(ca, "repeated card account: the model has one")
			} else {
				r.mark(ca)
				pi.Card = &model.PaymentCard{PrimaryAccountNumber: r.text(ca, "PrimaryAccountNumberID"), HolderName: r.text(ca, "HolderName")}
				// cbc:NetworkID is required by UBL and has no EN 16931 term:
				// the writer's placeholder NA is read as absent, another
				// value is kept in NetworkID.
				if nw := r.single(ca, NSCBC, "NetworkID"); nw != xmltree.None {
					if v := r.text(ca, "NetworkID"); v != cardNetworkNA {
						pi.Card.NetworkID = v
					}
				}
			}
		}
		if fa := r.single(pm, NSCAC, "PayeeFinancialAccount"); fa != xmltree.None {
			r.mark(fa)
			ct := model.CreditTransfer{AccountID: r.text(fa, "ID"), AccountName: r.text(fa, "Name")}
			if br := r.single(fa, NSCAC, "FinancialInstitutionBranch"); br != xmltree.None {
				r.mark(br)
				ct.ServiceProviderID = r.text(br, "ID")
			}
			pi.CreditTransfers = append(pi.CreditTransfers, ct)
		}
		if m := r.single(pm, NSCAC, "PaymentMandate"); m != xmltree.None {
			if pi.DirectDebit == nil {
				pi.DirectDebit = &model.DirectDebit{}
			}
			dd := pi.DirectDebit
			fa := r.single(m, NSCAC, "PayerFinancialAccount")
			ref, acct := r.str(r.cbc(m, "ID")), r.str(r.cbc(fa, "ID"))
			if (dd.MandateReference != "" || dd.DebitedAccountID != "") && (ref != dd.MandateReference || acct != dd.DebitedAccountID) {
				r.warn(m, "a second, different payment mandate (BG-19 is single)")
			} else {
				r.mark(m)
				dd.MandateReference = r.text(m, "ID")
				if fa != xmltree.None {
					r.mark(fa)
					dd.DebitedAccountID = r.text(fa, "ID")
				}
			}
		}
	}
}

// conflicts reports whether a later value differs from an earlier one when
// both are present.
func conflicts(earlier, later string) bool {
	return earlier != "" && later != "" && earlier != later
}

// firstNonEmpty returns a unless it is empty, else b.
func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// cardNetworkNA is the cbc:NetworkID written for BG-18 (UBL requires it;
// EN 16931 has no such term).
const cardNetworkNA = "NA"

// chargeIndicator reads cbc:ChargeIndicator.
func (r *reader) chargeIndicator(ac xmltree.NodeID) (charge, ok bool) {
	ci := r.single(ac, NSCBC, "ChargeIndicator")
	switch r.str(ci) {
	case "true", "1":
		r.t.Mark(ci)
		return true, true
	case "false", "0":
		r.t.Mark(ci)
		return false, true
	}
	if ci != xmltree.None {
		r.warn(ci, "not a boolean")
	}
	return false, false
}

func (r *reader) docAllowanceCharge(ac xmltree.NodeID) (bool, model.AllowanceCharge, bool) {
	charge, ok := r.chargeIndicator(ac)
	if !ok {
		return false, model.AllowanceCharge{}, false
	}
	r.mark(ac)
	a := model.AllowanceCharge{
		ReasonCode: r.text(ac, "AllowanceChargeReasonCode"),
		Reason:     r.text(ac, "AllowanceChargeReason"),
		Percentage: r.decimal(r.single(ac, NSCBC, "MultiplierFactorNumeric")),
		Amount:     r.amount(ac, "Amount"),
		BaseAmount: r.amount(ac, "BaseAmount"),
	}
	if tc := r.single(ac, NSCAC, "TaxCategory"); tc != xmltree.None {
		r.mark(tc)
		a.VATCategoryCode = model.VATCategoryCode(r.text(tc, "ID"))
		a.VATRate = r.decimal(r.single(tc, NSCBC, "Percent"))
		r.vatScheme(tc)
	}
	return charge, a, true
}

// vatScheme consumes cac:TaxScheme/cbc:ID of a tax category when it is VAT.
func (r *reader) vatScheme(tc xmltree.NodeID) {
	s := r.single(tc, NSCAC, "TaxScheme")
	if s == xmltree.None {
		return
	}
	id := r.single(s, NSCBC, "ID")
	if r.str(id) == "VAT" {
		r.mark(s)
		r.t.Mark(id)
	}
}

func (r *reader) taxTotals(inv *model.Invoice, root xmltree.NodeID) {
	for tt := range r.t.Children(root, NSCAC, "TaxTotal") {
		ta := r.single(tt, NSCBC, "TaxAmount")
		cur, _ := r.attrValue(ta, "currencyID")
		switch {
		case cur == r.currency && r.totalTax == nil:
			r.mark(tt)
			r.totalTax = r.amountIn(ta, r.currency)
			for st := range r.t.Children(tt, NSCAC, "TaxSubtotal") {
				inv.VATBreakdown = append(inv.VATBreakdown, r.subtotal(st))
			}
		case r.taxCur != "" && cur == r.taxCur && r.totalTaxInTaxCur == nil:
			r.mark(tt)
			r.totalTaxInTaxCur = r.amountIn(ta, r.taxCur)
		default:
			r.warn(tt, "TaxTotal not carried (currency %q; one in BT-5 and one in BT-6 are carried)", cur)
		}
	}
}

func (r *reader) attrValue(n xmltree.NodeID, local string) (string, bool) {
	if n == xmltree.None {
		return "", false
	}
	name, ok := r.doc.LookupName("", local)
	if !ok {
		return "", false
	}
	a := r.doc.Attr(n, name)
	if a == xmltree.None {
		return "", false
	}
	return strings.TrimSpace(r.doc.Value(a)), true
}

func (r *reader) subtotal(st xmltree.NodeID) model.VATBreakdown {
	r.mark(st)
	v := model.VATBreakdown{TaxableAmount: r.amount(st, "TaxableAmount"), TaxAmount: r.amount(st, "TaxAmount")}
	if tc := r.single(st, NSCAC, "TaxCategory"); tc != xmltree.None {
		r.mark(tc)
		v.VATCategoryCode = model.VATCategoryCode(r.text(tc, "ID"))
		v.VATRate = r.decimal(r.single(tc, NSCBC, "Percent"))
		v.ExemptionReasonCode = r.text(tc, "TaxExemptionReasonCode")
		v.ExemptionReason = r.text(tc, "TaxExemptionReason")
		r.vatScheme(tc)
	}
	return v
}

// lineNames are the local names of the line elements of the document
// kind (Invoice or CreditNote).
type lineNames struct{ line, sub, qty string }

func (r *reader) lineNames() lineNames {
	if r.credit {
		return lineNames{"CreditNoteLine", "SubCreditNoteLine", "CreditedQuantity"}
	}
	return lineNames{"InvoiceLine", "SubInvoiceLine", "InvoicedQuantity"}
}

// line reads an invoice line (cac:InvoiceLine, cac:CreditNoteLine) or a
// sub-line (BG-DEX-01: cac:SubInvoiceLine, cac:SubCreditNoteLine, the
// same type) with its sub-lines, recursively.
func (r *reader) line(l xmltree.NodeID) model.Line {
	r.mark(l)
	names := r.lineNames()
	qtyName := names.qty
	ln := model.Line{ID: r.text(l, "ID"), Note: r.text(l, "Note")}
	if q := r.single(l, NSCBC, qtyName); q != xmltree.None {
		if d := r.decimal(q); d != nil {
			ln.Quantity = *d
		}
		ln.UnitCode, _ = r.t.Attr(q, "", "unitCode")
	}
	ln.NetAmount = r.amount(l, "LineExtensionAmount")
	ln.BuyerAccountingReference = r.text(l, "AccountingCost")
	if p := r.single(l, NSCAC, "InvoicePeriod"); p != xmltree.None {
		r.mark(p)
		ln.Period = r.period(p)
	}
	if o := r.single(l, NSCAC, "OrderLineReference"); o != xmltree.None {
		r.mark(o)
		ln.OrderLineReference = r.text(o, "LineID")
	}
	for d := range r.t.Children(l, NSCAC, "DocumentReference") {
		tc := r.single(d, NSCBC, "DocumentTypeCode")
		if code := r.str(tc); (code != "130" && code != "") || ln.ObjectID != nil {
			r.warn(d, "line document reference not carried (BT-128 is one, with type code 130 or none)")
			continue
		}
		r.mark(d)
		r.t.Mark(tc)
		ln.ObjectID = r.ident(r.single(d, NSCBC, "ID"))
	}
	for ac := range r.t.Children(l, NSCAC, "AllowanceCharge") {
		charge, ok := r.chargeIndicator(ac)
		if !ok {
			continue
		}
		r.mark(ac)
		a := model.LineAllowanceCharge{
			ReasonCode: r.text(ac, "AllowanceChargeReasonCode"),
			Reason:     r.text(ac, "AllowanceChargeReason"),
			Percentage: r.decimal(r.single(ac, NSCBC, "MultiplierFactorNumeric")),
			Amount:     r.amount(ac, "Amount"),
			BaseAmount: r.amount(ac, "BaseAmount"),
		}
		if charge {
			ln.Charges = append(ln.Charges, a)
		} else {
			ln.Allowances = append(ln.Allowances, a)
		}
	}
	if it := r.single(l, NSCAC, "Item"); it != xmltree.None {
		r.item(&ln, it)
	}
	if p := r.single(l, NSCAC, "Price"); p != xmltree.None {
		r.mark(p)
		ln.NetPrice = r.amount(p, "PriceAmount")
		if bq := r.single(p, NSCBC, "BaseQuantity"); bq != xmltree.None {
			ln.BaseQuantity = r.decimal(bq)
			ln.BaseQuantityUnitCode, _ = r.t.Attr(bq, "", "unitCode")
		}
		if ac := r.single(p, NSCAC, "AllowanceCharge"); ac != xmltree.None {
			if charge, ok := r.chargeIndicator(ac); ok && !charge {
				r.mark(ac)
				ln.PriceDiscount = r.amount(ac, "Amount")
				ln.GrossPrice = r.amount(ac, "BaseAmount")
			} else if ok {
				r.t.Unmark(r.single(ac, NSCBC, "ChargeIndicator"))
				r.warn(ac, "a price charge is not part of EN 16931")
			}
		}
		ln.PriceParts() // BT-148 = BT-146 + BT-147 when only the discount is given
	}
	for sub := range r.t.Children(l, NSCAC, names.sub) {
		ln.SubLines = append(ln.SubLines, r.line(sub))
	}
	return ln
}

func (r *reader) item(ln *model.Line, it xmltree.NodeID) {
	r.mark(it)
	item := &ln.Item
	item.Description = r.text(it, "Description")
	item.Name = r.text(it, "Name")
	if e := r.single(it, NSCAC, "BuyersItemIdentification"); e != xmltree.None {
		r.mark(e)
		item.BuyerID = r.text(e, "ID")
	}
	if e := r.single(it, NSCAC, "SellersItemIdentification"); e != xmltree.None {
		r.mark(e)
		item.SellerID = r.text(e, "ID")
	}
	if e := r.single(it, NSCAC, "StandardItemIdentification"); e != xmltree.None {
		r.mark(e)
		item.StandardID = r.ident(r.single(e, NSCBC, "ID"))
	}
	if e := r.single(it, NSCAC, "OriginCountry"); e != xmltree.None {
		r.mark(e)
		item.OriginCountryCode = r.text(e, "IdentificationCode")
	}
	for cc := range r.t.Children(it, NSCAC, "CommodityClassification") {
		r.mark(cc)
		for code := range r.t.Children(cc, NSCBC, "ItemClassificationCode") {
			c := model.Classification{ID: r.t.Text(code)}
			c.SchemeID, _ = r.t.Attr(code, "", "listID")
			c.SchemeVersion, _ = r.t.Attr(code, "", "listVersionID")
			item.Classifications = append(item.Classifications, c)
		}
	}
	if tc := r.single(it, NSCAC, "ClassifiedTaxCategory"); tc != xmltree.None {
		r.mark(tc)
		ln.VATCategoryCode = model.VATCategoryCode(r.text(tc, "ID"))
		ln.VATRate = r.decimal(r.single(tc, NSCBC, "Percent"))
		r.vatScheme(tc)
	}
	for p := range r.t.Children(it, NSCAC, "AdditionalItemProperty") {
		r.mark(p)
		item.Attributes = append(item.Attributes, model.ItemAttribute{Name: r.text(p, "Name"), Value: r.text(p, "Value")})
	}
}

// str returns the trimmed string value of n without marking it; "" for None.
func (r *reader) str(n xmltree.NodeID) string {
	if n == xmltree.None {
		return ""
	}
	return strings.TrimSpace(r.doc.StringValue(n))
}
