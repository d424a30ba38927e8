package model

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestLinePriceParts(t *testing.T) {
	d := func(s string) *Decimal { return Dec(MustParseDecimal(s)) }
	str := func(p *Decimal) string {
		if p == nil {
			return "<nil>"
		}
		return p.String()
	}
	for _, c := range []struct {
		name                string
		net, disc, gross    *Decimal
		wantDisc, wantGross string
		wantChanged         bool
	}{
		{"gross only: discount derived", d("9.50"), nil, d("10.00"), "0.50", "10.00", true},
		{"gross equal to net: zero discount", d("10"), nil, d("10"), "0", "10", true},
		{"discount only: gross derived", d("9.5"), d("0.25"), nil, "0.25", "9.75", true},
		{"both present: untouched", d("9"), d("2"), d("10"), "2", "10", false},
		{"gross below net: nothing derived", d("10"), nil, d("9"), "<nil>", "9", false},
		{"no net price: nothing derived", nil, nil, d("9"), "<nil>", "9", false},
		{"neither: untouched", d("1"), nil, nil, "<nil>", "<nil>", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := Line{NetPrice: c.net, PriceDiscount: c.disc, GrossPrice: c.gross}
			changed := l.PriceParts()
			if changed != c.wantChanged || str(l.PriceDiscount) != c.wantDisc || str(l.GrossPrice) != c.wantGross {
				t.Errorf("PriceParts() = %v, discount %s, gross %s; want %v, %s, %s",
					changed, str(l.PriceDiscount), str(l.GrossPrice), c.wantChanged, c.wantDisc, c.wantGross)
			}
		})
	}
}

func TestTotalVATFromBreakdown(t *testing.T) {
	d := func(s string) *Decimal { return Dec(MustParseDecimal(s)) }
	inv := &Invoice{Totals: &Totals{}, VATBreakdown: []VATBreakdown{{TaxAmount: d("0")}, {TaxAmount: d("1.50")}}}
	if !inv.TotalVATFromBreakdown() || inv.Totals.TaxAmount == nil || inv.Totals.TaxAmount.String() != "1.50" {
		t.Fatalf("BT-110 = %v, want 1.50", inv.Totals.TaxAmount)
	}
	if inv.TotalVATFromBreakdown() {
		t.Error("a present BT-110 was replaced")
	}
	missing := &Invoice{Totals: &Totals{}, VATBreakdown: []VATBreakdown{{TaxAmount: d("1")}, {}}}
	if missing.TotalVATFromBreakdown() || missing.Totals.TaxAmount != nil {
		t.Error("BT-110 derived although a BT-117 is missing")
	}
	if (&Invoice{Totals: &Totals{}}).TotalVATFromBreakdown() {
		t.Error("BT-110 derived without any BG-23")
	}
	if (&Invoice{VATBreakdown: []VATBreakdown{{TaxAmount: d("1")}}}).TotalVATFromBreakdown() {
		t.Error("BT-110 derived without BG-22")
	}
}

func TestTaxPointCodeTranslation(t *testing.T) {
	for ubl, cii := range map[string]string{"3": "5", "35": "29", "432": "72"} {
		if got, ok := TaxPointCodeToCII(ubl); !ok || got != cii {
			t.Errorf("TaxPointCodeToCII(%q) = %q, %v; want %q", ubl, got, ok, cii)
		}
		if got, ok := TaxPointCodeFromCII(cii); !ok || got != ubl {
			t.Errorf("TaxPointCodeFromCII(%q) = %q, %v; want %q", cii, got, ok, ubl)
		}
	}
	for _, bad := range []string{"", "5", "29", "1"} {
		if _, ok := TaxPointCodeToCII(bad); ok {
			t.Errorf("TaxPointCodeToCII(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", "3", "35", "432"} {
		if _, ok := TaxPointCodeFromCII(bad); ok {
			t.Errorf("TaxPointCodeFromCII(%q) accepted", bad)
		}
	}
}

func TestLinePricePartsOtherGrossBase(t *testing.T) {
	l := Line{NetPrice: Dec(MustParseDecimal("1273")), GrossPrice: Dec(MustParseDecimal("1498")), GrossBaseQuantity: Dec(MustParseDecimal("1498"))}
	if l.PriceParts() || l.PriceDiscount != nil {
		t.Errorf("discount %v derived across two base quantities", l.PriceDiscount)
	}
}

// TestSyntaxDetailFieldsJSON: the fields without a business term decode
// from and encode to their documented JSON names, and Diff sees them.
func TestSyntaxDetailFieldsJSON(t *testing.T) {
	inv := RandomInvoice(rand.New(rand.NewPCG(1, 2)), RandomOptions{})
	inv.ProjectName = "Bridge"
	inv.Seller.TaxRegistrationID, inv.Seller.TaxRegistrationScheme = "T1", "LOC"
	inv.Seller.Contact = &Contact{Name: "Accounts", NameIsDepartment: true}
	inv.PaymentInstructions = &PaymentInstructions{MeansCode: "58",
		CreditTransfers: []CreditTransfer{{AccountID: "12345", ProprietaryAccountID: true}},
		Card:            &PaymentCard{PrimaryAccountNumber: "1234", NetworkID: "VISA"}}
	inv.Lines[0].GrossPrice, inv.Lines[0].GrossBaseQuantity, inv.Lines[0].GrossBaseQuantityUnitCode = Dec(MustParseDecimal("5")), Dec(MustParseDecimal("10")), "C62"
	b, err := EncodeInvoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{`"project_name":"Bridge"`, `"tax_registration_scheme":"LOC"`, `"name_is_department":true`,
		`"proprietary_account_id":true`, `"network_id":"VISA"`, `"gross_base_quantity":"10"`, `"gross_base_quantity_unit_code":"C62"`} {
		if !bytes.Contains(b, []byte(name)) {
			t.Errorf("encoding lacks %s", name)
		}
	}
	back, ignored, ps, err := DecodeInvoice(b)
	if err != nil || len(ignored) != 0 {
		t.Fatalf("decode: %v %v ignored %v", err, ps, ignored)
	}
	if d := Diff(inv, back); len(d) != 0 {
		t.Errorf("differs after the JSON round trip at %v", d)
	}
	back.Seller.Contact.NameIsDepartment = false
	if d := Diff(inv, back); len(d) != 1 || d[0] != "/seller/contact/name_is_department" {
		t.Errorf("Diff = %v, want the department flag", d)
	}
}
