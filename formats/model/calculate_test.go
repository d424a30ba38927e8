package model

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func d(s string) *Decimal { return Dec(MustParseDecimal(s)) }

func line(id, qty, price string, code VATCategoryCode, rate *Decimal) Line {
	return Line{ID: id, Quantity: MustParseDecimal(qty), UnitCode: "C62", NetPrice: d(price),
		VATCategoryCode: code, VATRate: rate, Item: Item{Name: "item " + id}}
}

func wantDec(t *testing.T, what string, got *Decimal, want string) {
	t.Helper()
	if got == nil {
		t.Errorf("%s absent, want %s", what, want)
		return
	}
	if !got.Equal(MustParseDecimal(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// TestCompleteWorkedExample is worked by hand in docs/MODEL.md.
func TestCompleteWorkedExample(t *testing.T) {
	l2 := line("2", "2", "12.50", VATStandard, d("19"))
	l2.Allowances = []LineAllowanceCharge{{Amount: d("2.00"), Reason: "Discount"}}
	l2.Charges = []LineAllowanceCharge{{BaseAmount: d("20"), Percentage: d("10"), Reason: "Packing"}}
	l3 := line("3", "1.5", "100", VATStandard, d("7"))
	l3.BaseQuantity = d("10")
	inv := &Invoice{
		Lines:        []Line{line("1", "3", "10.005", VATStandard, d("19")), l2, l3, line("4", "4", "25", VATExempt, d("0"))},
		Allowances:   []AllowanceCharge{{Amount: d("5.02"), VATCategoryCode: VATStandard, VATRate: d("19"), Reason: "Volume"}},
		Charges:      []AllowanceCharge{{BaseAmount: d("15"), Percentage: d("10"), Category: CategoryStandard, VATRate: d("7"), Reason: "Freight"}},
		VATBreakdown: []VATBreakdown{{Category: CategoryExempt, VATRate: d("0"), ExemptionReason: "Exempt (Art. 132)"}},
		Totals:       &Totals{PaidAmount: d("50"), RoundingAmount: d("0.04")},
	}
	computed, err := inv.Complete()
	if err != nil {
		t.Fatal(err)
	}
	wantDec(t, "line 1 net", inv.Lines[0].NetAmount, "30.02") // 30.015 half away from zero
	wantDec(t, "line 2 charge", inv.Lines[1].Charges[0].Amount, "2.00")
	wantDec(t, "line 2 net", inv.Lines[1].NetAmount, "25.00")
	wantDec(t, "line 3 net", inv.Lines[2].NetAmount, "15.00") // 1.5 × 100 / 10
	wantDec(t, "line 4 net", inv.Lines[3].NetAmount, "100.00")
	wantDec(t, "doc charge", inv.Charges[0].Amount, "1.50")
	if len(inv.VATBreakdown) != 3 {
		t.Fatalf("VAT breakdown = %+v", inv.VATBreakdown)
	}
	e, s19, s7 := inv.VATBreakdown[0], inv.VATBreakdown[1], inv.VATBreakdown[2]
	if e.VATCategoryCode != VATExempt || e.ExemptionReason != "Exempt (Art. 132)" {
		t.Errorf("exempt entry = %+v", e)
	}
	wantDec(t, "E taxable", e.TaxableAmount, "100")
	wantDec(t, "E tax", e.TaxAmount, "0")
	if s19.VATCategoryCode != VATStandard || !s19.VATRate.Equal(MustParseDecimal("19")) || s19.Category != CategoryStandard {
		t.Errorf("S19 entry = %+v", s19)
	}
	wantDec(t, "S19 taxable", s19.TaxableAmount, "50.00") // 30.02 + 25.00 − 5.02
	wantDec(t, "S19 tax", s19.TaxAmount, "9.50")
	wantDec(t, "S7 taxable", s7.TaxableAmount, "16.50") // 15.00 + 1.50
	wantDec(t, "S7 tax", s7.TaxAmount, "1.16")          // 1.155 half away from zero
	tt := inv.Totals
	wantDec(t, "BT-106", tt.LineNetTotal, "170.02")
	wantDec(t, "BT-107", tt.AllowanceTotal, "5.02")
	wantDec(t, "BT-108", tt.ChargeTotal, "1.50")
	wantDec(t, "BT-109", tt.TaxExclusiveAmount, "166.50")
	wantDec(t, "BT-110", tt.TaxAmount, "10.66")
	wantDec(t, "BT-112", tt.TaxInclusiveAmount, "177.16")
	wantDec(t, "BT-115", tt.PayableAmount, "127.20") // 177.16 − 50 + 0.04
	want := []string{"/lines/0/net_amount", "/lines/1/charges/0/amount", "/lines/1/net_amount", "/lines/2/net_amount",
		"/lines/3/net_amount", "/charges/0/amount", "/vat_breakdown/0/taxable_amount", "/vat_breakdown/0/tax_amount",
		"/vat_breakdown/1", "/vat_breakdown/2", "/totals/line_net_total", "/totals/allowance_total", "/totals/charge_total",
		"/totals/tax_exclusive_amount", "/totals/tax_amount", "/totals/tax_inclusive_amount", "/totals/payable_amount"}
	if !slices.Equal(computed, want) {
		t.Errorf("computed = %v\nwant %v", computed, want)
	}
	// A second run computes nothing and changes nothing.
	again, err := inv.Complete()
	if err != nil || len(again) != 0 {
		t.Errorf("second Complete = %v, %v", again, err)
	}
}

func TestCompleteKeepsGivenValues(t *testing.T) {
	inv := &Invoice{
		Lines:  []Line{line("1", "1", "100", VATStandard, d("19"))},
		Totals: &Totals{TaxExclusiveAmount: d("999"), PayableAmount: d("1")},
	}
	inv.Lines[0].NetAmount = d("90") // a caller's net amount that does not match the price is kept
	computed, err := inv.Complete()
	if err != nil {
		t.Fatal(err)
	}
	wantDec(t, "line net", inv.Lines[0].NetAmount, "90")
	wantDec(t, "BT-106", inv.Totals.LineNetTotal, "90")
	wantDec(t, "BT-109", inv.Totals.TaxExclusiveAmount, "999")
	wantDec(t, "BT-110", inv.Totals.TaxAmount, "17.10")
	wantDec(t, "BT-112", inv.Totals.TaxInclusiveAmount, "1016.10") // from the given BT-109
	wantDec(t, "BT-115", inv.Totals.PayableAmount, "1")
	if slices.Contains(computed, "/totals/tax_exclusive_amount") || slices.Contains(computed, "/lines/0/net_amount") {
		t.Errorf("computed lists given values: %v", computed)
	}
	if inv.Totals.AllowanceTotal != nil || inv.Totals.ChargeTotal != nil {
		t.Error("BT-107/BT-108 invented without allowances or charges")
	}
}

func TestCompleteRoundingEdges(t *testing.T) {
	for _, tc := range []struct {
		qty, price, rate, net, tax string
	}{
		{"1", "0.05", "10", "0.05", "0.01"},    // tax 0.005 → 0.01
		{"-1", "0.05", "10", "-0.05", "-0.01"}, // −0.005 → −0.01 (away from zero)
		{"3", "0.335", "0", "1.01", "0"},       // 1.005 → 1.01
		{"0.333", "3", "19", "1", "0.19"},      // 0.999 → 1.00; 0.19
		{"7", "1.4285", "21", "10", "2.1"},     // 9.9995 → 10.00
		{"1", "0.044", "20", "0.04", "0.01"},   // 0.044 → 0.04; 0.008 → 0.01
	} {
		inv := &Invoice{Lines: []Line{line("1", tc.qty, tc.price, VATStandard, d(tc.rate))}}
		if _, err := inv.Complete(); err != nil {
			t.Fatal(err)
		}
		wantDec(t, tc.qty+"×"+tc.price+" net", inv.Lines[0].NetAmount, tc.net)
		wantDec(t, tc.qty+"×"+tc.price+" tax", inv.VATBreakdown[0].TaxAmount, tc.tax)
	}
}

func TestCompleteMatchesRatesByValue(t *testing.T) {
	inv := &Invoice{Lines: []Line{line("1", "1", "100", VATStandard, d("19")), line("2", "1", "50", VATStandard, d("19.0"))},
		Allowances:   []AllowanceCharge{{Amount: d("10"), VATCategoryCode: VATStandard, VATRate: d("19.000"), Reason: "x"}},
		VATBreakdown: []VATBreakdown{{VATCategoryCode: VATStandard, VATRate: d("19.00")}}}
	if _, err := inv.Complete(); err != nil {
		t.Fatal(err)
	}
	if len(inv.VATBreakdown) != 1 {
		t.Fatalf("rates 19, 19.0, 19.000 and 19.00 made %d groups", len(inv.VATBreakdown))
	}
	wantDec(t, "taxable", inv.VATBreakdown[0].TaxableAmount, "140")
	wantDec(t, "tax", inv.VATBreakdown[0].TaxAmount, "26.60")
}

func TestCompleteAbsentRateIsZero(t *testing.T) {
	inv := &Invoice{Lines: []Line{line("1", "2", "10", VATOutOfScope, nil), line("2", "1", "5", VATOutOfScope, d("0"))},
		VATBreakdown: []VATBreakdown{{VATCategoryCode: VATOutOfScope, VATRate: d("0"), ExemptionReason: "Not subject to VAT"}}}
	if _, err := inv.Complete(); err != nil {
		t.Fatal(err)
	}
	if len(inv.VATBreakdown) != 1 {
		t.Fatalf("breakdown = %+v", inv.VATBreakdown)
	}
	wantDec(t, "O taxable", inv.VATBreakdown[0].TaxableAmount, "25")
}

func TestCompleteOutOfScopeHasNoRate(t *testing.T) {
	inv := &Invoice{Lines: []Line{line("1", "2", "10", VATOutOfScope, nil), line("2", "1", "5", VATOutOfScope, nil)},
		VATBreakdown: []VATBreakdown{{VATCategoryCode: VATOutOfScope, ExemptionReason: "Not subject to VAT"}}}
	if _, err := inv.Complete(); err != nil {
		t.Fatal(err)
	}
	if len(inv.VATBreakdown) != 1 || inv.VATBreakdown[0].VATRate != nil {
		t.Fatalf("breakdown = %+v", inv.VATBreakdown)
	}
	wantDec(t, "O taxable", inv.VATBreakdown[0].TaxableAmount, "25")
	wantDec(t, "O tax", inv.VATBreakdown[0].TaxAmount, "0")
	if inv.VATBreakdown[0].Category != CategoryOutOfScope {
		t.Errorf("category = %q", inv.VATBreakdown[0].Category)
	}
}

func TestCompleteDerivesPrice(t *testing.T) {
	l := line("1", "4", "0", VATStandard, d("19"))
	l.NetPrice, l.NetAmount = nil, d("10")
	l2 := line("2", "3", "0", VATStandard, d("19"))
	l2.NetPrice, l2.NetAmount = nil, d("10") // 10 / 3 is not exact
	inv := &Invoice{Lines: []Line{l, l2}}
	computed, err := inv.Complete("body", "invoice")
	wantDec(t, "derived price", inv.Lines[0].NetPrice, "2.5")
	if !slices.Contains(computed, "/lines/0/net_price") {
		t.Errorf("computed = %v", computed)
	}
	ps, ok := err.(Problems)
	if !ok || len(ps) != 1 || LocString(ps[0].Loc) != "body.invoice.lines[1].net_price" || ps[0].Type != ProblemCalculation {
		t.Fatalf("err = %#v", err)
	}
	if !IsCalculationError(err) {
		t.Error("IsCalculationError = false")
	}
	if inv.Lines[1].NetPrice != nil {
		t.Error("inexact price invented")
	}
}

func TestCompleteFailures(t *testing.T) {
	noPrice := line("1", "1", "1", VATStandard, d("19"))
	noPrice.NetPrice = nil
	zeroBase := line("1", "1", "1", VATStandard, d("19"))
	zeroBase.BaseQuantity = d("0")
	for name, inv := range map[string]*Invoice{
		"no price":  {Lines: []Line{noPrice}},
		"zero base": {Lines: []Line{zeroBase}},
		"orphan breakdown": {Lines: []Line{line("1", "1", "1", VATStandard, d("19"))},
			VATBreakdown: []VATBreakdown{{VATCategoryCode: VATExempt, VATRate: d("0")}}},
	} {
		_, err := inv.Complete()
		if !IsCalculationError(err) {
			t.Errorf("%s: err = %v", name, err)
		}
		if inv.Totals != nil {
			t.Errorf("%s: totals computed despite the failure", name)
		}
	}
}

// TestCompleteProperties checks the EN 16931 sums on random models.
func TestCompleteProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		inv := RandomInvoice(r, RandomOptions{Incomplete: true})
		if inv.Totals != nil || slices.ContainsFunc(inv.Lines, func(l Line) bool { return l.NetAmount != nil }) {
			t.Fatal("Incomplete model has computed values")
		}
		if _, err := inv.Complete(); err != nil {
			t.Fatalf("invoice %d: %v", i, err)
		}
		checkInvariants(t, inv)
		if t.Failed() {
			b, _ := EncodeInvoice(inv)
			t.Fatalf("invoice %d: %s", i, b)
		}
	}
}

func checkInvariants(t *testing.T, inv *Invoice) {
	t.Helper()
	tt := inv.Totals
	z := func(p *Decimal) Decimal { return orZero(p) }
	eq := func(what string, a, b Decimal) {
		if !a.Equal(b) {
			t.Errorf("%s: %s != %s", what, a, b)
		}
	}
	two := func(what string, x *Decimal) {
		if x != nil && x.Scale() > 2 {
			t.Errorf("%s = %s has more than 2 decimals", what, x)
		}
	}
	var sumNet, sumTaxable, sumTax Decimal
	for _, l := range inv.Lines {
		base := decOne
		if l.BaseQuantity != nil {
			base = *l.BaseQuantity
		}
		gross, _ := l.Quantity.Mul(*l.NetPrice).Div(base, 2)
		for _, a := range l.Allowances {
			gross = gross.Sub(*a.Amount)
		}
		for _, c := range l.Charges {
			gross = gross.Add(*c.Amount)
		}
		eq("BT-131 line "+l.ID, *l.NetAmount, gross.Round(2))
		two("BT-131", l.NetAmount)
		sumNet = sumNet.Add(*l.NetAmount)
		if l.VATCategoryCode == VATOutOfScope && l.VATRate != nil {
			t.Errorf("line %s: O with a rate", l.ID)
		}
		if l.VATCategoryCode.ZeroRate() && !l.VATRate.IsZero() {
			t.Errorf("line %s: %s with rate %s", l.ID, l.VATCategoryCode, l.VATRate)
		}
	}
	eq("BT-106 = Σ BT-131", *tt.LineNetTotal, sumNet)
	eq("BT-109 = BT-106 − BT-107 + BT-108", *tt.TaxExclusiveAmount, tt.LineNetTotal.Sub(z(tt.AllowanceTotal)).Add(z(tt.ChargeTotal)))
	seen := map[vatKey]bool{}
	for _, v := range inv.VATBreakdown {
		k := keyOf(v.VATCategoryCode, v.VATRate)
		if seen[k] {
			t.Errorf("duplicate VAT breakdown %v", k)
		}
		seen[k] = true
		sumTaxable = sumTaxable.Add(*v.TaxableAmount)
		sumTax = sumTax.Add(*v.TaxAmount)
		eq("BT-117 = BT-116 × BT-119 / 100", *v.TaxAmount, taxOf(*v.TaxableAmount, v.VATRate))
		two("BT-116", v.TaxableAmount)
		two("BT-117", v.TaxAmount)
		if v.VATCategoryCode.RequiresExemptionReason() != (v.ExemptionReason != "" || v.ExemptionReasonCode != "") {
			t.Errorf("%s: exemption reason %q/%q", v.VATCategoryCode, v.ExemptionReason, v.ExemptionReasonCode)
		}
		if (v.VATCategoryCode == VATOutOfScope) != (v.VATRate == nil) {
			t.Errorf("%s: rate %v", v.VATCategoryCode, v.VATRate)
		}
	}
	eq("Σ BT-116 = BT-109", sumTaxable, *tt.TaxExclusiveAmount)
	eq("BT-110 = Σ BT-117", *tt.TaxAmount, sumTax)
	eq("BT-112 = BT-109 + BT-110", *tt.TaxInclusiveAmount, tt.TaxExclusiveAmount.Add(*tt.TaxAmount))
	eq("BT-115 = BT-112 − BT-113 + BT-114", *tt.PayableAmount, tt.TaxInclusiveAmount.Sub(z(tt.PaidAmount)).Add(z(tt.RoundingAmount)))
	for _, p := range []*Decimal{tt.LineNetTotal, tt.AllowanceTotal, tt.ChargeTotal, tt.TaxExclusiveAmount, tt.TaxAmount, tt.TaxInclusiveAmount, tt.PayableAmount} {
		two("total", p)
	}
	if slices.ContainsFunc(inv.Lines, func(l Line) bool { return l.VATCategoryCode == VATOutOfScope }) {
		if inv.Seller.VATID != "" || inv.Buyer.VATID != "" || len(inv.VATBreakdown) != 1 {
			t.Error("O invoice with VAT ids or other categories")
		}
	}
	for _, v := range inv.VATBreakdown {
		if (v.VATCategoryCode == VATIntraCommunity || v.VATCategoryCode == VATReverseCharge) && inv.Buyer.VATID == "" {
			t.Errorf("%s without buyer VAT id", v.VATCategoryCode)
		}
		if v.VATCategoryCode == VATIntraCommunity && (inv.Delivery == nil || inv.Delivery.Address == nil || inv.Delivery.Date == nil) {
			t.Error("K without delivery country and date")
		}
	}
}

func TestDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	a := RandomInvoice(r, RandomOptions{Lines: 3})
	b, _ := EncodeInvoice(a)
	c, _, _, err := DecodeInvoice(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(a, c); len(d) != 0 || !a.Equal(c) {
		t.Fatalf("Diff of a round trip = %v", d)
	}
	c.Lines[0].Category = "" // the named form is an alias of the code
	c.Allowances = nil
	c.Allowances = append(c.Allowances, a.Allowances...)
	for i := range c.Allowances {
		c.Allowances[i].VATCategoryCode = "" // resolved from the name
	}
	if d := Diff(a, c); len(d) != 0 {
		t.Fatalf("Diff sees the category alias: %v", d)
	}
	other := VATCategoryCode("L")
	if a.Lines[2].CategoryCode() == other {
		other = "M"
	}
	c.Lines[2].VATCategoryCode, c.Lines[2].Category = other, ""
	c.Lines[1].NetAmount = d("0.01")
	c.Seller.VATID = "XX1"
	c.Lines = append(c.Lines[:2:2], c.Lines[2])
	c.Totals.PaidAmount = d("1")
	x := MustParseDecimal("1.5")
	c.Lines[0].Quantity = a.Lines[0].Quantity.Add(x).Sub(x).WithScale(7) // same value, other scale
	want := []string{"/seller/vat_id", "/totals/paid_amount", "/lines/1/net_amount", "/lines/2/vat_category_code"}
	if got := Diff(a, c); !slices.Equal(got, want) {
		t.Errorf("Diff = %v, want %v", got, want)
	}
	c.Lines = c.Lines[:2]
	if got := Diff(a, c); !slices.Contains(got, "/lines") {
		t.Errorf("Diff with fewer lines = %v", got)
	}
}
