package cii

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// Namespaces of CII D16B.
const (
	NSRSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
	NSRAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
	NSUDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
	NSQDT = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
	nsXSI = "http://www.w3.org/2001/XMLSchema-instance"
)

// Node locates one source node the reader did not carry into the model
// (path in the reference Schematron form, line, and the BT/BG it sits
// under when known).
type Node = xmlio.Node

// ReadResult is the outcome of Read.
type ReadResult struct {
	// Invoice is the model read from the document.
	Invoice *model.Invoice
	// Unconsumed lists the topmost elements and attributes the reader did
	// not carry, in document order; empty when the mapping is lossless.
	Unconsumed []Node
	// Warnings describe values that were present but could not be read
	// (their nodes are also in Unconsumed).
	Warnings []string
}

// ErrNotCII is wrapped by Read's error for a document whose root is not
// rsm:CrossIndustryInvoice.
var ErrNotCII = errors.New("cii: not a CrossIndustryInvoice document")

// Detect reports whether doc's root element is rsm:CrossIndustryInvoice.
func Detect(doc *xmltree.Document) bool {
	if doc == nil {
		return false
	}
	root := doc.Root()
	if root == xmltree.None {
		return false
	}
	n := doc.Name(root)
	return doc.NameLocal(n) == "CrossIndustryInvoice" && doc.NameSpace(n) == NSRSM
}

// Read maps a CII D16B document into the model. It fails only when doc is
// not a CrossIndustryInvoice; everything it cannot carry is reported in the
// result.
func Read(doc *xmltree.Document) (*ReadResult, error) {
	return read(doc, nil)
}

// read is Read with an optional hook called for every node consumed with a
// business term (used to generate the mapping table).
func read(doc *xmltree.Document, hook func(n xmltree.NodeID, bt string)) (*ReadResult, error) {
	if !Detect(doc) {
		return nil, fmt.Errorf("cii.Read: %w", ErrNotCII)
	}
	r := &reader{t: xmlio.NewTracker(doc), d: doc, bt: make([]string, doc.Len()), hook: hook}
	inv := r.invoice(doc.Root())
	res := &ReadResult{Invoice: inv, Warnings: r.warnings}
	res.Unconsumed = r.t.Report(r.owner)
	return res, nil
}

type reader struct {
	t        *xmlio.Tracker
	d        *xmltree.Document
	bt       []string // business term of each consumed node, "" if none
	hook     func(xmltree.NodeID, string)
	warnings []string
	currency string // BT-5, for currencyID attributes
}

// owner names the BT/BG an unconsumed node belongs to: its own when the
// reader recognised it but could not read its value, else that of its
// nearest ancestor that carries one.
func (r *reader) owner(n xmltree.NodeID) string {
	for p := n; p > 0; p = r.d.Parent(p) {
		if r.bt[p] != "" {
			return r.bt[p]
		}
	}
	return ""
}

// warn records that n (left unconsumed) holds business term bt in a form
// the reader cannot read.
func (r *reader) warn(n xmltree.NodeID, bt, format string, args ...any) {
	if r.bt[n] == "" {
		r.bt[n] = bt
	}
	r.warnings = append(r.warnings, fmt.Sprintf("%s (%s, line %d): %s", r.d.Path(n), bt, r.d.Line(n), fmt.Sprintf(format, args...)))
}

// mark consumes n (element or attribute) for business term bt.
func (r *reader) mark(n xmltree.NodeID, bt string) {
	if n < 0 {
		return
	}
	r.t.Mark(n)
	if bt != "" {
		r.bt[n] = bt
		if r.hook != nil {
			r.hook(n, bt)
		}
	}
}

// get returns the first ram: child local of p, unconsumed. It compares
// names directly instead of interning the name first: siblings are few and
// a failed comparison usually stops at the length.
func (r *reader) get(p xmltree.NodeID, local string) xmltree.NodeID {
	if p < 0 {
		return xmltree.None
	}
	d := r.d
	for c := d.FirstChild(p); c != xmltree.None; c = d.NextSibling(c) {
		if d.Kind(c) != xmltree.KindElement {
			continue
		}
		if n := d.Name(c); d.NameLocal(n) == local && d.NameSpace(n) == NSRAM {
			return c
		}
	}
	return xmltree.None
}

// elem returns and consumes the first ram: child local of p.
func (r *reader) elem(p xmltree.NodeID, local, bt string) xmltree.NodeID {
	n := r.get(p, local)
	r.mark(n, bt)
	return n
}

// textOf consumes n and returns its trimmed text.
func (r *reader) textOf(n xmltree.NodeID, bt string) string {
	if n < 0 {
		return ""
	}
	r.mark(n, bt)
	return strings.TrimSpace(r.d.StringValue(n))
}

// str consumes the first ram: child local of p and returns its text.
func (r *reader) str(p xmltree.NodeID, local, bt string) string {
	return r.textOf(r.get(p, local), bt)
}

// attr consumes the unqualified attribute name of n and returns its value.
func (r *reader) attr(n xmltree.NodeID, name, bt string) string {
	if n < 0 {
		return ""
	}
	id, ok := r.d.LookupName("", name)
	if !ok {
		return ""
	}
	a := r.d.Attr(n, id)
	if a == xmltree.None {
		return ""
	}
	r.mark(a, bt)
	return strings.TrimSpace(r.d.Value(a))
}

