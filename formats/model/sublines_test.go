package model

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestCompleteSubLines: sub-lines (BG-DEX-01) get their own net amounts by
// the line rules, and neither they nor their VAT categories enter the
// totals or the VAT breakdown: the parent's BT-131 is what counts.
func TestCompleteSubLines(t *testing.T) {
	parent := line("1", "1", "27.72", VATStandard, d("19"))
	sub1 := line("1.1", "28", "0.44", VATStandard, d("19"))
	sub2 := line("1.2", "35", "0.44", VATZero, d("0")) // a category of its own: no breakdown entry for it
	sub2.Allowances = []LineAllowanceCharge{{BaseAmount: d("10"), Percentage: d("10")}}
	deep := line("1.2.1", "2", "1.5", VATStandard, d("19"))
	sub2.SubLines = []Line{deep}
	parent.SubLines = []Line{sub1, sub2}
	inv := &Invoice{Lines: []Line{parent, line("2", "2", "5", VATStandard, d("19"))}}
	computed, err := inv.Complete()
	if err != nil {
		t.Fatal(err)
	}
	wantDec(t, "sub-line 1.1 net", inv.Lines[0].SubLines[0].NetAmount, "12.32")
	wantDec(t, "sub-line 1.2 allowance", inv.Lines[0].SubLines[1].Allowances[0].Amount, "1.00")
	wantDec(t, "sub-line 1.2 net", inv.Lines[0].SubLines[1].NetAmount, "14.40")
	wantDec(t, "sub-line 1.2.1 net", inv.Lines[0].SubLines[1].SubLines[0].NetAmount, "3.00")
	wantDec(t, "BT-106", inv.Totals.LineNetTotal, "37.72") // 27.72 + 10, no sub-line
	if len(inv.VATBreakdown) != 1 || inv.VATBreakdown[0].VATCategoryCode != VATStandard {
		t.Fatalf("VAT breakdown = %+v (sub-lines must not add groups)", inv.VATBreakdown)
	}
	wantDec(t, "BT-116", inv.VATBreakdown[0].TaxableAmount, "37.72")
	for _, p := range []string{"/lines/0/sub_lines/0/net_amount", "/lines/0/sub_lines/1/allowances/0/amount",
		"/lines/0/sub_lines/1/net_amount", "/lines/0/sub_lines/1/sub_lines/0/net_amount"} {
		if !slices.Contains(computed, p) {
			t.Errorf("computed %v lacks %s", computed, p)
		}
	}
	if got := inv.Lines[0].SubLines[1].Category; got != CategoryZero {
		t.Errorf("sub-line category not normalised: %q", got)
	}

	bad := &Invoice{Lines: []Line{line("1", "1", "5", VATStandard, d("19"))}}
	bad.Lines[0].SubLines = []Line{{ID: "1.1", Quantity: MustParseDecimal("1"), UnitCode: "C62", VATCategoryCode: VATStandard}}
	_, err = bad.Complete("body", "invoice")
	ps, ok := err.(Problems)
	if !ok || len(ps) != 1 || LocString(ps[0].Loc) != "body.invoice.lines[0].sub_lines[0].net_price" {
		t.Fatalf("a sub-line without price: err = %v", err)
	}
	if bad.Totals != nil {
		t.Errorf("totals computed despite a calculation problem: %+v", bad.Totals)
	}
}

// TestDecodeSubLines: sub_lines decode recursively, with the line checks
// at every depth, and round-trip through EncodeInvoice.
func TestDecodeSubLines(t *testing.T) {
	in := `{"id":"1","issue_date":"2024-01-01","type_code":380,"currency_code":"EUR",
	"seller":{"name":"S","address":{"country_code":"DE"}},"buyer":{"name":"B","address":{"country_code":"DE"}},
	"lines":[{"id":"1","quantity":1,"unit_code":"C62","net_price":"10","category":"STANDARD","vat_rate":19,"item":{"name":"Set"},
	  "sub_lines":[{"id":"1.1","quantity":2,"unit_code":"C62","net_price":"5","vat_category_code":"S","vat_rate":19,"item":{"name":"Part"},
	    "sub_lines":[{"id":"1.1.1","quantity":1,"unit_code":"C62","net_amount":"5","category":"STANDARD","item":{"name":"Screw"}}]}]}]}`
	inv, _, _, err := DecodeInvoice([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	sub := inv.Lines[0].SubLines
	if len(sub) != 1 || sub[0].Item.Name != "Part" || sub[0].Category != CategoryStandard || len(sub[0].SubLines) != 1 ||
		sub[0].SubLines[0].VATCategoryCode != VATStandard || sub[0].SubLines[0].NetAmount == nil {
		t.Fatalf("sub-lines = %+v", sub)
	}
	out, err := EncodeInvoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	back, _, _, err := DecodeInvoice(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(inv, back); len(d) != 0 {
		t.Fatalf("encode/decode differs at %v", d)
	}
	back.Lines[0].SubLines[0].SubLines[0].Item.Name = "Nail"
	if got := Diff(inv, back); !slices.Equal(got, []string{"/lines/0/sub_lines/0/sub_lines/0/item/name"}) {
		t.Errorf("Diff = %v", got)
	}

	bad := strings.Replace(in, `"category":"STANDARD","item":{"name":"Screw"}`, `"item":{}`, 1)
	_, _, ps, err := DecodeInvoice([]byte(bad), "body")
	if err == nil {
		t.Fatal("a sub-line without name and category was accepted")
	}
	var locs []string
	for _, p := range ps {
		locs = append(locs, LocString(p.Loc))
	}
	for _, want := range []string{"body.lines[0].sub_lines[0].sub_lines[0].item.name", "body.lines[0].sub_lines[0].sub_lines[0].vat_category_code"} {
		if !slices.Contains(locs, want) {
			t.Errorf("problems %v lack %s", locs, want)
		}
	}
}

// TestWalkLines: lines and sub-lines depth first, parents first, with their
// JSON paths.
func TestWalkLines(t *testing.T) {
	ls := []Line{{ID: "1", SubLines: []Line{{ID: "1.1", SubLines: []Line{{ID: "1.1.1"}}}, {ID: "1.2"}}}, {ID: "2"}}
	var got []string
	WalkLines(ls, func(l *Line, loc []any) {
		b, _ := json.Marshal(loc)
		got = append(got, l.ID+"="+string(b))
	})
	want := []string{`1=["lines",0]`, `1.1=["lines",0,"sub_lines",0]`, `1.1.1=["lines",0,"sub_lines",0,"sub_lines",0]`,
		`1.2=["lines",0,"sub_lines",1]`, `2=["lines",1]`}
	if !slices.Equal(got, want) {
		t.Errorf("WalkLines = %v", got)
	}
	if (&Invoice{Lines: ls}).HasSubLines() != true || (&Invoice{Lines: ls[1:]}).HasSubLines() {
		t.Error("HasSubLines")
	}
}
