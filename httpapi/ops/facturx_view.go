package ops

import (
	"context"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/pdf/layout"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// invoiceLayout is the visual page of generate/facturx until
// formats/render's compact view lands: seller, buyer, dates and references,
// lines, VAT breakdown, totals, payment details and notes. Amounts are
// printed as the document holds them (at least two decimals, "." as the
// decimal mark) with the currency code, dates as YYYY-MM-DD.
func invoiceLayout(ctx context.Context, inv *model.Invoice, opts pdfa.Options) (*layout.Document, error) {
	d, err := layout.New(layout.Options{PDF: opts})
	if err != nil {
		return nil, err
	}
	grey := pdfa.Color{R: 0.93, G: 0.93, B: 0.93}
	rule := pdfa.Color{R: 0.6, G: 0.6, B: 0.6}
	small := layout.Style{Size: 7.5, Color: pdfa.Color{R: 0.3, G: 0.3, B: 0.3}}
	bold := layout.Style{Font: layout.Bold}
	cur := inv.CurrencyCode

	d.Paragraph(documentKind(inv)+" "+inv.ID, layout.Style{Font: layout.Bold, Size: 16})
	d.Space(4)

	// parties
	d.Table(&layout.Table{
		Columns: []layout.Column{{}, {}},
		Header:  []layout.Row{{Cells: []layout.Cell{{Text: "Seller"}, {Text: "Buyer"}}}},
		Rows: []layout.Row{{Cells: []layout.Cell{
			partyCell(inv.Seller.Name, inv.Seller.TradingName, &inv.Seller.Address, inv.Seller.VATID, inv.Seller.Contact, bold),
			partyCell(inv.Buyer.Name, inv.Buyer.TradingName, &inv.Buyer.Address, inv.Buyer.VATID, inv.Buyer.Contact, bold),
		}}},
		Style: layout.Style{}, HeaderStyle: small,
	})
	d.Space(6)

	// dates and references
	kv := [][2]string{{"Invoice number", inv.ID}, {"Issue date", inv.IssueDate.String()}, {"Currency", cur}}
	if inv.DueDate != nil {
		kv = append(kv, [2]string{"Due date", inv.DueDate.String()})
	}
	if inv.TaxPointDate != nil {
		kv = append(kv, [2]string{"Tax point date", inv.TaxPointDate.String()})
	}
	if inv.Delivery != nil && inv.Delivery.Date != nil {
		kv = append(kv, [2]string{"Delivery date", inv.Delivery.Date.String()})
	}
	if p := inv.InvoicingPeriod; p != nil {
		kv = append(kv, [2]string{"Invoicing period", dateOrEmpty(p.Start) + " – " + dateOrEmpty(p.End)})
	}
	for _, r := range [][2]string{{"Buyer reference", inv.BuyerReference}, {"Purchase order", inv.PurchaseOrderReference}, {"Contract", inv.ContractReference}, {"Project", inv.ProjectReference}} {
		if r[1] != "" {
			kv = append(kv, r)
		}
	}
	for _, p := range inv.PrecedingInvoices {
		kv = append(kv, [2]string{"Preceding invoice", p.ID + " " + dateOrEmpty(p.IssueDate)})
	}
	d.Table(keyValues(kv, small))
	d.Space(6)

	// lines
	lines := &layout.Table{
		Columns: []layout.Column{{Width: 30}, {Weight: 1}, {Width: 55, Align: layout.Right}, {Width: 30}, {Width: 70, Align: layout.Right}, {Width: 45, Align: layout.Right}, {Width: 80, Align: layout.Right}},
		Header: []layout.Row{{Cells: []layout.Cell{{Text: "#"}, {Text: "Item"}, {Text: "Quantity"}, {Text: "Unit"},
			{Text: "Unit price"}, {Text: "VAT"}, {Text: "Net amount (" + cur + ")"}}}},
		HeaderFill: &grey, Border: layout.BorderRows, BorderColor: rule,
	}
	for i := range inv.Lines {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		l := &inv.Lines[i]
		item := layout.Cell{Text: l.Item.Name}
		for _, extra := range []string{l.Item.Description, l.Note} {
			if extra != "" {
				item.More = append(item.More, layout.Para{Text: extra, Style: small})
			}
		}
		if l.Period != nil {
			item.More = append(item.More, layout.Para{Text: "Period " + dateOrEmpty(l.Period.Start) + " – " + dateOrEmpty(l.Period.End), Style: small})
		}
		for _, a := range l.Allowances {
			item.More = append(item.More, layout.Para{Text: "Allowance " + amount(a.Amount) + " " + a.Reason, Style: small})
		}
		for _, c := range l.Charges {
			item.More = append(item.More, layout.Para{Text: "Charge " + amount(c.Amount) + " " + c.Reason, Style: small})
		}
		lines.Rows = append(lines.Rows, layout.Row{Cells: []layout.Cell{
			{Text: l.ID}, item, {Text: l.Quantity.String()}, {Text: l.UnitCode},
			{Text: decimal(l.NetPrice)}, {Text: vatLabel(l.CategoryCode(), l.VATRate)}, {Text: amount(l.NetAmount)},
		}})
	}
	d.Table(lines)
	d.Space(6)

	// document allowances and charges
	if len(inv.Allowances)+len(inv.Charges) > 0 {
		ac := &layout.Table{Columns: []layout.Column{{Weight: 1}, {Width: 45, Align: layout.Right}, {Width: 80, Align: layout.Right}},
			Header:     []layout.Row{{Cells: []layout.Cell{{Text: "Allowances and charges"}, {Text: "VAT"}, {Text: "Amount (" + cur + ")"}}}},
			HeaderFill: &grey, Border: layout.BorderRows, BorderColor: rule}
		for _, a := range inv.Allowances {
			ac.Rows = append(ac.Rows, layout.Row{Cells: []layout.Cell{{Text: "Allowance: " + a.Reason}, {Text: vatLabel(a.CategoryCode(), a.VATRate)}, {Text: "-" + amount(a.Amount)}}})
		}
		for _, c := range inv.Charges {
			ac.Rows = append(ac.Rows, layout.Row{Cells: []layout.Cell{{Text: "Charge: " + c.Reason}, {Text: vatLabel(c.CategoryCode(), c.VATRate)}, {Text: amount(c.Amount)}}})
		}
		d.Table(ac)
		d.Space(6)
	}

	// VAT breakdown
	vat := &layout.Table{
		Columns: []layout.Column{{Width: 60}, {Width: 50, Align: layout.Right}, {Weight: 1}, {Width: 90, Align: layout.Right}, {Width: 90, Align: layout.Right}},
		Header: []layout.Row{{Cells: []layout.Cell{{Text: "VAT category"}, {Text: "Rate"}, {Text: "Exemption reason"},
			{Text: "Taxable (" + cur + ")"}, {Text: "VAT (" + cur + ")"}}}},
		HeaderFill: &grey, Border: layout.BorderRows, BorderColor: rule,
	}
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		reason := strings.TrimSpace(strings.Join([]string{v.ExemptionReasonCode, v.ExemptionReason}, " "))
		rate := "-"
		if v.VATRate != nil {
			rate = v.VATRate.String() + " %"
		}
		vat.Rows = append(vat.Rows, layout.Row{Cells: []layout.Cell{{Text: string(v.CategoryCode())}, {Text: rate}, {Text: reason}, {Text: amount(v.TaxableAmount)}, {Text: amount(v.TaxAmount)}}})
	}
	d.Table(vat)
	d.Space(6)

	// totals
	if t := inv.Totals; t != nil {
		rows := [][2]string{{"Sum of line net amounts", amount(t.LineNetTotal)}}
		if t.AllowanceTotal != nil {
			rows = append(rows, [2]string{"Allowances", amount(t.AllowanceTotal)})
		}
		if t.ChargeTotal != nil {
			rows = append(rows, [2]string{"Charges", amount(t.ChargeTotal)})
		}
		rows = append(rows, [2]string{"Total without VAT", amount(t.TaxExclusiveAmount)}, [2]string{"VAT", amount(t.TaxAmount)},
			[2]string{"Total with VAT", amount(t.TaxInclusiveAmount)})
		if t.PaidAmount != nil {
			rows = append(rows, [2]string{"Paid", amount(t.PaidAmount)})
		}
		if t.RoundingAmount != nil {
			rows = append(rows, [2]string{"Rounding", amount(t.RoundingAmount)})
		}
		tt := &layout.Table{Columns: []layout.Column{{Weight: 1}, {Width: 150, Align: layout.Right}, {Width: 110, Align: layout.Right}}}
		for _, r := range rows {
			tt.Rows = append(tt.Rows, layout.Row{Cells: []layout.Cell{{}, {Text: r[0]}, {Text: r[1] + " " + cur}}})
		}
		tt.Rows = append(tt.Rows, layout.Row{Style: &bold, Fill: &grey, Cells: []layout.Cell{{}, {Text: "Amount due"}, {Text: amount(t.PayableAmount) + " " + cur}}})
		d.KeepTogether(float64(len(tt.Rows)) * (d.LineHeight(layout.Style{}) + 5))
		d.Table(tt)
		d.Space(8)
	}

	// payment
	var pay [][2]string
	if pi := inv.PaymentInstructions; pi != nil {
		means := pi.MeansCode
		if pi.MeansText != "" {
			means += " " + pi.MeansText
		}
		pay = append(pay, [2]string{"Payment means", means})
		for _, ct := range pi.CreditTransfers {
			acc := ct.AccountID
			if ct.AccountName != "" {
				acc += " (" + ct.AccountName + ")"
			}
			if ct.ServiceProviderID != "" {
				acc += " BIC " + ct.ServiceProviderID
			}
			pay = append(pay, [2]string{"Account", acc})
		}
		if c := pi.Card; c != nil {
			pay = append(pay, [2]string{"Card", c.PrimaryAccountNumber + " " + c.HolderName})
		}
		if dd := pi.DirectDebit; dd != nil {
			pay = append(pay, [2]string{"Direct debit", strings.TrimSpace("mandate " + dd.MandateReference + " creditor " + dd.CreditorID + " account " + dd.DebitedAccountID)})
		}
		if pi.RemittanceInformation != "" {
			pay = append(pay, [2]string{"Remittance information", pi.RemittanceInformation})
		}
	}
	if inv.PaymentTerms != "" {
		pay = append(pay, [2]string{"Payment terms", inv.PaymentTerms})
	}
	if len(pay) > 0 {
		d.Paragraph("Payment", bold)
		d.Table(keyValues(pay, small))
		d.Space(6)
	}
	for _, n := range inv.Notes {
		text := n.Text
		if n.SubjectCode != "" {
			text = n.SubjectCode + ": " + text
		}
		d.Paragraph(text, small)
	}
	return d, nil
}