// peekAttr returns the attribute value without consuming it.
func (r *reader) peekAttr(n xmltree.NodeID, name string) (string, bool) {
	if n < 0 {
		return "", false
	}
	id, ok := r.d.LookupName("", name)
	if !ok {
		return "", false
	}
	a := r.d.Attr(n, id)
	if a == xmltree.None {
		return "", false
	}
	return strings.TrimSpace(r.d.Value(a)), true
}

// peek returns the trimmed text of n without consuming it.
func (r *reader) peek(n xmltree.NodeID) string {
	if n < 0 {
		return ""
	}
	return strings.TrimSpace(r.d.StringValue(n))
}

// fixed consumes the ram: child local of p when its text is want.
func (r *reader) fixed(p xmltree.NodeID, local, want string) {
	if n := r.get(p, local); n >= 0 && r.peek(n) == want {
		r.mark(n, "")
	}
}

// dec consumes n as a decimal; a malformed value stays unconsumed.
func (r *reader) dec(n xmltree.NodeID, bt string) *model.Decimal {
	if n < 0 {
		return nil
	}
	if r.peek(n) == "" { // an empty element is an absent value
		r.mark(n, bt)
		return nil
	}
	v, err := model.ParseDecimal(r.peek(n))
	if err != nil {
		r.warn(n, bt, "%v", err)
		return nil
	}
	r.mark(n, bt)
	return &v
}

// amount consumes the ram: child local of p as an amount; a currencyID
// attribute is consumed when it is the invoice currency.
func (r *reader) amount(p xmltree.NodeID, local, bt string) *model.Decimal {
	n := r.get(p, local)
	v := r.dec(n, bt)
	if v != nil {
		r.currencyAttr(n)
	}
	return v
}

func (r *reader) currencyAttr(n xmltree.NodeID) {
	if c, ok := r.peekAttr(n, "currencyID"); ok && c == r.currency {
		r.attr(n, "currencyID", "")
	}
}

// date consumes p's ram: child local holding a {space}wrapper child with
// format="102" (YYYYMMDD).
func (r *reader) date(p xmltree.NodeID, local, space, wrapper, bt string) *model.Date {
	c := r.get(p, local)
	if c < 0 {
		return nil
	}
	r.bt[c] = bt // named in the report should the value not be readable
	w := r.t.Child(c, space, wrapper)
	if w < 0 {
		r.warn(c, bt, "no %s child", wrapper)
		return nil
	}
	f, _ := r.peekAttr(w, "format")
	s := r.peek(w)
	if s == "" { // an empty element is an absent value
		r.mark(c, bt)
		r.mark(w, bt)
		r.attr(w, "format", "")
		return nil
	}
	if f != "102" {
		r.warn(w, bt, "date format %q is not 102 (YYYYMMDD)", f)
		return nil
	}
	d, err := parseDate102(s)
	if err != nil {
		r.warn(w, bt, "%v", err)
		return nil
	}
	r.mark(c, bt)
	r.mark(w, bt)
	r.attr(w, "format", "")
	return &d
}

// parseDate102 parses YYYYMMDD.
func parseDate102(s string) (model.Date, error) {
	if len(s) != 8 {
		return model.Date{}, fmt.Errorf("date %q is not YYYYMMDD", s)
	}
	d, err := model.ParseDate(s[0:4] + "-" + s[4:6] + "-" + s[6:8])
	if err != nil {
		return model.Date{}, fmt.Errorf("date %q: %w", s, err)
	}
	return d, nil
}

// ident consumes n as an identifier with its schemeID attribute (scheme
// business term schemeBT).
func (r *reader) ident(n xmltree.NodeID, bt, schemeBT string) *model.Identifier {
	if n < 0 {
		return nil
	}
	id := &model.Identifier{ID: r.textOf(n, bt), SchemeID: r.attr(n, "schemeID", schemeBT)}
	if id.ID == "" { // an empty element is an absent identifier
		return nil
	}
	return id
}

// partyID reads a 0..1 party identifier: ram:ID, or else ram:GlobalID with
// its schemeID.
func (r *reader) partyID(p xmltree.NodeID, bt string) *model.Identifier {
	if n := r.get(p, "ID"); n >= 0 {
		if id := r.textOf(n, bt); id != "" {
			return &model.Identifier{ID: id}
		}
	}
	return r.ident(r.get(p, "GlobalID"), bt, bt+"-1")
}

