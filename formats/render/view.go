package render

import (
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// Document is the view model of one invoice: labelled, formatted values in
// the sections of the XRechnung visualization. It is built once by Build
// and laid out by HTML and the PDF writers; it holds strings only.
type Document struct {
	Lang     Lang
	Kind     string // "Invoice" or "Credit note" in Lang
	Number   string // BT-1
	Currency string // BT-5
	Nav      string // the label of the list of sections
	Sections []*Section
}

// Title is the document's title: its kind and number.
func (d *Document) Title() string {
	if d.Number == "" {
		return d.Kind
	}
	return d.Kind + " " + d.Number
}

// Section is one part of the view (overview, details, additional data,
// attachments).
type Section struct {
	ID     string // "overview", "details", "additional", "attachments"
	Title  string
	Blocks []*Block
}

// Block is a group of values: its own fields, then its tables, then nested
// blocks.
type Block struct {
	ID     string // the BG id ("BG-4") or a view key
	Badge  string // the BG id shown next to the title ("" for view keys)
	Title  string
	Level  int // sub-line nesting: 1 for a sub invoice line (BG-DEX-01), 2 for its sub-lines, ...
	Fields []Field
	Tables []*Table
	Blocks []*Block
}

// Field is one labelled value.
type Field struct {
	BT    string // "BT-1"; "" for values that are no business term
	Label string
	Value string
	Num   bool // a number or amount (right-aligned in tables)
}

// Table is a list of rows with the same columns (lines, VAT breakdown,
// allowances, ...).
type Table struct {
	ID      string
	Caption string
	Cols    []Column
	Rows    [][]string
	// Levels is each row's sub-line nesting (0 for an invoice line, 1
	// for its sub-lines, ...); nil when no row is a sub-line.
	Levels []int
}

// Level returns the sub-line nesting of row i (0 for most rows).
func (t *Table) Level(i int) int {
	if i < len(t.Levels) {
		return t.Levels[i]
	}
	return 0
}

// Column is one column of a Table.
type Column struct {
	BT    string
	Label string
	Num   bool
}

// empty reports whether b shows nothing.
func (b *Block) empty() bool {
	if len(b.Fields) > 0 || len(b.Tables) > 0 {
		return false
	}
	for _, c := range b.Blocks {
		if !c.empty() {
			return false
		}
	}
	return true
}

// builder builds a Document in one language.
type builder struct{ lang Lang }

func (bd *builder) block(id string) *Block {
	b := &Block{ID: id, Title: text(bd.lang, id)}
	if strings.HasPrefix(id, "BG-") {
		b.Badge = id
	}
	return b
}

// add appends the field key (a BT id or a label key) when value is not empty.
func (bd *builder) add(b *Block, key, value string) {
	if value == "" {
		return
	}
	bt := ""
	if strings.HasPrefix(key, "BT-") {
		bt = key
	}
	b.Fields = append(b.Fields, Field{BT: bt, Label: text(bd.lang, key), Value: value})
}

func (bd *builder) addNum(b *Block, key, value string) {
	n := len(b.Fields)
	bd.add(b, key, value)
	if len(b.Fields) > n {
		b.Fields[n].Num = true
	}
}

func (bd *builder) addID(b *Block, key string, id *model.Identifier) {
	if id == nil {
		return
	}
	bd.add(b, key, id.ID)
	bd.add(b, key+"-1", id.SchemeID)
}

// idParts returns an identifier and its scheme ("" for nil).
func idParts(id *model.Identifier) (string, string) {
	if id == nil {
		return "", ""
	}
	return id.ID, id.SchemeID
}

func (bd *builder) addBlock(parent *Block, child *Block) {
	if !child.empty() {
		parent.Blocks = append(parent.Blocks, child)
	}
}

func (bd *builder) table(id string, cols ...string) *Table {
	t := &Table{ID: id, Caption: text(bd.lang, id)}
	for _, c := range cols {
		num := strings.HasPrefix(c, "#")
		c = strings.TrimPrefix(c, "#")
		bt := ""
		if strings.HasPrefix(c, "BT-") {
			bt = c
		}
		t.Cols = append(t.Cols, Column{BT: bt, Label: text(bd.lang, c), Num: num})
	}
	return t
}

func (bd *builder) yes(v bool) string {
	if v {
		return text(bd.lang, "yes")
	}
	return ""
}

// addPeriod adds the period p (when given) to parent as the block bg with
// its start and end terms.
func (bd *builder) addPeriod(parent *Block, p *model.Period, bg, start, end string) {
	if p == nil {
		return
	}
	per := bd.block(bg)
	bd.add(per, start, bd.date(p.Start))
	bd.add(per, end, bd.date(p.End))
	bd.addBlock(parent, per)
}

func (bd *builder) date(d *model.Date) string      { return FormatDate(bd.lang, d) }
func (bd *builder) num(d *model.Decimal) string    { return FormatNumber(bd.lang, d) }
func (bd *builder) amount(d *model.Decimal) string { return FormatAmount(bd.lang, d) }
func (bd *builder) pct(d *model.Decimal) string    { return FormatPercent(bd.lang, d) }

// Build turns inv into the view model in lang. It never fails: absent
// values are left out, unknown codes are shown as they are.
func Build(inv *model.Invoice, lang Lang) *Document {
	if lang != German {
		lang = English
	}
	bd := &builder{lang: lang}
	d := &Document{Lang: lang, Kind: text(lang, "doc.invoice"), Number: inv.ID, Currency: inv.CurrencyCode, Nav: text(lang, "nav")}
	if inv.TypeCode.IsCreditNote() {
		d.Kind = text(lang, "doc.creditnote")
	}
	d.Sections = []*Section{bd.overview(inv), bd.details(inv), bd.additional(inv), bd.attachments(inv)}
	return d
}

func (bd *builder) section(id string, blocks ...*Block) *Section {
	s := &Section{ID: id, Title: text(bd.lang, id)}
	for _, b := range blocks {
		if b != nil && !b.empty() {
			s.Blocks = append(s.Blocks, b)
		}
	}
	return s
}

// pairs returns a block with the fields of key/value pairs (empty values
// left out).
func (bd *builder) pairs(id string, kv ...string) *Block {
	b := bd.block(id)
	for i := 0; i+1 < len(kv); i += 2 {
		bd.add(b, kv[i], kv[i+1])
	}
	return b
}

func (bd *builder) address(id string, bt [7]string, a *model.Address) *Block {
	if a == nil {
		return bd.block(id)
	}
	return bd.pairs(id, bt[0], a.Line1, bt[1], a.Line2, bt[2], a.Line3, bt[3], a.PostCode, bt[4], a.City,
		bt[5], a.Subdivision, bt[6], a.CountryCode)
}

func (bd *builder) contact(id string, bt [3]string, c *model.Contact) *Block {
	if c == nil {
		return bd.block(id)
	}
	return bd.pairs(id, bt[0], c.Name, bt[1], c.Telephone, bt[2], c.Email, "x.department", bd.yes(c.NameIsDepartment))
}

func (bd *builder) overview(inv *model.Invoice) *Section {
	buyer := bd.block("BG-7")
	bd.add(buyer, "BT-44", inv.Buyer.Name)
	bd.addID(buyer, "BT-46", inv.Buyer.Identifier)
	if ea := inv.Buyer.ElectronicAddress; ea != nil {
		bd.add(buyer, "BT-49", ea.ID)
		bd.add(buyer, "BT-49-1", ea.SchemeID)
	}
	bd.addBlock(buyer, bd.address("BG-8", [7]string{"BT-50", "BT-51", "BT-163", "BT-53", "BT-52", "BT-54", "BT-55"}, &inv.Buyer.Address))
	bd.addBlock(buyer, bd.contact("BG-9", [3]string{"BT-56", "BT-57", "BT-58"}, inv.Buyer.Contact))

	seller := bd.block("BG-4")
	s := &inv.Seller
	bd.add(seller, "BT-27", s.Name)
	for i := range s.Identifiers {
		bd.addID(seller, "BT-29", &s.Identifiers[i])
	}
	bd.add(seller, "BT-31", s.VATID)
	bd.add(seller, "BT-32", s.TaxRegistrationID)
	bd.addID(seller, "BT-30", s.LegalRegistrationID)
	if ea := s.ElectronicAddress; ea != nil {
		bd.add(seller, "BT-34", ea.ID)
		bd.add(seller, "BT-34-1", ea.SchemeID)
	}
	bd.addBlock(seller, bd.address("BG-5", [7]string{"BT-35", "BT-36", "BT-162", "BT-38", "BT-37", "BT-39", "BT-40"}, &s.Address))
	bd.addBlock(seller, bd.contact("BG-6", [3]string{"BT-41", "BT-42", "BT-43"}, s.Contact))

	data := bd.block("blk.invoicedata")
	bd.add(data, "BT-1", inv.ID)
	bd.add(data, "BT-2", bd.date(&inv.IssueDate))
	bd.add(data, "BT-3", codeText(bd.lang, "1001", string(inv.TypeCode)))
	bd.add(data, "BT-5", inv.CurrencyCode)
	bd.add(data, "BT-6", inv.TaxCurrencyCode)
	bd.add(data, "BT-7", bd.date(inv.TaxPointDate))
	bd.add(data, "BT-8", inv.TaxPointDateCode)
	bd.add(data, "BT-9", bd.date(inv.DueDate))
	bd.add(data, "BT-10", inv.BuyerReference)
	bd.addPeriod(data, inv.InvoicingPeriod, "BG-14", "BT-73", "BT-74")
	objID, objScheme := idParts(inv.InvoicedObjectID)
	bd.addBlock(data, bd.pairs("blk.references", "BT-11", inv.ProjectReference, "x.projectname", inv.ProjectName,
		"BT-12", inv.ContractReference, "BT-13", inv.PurchaseOrderReference, "BT-14", inv.SalesOrderReference,
		"BT-15", inv.ReceivingAdviceReference, "BT-16", inv.DespatchAdviceReference, "BT-17", inv.TenderOrLotReference,
		"BT-18", objID, "BT-18-1", objScheme, "BT-19", inv.BuyerAccountingReference))

	lines := bd.block("blk.lines")
	lt := bd.table("blk.lines", "BT-126", "BT-153", "#BT-129", "BT-130", "#BT-146", "#BT-131", "BT-151", "#BT-152")
	model.WalkLines(inv.Lines, func(l *model.Line, loc []any) {
		lt.Rows = append(lt.Rows, []string{l.ID, l.Item.Name, bd.num(&l.Quantity), l.UnitCode, bd.num(l.NetPrice),
			bd.amount(l.NetAmount), string(l.CategoryCode()), bd.pct(l.VATRate)})
		if level := subLineLevel(loc); level > 0 || lt.Levels != nil {
			if lt.Levels == nil {
				lt.Levels = make([]int, len(lt.Rows)-1, len(lt.Rows))
			}
			lt.Levels = append(lt.Levels, level)
		}
	})
	if len(lt.Rows) > 0 {
		lines.Tables = append(lines.Tables, lt)
	}

	totals := bd.block("BG-22")
	if t := inv.Totals; t != nil {
		bd.addNum(totals, "BT-106", bd.amount(t.LineNetTotal))
		bd.addNum(totals, "BT-107", bd.amount(t.AllowanceTotal))
		bd.addNum(totals, "BT-108", bd.amount(t.ChargeTotal))
		bd.addNum(totals, "BT-109", bd.amount(t.TaxExclusiveAmount))
		bd.addNum(totals, "BT-110", bd.amount(t.TaxAmount))
		bd.addNum(totals, "BT-111", bd.amount(t.TaxAmountInTaxCurrency))
		bd.addNum(totals, "BT-112", bd.amount(t.TaxInclusiveAmount))
		bd.addNum(totals, "BT-113", bd.amount(t.PaidAmount))
		bd.addNum(totals, "BT-114", bd.amount(t.RoundingAmount))
		bd.addNum(totals, "BT-115", bd.amount(t.PayableAmount))
	}

	vat := bd.block("BG-23")
	vt := bd.table("BG-23", "BT-118", "#BT-119", "#BT-116", "#BT-117", "BT-120", "BT-121")
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		vt.Rows = append(vt.Rows, []string{codeText(bd.lang, "5305", string(v.CategoryCode())), bd.pct(v.VATRate),
			bd.amount(v.TaxableAmount), bd.amount(v.TaxAmount), v.ExemptionReason, v.ExemptionReasonCode})
	}
	if len(vt.Rows) > 0 {
		vat.Tables = append(vat.Tables, vt)
	}

	allowances := bd.docAllowances("BG-20", inv.Allowances, [7]string{"#BT-92", "#BT-93", "#BT-94", "BT-95", "#BT-96", "BT-97", "BT-98"})
	charges := bd.docAllowances("BG-21", inv.Charges, [7]string{"#BT-99", "#BT-100", "#BT-101", "BT-102", "#BT-103", "BT-104", "BT-105"})

	pay := bd.payment(inv)

	notes := bd.block("BG-1")
	nt := bd.table("BG-1", "BT-21", "BT-22")
	for _, n := range inv.Notes {
		nt.Rows = append(nt.Rows, []string{n.SubjectCode, n.Text})
	}
	if len(nt.Rows) > 0 {
		notes.Tables = append(notes.Tables, nt)
	}
	return bd.section("sec.overview", buyer, seller, data, lines, totals, vat, allowances, charges, pay, notes)
}

