package ksef

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/golden"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.xml")

func TestGenerateGolden(t *testing.T) {
	res := generated(t, nil)
	// 8 × 295.81 = 2366.48 at 23% (544.29); 3 × 12.40 = 37.20 at 5%
	// (1.86); 150 exempt: P_15 = 2553.68 + 546.15 = 3099.83.
	if res.P15.String() != "3099.83" || res.Buckets["P_13_1"].String() != "2366.48" || res.Buckets["P_13_3"].String() != "37.20" || res.Buckets["P_13_7"].String() != "150.00" {
		t.Errorf("P_15 %s buckets %v", res.P15, res.Buckets)
	}
	golden.Check(t, "testdata/request.golden.xml", res.XML, *update)
}

// TestRandomInvoices: 500 random invoices within FA(3)'s scope are written
// XSD-valid, with P_15 = Σ P_13_x + Σ P_14_x.
func TestRandomInvoices(t *testing.T) {
	for seed := range nationaltest.Seeds(500) {
		inv, err := RandomInvoice(rand.New(rand.NewPCG(seed, 0x9f)))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		res, err := Generate(inv, testOpts, "body")
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if errs := xsdErrors(t, res.XML); len(errs) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, errs, res.XML)
		}
		if !inv.Totals.TaxInclusiveAmount.Equal(res.P15) {
			t.Fatalf("seed %d: P_15 %s, BT-112 %s", seed, res.P15, inv.Totals.TaxInclusiveAmount)
		}
	}
}

func TestGenerateRefusals(t *testing.T) {
	line := func(inv map[string]any, i int) map[string]any { return inv["lines"].([]any)[i].(map[string]any) }
	cases := []struct {
		name string
		edit func(inv map[string]any)
		loc  string
		typ  string
	}{
		{"not carried", func(inv map[string]any) { inv["buyer_reference"] = "X" }, "body.invoice.buyer_reference", "not_carried"},
		{"line allowance", func(inv map[string]any) {
			line(inv, 0)["allowances"] = []any{map[string]any{"amount": "1", "reason": "x"}}
		}, "body.invoice.lines[0].allowances[0].amount", "not_carried"},
		{"credit note", func(inv map[string]any) { inv["type_code"] = "381" }, "body.invoice.type_code", "value_error"},
		{"seller NIP", func(inv map[string]any) { inv["seller"].(map[string]any)["vat_id"] = "DE123456789" }, "body.invoice.seller.vat_id", "value_error"},
		{"no seller NIP", func(inv map[string]any) { delete(inv["seller"].(map[string]any), "vat_id") }, "body.invoice.seller.vat_id", "missing"},
		{"rate", func(inv map[string]any) { line(inv, 0)["vat_rate"] = "19" }, "body.invoice.lines[0].vat_rate", "value_error"},
		{"exemption basis", func(inv map[string]any) { delete(inv, "vat_breakdown") }, "body.invoice.vat_breakdown[2].exemption_reason", "missing"},
		{"period and delivery", func(inv map[string]any) {
			inv["invoicing_period"] = map[string]any{"start": "2024-03-01", "end": "2024-03-31"}
		}, "body.invoice.delivery.date", "value_error"},
		{"quantity decimals", func(inv map[string]any) { line(inv, 1)["quantity"] = "1.0000001" }, "body.invoice.lines[1].quantity", "value_error"},
		{"swift", func(inv map[string]any) {
			inv["payment_instructions"].(map[string]any)["credit_transfers"] = []any{map[string]any{"account_id": "PL61109010140000071219812874", "service_provider_id": "x"}}
		}, "body.invoice.payment_instructions.credit_transfers[0].service_provider_id", "value_error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv, ps := request(t, c.edit)
			var err error
			if ps == nil {
				_, err = Generate(inv, testOpts, "body")
			}
			nationaltest.Refused(t, ps, err, c.loc, c.typ)
		})
	}
}

// TestMarkers: reverse charge sets P_18, an EU buyer is KodUE + NrVatUE,
// an invoicing period is OkresFa, other payment means are PlatnoscInna.
func TestMarkers(t *testing.T) {
	res := generated(t, func(inv map[string]any) {
		inv["buyer"].(map[string]any)["vat_id"] = "DE123456789"
		l := inv["lines"].([]any)[1].(map[string]any)
		l["category"], l["vat_rate"] = "REVERSE_CHARGE", "0"
		delete(inv, "delivery")
		inv["invoicing_period"] = map[string]any{"start": "2024-03-01", "end": "2024-03-31"}
		inv["payment_instructions"].(map[string]any)["means_code"] = "49"
		inv["currency_code"] = "EUR"
	})
	for _, want := range []string{"<P_18>1</P_18>", "<KodUE>DE</KodUE>", "<NrVatUE>123456789</NrVatUE>", "<P_6_Od>2024-03-01</P_6_Od>",
		"<P_13_10>37.20</P_13_10>", "<P_12>oo</P_12>", "<PlatnoscInna>1</PlatnoscInna>", "<KodWaluty>EUR</KodWaluty>", "<P_19>1</P_19>"} {
		if !bytes.Contains(res.XML, []byte(want)) {
			t.Errorf("lacks %s", want)
		}
	}
}

// FuzzGenerate: decode + Generate on arbitrary JSON never panics, fails
// only with located model.Problems, and what it writes is XSD-valid except
// for caller text the XSD restricts further (tokens, code lists).
func FuzzGenerate(f *testing.F) {
	body := nationaltest.ReadJSON[map[string]json.RawMessage](f, "testdata/request.json")
	f.Add([]byte(body["invoice"]))
	f.Add([]byte(`{"id":"1","issue_date":"2024-01-01","type_code":380,"currency_code":"PLN","seller":{"name":"s","vat_id":"PL5260250274","address":{"line1":"a","country_code":"PL"}},"buyer":{"name":"b","address":{"country_code":"FR"}},"lines":[{"id":"01","quantity":1,"unit_code":"C62","net_price":"0.000000001","category":"ZERO","vat_rate":0,"item":{"name":"x"}}]}`))
	f.Fuzz(func(t *testing.T, invJSON []byte) {
		inv, _, _, err := model.DecodeInvoice(invJSON, "body", "invoice")
		if err != nil {
			return
		}
		res, err := Generate(inv, testOpts, "body")
		if err != nil {
			nationaltest.GenerateRefusal(t, err, "invoice")
			return
		}
		for _, e := range xsdErrors(t, res.XML) {
			if !strings.Contains(e, "token") && !strings.Contains(e, "enumeration") && !strings.Contains(e, "pattern") && !strings.Contains(e, "Inclusive") && !strings.Contains(e, "length") {
				t.Fatalf("XSD error %v\n%s", e, res.XML)
			}
		}
	})
}