func (r *reader) invoice(root xmltree.NodeID) *model.Invoice {
	inv := &model.Invoice{}
	r.mark(root, "")
	// xsi:schemaLocation and friends carry no business data.
	first, count := r.d.Attrs(root)
	for a := first; a < first+xmltree.NodeID(count); a++ {
		if r.d.NameSpace(r.d.Name(a)) == nsXSI {
			r.mark(a, "")
		}
	}
	tx := r.t.Child(root, NSRSM, "SupplyChainTradeTransaction")
	settle := r.get(tx, "ApplicableHeaderTradeSettlement")
	// The currency first: amounts consume currencyID attributes against it.
	inv.CurrencyCode = r.str(settle, "InvoiceCurrencyCode", "BT-5")
	r.currency = inv.CurrencyCode

	if ctx := r.t.Child(root, NSRSM, "ExchangedDocumentContext"); ctx >= 0 {
		r.mark(ctx, "BG-2")
		bp := r.elem(ctx, "BusinessProcessSpecifiedDocumentContextParameter", "BT-23")
		gl := r.elem(ctx, "GuidelineSpecifiedDocumentContextParameter", "BT-24")
		if bp >= 0 || gl >= 0 {
			inv.ProcessControl = &model.ProcessControl{
				BusinessProcess: r.str(bp, "ID", "BT-23"),
				SpecificationID: r.str(gl, "ID", "BT-24"),
			}
		}
	}
	if ed := r.t.Child(root, NSRSM, "ExchangedDocument"); ed >= 0 {
		r.mark(ed, "")
		inv.ID = r.str(ed, "ID", "BT-1")
		inv.TypeCode = model.DocumentTypeCode(r.str(ed, "TypeCode", "BT-3"))
		if d := r.date(ed, "IssueDateTime", NSUDT, "DateTimeString", "BT-2"); d != nil {
			inv.IssueDate = *d
		}
		for n := range r.t.Children(ed, NSRAM, "IncludedNote") {
			r.mark(n, "BG-1")
			inv.Notes = append(inv.Notes, model.Note{
				Text:        r.str(n, "Content", "BT-22"),
				SubjectCode: r.str(n, "SubjectCode", "BT-21"),
			})
		}
	}
	if tx < 0 {
		return inv
	}
	r.mark(tx, "")
	for n := range r.t.Children(tx, NSRAM, "IncludedSupplyChainTradeLineItem") {
		inv.Lines = append(inv.Lines, r.line(n))
	}
	r.agreement(inv, r.elem(tx, "ApplicableHeaderTradeAgreement", ""))
	r.delivery(inv, r.elem(tx, "ApplicableHeaderTradeDelivery", ""))
	r.settlement(inv, settle)
	// BT-110 may be absent in CII (only category O); UBL always has it.
	inv.TotalVATFromBreakdown()
	return inv
}

func (r *reader) address(p xmltree.NodeID, bg string, bts [7]string) model.Address {
	n := r.elem(p, "PostalTradeAddress", bg)
	if n < 0 {
		return model.Address{}
	}
	return model.Address{
		PostCode:    r.str(n, "PostcodeCode", bts[4]),
		Line1:       r.str(n, "LineOne", bts[0]),
		Line2:       r.str(n, "LineTwo", bts[1]),
		Line3:       r.str(n, "LineThree", bts[2]),
		City:        r.str(n, "CityName", bts[3]),
		CountryCode: r.str(n, "CountryID", bts[6]),
		Subdivision: r.str(n, "CountrySubDivisionName", bts[5]),
	}
}

var (
	sellerAddr  = [7]string{"BT-35", "BT-36", "BT-162", "BT-37", "BT-38", "BT-39", "BT-40"}
	buyerAddr   = [7]string{"BT-50", "BT-51", "BT-163", "BT-52", "BT-53", "BT-54", "BT-55"}
	taxRepAddr  = [7]string{"BT-64", "BT-65", "BT-164", "BT-66", "BT-67", "BT-68", "BT-69"}
	deliverAddr = [7]string{"BT-75", "BT-76", "BT-165", "BT-77", "BT-78", "BT-79", "BT-80"}
)

func (r *reader) contact(p xmltree.NodeID, bg string, bts [3]string) *model.Contact {
	n := r.elem(p, "DefinedTradeContact", bg)
	if n < 0 {
		return nil
	}
	c := &model.Contact{Name: r.str(n, "PersonName", bts[0])}
	if c.Name == "" {
		c.Name = r.str(n, "DepartmentName", bts[0])
		c.NameIsDepartment = c.Name != ""
	}
	if t := r.elem(n, "TelephoneUniversalCommunication", bts[1]); t >= 0 {
		c.Telephone = r.str(t, "CompleteNumber", bts[1])
	}
	if e := r.elem(n, "EmailURIUniversalCommunication", bts[2]); e >= 0 {
		c.Email = r.str(e, "URIID", bts[2])
	}
	if *c == (model.Contact{}) { // only empty elements: an absent contact
		return nil
	}
	return c
}

func (r *reader) electronicAddress(p xmltree.NodeID, bt string) *model.ElectronicAddress {
	n := r.elem(p, "URIUniversalCommunication", bt)
	if n < 0 {
		return nil
	}
	id := r.get(n, "URIID")
	ea := &model.ElectronicAddress{ID: r.textOf(id, bt), SchemeID: r.attr(id, "schemeID", bt+"-1")}
	if ea.ID == "" { // an empty address is an absent one, whatever its scheme
		return nil
	}
	return ea
}

// taxRegistrations consumes SpecifiedTaxRegistration/ID[@schemeID='VA']
// into vat and, when fc is not nil, [@schemeID='FC'] into fc.
func (r *reader) taxRegistrations(p xmltree.NodeID, vat *string, vatBT string, fc *string, fcBT string) {
	for n := range r.t.Children(p, NSRAM, "SpecifiedTaxRegistration") {
		id := r.get(n, "ID")
		scheme, _ := r.peekAttr(id, "schemeID")
		var dst *string
		bt := ""
		switch {
		case scheme == "VA" && *vat == "":
			dst, bt = vat, vatBT
		case scheme == "FC" && fc != nil && *fc == "":
			dst, bt = fc, fcBT
		default:
			continue
		}
		r.mark(n, bt)
		*dst = r.textOf(id, bt)
		r.attr(id, "schemeID", "")
	}
}

