package render

import (
	"context"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/pdf/layout"
)

// compactShown lists the business terms the first part of the compact
// view (letterhead, addresses, lines, VAT summary, totals, payment) shows;
// every other value of the Document follows under "Further details".
var compactShown = setOf(`BT-1 BT-2 BT-3 BT-5 BT-9 BT-10 BT-12 BT-13 BT-14 BT-73 BT-74
	BT-27 BT-30 BT-30-1 BT-31 BT-32 BT-34 BT-34-1 BT-46 BT-46-1 BT-48 BT-49 BT-49-1 BT-35 BT-36 BT-162 BT-37 BT-38 BT-39 BT-40 BT-41 BT-42 BT-43
	BT-44 BT-50 BT-51 BT-163 BT-52 BT-53 BT-54 BT-55 BT-56 BT-57 BT-58
	BT-20 BT-81 BT-82 BT-83 BT-84 BT-85 BT-86
	BT-106 BT-107 BT-108 BT-109 BT-110 BT-111 BT-112 BT-113 BT-114 BT-115
	BT-126 BT-153 BT-154 BT-155 BT-129 BT-130 BT-146 BT-151 BT-152 BT-131`)

// compactTables lists the Document tables the first part shows in full.
var compactTables = map[string]bool{"blk.lines": true, "BG-23": true, "BG-1": true}

// setOf returns the set of the space-separated words of s.
func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// rest returns a copy of b without the fields and tables the compact part
// shows, or nil when nothing is left.
func rest(b *Block) *Block {
	out := &Block{ID: b.ID, Badge: b.Badge, Title: b.Title, Level: b.Level}
	for _, f := range b.Fields {
		if f.BT == "" || !compactShown[f.BT] {
			out.Fields = append(out.Fields, f)
		}
	}
	for _, t := range b.Tables {
		if !compactTables[t.ID] {
			out.Tables = append(out.Tables, t)
		}
	}
	for _, c := range b.Blocks {
		if r := rest(c); r != nil {
			out.Blocks = append(out.Blocks, r)
		}
	}
	if out.empty() {
		return nil
	}
	return out
}