// documentKind names the document by its type code.
func documentKind(inv *model.Invoice) string {
	if inv.TypeCode == "381" {
		return "Credit note"
	}
	return "Invoice"
}

func partyCell(name, trading string, a *model.Address, vatID string, c *model.Contact, bold layout.Style) layout.Cell {
	cell := layout.Cell{Text: name, Style: &bold}
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			cell.More = append(cell.More, layout.Para{Text: s})
		}
	}
	add(trading)
	add(a.Line1)
	add(a.Line2)
	add(a.Line3)
	add(strings.Join(strings.Fields(a.PostCode+" "+a.City), " "))
	add(strings.Join(strings.Fields(a.Subdivision+" "+a.CountryCode), " "))
	if vatID != "" {
		add("VAT ID " + vatID)
	}
	if c != nil {
		add(strings.Join(strings.Fields(c.Name+" "+c.Telephone+" "+c.Email), " "))
	}
	return cell
}

func keyValues(kv [][2]string, label layout.Style) *layout.Table {
	t := &layout.Table{Columns: []layout.Column{{Width: 120}, {Weight: 1}}}
	for _, r := range kv {
		t.Rows = append(t.Rows, layout.Row{Cells: []layout.Cell{{Text: r[0], Style: &label}, {Text: r[1]}}})
	}
	return t
}

func dateOrEmpty(d *model.Date) string {
	if d == nil {
		return ""
	}
	return d.String()
}

// amount prints an amount with at least two decimals.
func amount(d *model.Decimal) string {
	if d == nil {
		return ""
	}
	return d.StringFixed(max(d.DisplayScale(), 2))
}

func decimal(d *model.Decimal) string {
	if d == nil {
		return ""
	}
	return d.String()
}

func vatLabel(c model.VATCategoryCode, rate *model.Decimal) string {
	if rate == nil {
		return string(c)
	}
	return string(c) + " " + rate.String() + "%"
}