func (r *reader) legalOrg(p xmltree.NodeID, bt string, trading *string, tradingBT string) *model.Identifier {
	n := r.elem(p, "SpecifiedLegalOrganization", bt)
	if n < 0 {
		return nil
	}
	if trading != nil {
		*trading = r.str(n, "TradingBusinessName", tradingBT)
	}
	return r.ident(r.get(n, "ID"), bt, bt+"-1")
}

func (r *reader) agreement(inv *model.Invoice, ag xmltree.NodeID) {
	if ag < 0 {
		return
	}
	inv.BuyerReference = r.str(ag, "BuyerReference", "BT-10")
	if s := r.elem(ag, "SellerTradeParty", "BG-4"); s >= 0 {
		sel := &inv.Seller
		for n := range r.t.Children(s, NSRAM, "ID") {
			sel.Identifiers = append(sel.Identifiers, model.Identifier{ID: r.textOf(n, "BT-29")})
		}
		for n := range r.t.Children(s, NSRAM, "GlobalID") {
			sel.Identifiers = append(sel.Identifiers, *r.ident(n, "BT-29", "BT-29-1"))
		}
		sel.Name = r.str(s, "Name", "BT-27")
		sel.AdditionalLegalInfo = r.str(s, "Description", "BT-33")
		sel.LegalRegistrationID = r.legalOrg(s, "BT-30", &sel.TradingName, "BT-28")
		sel.Contact = r.contact(s, "BG-6", [3]string{"BT-41", "BT-42", "BT-43"})
		sel.Address = r.address(s, "BG-5", sellerAddr)
		sel.ElectronicAddress = r.electronicAddress(s, "BT-34")
		r.taxRegistrations(s, &sel.VATID, "BT-31", &sel.TaxRegistrationID, "BT-32")
	}
	if b := r.elem(ag, "BuyerTradeParty", "BG-7"); b >= 0 {
		buy := &inv.Buyer
		buy.Identifier = r.partyID(b, "BT-46")
		buy.Name = r.str(b, "Name", "BT-44")
		buy.LegalRegistrationID = r.legalOrg(b, "BT-47", &buy.TradingName, "BT-45")
		buy.Contact = r.contact(b, "BG-9", [3]string{"BT-56", "BT-57", "BT-58"})
		buy.Address = r.address(b, "BG-8", buyerAddr)
		buy.ElectronicAddress = r.electronicAddress(b, "BT-49")
		r.taxRegistrations(b, &buy.VATID, "BT-48", nil, "")
	}
	if t := r.elem(ag, "SellerTaxRepresentativeTradeParty", "BG-11"); t >= 0 {
		tr := &model.TaxRepresentative{Name: r.str(t, "Name", "BT-62")}
		tr.Address = r.address(t, "BG-12", taxRepAddr)
		r.taxRegistrations(t, &tr.VATID, "BT-63", nil, "")
		inv.TaxRepresentative = tr
	}
	inv.SalesOrderReference = r.refID(ag, "SellerOrderReferencedDocument", "BT-14")
	inv.PurchaseOrderReference = r.refID(ag, "BuyerOrderReferencedDocument", "BT-13")
	inv.ContractReference = r.refID(ag, "ContractReferencedDocument", "BT-12")
	for n := range r.t.Children(ag, NSRAM, "AdditionalReferencedDocument") {
		tc := r.peek(r.get(n, "TypeCode"))
		switch {
		case tc == "916" || r.get(n, "TypeCode") < 0:
			// Without a type code the official binding's context for BG-24
			// (//ram:AdditionalReferencedDocument) is the only one that applies.
			r.mark(n, "BG-24")
			r.fixed(n, "TypeCode", "916")
			inv.SupportingDocuments = append(inv.SupportingDocuments, r.supportingDoc(n))
		case tc == "50" && inv.TenderOrLotReference == "":
			r.mark(n, "BT-17")
			r.fixed(n, "TypeCode", "50")
			inv.TenderOrLotReference = r.str(n, "IssuerAssignedID", "BT-17")
		case tc == "130" && inv.InvoicedObjectID == nil:
			r.mark(n, "BT-18")
			r.fixed(n, "TypeCode", "130")
			inv.InvoicedObjectID = &model.Identifier{
				ID:       r.str(n, "IssuerAssignedID", "BT-18"),
				SchemeID: r.str(n, "ReferenceTypeCode", "BT-18-1"),
			}
			if inv.InvoicedObjectID.ID == "" {
				inv.InvoicedObjectID = nil
			}
		}
	}
	if p := r.elem(ag, "SpecifiedProcuringProject", "BT-11"); p >= 0 {
		inv.ProjectReference = r.str(p, "ID", "BT-11")
		// ram:Name is required by the XSD and carries no business term:
		// the writer's placeholder is consumed as absent, another name is
		// carried in ProjectName (which UBL cannot hold).
		if name := r.get(p, "Name"); name >= 0 {
			if r.peek(name) == projectNamePlaceholder {
				r.mark(name, "")
			} else {
				inv.ProjectName = r.textOf(name, "")
			}
		}
	}
}

// refID consumes p/local/IssuerAssignedID.
func (r *reader) refID(p xmltree.NodeID, local, bt string) string {
	n := r.elem(p, local, bt)
	return r.str(n, "IssuerAssignedID", bt)
}