// compact writes the business invoice, then the further details.
func (w *pdfWriter) compact(ctx context.Context, inv *model.Invoice) error {
	lang := w.lang
	d := w.d
	s := &inv.Seller

	// Letterhead: the seller left, the document's identity right.
	left := layout.Cell{Text: s.Name, Style: &layout.Style{Font: layout.Bold, Size: 15, Color: colAccent}}
	left.More = append(left.More, plain(stSmall, addressLines(&s.Address)...)...)
	left.More = append(left.More, plain(stSmall, contactLines(s.Contact)...)...)
	left.More = append(left.More, labelled(lang, stSmall, "BT-31", s.VATID, "BT-32", s.TaxRegistrationID,
		"BT-30", withScheme(s.LegalRegistrationID), "BT-34", address(s.ElectronicAddress))...)
	right := layout.Cell{Text: w.doc.Kind, Style: &layout.Style{Font: layout.Bold, Size: 18, Align: layout.Right}}
	right.More = labelled(lang, layout.Style{Size: 8.5, Align: layout.Right},
		"BT-1", inv.ID, "BT-2", FormatDate(lang, &inv.IssueDate), "BT-3", codeText(lang, "1001", string(inv.TypeCode)),
		"BT-9", FormatDate(lang, inv.DueDate), "BT-10", inv.BuyerReference, "BT-13", inv.PurchaseOrderReference,
		"BT-14", inv.SalesOrderReference, "BT-12", inv.ContractReference, "BT-5", inv.CurrencyCode)
	d.Table(&layout.Table{Columns: []layout.Column{{Weight: 1}, {Weight: 1}}, Rows: []layout.Row{{Cells: []layout.Cell{left, right}}}, Padding: -1})
	d.Space(4)
	d.Rule(1.5, colAccent)
	d.Space(6)

	// Addresses: the buyer left, the invoicing period right.
	b := &inv.Buyer
	to := layout.Cell{Text: text(lang, "compact.to"), Style: &stLabel,
		More: []layout.Para{{Text: b.Name, Style: layout.Style{Font: layout.Bold, Size: 10}}}}
	to.More = append(to.More, plain(layout.Style{Size: 9}, addressLines(&b.Address)...)...)
	to.More = append(to.More, plain(stSmall, contactLines(b.Contact)...)...)
	to.More = append(to.More, labelled(lang, stSmall, "BT-48", b.VATID, "BT-46", withScheme(b.Identifier),
		"BT-49", address(b.ElectronicAddress))...)
	period := layout.Cell{}
	if p := inv.InvoicingPeriod; p != nil && (p.Start != nil || p.End != nil) {
		period.Text, period.Style = text(lang, "BG-14"), &stLabel
		period.More = []layout.Para{{Text: strings.TrimSpace(FormatDate(lang, p.Start) + " – " + FormatDate(lang, p.End)), Style: layout.Style{Size: 9}}}
	}
	d.Table(&layout.Table{Columns: []layout.Column{{Weight: 1}, {Weight: 1}}, Rows: []layout.Row{{Cells: []layout.Cell{to, period}}}, Padding: -1})
	d.Space(10)

	// Lines.
	cur := ""
	if inv.CurrencyCode != "" {
		cur = " (" + inv.CurrencyCode + ")"
	}
	lt := &layout.Table{
		Columns: []layout.Column{{Width: 34}, {Weight: 5}, {Weight: 1.6, Align: layout.Right}, {Weight: 1.6, Align: layout.Right},
			{Weight: 1.2, Align: layout.Right}, {Weight: 1.8, Align: layout.Right}},
		Header: []layout.Row{{Cells: []layout.Cell{{Text: text(lang, "compact.line")}, {Text: text(lang, "compact.desc")},
			{Text: text(lang, "compact.qty")}, {Text: text(lang, "compact.price")}, {Text: text(lang, "compact.vatrate")},
			{Text: text(lang, "compact.net") + cur}}}},
		Style: stSmall, HeaderStyle: stHead, HeaderFill: &colFill, Border: layout.BorderRows, BorderColor: colLine, Padding: 2.5,
	}
	var ctxErr error
	n := 0
	model.WalkLines(inv.Lines, func(l *model.Line, loc []any) {
		if n++; n%512 == 0 && ctxErr == nil {
			ctxErr = ctx.Err()
		}
		desc := layout.Cell{Text: l.Item.Name}
		if l.Item.SellerID != "" {
			desc.More = append(desc.More, layout.Para{Text: text(lang, "BT-155") + ": " + l.Item.SellerID, Style: layout.Style{Size: 7.5, Color: colMuted}})
		}
		if l.Item.Description != "" {
			desc.More = append(desc.More, layout.Para{Text: l.Item.Description, Style: layout.Style{Size: 7.5, Color: colMuted}})
		}
		vat := strings.TrimSpace(string(l.CategoryCode()) + " " + FormatPercent(lang, l.VATRate))
		row := layout.Row{Cells: []layout.Cell{{Text: subLineMark(subLineLevel(loc), l.ID)}, desc,
			{Text: strings.TrimSpace(FormatNumber(lang, &l.Quantity) + " " + l.UnitCode)}, {Text: FormatNumber(lang, l.NetPrice)},
			{Text: vat}, {Text: FormatAmount(lang, l.NetAmount)}}}
		if subLineLevel(loc) > 0 {
			// A sub-line is detail of its line: muted, not summed.
			row.Style = &layout.Style{Size: 7.5, Color: colMuted}
		}
		lt.Rows = append(lt.Rows, row)
	})
	if ctxErr != nil {
		return ctxErr
	}
	d.Table(lt)
	d.Space(10)

	// VAT summary and totals.
	if len(inv.VATBreakdown) > 0 {
		d.KeepTogether(60)
		d.Paragraph(text(lang, "compact.vat"), stSub)
		vt := &layout.Table{
			Columns: []layout.Column{{Weight: 3}, {Weight: 1, Align: layout.Right}, {Weight: 1.5, Align: layout.Right}, {Weight: 1.5, Align: layout.Right}},
			Header: []layout.Row{{Cells: []layout.Cell{{Text: text(lang, "BT-118")}, {Text: text(lang, "BT-119")},
				{Text: text(lang, "BT-116")}, {Text: text(lang, "BT-117")}}}},
			Style: stSmall, HeaderStyle: stHead, Border: layout.BorderRows, BorderColor: colLine, Padding: 2,
		}
		for i := range inv.VATBreakdown {
			v := &inv.VATBreakdown[i]
			cat := layout.Cell{Text: codeText(lang, "5305", string(v.CategoryCode()))}
			for _, x := range []string{v.ExemptionReasonCode, v.ExemptionReason} {
				if x != "" {
					cat.More = append(cat.More, layout.Para{Text: x, Style: layout.Style{Size: 7.5, Color: colMuted}})
				}
			}
			vt.Rows = append(vt.Rows, layout.Row{Cells: []layout.Cell{cat, {Text: FormatPercent(lang, v.VATRate)},
				{Text: FormatAmount(lang, v.TaxableAmount)}, {Text: FormatAmount(lang, v.TaxAmount)}}})
		}
		d.Table(vt)
		d.Space(8)
	}
	if t := inv.Totals; t != nil {
		tt := &layout.Table{Columns: []layout.Column{{Weight: 1}, {Width: 190, Align: layout.Right}, {Width: 90, Align: layout.Right}},
			Style: layout.Style{Size: 8.5}, Padding: 1.5}
		for _, kv := range []struct {
			bt string
			v  *model.Decimal
		}{{"BT-106", t.LineNetTotal}, {"BT-107", t.AllowanceTotal}, {"BT-108", t.ChargeTotal}, {"BT-109", t.TaxExclusiveAmount},
			{"BT-110", t.TaxAmount}, {"BT-111", t.TaxAmountInTaxCurrency}, {"BT-112", t.TaxInclusiveAmount},
			{"BT-113", t.PaidAmount}, {"BT-114", t.RoundingAmount}, {"BT-115", t.PayableAmount}} {
			if kv.v == nil {
				continue
			}
			c := inv.CurrencyCode
			if kv.bt == "BT-111" {
				c = inv.TaxCurrencyCode
			}
			row := layout.Row{Cells: []layout.Cell{{}, {Text: text(lang, kv.bt)}, {Text: strings.TrimSpace(FormatAmount(lang, kv.v) + " " + c)}}}
			if kv.bt == "BT-115" {
				row.Style = &layout.Style{Font: layout.Bold, Size: 9.5}
			}
			tt.Rows = append(tt.Rows, row)
		}
		d.KeepTogether(float64(len(tt.Rows)) * 14)
		d.Table(tt)
		d.Space(10)
	}

	// Payment details.
	var pay []Field
	add := func(bt, v string) {
		if v != "" {
			pay = append(pay, Field{BT: bt, Label: text(lang, bt), Value: v})
		}
	}
	add("BT-20", inv.PaymentTerms)
	if p := inv.PaymentInstructions; p != nil {
		add("BT-81", codeText(lang, "4461", p.MeansCode))
		add("BT-82", p.MeansText)
		add("BT-83", p.RemittanceInformation)
		for _, ct := range p.CreditTransfers {
			add("BT-84", ct.AccountID)
			add("BT-85", ct.AccountName)
			add("BT-86", ct.ServiceProviderID)
		}
	}
	if len(pay) > 0 {
		d.KeepTogether(float64(len(pay))*12 + 20)
		d.Paragraph(text(lang, "compact.payment"), stSub)
		pt := &layout.Table{Columns: []layout.Column{{Weight: 2}, {Weight: 5}}, Style: stValue, Padding: 1.5}
		for _, f := range pay {
			pt.Rows = append(pt.Rows, layout.Row{Cells: []layout.Cell{{Text: f.Label, Style: &stLabel}, {Text: f.Value}}})
		}
		d.Table(pt)
		d.Space(8)
	}

	// Notes.
	for _, n := range inv.Notes {
		line := n.Text
		if n.SubjectCode != "" {
			line = n.SubjectCode + ": " + line
		}
		d.Paragraph(line, layout.Style{Size: 8, Color: colMuted})
		d.Space(2)
	}

	// Everything else.
	var more []*Block
	for _, s := range w.doc.Sections {
		for _, b := range s.Blocks {
			if r := rest(b); r != nil {
				more = append(more, flatten(r)...)
			}
		}
	}
	if len(more) == 0 {
		return nil
	}
	d.Space(10)
	w.heading(text(lang, "compact.more"), "", stBlock, 0)
	d.Rule(0.5, colLine)
	for i, b := range more {
		if i%checkEvery == checkEvery-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		w.block(b, 1, 0)
		d.Space(4)
	}
	return nil
}

