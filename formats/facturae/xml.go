package facturae

import (
	"strings"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

func (g *gen) write(w *xmlio.Writer, res *Result, seller, buyer *party, lines []line, irpfBase model.Decimal) {
	inv, ex, t := g.inv, g.ex, g.inv.Totals
	w.Root("fe:Facturae", []xmlio.Namespace{{Prefix: "fe", URI: Namespace}})
	w.Start("FileHeader")
	w.Element("SchemaVersion", "3.2.2")
	w.Element("Modality", "I")
	w.Element("InvoiceIssuerType", "EM")
	w.Start("Batch")
	id := seller.tin + ex.SeriesCode + inv.ID
	if len(id) > 70 {
		id = id[:70]
	}
	w.Element("BatchIdentifier", id)
	w.Element("InvoicesCount", "1")
	amount(w, "TotalInvoicesAmount", res.InvoiceTotal)
	amount(w, "TotalOutstandingAmount", res.TotalExecutableAmount)
	amount(w, "TotalExecutableAmount", res.TotalExecutableAmount)
	w.Element("InvoiceCurrencyCode", string(inv.CurrencyCode))
	w.End()
	w.End()

	w.Start("Parties")
	writeParty(w, "SellerParty", seller)
	writeParty(w, "BuyerParty", buyer)
	w.End()

	w.Start("Invoices")
	w.Start("Invoice")
	w.Start("InvoiceHeader")
	w.Element("InvoiceNumber", inv.ID)
	opt(w, "InvoiceSeriesCode", ex.SeriesCode)
	w.Element("InvoiceDocumentType", "FC")
	if inv.TypeCode == "381" {
		w.Element("InvoiceClass", "OR")
		g.corrective(w)
	} else {
		w.Element("InvoiceClass", "OO")
	}
	w.End()
	w.Start("InvoiceIssueData")
	w.Element("IssueDate", inv.IssueDate.String())
	if p := inv.InvoicingPeriod; p != nil {
		period(w, "InvoicingPeriod", *p.Start, *p.End)
	}
	w.Element("InvoiceCurrencyCode", string(inv.CurrencyCode))
	w.Element("TaxCurrencyCode", string(inv.CurrencyCode))
	lang := ex.Language
	if lang == "" {
		lang = "es"
	}
	w.Element("LanguageName", lang)
	opt(w, "ReceiverTransactionReference", inv.PurchaseOrderReference)
	opt(w, "ReceiverContractReference", inv.ContractReference)
	w.End()

	w.Start("TaxesOutputs")
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		code, _ := taxCode(v.CategoryCode())
		rate := model.DecimalFromInt(0)
		if v.VATRate != nil {
			rate = *v.VATRate
		}
		tax(w, code, rate, *v.TaxableAmount, *v.TaxAmount)
	}
	w.End()
	if ex.IRPFRate != nil {
		w.Start("TaxesWithheld")
		tax(w, "04", *ex.IRPFRate, irpfBase, res.TotalTaxesWithheld)
		w.End()
	}

	w.Start("InvoiceTotals")
	w.Element("TotalGrossAmount", carry.Round2(*t.LineNetTotal).String())
	adjustments(w, "GeneralDiscounts", "Discount", inv.Allowances, docAdjust)
	adjustments(w, "GeneralSurcharges", "Charge", inv.Charges, docAdjust)
	if len(inv.Allowances) > 0 {
		w.Element("TotalGeneralDiscounts", carry.Round2(*t.AllowanceTotal).String())
	}
	if len(inv.Charges) > 0 {
		w.Element("TotalGeneralSurcharges", carry.Round2(*t.ChargeTotal).String())
	}
	w.Element("TotalGrossAmountBeforeTaxes", carry.Round2(*t.TaxExclusiveAmount).String())
	w.Element("TotalTaxOutputs", res.TotalTaxOutputs.String())
	w.Element("TotalTaxesWithheld", res.TotalTaxesWithheld.String())
	w.Element("InvoiceTotal", res.InvoiceTotal.String())
	w.Element("TotalOutstandingAmount", res.TotalExecutableAmount.String())
	w.Element("TotalExecutableAmount", res.TotalExecutableAmount.String())
	w.End()

	w.Start("Items")
	for i := range lines {
		g.writeLine(w, &lines[i])
	}
	w.End()

	if pi := inv.PaymentInstructions; pi != nil {
		w.Start("PaymentDetails")
		w.Start("Installment")
		w.Element("InstallmentDueDate", inv.DueDate.String())
		w.Element("InstallmentAmount", res.TotalExecutableAmount.String())
		w.Element("PaymentMeans", paymentMeans[pi.MeansCode])
		if len(pi.CreditTransfers) == 1 {
			ct := pi.CreditTransfers[0]
			w.Start("AccountToBeCredited")
			w.Element("IBAN", ct.AccountID)
			opt(w, "BIC", bic(ct.ServiceProviderID))
			w.End()
		}
		w.End()
		w.End()
	}
	if len(inv.Notes) > 0 {
		var notes []string
		for _, n := range inv.Notes {
			notes = append(notes, n.Text)
		}
		w.Start("AdditionalData")
		w.Element("InvoiceAdditionalInformation", strings.Join(notes, "\n"))
		w.End()
	}
	w.End() // Invoice
	w.End() // Invoices
	w.End() // Facturae
}