func (r *reader) supportingDoc(n xmltree.NodeID) model.SupportingDocument {
	sd := model.SupportingDocument{
		ID:               r.str(n, "IssuerAssignedID", "BT-122"),
		ExternalLocation: r.str(n, "URIID", "BT-124"),
		Description:      r.str(n, "Name", "BT-123"),
	}
	if b := r.get(n, "AttachmentBinaryObject"); b >= 0 {
		raw := strings.Map(func(c rune) rune {
			if c == ' ' || c == '\n' || c == '\r' || c == '\t' {
				return -1
			}
			return c
		}, r.d.StringValue(b))
		content, err := base64.StdEncoding.DecodeString(raw)
		if err != nil {
			r.warn(b, "BT-125", "attachment is not base64: %v", err)
		} else {
			r.mark(b, "BT-125")
			sd.Attachment = &model.Attachment{
				Content:  content,
				MimeCode: r.attr(b, "mimeCode", "BT-125-1"),
				Filename: r.attr(b, "filename", "BT-125-2"),
			}
		}
	}
	return sd
}

func (r *reader) delivery(inv *model.Invoice, dl xmltree.NodeID) {
	if dl < 0 {
		return
	}
	var d model.Delivery
	set := false
	if st := r.elem(dl, "ShipToTradeParty", "BG-13"); st >= 0 {
		d.LocationID = r.partyID(st, "BT-71")
		d.PartyName = r.str(st, "Name", "BT-70")
		if r.get(st, "PostalTradeAddress") >= 0 {
			a := r.address(st, "BG-15", deliverAddr)
			d.Address = &a
		}
		// A party with only empty elements is an absent one.
		set = d.LocationID != nil || d.PartyName != "" || d.Address != nil
	}
	if ev := r.get(dl, "ActualDeliverySupplyChainEvent"); ev >= 0 {
		if d.Date = r.date(ev, "OccurrenceDateTime", NSUDT, "DateTimeString", "BT-72"); d.Date != nil {
			r.mark(ev, "BT-72")
			set = true
		}
	}
	if set {
		inv.Delivery = &d
	}
	inv.DespatchAdviceReference = r.refID(dl, "DespatchAdviceReferencedDocument", "BT-16")
	inv.ReceivingAdviceReference = r.refID(dl, "ReceivingAdviceReferencedDocument", "BT-15")
}

func (r *reader) period(p xmltree.NodeID, bg, startBT, endBT string) *model.Period {
	n := r.elem(p, "BillingSpecifiedPeriod", bg)
	if n < 0 {
		return nil
	}
	per := &model.Period{
		Start: r.date(n, "StartDateTime", NSUDT, "DateTimeString", startBT),
		End:   r.date(n, "EndDateTime", NSUDT, "DateTimeString", endBT),
	}
	if per.Start == nil && per.End == nil { // an empty period is an absent one
		return nil
	}
	return per
}

// chargeIndicator returns the value of ram:ChargeIndicator/udt:Indicator
// ("true"/"false"), consuming it when it is one of those.
func (r *reader) chargeIndicator(n xmltree.NodeID) (charge, ok bool) {
	ci := r.get(n, "ChargeIndicator")
	ind := r.t.Child(ci, NSUDT, "Indicator")
	switch r.peek(ind) {
	case "true":
		charge = true
	case "false":
	default:
		return false, false
	}
	r.mark(ci, "")
	r.mark(ind, "")
	return charge, true
}