// flatten merges the fields and tables of b's nested blocks into b (the
// compact list names each value by its BT id and label, so the group
// headings are left out). A sub invoice line (Level > 0) is not merged
// into its line: it follows as a block of its own (its terms have the
// line's BT ids), and so do its sub-lines.
func flatten(b *Block) []*Block {
	out := &Block{ID: b.ID, Badge: b.Badge, Title: b.Title, Level: b.Level, Fields: append([]Field(nil), b.Fields...), Tables: append([]*Table(nil), b.Tables...)}
	var subs []*Block
	for _, c := range b.Blocks {
		if c.Level > b.Level {
			subs = append(subs, flatten(c)...)
			continue
		}
		f := flatten(c)
		out.Fields = append(out.Fields, f[0].Fields...)
		out.Tables = append(out.Tables, f[0].Tables...)
		subs = append(subs, f[1:]...)
	}
	return append([]*Block{out}, subs...)
}

// plain returns the non-empty lines as paragraphs in st.
func plain(st layout.Style, lines ...string) []layout.Para {
	var out []layout.Para
	for _, l := range lines {
		if l != "" {
			out = append(out, layout.Para{Text: l, Style: st})
		}
	}
	return out
}

// labelled returns "label: value" paragraphs for the key/value pairs whose
// value is not empty.
func labelled(lang Lang, st layout.Style, kv ...string) []layout.Para {
	var out []layout.Para
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			out = append(out, layout.Para{Text: text(lang, kv[i]) + ": " + kv[i+1], Style: st})
		}
	}
	return out
}

// withScheme is "id (scheme)", or id without a scheme; "" for nil.
func withScheme(id *model.Identifier) string {
	if id == nil || id.SchemeID == "" {
		v, _ := idParts(id)
		return v
	}
	return id.ID + " (" + id.SchemeID + ")"
}

// address is an electronic address with its scheme.
func address(ea *model.ElectronicAddress) string {
	if ea == nil {
		return ""
	}
	return withScheme(&model.Identifier{ID: ea.ID, SchemeID: ea.SchemeID})
}

// contactLines are a contact's name, telephone and email.
func contactLines(c *model.Contact) []string {
	if c == nil {
		return nil
	}
	return []string{c.Name, c.Telephone, c.Email}
}

// addressLines returns the lines of a postal address as printed on an
// envelope: street lines, post code and city, subdivision, country code.
func addressLines(a *model.Address) []string {
	var out []string
	for _, l := range []string{a.Line1, a.Line2, a.Line3, strings.TrimSpace(a.PostCode + " " + a.City), a.Subdivision, a.CountryCode} {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
