package model

import (
	"errors"
	"fmt"
)

// AmountScale is the number of fractional digits of a computed amount
// (BR-DEC-*: at most 2 decimals for every amount).
const AmountScale = 2

// priceDerivationScale bounds the digits of a net price derived from the
// line net amount: it is derived only when the division is exact within it.
const priceDerivationScale = 10

var decOne = DecimalFromInt(1)

// Complete applies the EN 16931 calculation rules to the absent values of
// inv and returns the JSON Pointers (relative to the invoice, e.g.
// "/lines/0/net_amount", "/totals/payable_amount") of every value it
// computed, in the order computed. Values the caller gave are never
// changed; business data is never invented (no parties, dates, exemption
// reasons, exchange rates).
//
// The method (see docs/MODEL.md):
//   - allowance/charge amount (BT-92, BT-99, BT-136, BT-141) = base × percentage / 100;
//   - line net amount BT-131 = quantity × net price / base quantity (1 when
//     absent) − Σ line allowances + Σ line charges;
//   - net price BT-146, when only BT-131 is given, = (BT-131 + Σ allowances −
//     Σ charges) × base quantity / quantity, only when that division is exact;
//   - BT-106 = Σ BT-131; BT-107 = Σ BT-92 and BT-108 = Σ BT-99 (only when
//     there are such allowances/charges); BT-109 = BT-106 − BT-107 + BT-108;
//   - BG-23: one entry per VAT category code and rate over lines,
//     allowances and charges, in the order of first appearance; BT-116 =
//     Σ BT-131 − Σ BT-92 + Σ BT-99 of that category and rate; BT-117 =
//     BT-116 × rate / 100 (0 without a rate). Entries the caller gave are
//     matched by code and rate and only their absent amounts are filled
//     (that is how exemption reasons are given); missing groups are added;
//   - BT-110 = Σ BT-117; BT-112 = BT-109 + BT-110; BT-115 = BT-112 − BT-113 + BT-114.
//
// Every computed amount is rounded once, at the end of its own formula, to
// 2 decimals, halves away from zero (0.005 → 0.01, −0.005 → −0.01).
//
// A value that cannot be computed (no price and no net amount, a zero
// quantity or base quantity, a price that is not an exact quotient) is a
// Problems error of type calculation_error whose loc starts with locPrefix;
// the totals are then left absent.
func (inv *Invoice) Complete(locPrefix ...any) (computed []string, err error) {
	c := &calc{prefix: locPrefix}
	c.run(inv)
	if len(c.problems) > 0 {
		return c.computed, c.problems
	}
	return c.computed, nil
}

type calc struct {
	prefix   []any
	computed []string
	problems Problems
}

func (c *calc) note(loc ...any) { c.computed = append(c.computed, pointer(loc)) }

func (c *calc) fail(msg string, ctx map[string]any, loc ...any) {
	l := append(append([]any{}, c.prefix...), loc...)
	c.problems = append(c.problems, Problem{Loc: l, Msg: msg, Type: ProblemCalculation, Ctx: ctx})
}

func sumAmounts[T any](xs []T, amount func(*T) *Decimal) Decimal {
	var s Decimal
	for i := range xs {
		if a := amount(&xs[i]); a != nil {
			s = s.Add(*a)
		}
	}
	return s
}

// allowanceAmount computes base × percentage / 100 when amount is absent.
func (c *calc) allowanceAmount(amount **Decimal, base, pct *Decimal, loc ...any) {
	if *amount != nil || base == nil || pct == nil {
		return
	}
	v := base.Mul(*pct).Mul(NewDecimal(1, 2)).Round(AmountScale)
	*amount = &v
	c.note(append(loc, "amount")...)
}

func normaliseCategory(code *VATCategoryCode, name *VATCategory) {
	if *code == "" {
		*code = name.Code()
	}
	if *name == "" {
		*name = code.Category()
	}
}

func (c *calc) run(inv *Invoice) {
	lineOK := true
	for i := range inv.Lines {
		if !c.line(&inv.Lines[i], []any{"lines", i}) {
			lineOK = false
		}
	}
	for i := range inv.Allowances {
		a := &inv.Allowances[i]
		normaliseCategory(&a.VATCategoryCode, &a.Category)
		c.allowanceAmount(&a.Amount, a.BaseAmount, a.Percentage, "allowances", i)
	}
	for i := range inv.Charges {
		a := &inv.Charges[i]
		normaliseCategory(&a.VATCategoryCode, &a.Category)
		c.allowanceAmount(&a.Amount, a.BaseAmount, a.Percentage, "charges", i)
	}
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		normaliseCategory(&v.VATCategoryCode, &v.Category)
	}
	if !lineOK {
		return
	}
	for i := range inv.Allowances {
		if inv.Allowances[i].Amount == nil {
			return
		}
	}
	for i := range inv.Charges {
		if inv.Charges[i].Amount == nil {
			return
		}
	}
	c.breakdown(inv)
	c.totals(inv)
}