func (bd *builder) docAllowances(id string, list []model.AllowanceCharge, cols [7]string) *Block {
	b := bd.block(id)
	t := bd.table(id, cols[:]...)
	for i := range list {
		a := &list[i]
		t.Rows = append(t.Rows, []string{bd.amount(a.Amount), bd.amount(a.BaseAmount), bd.pct(a.Percentage),
			codeText(bd.lang, "5305", string(a.CategoryCode())), bd.pct(a.VATRate), a.Reason, a.ReasonCode})
	}
	if len(t.Rows) > 0 {
		b.Tables = append(b.Tables, t)
	}
	return b
}

func (bd *builder) payment(inv *model.Invoice) *Block {
	b := bd.block("BG-16")
	bd.add(b, "BT-20", inv.PaymentTerms)
	p := inv.PaymentInstructions
	if p == nil {
		return b
	}
	bd.add(b, "BT-81", codeText(bd.lang, "4461", p.MeansCode))
	bd.add(b, "BT-82", p.MeansText)
	bd.add(b, "BT-83", p.RemittanceInformation)
	for i := range p.CreditTransfers {
		ct := &p.CreditTransfers[i]
		c := bd.pairs("BG-17", "BT-84", ct.AccountID, "x.proprietary", bd.yes(ct.ProprietaryAccountID),
			"BT-85", ct.AccountName, "BT-86", ct.ServiceProviderID)
		if len(p.CreditTransfers) > 1 {
			c.Title += " " + strconv.Itoa(i+1)
		}
		bd.addBlock(b, c)
	}
	if c := p.Card; c != nil {
		bd.addBlock(b, bd.pairs("BG-18", "BT-87", c.PrimaryAccountNumber, "BT-88", c.HolderName, "x.networkid", c.NetworkID))
	}
	if dd := p.DirectDebit; dd != nil {
		bd.addBlock(b, bd.pairs("BG-19", "BT-89", dd.MandateReference, "BT-90", dd.CreditorID, "BT-91", dd.DebitedAccountID))
	}
	return b
}