func (r *reader) settlement(inv *model.Invoice, st xmltree.NodeID) {
	if st < 0 {
		return
	}
	r.mark(st, "")
	creditorID := r.str(st, "CreditorReferenceID", "BT-90")
	remittance := r.str(st, "PaymentReference", "BT-83")
	inv.TaxCurrencyCode = r.str(st, "TaxCurrencyCode", "BT-6")
	if p := r.elem(st, "PayeeTradeParty", "BG-10"); p >= 0 {
		inv.Payee = &model.Payee{
			Identifier: r.partyID(p, "BT-60"),
			Name:       r.str(p, "Name", "BT-59"),
		}
		inv.Payee.LegalRegistrationID = r.legalOrg(p, "BT-61", nil, "")
	}

	var pi model.PaymentInstructions
	var debited string
	i := 0
	for pm := range r.t.Children(st, NSRAM, "SpecifiedTradeSettlementPaymentMeans") {
		r.mark(pm, "BG-16")
		if i == 0 {
			pi.MeansCode = r.str(pm, "TypeCode", "BT-81")
			pi.MeansText = r.str(pm, "Information", "BT-82")
		} else {
			// BT-81/BT-82 are single in EN 16931: repeated equal values carry
			// nothing new, a value absent from an earlier payment means is
			// taken from a later one, a differing one is left unconsumed.
			if pi.MeansCode == "" {
				pi.MeansCode = r.str(pm, "TypeCode", "BT-81")
			} else {
				r.fixed(pm, "TypeCode", pi.MeansCode)
			}
			if pi.MeansText == "" {
				pi.MeansText = r.str(pm, "Information", "BT-82")
			} else {
				r.fixed(pm, "Information", pi.MeansText)
			}
		}
		i++
		if c := r.get(pm, "ApplicableTradeSettlementFinancialCard"); c >= 0 && pi.Card == nil {
			r.mark(c, "BG-18")
			pi.Card = &model.PaymentCard{
				PrimaryAccountNumber: r.str(c, "ID", "BT-87"),
				HolderName:           r.str(c, "CardholderName", "BT-88"),
			}
		}
		if d := r.get(pm, "PayerPartyDebtorFinancialAccount"); d >= 0 && debited == "" {
			r.mark(d, "BT-91")
			debited = r.str(d, "IBANID", "BT-91")
		}
		acct := r.elem(pm, "PayeePartyCreditorFinancialAccount", "BG-17")
		inst := r.elem(pm, "PayeeSpecifiedCreditorFinancialInstitution", "BT-86")
		if acct >= 0 || inst >= 0 {
			ct := model.CreditTransfer{AccountID: r.str(acct, "IBANID", "BT-84")}
			if ct.AccountID == "" {
				ct.AccountID = r.str(acct, "ProprietaryID", "BT-84")
				ct.ProprietaryAccountID = ct.AccountID != ""
			}
			ct.AccountName = r.str(acct, "AccountName", "BT-85")
			ct.ServiceProviderID = r.str(inst, "BICID", "BT-86")
			pi.CreditTransfers = append(pi.CreditTransfers, ct)
		}
	}

	// VAT breakdown, with BT-7 / BT-8 which CII repeats in each entry.
	var taxPoint *model.Date
	var taxPointCode string
	for n := range r.t.Children(st, NSRAM, "ApplicableTradeTax") {
		r.mark(n, "BG-23")
		v := model.VATBreakdown{
			TaxAmount: r.amount(n, "CalculatedAmount", "BT-117"),
		}
		r.fixed(n, "TypeCode", "VAT")
		v.ExemptionReason = r.str(n, "ExemptionReason", "BT-120")
		v.TaxableAmount = r.amount(n, "BasisAmount", "BT-116")
		v.VATCategoryCode = model.VATCategoryCode(r.str(n, "CategoryCode", "BT-118"))
		v.ExemptionReasonCode = r.str(n, "ExemptionReasonCode", "BT-121")
		if tp := r.get(n, "TaxPointDate"); tp >= 0 {
			w := r.t.Child(tp, NSUDT, "DateString")
			f, _ := r.peekAttr(w, "format")
			if d, err := parseDate102(r.peek(w)); err == nil && f == "102" && (taxPoint == nil || *taxPoint == d) {
				taxPoint = &d
				r.mark(tp, "BT-7")
				r.mark(w, "BT-7")
				r.attr(w, "format", "")
			} else if err != nil || f != "102" {
				r.warn(tp, "BT-7", "tax point date %q (format %q) is not YYYYMMDD with format 102", r.peek(w), f)
			}
		}
		if c := r.get(n, "DueDateTypeCode"); c >= 0 {
			// The model holds BT-8 as UNTDID 2005 (UBL's list); CII has
			// UNTDID 2475: translated, an untranslatable code is not carried.
			code, ok := model.TaxPointCodeFromCII(r.peek(c))
			switch {
			case !ok:
				r.warn(c, "BT-8", "tax point date code %q is not one of 5, 29, 72 (UNTDID 2475 codes of EN 16931)", r.peek(c))
			case taxPointCode == "" || taxPointCode == code:
				r.mark(c, "BT-8")
				taxPointCode = code
			}
		}
		v.VATRate = r.dec(r.get(n, "RateApplicablePercent"), "BT-119")
		inv.VATBreakdown = append(inv.VATBreakdown, v)
	}
	inv.TaxPointDate = taxPoint
	inv.TaxPointDateCode = taxPointCode

	inv.InvoicingPeriod = r.period(st, "BG-14", "BT-73", "BT-74")

	for n := range r.t.Children(st, NSRAM, "SpecifiedTradeAllowanceCharge") {
		charge, ok := r.chargeIndicator(n)
		if !ok {
			r.warn(n, "BG-20", "ChargeIndicator is neither true nor false")
			continue
		}
		bts := [...]string{"BG-20", "BT-92", "BT-93", "BT-94", "BT-95", "BT-96", "BT-97", "BT-98"}
		if charge {
			bts = [...]string{"BG-21", "BT-99", "BT-100", "BT-101", "BT-102", "BT-103", "BT-104", "BT-105"}
		}
		r.mark(n, bts[0])
		ac := model.AllowanceCharge{
			Percentage: r.dec(r.get(n, "CalculationPercent"), bts[3]),
			BaseAmount: r.amount(n, "BasisAmount", bts[2]),
			Amount:     r.amount(n, "ActualAmount", bts[1]),
			ReasonCode: r.str(n, "ReasonCode", bts[7]),
			Reason:     r.str(n, "Reason", bts[6]),
		}
		if t := r.elem(n, "CategoryTradeTax", bts[4]); t >= 0 {
			r.fixed(t, "TypeCode", "VAT")
			ac.VATCategoryCode = model.VATCategoryCode(r.str(t, "CategoryCode", bts[4]))
			ac.VATRate = r.dec(r.get(t, "RateApplicablePercent"), bts[5])
		}
		if charge {
			inv.Charges = append(inv.Charges, ac)
		} else {
			inv.Allowances = append(inv.Allowances, ac)
		}
	}

	var mandate string
	if pt := r.elem(st, "SpecifiedTradePaymentTerms", "BT-20"); pt >= 0 {
		inv.PaymentTerms = r.str(pt, "Description", "BT-20")
		inv.DueDate = r.date(pt, "DueDateDateTime", NSUDT, "DateTimeString", "BT-9")
		mandate = r.str(pt, "DirectDebitMandateID", "BT-89")
	}
	if mandate != "" || creditorID != "" || debited != "" {
		pi.DirectDebit = &model.DirectDebit{MandateReference: mandate, CreditorID: creditorID, DebitedAccountID: debited}
	}
	pi.RemittanceInformation = remittance
	if i > 0 || pi.RemittanceInformation != "" || pi.DirectDebit != nil {
		inv.PaymentInstructions = &pi
	}

	if ms := r.elem(st, "SpecifiedTradeSettlementHeaderMonetarySummation", "BG-22"); ms >= 0 {
		t := &model.Totals{
			LineNetTotal:       r.amount(ms, "LineTotalAmount", "BT-106"),
			ChargeTotal:        r.amount(ms, "ChargeTotalAmount", "BT-108"),
			AllowanceTotal:     r.amount(ms, "AllowanceTotalAmount", "BT-107"),
			TaxExclusiveAmount: r.amount(ms, "TaxBasisTotalAmount", "BT-109"),
		}
		for n := range r.t.Children(ms, NSRAM, "TaxTotalAmount") {
			c, _ := r.peekAttr(n, "currencyID")
			switch {
			case c == inv.CurrencyCode && t.TaxAmount == nil:
				if t.TaxAmount = r.dec(n, "BT-110"); t.TaxAmount != nil {
					r.attr(n, "currencyID", "")
				}
			case c != "" && c == inv.TaxCurrencyCode && t.TaxAmountInTaxCurrency == nil:
				if t.TaxAmountInTaxCurrency = r.dec(n, "BT-111"); t.TaxAmountInTaxCurrency != nil {
					r.attr(n, "currencyID", "")
				}
			}
		}
		t.RoundingAmount = r.amount(ms, "RoundingAmount", "BT-114")
		t.TaxInclusiveAmount = r.amount(ms, "GrandTotalAmount", "BT-112")
		t.PaidAmount = r.amount(ms, "TotalPrepaidAmount", "BT-113")
		t.PayableAmount = r.amount(ms, "DuePayableAmount", "BT-115")
		inv.Totals = t
	}
	if p := r.elem(st, "InvoiceReferencedDocument", "BG-3"); p >= 0 {
		inv.PrecedingInvoices = append(inv.PrecedingInvoices, model.PrecedingInvoice{
			ID:        r.str(p, "IssuerAssignedID", "BT-25"),
			IssueDate: r.date(p, "FormattedIssueDateTime", NSQDT, "DateTimeString", "BT-26"),
		})
	}
	if a := r.elem(st, "ReceivableSpecifiedTradeAccountingAccount", "BT-19"); a >= 0 {
		inv.BuyerAccountingReference = r.str(a, "ID", "BT-19")
	}
}