// corrective writes the Corrective group of a credit note: the invoice it
// corrects, the reason and method (with their descriptions) and the tax
// period: the invoicing period, else the corrected invoice's date, else
// this invoice's.
func (g *gen) corrective(w *xmlio.Writer) {
	inv, c := g.inv, g.ex.Corrective
	prev := inv.PrecedingInvoices[0]
	w.Start("Corrective")
	w.Element("InvoiceNumber", prev.ID)
	w.Element("ReasonCode", c.ReasonCode)
	w.Element("ReasonDescription", reasons[c.ReasonCode])
	start, end := inv.IssueDate, inv.IssueDate
	switch {
	case inv.InvoicingPeriod != nil:
		start, end = *inv.InvoicingPeriod.Start, *inv.InvoicingPeriod.End
	case prev.IssueDate != nil:
		start, end = *prev.IssueDate, *prev.IssueDate
	}
	period(w, "TaxPeriod", start, end)
	w.Element("CorrectionMethod", c.CorrectionMethod)
	w.Element("CorrectionMethodDescription", methods[c.CorrectionMethod])
	if prev.IssueDate != nil {
		w.Element("InvoiceIssueDate", prev.IssueDate.String())
	}
	w.End()
}

func (g *gen) writeLine(w *xmlio.Writer, ln *line) {
	l := ln.l
	w.Start("InvoiceLine")
	w.Element("SequenceNumber", ln.seq)
	w.Element("ItemDescription", l.Item.Name)
	w.Element("Quantity", l.Quantity.String())
	w.Element("UnitOfMeasure", ln.unit)
	w.Element("UnitPriceWithoutTax", ln.price)
	w.Element("TotalCost", ln.totalCost.String())
	adjustments(w, "DiscountsAndRebates", "Discount", l.Allowances, lineAdjust)
	adjustments(w, "Charges", "Charge", l.Charges, lineAdjust)
	w.Element("GrossAmount", ln.gross.String())
	if r := g.ex.IRPFRate; r != nil && ln.irpf {
		w.Start("TaxesWithheld")
		tax(w, "04", *r, ln.gross, carry.Percent(ln.gross, *r))
		w.End()
	}
	w.Start("TaxesOutputs")
	tax(w, ln.taxCode, ln.rate, ln.gross, carry.Percent(ln.gross, ln.rate))
	w.End()
	if p := l.Period; p != nil {
		period(w, "LineItemPeriod", *p.Start, *p.End)
	}
	opt(w, "AdditionalLineItemInformation", l.Item.Description)
	if ln.special != "" {
		w.Start("SpecialTaxableEvent")
		w.Element("SpecialTaxableEventCode", ln.special)
		w.Element("SpecialTaxableEventReason", ln.reason)
		w.End()
	}
	opt(w, "ArticleCode", l.Item.SellerID)
	w.End()
}