// at returns loc followed by more, in a new slice.
func at(loc []any, more ...any) []any {
	return append(append(make([]any, 0, len(loc)+len(more)), loc...), more...)
}

// line completes one line (loc is its JSON path, "lines", i); it reports
// whether the line has a net amount. Its sub-lines (BG-DEX-01) are
// completed by the same rules, each on its own: they are detail of the
// line and never enter its amount or the totals.
func (c *calc) line(l *Line, loc []any) bool {
	for j := range l.SubLines {
		c.line(&l.SubLines[j], at(loc, "sub_lines", j))
	}
	normaliseCategory(&l.VATCategoryCode, &l.Category)
	for j := range l.Allowances {
		a := &l.Allowances[j]
		c.allowanceAmount(&a.Amount, a.BaseAmount, a.Percentage, at(loc, "allowances", j)...)
	}
	for j := range l.Charges {
		a := &l.Charges[j]
		c.allowanceAmount(&a.Amount, a.BaseAmount, a.Percentage, at(loc, "charges", j)...)
	}
	for _, xs := range [][]LineAllowanceCharge{l.Allowances, l.Charges} {
		for j := range xs {
			if xs[j].Amount == nil {
				return false
			}
		}
	}
	adjust := sumAmounts(l.Charges, func(a *LineAllowanceCharge) *Decimal { return a.Amount }).
		Sub(sumAmounts(l.Allowances, func(a *LineAllowanceCharge) *Decimal { return a.Amount }))
	base := decOne
	if l.BaseQuantity != nil {
		base = *l.BaseQuantity
	}
	if base.IsZero() {
		c.fail("base quantity (BT-149) is zero", map[string]any{"bt": "BT-149"}, at(loc, "base_quantity")...)
		return l.NetAmount != nil
	}
	if l.NetAmount == nil {
		if l.NetPrice == nil {
			c.fail("no net price (BT-146) and no net amount (BT-131): the line net amount cannot be computed",
				map[string]any{"bt": "BT-146"}, at(loc, "net_price")...)
			return false
		}
		gross := l.Quantity.Mul(*l.NetPrice)
		if !base.Equal(decOne) {
			q, err := gross.Div(base, AmountScale)
			if err != nil {
				c.fail("base quantity (BT-149) is zero", map[string]any{"bt": "BT-149"}, at(loc, "base_quantity")...)
				return false
			}
			gross = q
		} else {
			gross = gross.Round(AmountScale)
		}
		v := gross.Add(adjust).Round(AmountScale)
		l.NetAmount = &v
		c.note(at(loc, "net_amount")...)
	}
	if l.NetPrice == nil {
		if l.Quantity.IsZero() {
			c.fail("quantity (BT-129) is zero: the net price (BT-146) cannot be derived; give net_price",
				map[string]any{"bt": "BT-146"}, at(loc, "net_price")...)
			return true
		}
		x := l.NetAmount.Sub(adjust).Mul(base)
		p, err := x.Div(l.Quantity, priceDerivationScale)
		if err != nil || !p.Mul(l.Quantity).Equal(x) {
			c.fail(fmt.Sprintf("net price (BT-146) is not an exact quotient of net amount %s and quantity %s; give net_price",
				l.NetAmount, l.Quantity), map[string]any{"bt": "BT-146"}, at(loc, "net_price")...)
			return true
		}
		l.NetPrice = &p
		c.note(at(loc, "net_price")...)
	}
	return true
}

// vatKey identifies a VAT breakdown group: category code and rate.
type vatKey struct {
	code VATCategoryCode
	rate string // the rate's normalised value; "0" also without a rate
}

func keyOf(code VATCategoryCode, rate *Decimal) vatKey {
	// The value, not its display scale: 19.00 is 19. An absent rate is the
	// same group as 0 (documents give O, E, ... with Percent 0 or without).
	k := vatKey{code: code, rate: "0"}
	if rate != nil {
		k.rate = rate.v.String()
	}
	return k
}

type vatGroup struct {
	key     vatKey
	rate    *Decimal
	taxable Decimal
}