func (r *reader) line(li xmltree.NodeID) model.Line {
	r.mark(li, "BG-25")
	var l model.Line
	if doc := r.elem(li, "AssociatedDocumentLineDocument", "BG-25"); doc >= 0 {
		l.ID = r.str(doc, "LineID", "BT-126")
		if note := r.elem(doc, "IncludedNote", "BT-127"); note >= 0 {
			l.Note = r.str(note, "Content", "BT-127")
		}
	}
	if p := r.elem(li, "SpecifiedTradeProduct", "BG-31"); p >= 0 {
		it := &l.Item
		it.StandardID = r.ident(r.get(p, "GlobalID"), "BT-157", "BT-157-1")
		it.SellerID = r.str(p, "SellerAssignedID", "BT-155")
		it.BuyerID = r.str(p, "BuyerAssignedID", "BT-156")
		it.Name = r.str(p, "Name", "BT-153")
		it.Description = r.str(p, "Description", "BT-154")
		for c := range r.t.Children(p, NSRAM, "ApplicableProductCharacteristic") {
			r.mark(c, "BG-32")
			it.Attributes = append(it.Attributes, model.ItemAttribute{
				Name:  r.str(c, "Description", "BT-160"),
				Value: r.str(c, "Value", "BT-161"),
			})
		}
		for c := range r.t.Children(p, NSRAM, "DesignatedProductClassification") {
			r.mark(c, "BT-158")
			cc := r.get(c, "ClassCode")
			it.Classifications = append(it.Classifications, model.Classification{
				ID:            r.textOf(cc, "BT-158"),
				SchemeID:      r.attr(cc, "listID", "BT-158-1"),
				SchemeVersion: r.attr(cc, "listVersionID", "BT-158-2"),
			})
		}
		if o := r.elem(p, "OriginTradeCountry", "BT-159"); o >= 0 {
			it.OriginCountryCode = r.str(o, "ID", "BT-159")
		}
	}
	if ag := r.elem(li, "SpecifiedLineTradeAgreement", "BG-29"); ag >= 0 {
		if o := r.elem(ag, "BuyerOrderReferencedDocument", "BT-132"); o >= 0 {
			l.OrderLineReference = r.str(o, "LineID", "BT-132")
		}
		if np := r.elem(ag, "NetPriceProductTradePrice", "BG-29"); np >= 0 {
			l.NetPrice = r.amount(np, "ChargeAmount", "BT-146")
			if bq := r.get(np, "BasisQuantity"); bq >= 0 {
				l.BaseQuantity = r.dec(bq, "BT-149")
				l.BaseQuantityUnitCode = r.attr(bq, "unitCode", "BT-150")
			}
		}
		if gp := r.elem(ag, "GrossPriceProductTradePrice", "BT-148"); gp >= 0 {
			l.GrossPrice = r.amount(gp, "ChargeAmount", "BT-148")
			// The gross price's base quantity is the same BT-149 / BT-150:
			// consumed when it repeats the net price's.
			if bq := r.get(gp, "BasisQuantity"); bq >= 0 {
				u, _ := r.peekAttr(bq, "unitCode")
				if v, err := model.ParseDecimal(r.peek(bq)); err == nil && l.BaseQuantity != nil && v.Equal(*l.BaseQuantity) && u == l.BaseQuantityUnitCode {
					r.mark(bq, "BT-149")
					r.attr(bq, "unitCode", "BT-150")
				} else if err == nil && l.BaseQuantity == nil && r.get(r.get(ag, "NetPriceProductTradePrice"), "BasisQuantity") < 0 {
					l.BaseQuantity = &v
					r.mark(bq, "BT-149")
					l.BaseQuantityUnitCode = r.attr(bq, "unitCode", "BT-150")
				} else if err == nil {
					// Another base quantity for the gross price: carried
					// apart (no BT; UBL cannot hold it).
					l.GrossBaseQuantity = &v
					r.mark(bq, "BT-148")
					l.GrossBaseQuantityUnitCode = r.attr(bq, "unitCode", "BT-148")
				} else {
					r.warn(bq, "BT-148", "gross price base quantity %q is not a decimal", r.peek(bq))
				}
			}
			if ac := r.get(gp, "AppliedTradeAllowanceCharge"); ac >= 0 {
				if charge, ok := r.chargeIndicator(ac); ok && !charge {
					r.mark(ac, "BT-147")
					l.PriceDiscount = r.amount(ac, "ActualAmount", "BT-147")
				}
			}
		}
		l.PriceParts() // BT-147 = BT-148 − BT-146 when only the gross price is given
	}
	if dl := r.elem(li, "SpecifiedLineTradeDelivery", ""); dl >= 0 {
		if q := r.get(dl, "BilledQuantity"); q >= 0 {
			if v := r.dec(q, "BT-129"); v != nil {
				l.Quantity = *v
			}
			l.UnitCode = r.attr(q, "unitCode", "BT-130")
		}
	}
	if st := r.elem(li, "SpecifiedLineTradeSettlement", ""); st >= 0 {
		if t := r.elem(st, "ApplicableTradeTax", "BG-30"); t >= 0 {
			r.fixed(t, "TypeCode", "VAT")
			l.VATCategoryCode = model.VATCategoryCode(r.str(t, "CategoryCode", "BT-151"))
			l.VATRate = r.dec(r.get(t, "RateApplicablePercent"), "BT-152")
		}
		l.Period = r.period(st, "BG-26", "BT-134", "BT-135")
		for n := range r.t.Children(st, NSRAM, "SpecifiedTradeAllowanceCharge") {
			charge, ok := r.chargeIndicator(n)
			if !ok {
				r.warn(n, "BG-27", "ChargeIndicator is neither true nor false")
				continue
			}
			bts := [...]string{"BG-27", "BT-136", "BT-137", "BT-138", "BT-139", "BT-140"}
			if charge {
				bts = [...]string{"BG-28", "BT-141", "BT-142", "BT-143", "BT-144", "BT-145"}
			}
			r.mark(n, bts[0])
			ac := model.LineAllowanceCharge{
				Percentage: r.dec(r.get(n, "CalculationPercent"), bts[3]),
				BaseAmount: r.amount(n, "BasisAmount", bts[2]),
				Amount:     r.amount(n, "ActualAmount", bts[1]),
				ReasonCode: r.str(n, "ReasonCode", bts[5]),
				Reason:     r.str(n, "Reason", bts[4]),
			}
			if charge {
				l.Charges = append(l.Charges, ac)
			} else {
				l.Allowances = append(l.Allowances, ac)
			}
		}
		if ms := r.elem(st, "SpecifiedTradeSettlementLineMonetarySummation", "BT-131"); ms >= 0 {
			l.NetAmount = r.amount(ms, "LineTotalAmount", "BT-131")
		}
		for n := range r.t.Children(st, NSRAM, "AdditionalReferencedDocument") {
			// BT-128 is the only line-level use of the element in EN 16931,
			// so a missing type code is read as 130.
			if tc := r.get(n, "TypeCode"); (tc >= 0 && r.peek(tc) != "130") || l.ObjectID != nil {
				continue
			}
			r.mark(n, "BT-128")
			r.fixed(n, "TypeCode", "130")
			l.ObjectID = &model.Identifier{
				ID:       r.str(n, "IssuerAssignedID", "BT-128"),
				SchemeID: r.str(n, "ReferenceTypeCode", "BT-128-1"),
			}
			if l.ObjectID.ID == "" {
				l.ObjectID = nil
			}
		}
		if a := r.elem(st, "ReceivableSpecifiedTradeAccountingAccount", "BT-133"); a >= 0 {
			l.BuyerAccountingReference = r.str(a, "ID", "BT-133")
		}
	}
	return l
}
