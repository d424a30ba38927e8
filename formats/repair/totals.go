package repair

import (
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

// totalBTs are the document totals the repair may change, in the order
// they are checked.
var totalBTs = [...]string{"BT-106", "BT-107", "BT-108", "BT-109", "BT-110", "BT-112", "BT-115"}

// required reports whether a total is 1..1 in EN 16931 (a missing one is
// reported, never inserted).
func required(bt string) bool {
	return bt == "BT-106" || bt == "BT-109" || bt == "BT-112" || bt == "BT-115"
}

// locator holds the source elements of the totals and of the VAT breakdown
// entries (in the order the syntax reader read them).
type locator struct {
	totals    map[string]xmltree.NodeID
	subtotals []subtotalNodes
	// where names the totals group for problems about missing elements.
	where string
}

type subtotalNodes struct {
	taxable, tax xmltree.NodeID
}

func child(doc *xmltree.Document, n xmltree.NodeID, space, local string) xmltree.NodeID {
	if n == xmltree.None {
		return xmltree.None
	}
	name, ok := doc.LookupName(space, local)
	if !ok {
		return xmltree.None
	}
	for c := doc.FirstChild(n); c != xmltree.None; c = doc.NextSibling(c) {
		if doc.Kind(c) == xmltree.KindElement && doc.Name(c) == name {
			return c
		}
	}
	return xmltree.None
}

func children(doc *xmltree.Document, n xmltree.NodeID, space, local string) []xmltree.NodeID {
	var out []xmltree.NodeID
	name, ok := doc.LookupName(space, local)
	if !ok || n == xmltree.None {
		return nil
	}
	for c := doc.FirstChild(n); c != xmltree.None; c = doc.NextSibling(c) {
		if doc.Kind(c) == xmltree.KindElement && doc.Name(c) == name {
			out = append(out, c)
		}
	}
	return out
}

func currencyOf(doc *xmltree.Document, n xmltree.NodeID) string {
	name, ok := doc.LookupName("", "currencyID")
	if !ok || n == xmltree.None {
		return ""
	}
	a := doc.Attr(n, name)
	if a == xmltree.None {
		return ""
	}
	return strings.TrimSpace(doc.Value(a))
}

// ublLocator finds the totals of a UBL document: cac:LegalMonetaryTotal and
// the first cac:TaxTotal in the document currency (the one formats/ubl
// reads the VAT breakdown from).
func ublLocator(doc *xmltree.Document, currency string) locator {
	root := doc.Root()
	lmt := child(doc, root, ubl.NSCAC, "LegalMonetaryTotal")
	loc := locator{where: doc.Path(root) + "/LegalMonetaryTotal", totals: map[string]xmltree.NodeID{
		"BT-106": child(doc, lmt, ubl.NSCBC, "LineExtensionAmount"),
		"BT-107": child(doc, lmt, ubl.NSCBC, "AllowanceTotalAmount"),
		"BT-108": child(doc, lmt, ubl.NSCBC, "ChargeTotalAmount"),
		"BT-109": child(doc, lmt, ubl.NSCBC, "TaxExclusiveAmount"),
		"BT-110": xmltree.None,
		"BT-112": child(doc, lmt, ubl.NSCBC, "TaxInclusiveAmount"),
		"BT-115": child(doc, lmt, ubl.NSCBC, "PayableAmount"),
	}}
	for _, tt := range children(doc, root, ubl.NSCAC, "TaxTotal") {
		ta := child(doc, tt, ubl.NSCBC, "TaxAmount")
		if currencyOf(doc, ta) != currency {
			continue
		}
		loc.totals["BT-110"] = ta
		for _, st := range children(doc, tt, ubl.NSCAC, "TaxSubtotal") {
			loc.subtotals = append(loc.subtotals, subtotalNodes{
				taxable: child(doc, st, ubl.NSCBC, "TaxableAmount"),
				tax:     child(doc, st, ubl.NSCBC, "TaxAmount"),
			})
		}
		break
	}
	return loc
}

// ciiLocator finds the totals of a CII document in
// ram:ApplicableHeaderTradeSettlement.
func ciiLocator(doc *xmltree.Document, currency string) locator {
	tx := child(doc, doc.Root(), cii.NSRSM, "SupplyChainTradeTransaction")
	st := child(doc, tx, cii.NSRAM, "ApplicableHeaderTradeSettlement")
	ms := child(doc, st, cii.NSRAM, "SpecifiedTradeSettlementHeaderMonetarySummation")
	where := "/CrossIndustryInvoice[1]/SupplyChainTradeTransaction[1]/ApplicableHeaderTradeSettlement[1]/SpecifiedTradeSettlementHeaderMonetarySummation[1]"
	if ms != xmltree.None {
		where = doc.Path(ms)
	}
	loc := locator{where: where, totals: map[string]xmltree.NodeID{
		"BT-106": child(doc, ms, cii.NSRAM, "LineTotalAmount"),
		"BT-107": child(doc, ms, cii.NSRAM, "AllowanceTotalAmount"),
		"BT-108": child(doc, ms, cii.NSRAM, "ChargeTotalAmount"),
		"BT-109": child(doc, ms, cii.NSRAM, "TaxBasisTotalAmount"),
		"BT-110": xmltree.None,
		"BT-112": child(doc, ms, cii.NSRAM, "GrandTotalAmount"),
		"BT-115": child(doc, ms, cii.NSRAM, "DuePayableAmount"),
	}}
	for _, n := range children(doc, ms, cii.NSRAM, "TaxTotalAmount") {
		if currencyOf(doc, n) == currency {
			loc.totals["BT-110"] = n
			break
		}
	}
	for _, t := range children(doc, st, cii.NSRAM, "ApplicableTradeTax") {
		loc.subtotals = append(loc.subtotals, subtotalNodes{
			taxable: child(doc, t, cii.NSRAM, "BasisAmount"),
			tax:     child(doc, t, cii.NSRAM, "CalculatedAmount"),
		})
	}
	return loc
}

// vatTolerance is the difference BR-CO-17 accepts between a VAT category
// tax amount and taxable amount × rate: a source value within it is kept.
var vatTolerance = model.NewDecimal(1, 0)

// repairTotals recomputes the VAT breakdown amounts and the document totals
// from the lines, document allowances and charges of inv (which it
// changes), and edits the source elements whose values differ.
func repairTotals(ed *editor, inv *model.Invoice, loc locator, res *Result) {
	doc := ed.doc
	nSrc := len(inv.VATBreakdown)
	var paid, rounding, taxCur *model.Decimal
	if inv.Totals != nil {
		paid, rounding, taxCur = inv.Totals.PaidAmount, inv.Totals.RoundingAmount, inv.Totals.TaxAmountInTaxCurrency
	}
	inv.Totals = &model.Totals{PaidAmount: paid, RoundingAmount: rounding, TaxAmountInTaxCurrency: taxCur}
	for i := range inv.VATBreakdown {
		inv.VATBreakdown[i].TaxableAmount, inv.VATBreakdown[i].TaxAmount = nil, nil
	}
	if _, err := inv.Complete(); err != nil {
		res.Unfixed = append(res.Unfixed, Problem{Location: loc.where, BT: "BG-22", Reason: "totals not recomputed, the lines do not give them: " + err.Error()})
		return
	}
	zero := model.NewDecimal(0, 0)
	val := func(d *model.Decimal) model.Decimal {
		if d == nil {
			return zero
		}
		return *d
	}

	// VAT breakdown: BT-116 from the lines; BT-117 kept within BR-CO-17's
	// tolerance, else BT-116 × rate.
	taxTotal := val(inv.Totals.TaxAmount)
	if len(loc.subtotals) == nSrc && nSrc > 0 {
		taxTotal = zero
		for i, st := range loc.subtotals {
			v := inv.VATBreakdown[i]
			fix(ed, res, st.taxable, "BT-116", val(v.TaxableAmount), "VAT category taxable amount recomputed from the lines, allowances and charges of its category and rate")
			want := val(v.TaxAmount)
			cur, ok := sourceAmount(doc, st.tax)
			keep := ok && (cur.Equal(want) ||
				(v.VATRate != nil && !v.VATRate.IsZero() && cur.Sub(want).Abs().Cmp(vatTolerance) < 0))
			var eff model.Decimal
			switch {
			case keep:
				eff = cur
			case fix(ed, res, st.tax, "BT-117", want, "VAT category tax amount = taxable amount × rate / 100, rounded to 2 decimals (the source value is outside the tolerance of BR-CO-17)"):
				eff = want
			case ok:
				eff = cur // could not be rewritten: the totals follow the document as it stays
			default:
				eff = want
			}
			taxTotal = taxTotal.Add(eff)
		}
		for _, v := range inv.VATBreakdown[nSrc:] {
			res.Unfixed = append(res.Unfixed, Problem{Location: loc.where, BT: "BG-23", Value: string(v.CategoryCode()) + " " + rateString(v.VATRate),
				Reason: "the lines have VAT category " + string(v.CategoryCode()) + " rate " + rateString(v.VATRate) + " with taxable amount " + val(v.TaxableAmount).StringFixed(2) + " but the VAT breakdown has no entry for it; not inserted"})
		}
	} else if len(loc.subtotals) != nSrc {
		res.Unfixed = append(res.Unfixed, Problem{Location: loc.where, BT: "BG-23", Reason: "VAT breakdown entries could not be paired with the source elements; left as written"})
	}

	t := inv.Totals
	lineNet, allow, charge := val(t.LineNetTotal), val(t.AllowanceTotal), val(t.ChargeTotal)
	exclusive := lineNet.Sub(allow).Add(charge)
	inclusive := exclusive.Add(taxTotal)
	payable := inclusive.Sub(val(paid)).Add(val(rounding))
	want := map[string]model.Decimal{
		"BT-106": lineNet, "BT-107": allow, "BT-108": charge, "BT-109": exclusive,
		"BT-110": taxTotal, "BT-112": inclusive, "BT-115": payable,
	}
	reasons := map[string]string{
		"BT-106": "sum of invoice line net amounts (BT-131)",
		"BT-107": "sum of document level allowances (BT-92)",
		"BT-108": "sum of document level charges (BT-99)",
		"BT-109": "BT-106 − BT-107 + BT-108",
		"BT-110": "sum of the VAT category tax amounts (BT-117)",
		"BT-112": "BT-109 + BT-110",
		"BT-115": "BT-112 − BT-113 + BT-114",
	}
	for _, bt := range totalBTs {
		n := loc.totals[bt]
		if n == xmltree.None {
			if required(bt) || !want[bt].IsZero() {
				res.Unfixed = append(res.Unfixed, Problem{Location: loc.where, BT: bt, Value: want[bt].StringFixed(2), Reason: "missing from the document (" + reasons[bt] + " is " + want[bt].StringFixed(2) + "); not inserted"})
			}
			continue
		}
		fix(ed, res, n, bt, want[bt], "recomputed: "+reasons[bt])
	}
}

// fix sets element n to want when its value differs; it reports false when
// the value differs and could not be changed.
func fix(ed *editor, res *Result, n xmltree.NodeID, bt string, want model.Decimal, reason string) bool {
	doc := ed.doc
	if n == xmltree.None {
		return true
	}
	cur, ok := sourceAmount(doc, n)
	if ok && cur.Equal(want) {
		return true
	}
	from := strings.TrimSpace(doc.StringValue(n))
	to := want.StringFixed(2)
	if done, why := ed.setText(n, to); !done {
		res.Unfixed = append(res.Unfixed, Problem{Location: doc.Path(n), BT: bt, Value: from, Reason: "should be " + to + " (" + reason + ") but was not rewritten: " + why})
		return false
	}
	res.Changes = append(res.Changes, Change{Location: doc.Path(n), BT: bt, From: from, To: to, Reason: reason})
	return true
}

func sourceAmount(doc *xmltree.Document, n xmltree.NodeID) (model.Decimal, bool) {
	if n == xmltree.None {
		return model.Decimal{}, false
	}
	d, err := model.ParseDecimal(strings.TrimSpace(doc.StringValue(n)))
	return d, err == nil
}

func rateString(r *model.Decimal) string {
	if r == nil {
		return "(none)"
	}
	return r.String() + "%"
}