// subLineLevel is the sub-line nesting of the line at loc (a
// model.WalkLines path): 0 for an invoice line, 1 for its sub-lines, ...
func subLineLevel(loc []any) int { return (len(loc) - 2) / 2 }

func (bd *builder) details(inv *model.Invoice) *Section {
	s := &Section{ID: "sec.details", Title: text(bd.lang, "sec.details")}
	for i := range inv.Lines {
		s.Blocks = append(s.Blocks, bd.line(&inv.Lines[i], 0))
	}
	return s
}

// lineGroups are the group ids of an invoice line (BG-25 .. BG-32) and of
// a sub invoice line (the XRechnung extension's BG-DEX-01 .. BG-DEX-08).
type lineGroups struct{ line, period, allowances, charges, price, vat, item, attributes string }

var (
	invoiceLineGroups = lineGroups{"BG-25", "BG-26", "BG-27", "BG-28", "BG-29", "BG-30", "BG-31", "BG-32"}
	subLineGroups     = lineGroups{"BG-DEX-01", "BG-DEX-05", "BG-DEX-03", "BG-DEX-04", "BG-DEX-07", "BG-DEX-06", "BG-DEX-02", "BG-DEX-08"}
)

// line is the block of an invoice line (level 0) or of a sub invoice line
// (level 1, 2, ...), with the blocks of its sub-lines nested at its end.
func (bd *builder) line(l *model.Line, level int) *Block {
	g := invoiceLineGroups
	if level > 0 {
		g = subLineGroups
	}
	b := bd.block(g.line)
	b.Level = level
	b.Title += " " + l.ID
	bd.add(b, "BT-126", l.ID)
	bd.add(b, "BT-127", l.Note)
	bd.addID(b, "BT-128", l.ObjectID)
	bd.addNum(b, "BT-129", bd.num(&l.Quantity))
	bd.add(b, "BT-130", l.UnitCode)
	bd.addNum(b, "BT-131", bd.amount(l.NetAmount))
	bd.add(b, "BT-132", l.OrderLineReference)
	bd.add(b, "BT-133", l.BuyerAccountingReference)
	bd.addPeriod(b, l.Period, g.period, "BT-134", "BT-135")
	price := bd.block(g.price)
	bd.addNum(price, "BT-146", bd.num(l.NetPrice))
	bd.addNum(price, "BT-147", bd.num(l.PriceDiscount))
	bd.addNum(price, "BT-148", bd.num(l.GrossPrice))
	bd.addNum(price, "BT-149", bd.num(l.BaseQuantity))
	bd.add(price, "BT-150", l.BaseQuantityUnitCode)
	bd.addNum(price, "x.grossbaseqty", bd.num(l.GrossBaseQuantity))
	bd.add(price, "x.grossbaseqtyunit", l.GrossBaseQuantityUnitCode)
	bd.addBlock(b, price)
	vat := bd.block(g.vat)
	bd.add(vat, "BT-151", codeText(bd.lang, "5305", string(l.CategoryCode())))
	bd.addNum(vat, "BT-152", bd.pct(l.VATRate))
	bd.addBlock(b, vat)
	bd.addBlock(b, bd.lineAllowances(g.allowances, l.Allowances, [5]string{"#BT-136", "#BT-137", "#BT-138", "BT-139", "BT-140"}))
	bd.addBlock(b, bd.lineAllowances(g.charges, l.Charges, [5]string{"#BT-141", "#BT-142", "#BT-143", "BT-144", "BT-145"}))

	it := &l.Item
	stdID, stdScheme := idParts(it.StandardID)
	item := bd.pairs(g.item, "BT-153", it.Name, "BT-154", it.Description, "BT-155", it.SellerID, "BT-156", it.BuyerID,
		"BT-157", stdID, "BT-157-1", stdScheme, "BT-159", it.OriginCountryCode)
	if len(it.Classifications) > 0 {
		ct := bd.table("blk.classification", "BT-158", "BT-158-1", "BT-158-2")
		for _, c := range it.Classifications {
			ct.Rows = append(ct.Rows, []string{c.ID, c.SchemeID, c.SchemeVersion})
		}
		item.Tables = append(item.Tables, ct)
	}
	if len(it.Attributes) > 0 {
		ab := bd.block(g.attributes)
		at := bd.table(g.attributes, "BT-160", "BT-161")
		for _, a := range it.Attributes {
			at.Rows = append(at.Rows, []string{a.Name, a.Value})
		}
		ab.Tables = append(ab.Tables, at)
		bd.addBlock(item, ab)
	}
	bd.addBlock(b, item)
	for i := range l.SubLines {
		bd.addBlock(b, bd.line(&l.SubLines[i], level+1))
	}
	return b
}