func writeParty(w *xmlio.Writer, name string, p *party) {
	w.Start(name)
	w.Start("TaxIdentification")
	w.Element("PersonTypeCode", "J")
	res := "E"
	switch {
	case p.country == "ES":
		res = "R"
	case eu[p.country]:
		res = "U"
	}
	w.Element("ResidenceTypeCode", res)
	w.Element("TaxIdentificationNumber", p.tin)
	w.End()
	w.Start("LegalEntity")
	w.Element("CorporateName", p.name)
	opt(w, "TradeName", p.trading)
	a := p.addr
	if p.country == "ES" {
		w.Start("AddressInSpain")
		w.Element("Address", a.Line1)
		w.Element("PostCode", a.PostCode)
		w.Element("Town", a.City)
		w.Element("Province", p.province)
		w.Element("CountryCode", "ESP")
	} else {
		w.Start("OverseasAddress")
		w.Element("Address", a.Line1)
		w.Element("PostCodeAndTown", strings.TrimSpace(a.PostCode+" "+a.City))
		w.Element("Province", p.province)
		w.Element("CountryCode", alpha3[p.country])
	}
	w.End()
	if c := p.contact; c != nil && (c.Telephone != "" || c.Email != "" || c.Name != "") {
		w.Start("ContactDetails")
		opt(w, "Telephone", c.Telephone)
		opt(w, "ElectronicMail", c.Email)
		opt(w, "ContactPersons", c.Name)
		w.End()
	}
	w.End()
	w.End()
}

func opt(w *xmlio.Writer, name, text string) {
	if text != "" {
		w.Element(name, text)
	}
}

func amount(w *xmlio.Writer, name string, d model.Decimal) {
	w.Start(name)
	w.Element("TotalAmount", carry.Round2(d).String())
	w.End()
}

func period(w *xmlio.Writer, name string, start, end model.Date) {
	w.Start(name)
	w.Element("StartDate", start.String())
	w.Element("EndDate", end.String())
	w.End()
}

func tax(w *xmlio.Writer, code string, rate, base, amt model.Decimal) {
	w.Start("Tax")
	w.Element("TaxTypeCode", code)
	w.Element("TaxRate", rate.Round(8).WithScale(max(2, min(rate.Scale(), 8))).String())
	amount(w, "TaxableBase", base)
	amount(w, "TaxAmount", amt)
	w.End()
}

// adjust writes an allowance (kind Discount) or a charge (kind Charge) of
// the document or of a line.
// adjustments writes the allowances or charges acs, when there are any,
// under wrap (GeneralDiscounts, Charges, ...), each as an adjust of kind;
// fields reads one of them.
func adjustments[A any](w *xmlio.Writer, wrap, kind string, acs []A, fields func(*A) (reason, code string, pct, amount *model.Decimal)) {
	if len(acs) == 0 {
		return
	}
	w.Start(wrap)
	for i := range acs {
		reason, code, pct, amount := fields(&acs[i])
		adjust(w, kind, reason, code, pct, amount)
	}
	w.End()
}

func docAdjust(a *model.AllowanceCharge) (reason, code string, pct, amount *model.Decimal) {
	return a.Reason, a.ReasonCode, a.Percentage, a.Amount
}

func lineAdjust(a *model.LineAllowanceCharge) (reason, code string, pct, amount *model.Decimal) {
	return a.Reason, a.ReasonCode, a.Percentage, a.Amount
}

func adjust(w *xmlio.Writer, kind, reason, code string, pct, amount *model.Decimal) {
	w.Start(kind)
	w.Element(kind+"Reason", reasonOf(reason, code))
	if pct != nil {
		w.Element(kind+"Rate", pct.String())
	}
	w.Element(kind+"Amount", carry.Round2(*amount).String())
	w.End()
}

// reasonOf is the reason text, else "code <reason code>" (DiscountReason
// and ChargeReason are required elements; an allowance or charge without
// either keeps it empty).
func reasonOf(reason, code string) string {
	if reason != "" || code == "" {
		return reason
	}
	return "code " + code
}
