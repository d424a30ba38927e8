package carry

import (
	"math/rand/v2"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

func TestCheckAndStrip(t *testing.T) {
	inv := model.RandomInvoice(rand.New(rand.NewPCG(3, 3)), model.RandomOptions{Lines: 2, Incomplete: true})
	s := Set{"/id": true, "/issue_date": true, "/type_code": true, "/currency_code": true, "/seller/name": true,
		"/seller/address/country_code": true, "/buyer/name": true, "/buyer/address/country_code": true,
		"/lines/*/id": true, "/lines/*/quantity": true, "/lines/*/unit_code": true, "/lines/*/net_price": true,
		"/lines/*/item/name": true, "/lines/*/vat_category_code": true, "/lines/*/category": true, "/lines/*/vat_rate": true}
	ps, err := Check(inv, s, []any{"body", "invoice"}, "no")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if p.Type != ProblemNotCarried || p.Loc[0] != "body" || p.Loc[1] != "invoice" {
			t.Fatalf("%+v", p)
		}
		seen[model.LocString(p.Loc)] = true
	}
	if !seen["body.invoice.seller.address.city"] || seen["body.invoice.seller.name"] || seen["body.invoice.lines[1].item.name"] {
		t.Fatalf("problems %v", seen)
	}
	stripped, err := Strip(inv, s)
	if err != nil {
		t.Fatal(err)
	}
	if ps, _ := Check(stripped, s, nil, "no"); len(ps) != 0 {
		t.Fatalf("still not carried after Strip: %v", ps)
	}
	if stripped.ID != inv.ID || len(stripped.Lines) != 2 || stripped.Seller.Address.City != "" {
		t.Fatalf("stripped %+v", stripped)
	}
}

func TestTrimZeros(t *testing.T) {
	for in, want := range map[string]string{"200.00000000": "200", "1.50": "1.5", "0.00000001": "0.00000001", "7": "7", "-3.10": "-3.1", "0.000": "0"} {
		d, err := model.ParseDecimal(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := TrimZeros(d); got != want {
			t.Errorf("TrimZeros(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestUnitPrice(t *testing.T) {
	dec := func(s string) *model.Decimal {
		d, err := model.ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return &d
	}
	p := NewProblems("body")
	if got := p.UnitPrice(&model.Line{NetPrice: dec("12.50"), BaseQuantity: dec("4")}, 0, "X Price"); got != "3.125" || len(p.List) != 0 {
		t.Fatalf("got %q, problems %v", got, p.List)
	}
	p.UnitPrice(&model.Line{NetPrice: dec("1"), BaseQuantity: dec("3")}, 2, "X Price")
	if len(p.List) != 1 || model.LocString(p.List[0].Loc) != "body.invoice.lines[2].net_price" || p.List[0].Msg != "X Price (net_price / base_quantity) has at most 8 decimals" {
		t.Fatalf("problems %v", p.List)
	}
}

func TestRound2Percent(t *testing.T) {
	d := func(s string) model.Decimal {
		x, err := model.ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	if got := Round2(d("2.005")).String(); got != "2.01" {
		t.Errorf("Round2(2.005) = %s", got)
	}
	if got := Round2(d("7")).String(); got != "7.00" {
		t.Errorf("Round2(7) = %s", got)
	}
	if got := Percent(d("4020.00"), d("21")).String(); got != "844.20" {
		t.Errorf("Percent(4020, 21) = %s", got)
	}
	if got := Percent(d("0.50"), d("5")).String(); got != "0.03" {
		t.Errorf("Percent(0.50, 5) = %s (halves away from zero)", got)
	}
}