func (bd *builder) lineAllowances(id string, list []model.LineAllowanceCharge, cols [5]string) *Block {
	b := bd.block(id)
	if len(list) == 0 {
		return b
	}
	t := bd.table(id, cols[:]...)
	for i := range list {
		a := &list[i]
		t.Rows = append(t.Rows, []string{bd.amount(a.Amount), bd.amount(a.BaseAmount), bd.pct(a.Percentage), a.Reason, a.ReasonCode})
	}
	b.Tables = append(b.Tables, t)
	return b
}

func (bd *builder) additional(inv *model.Invoice) *Section {
	s := &inv.Seller
	seller := bd.block("blk.selleradd")
	bd.add(seller, "BT-28", s.TradingName)
	bd.add(seller, "BT-33", s.AdditionalLegalInfo)
	bd.add(seller, "x.taxregscheme", s.TaxRegistrationScheme)

	buyer := bd.block("blk.buyeradd")
	bd.add(buyer, "BT-45", inv.Buyer.TradingName)
	bd.addID(buyer, "BT-47", inv.Buyer.LegalRegistrationID)
	bd.add(buyer, "BT-48", inv.Buyer.VATID)

	delivery := bd.block("BG-13")
	if dl := inv.Delivery; dl != nil {
		bd.add(delivery, "BT-70", dl.PartyName)
		bd.addID(delivery, "BT-71", dl.LocationID)
		bd.add(delivery, "BT-72", bd.date(dl.Date))
		bd.addBlock(delivery, bd.address("BG-15", [7]string{"BT-75", "BT-76", "BT-165", "BT-78", "BT-77", "BT-79", "BT-80"}, dl.Address))
	}

	payee := bd.block("BG-10")
	if p := inv.Payee; p != nil {
		bd.add(payee, "BT-59", p.Name)
		bd.addID(payee, "BT-60", p.Identifier)
		bd.addID(payee, "BT-61", p.LegalRegistrationID)
	}

	rep := bd.block("BG-11")
	if r := inv.TaxRepresentative; r != nil {
		bd.add(rep, "BT-62", r.Name)
		bd.add(rep, "BT-63", r.VATID)
		bd.addBlock(rep, bd.address("BG-12", [7]string{"BT-64", "BT-65", "BT-164", "BT-67", "BT-66", "BT-68", "BT-69"}, &r.Address))
	}

	preceding := bd.block("BG-3")
	if len(inv.PrecedingInvoices) > 0 {
		t := bd.table("BG-3", "BT-25", "BT-26")
		for i := range inv.PrecedingInvoices {
			p := &inv.PrecedingInvoices[i]
			t.Rows = append(t.Rows, []string{p.ID, bd.date(p.IssueDate)})
		}
		preceding.Tables = append(preceding.Tables, t)
	}

	process := bd.block("BG-2")
	if pc := inv.ProcessControl; pc != nil {
		bd.add(process, "BT-23", pc.BusinessProcess)
		bd.add(process, "BT-24", pc.SpecificationID)
	}
	return bd.section("sec.additional", seller, buyer, delivery, payee, rep, preceding, process)
}

func (bd *builder) attachments(inv *model.Invoice) *Section {
	b := bd.block("BG-24")
	if len(inv.SupportingDocuments) > 0 {
		t := bd.table("BG-24", "BT-122", "BT-123", "BT-124", "BT-125-2", "BT-125-1", "#col.size")
		for i := range inv.SupportingDocuments {
			sd := &inv.SupportingDocuments[i]
			var name, mime, size string
			if a := sd.Attachment; a != nil {
				name, mime = a.Filename, a.MimeCode
				size = groupDigits(bd.lang, strconv.Itoa(len(a.Content))) + " " + text(bd.lang, "col.bytes")
			}
			t.Rows = append(t.Rows, []string{sd.ID, sd.Description, sd.ExternalLocation, name, mime, size})
		}
		b.Tables = append(b.Tables, t)
	}
	return bd.section("sec.attachments", b)
}