func (c *calc) breakdown(inv *Invoice) {
	var groups []*vatGroup
	idx := map[vatKey]*vatGroup{}
	add := func(code VATCategoryCode, rate *Decimal, amt Decimal) {
		k := keyOf(code, rate)
		g := idx[k]
		if g == nil {
			g = &vatGroup{key: k, rate: rate}
			idx[k] = g
			groups = append(groups, g)
		}
		g.taxable = g.taxable.Add(amt)
	}
	for i := range inv.Lines {
		l := &inv.Lines[i]
		add(l.VATCategoryCode, l.VATRate, *l.NetAmount)
	}
	for i := range inv.Allowances {
		a := &inv.Allowances[i]
		add(a.VATCategoryCode, a.VATRate, a.Amount.Neg())
	}
	for i := range inv.Charges {
		a := &inv.Charges[i]
		add(a.VATCategoryCode, a.VATRate, *a.Amount)
	}
	given := map[vatKey]bool{}
	for i := range inv.VATBreakdown {
		v := &inv.VATBreakdown[i]
		k := keyOf(v.VATCategoryCode, v.VATRate)
		given[k] = true
		if v.TaxableAmount == nil {
			g := idx[k]
			if g == nil {
				c.fail(fmt.Sprintf("no line, allowance or charge has VAT category %s and rate %q: the taxable amount cannot be computed",
					k.code, k.rate), map[string]any{"bt": "BT-116"}, "vat_breakdown", i, "taxable_amount")
				continue
			}
			t := g.taxable.Round(AmountScale)
			v.TaxableAmount = &t
			c.note("vat_breakdown", i, "taxable_amount")
		}
		if v.TaxAmount == nil {
			t := taxOf(*v.TaxableAmount, v.VATRate)
			v.TaxAmount = &t
			c.note("vat_breakdown", i, "tax_amount")
		}
	}
	for _, g := range groups {
		if given[g.key] {
			continue
		}
		t := g.taxable.Round(AmountScale)
		tax := taxOf(t, g.rate)
		var rate *Decimal
		if g.rate != nil {
			r := *g.rate
			rate = &r
		}
		inv.VATBreakdown = append(inv.VATBreakdown, VATBreakdown{
			TaxableAmount: &t, TaxAmount: &tax, VATCategoryCode: g.key.code,
			Category: g.key.code.Category(), VATRate: rate,
		})
		c.note("vat_breakdown", len(inv.VATBreakdown)-1)
	}
}

// taxOf returns taxable × rate / 100 rounded to 2 decimals (0 without a rate).
func taxOf(taxable Decimal, rate *Decimal) Decimal {
	if rate == nil {
		return Decimal{}
	}
	return taxable.Mul(*rate).Mul(NewDecimal(1, 2)).Round(AmountScale)
}

func (c *calc) totals(inv *Invoice) {
	if len(c.problems) > 0 {
		return
	}
	if inv.Totals == nil {
		inv.Totals = &Totals{}
	}
	t := inv.Totals
	set := func(p **Decimal, v Decimal, name string) {
		if *p == nil {
			v = v.Round(AmountScale)
			*p = &v
			c.note("totals", name)
		}
	}
	set(&t.LineNetTotal, sumAmounts(inv.Lines, func(l *Line) *Decimal { return l.NetAmount }), "line_net_total")
	if len(inv.Allowances) > 0 {
		set(&t.AllowanceTotal, sumAmounts(inv.Allowances, func(a *AllowanceCharge) *Decimal { return a.Amount }), "allowance_total")
	}
	if len(inv.Charges) > 0 {
		set(&t.ChargeTotal, sumAmounts(inv.Charges, func(a *AllowanceCharge) *Decimal { return a.Amount }), "charge_total")
	}
	set(&t.TaxExclusiveAmount, t.LineNetTotal.Sub(orZero(t.AllowanceTotal)).Add(orZero(t.ChargeTotal)), "tax_exclusive_amount")
	set(&t.TaxAmount, sumAmounts(inv.VATBreakdown, func(v *VATBreakdown) *Decimal { return v.TaxAmount }), "tax_amount")
	set(&t.TaxInclusiveAmount, t.TaxExclusiveAmount.Add(*t.TaxAmount), "tax_inclusive_amount")
	set(&t.PayableAmount, t.TaxInclusiveAmount.Sub(orZero(t.PaidAmount)).Add(orZero(t.RoundingAmount)), "payable_amount")
}

func orZero(d *Decimal) Decimal {
	if d == nil {
		return Decimal{}
	}
	return *d
}

// IsCalculationError reports whether err is a Problems list from Complete.
func IsCalculationError(err error) bool {
	var ps Problems
	if !errors.As(err, &ps) {
		return false
	}
	for _, p := range ps {
		if p.Type != ProblemCalculation {
			return false
		}
	}
	return len(ps) > 0
}
