package facturae

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/internal/golden"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.xml")

func TestGenerateGolden(t *testing.T) {
	res := generated(t, nil)
	// Lines 4000.00 + 200.00 (202 - 2), charge 20: base 4220.00; VAT
	// 21% of 4020.00 = 844.20, 10% of 200.00 = 20.00; IRPF 15% of the lines 4200.00
	// = 630.00; InvoiceTotal = 4220.00 + 864.20 - 630.00.
	if res.InvoiceTotal.String() != "4454.20" || res.TotalTaxOutputs.String() != "864.20" || res.TotalTaxesWithheld.String() != "630.00" {
		t.Errorf("totals %s %s %s", res.InvoiceTotal, res.TotalTaxOutputs, res.TotalTaxesWithheld)
	}
	golden.Check(t, "testdata/request.golden.xml", res.XML, *update)
}

// TestRandomRequests: 500 random invoices within Facturae's scope are
// written XSD-valid, with InvoiceTotal = before taxes + taxes - withheld.
func TestRandomRequests(t *testing.T) {
	for seed := range nationaltest.Seeds(500) {
		inv, ex, err := RandomRequest(rand.New(rand.NewPCG(seed, 0xe5)))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		res, err := Generate(inv, ex, "body")
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if errs := xsdErrors(t, res.XML); len(errs) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, errs, res.XML)
		}
		want := inv.Totals.TaxExclusiveAmount.Add(*inv.Totals.TaxAmount).Sub(res.TotalTaxesWithheld)
		if !want.Equal(res.InvoiceTotal) {
			t.Fatalf("seed %d: InvoiceTotal %s, want %s", seed, res.InvoiceTotal, want)
		}
	}
}

func TestGenerateRefusals(t *testing.T) {
	cases := []struct {
		name string
		edit func(inv, ex map[string]any)
		loc  string
		typ  string
	}{
		{"not carried", func(inv, _ map[string]any) { inv["payment_terms"] = "30 days" }, "body.invoice.payment_terms", "not_carried"},
		{"not carried nested", func(inv, _ map[string]any) {
			inv["lines"].([]any)[0].(map[string]any)["item"].(map[string]any)["origin_country_code"] = "ES"
		}, "body.invoice.lines[0].item.origin_country_code", "not_carried"},
		{"currency", func(inv, _ map[string]any) { inv["currency_code"] = "USD" }, "body.invoice.currency_code", "value_error"},
		{"type code", func(inv, _ map[string]any) { inv["type_code"] = "384" }, "body.invoice.type_code", "value_error"},
		{"credit note without corrective", func(inv, _ map[string]any) {
			inv["type_code"] = "381"
			inv["preceding_invoices"] = []any{map[string]any{"id": "F1"}}
		}, "body.extras.corrective", "missing"},
		{"credit note without preceding", func(inv, ex map[string]any) {
			inv["type_code"] = "381"
			ex["corrective"] = map[string]any{"reason_code": "01", "correction_method": "02"}
		}, "body.invoice.preceding_invoices", "missing"},
		{"reason code", func(inv, ex map[string]any) {
			inv["type_code"] = "381"
			inv["preceding_invoices"] = []any{map[string]any{"id": "F1"}}
			ex["corrective"] = map[string]any{"reason_code": "99", "correction_method": "02"}
		}, "body.extras.corrective.reason_code", "enum"},
		{"irpf", func(_, ex map[string]any) { ex["irpf_rate"] = "150" }, "body.extras.irpf_rate", "value_error"},
		{"irpf line", func(_, ex map[string]any) { ex["irpf_lines"] = []any{"1", "9"} }, "body.extras.irpf_lines[1]", "value_error"},
		{"extras unknown", func(_, ex map[string]any) { ex["retencion"] = 1 }, "body.extras.retencion", "extra_forbidden"},
		{"seller tin", func(inv, _ map[string]any) { delete(inv["seller"].(map[string]any), "vat_id") }, "body.invoice.seller.vat_id", "missing"},
		{"country", func(inv, _ map[string]any) {
			inv["buyer"].(map[string]any)["address"].(map[string]any)["country_code"] = "KZ"
		}, "body.invoice.buyer.address.country_code", "value_error"},
		{"post code", func(inv, _ map[string]any) {
			inv["buyer"].(map[string]any)["address"].(map[string]any)["post_code"] = "4508"
		}, "body.invoice.buyer.address.post_code", "value_error"},
		{"unit", func(inv, _ map[string]any) { inv["lines"].([]any)[0].(map[string]any)["unit_code"] = "DAY" }, "body.invoice.lines[0].unit_code", "value_error"},
		{"line id", func(inv, _ map[string]any) { inv["lines"].([]any)[0].(map[string]any)["id"] = "A-1" }, "body.invoice.lines[0].id", "value_error"},
		{"split payment", func(inv, _ map[string]any) {
			l := inv["lines"].([]any)[0].(map[string]any)
			delete(l, "category")
			l["vat_category_code"] = "B"
		}, "body.invoice.lines[0].category", "value_error"},
		{"long id", func(inv, _ map[string]any) { inv["id"] = "F-0123456789012345678901" }, "body.invoice.id", "value_error"},
		{"due date without means", func(inv, _ map[string]any) { delete(inv, "payment_instructions") }, "body.invoice.due_date", "value_error"},
		{"means", func(inv, _ map[string]any) {
			inv["payment_instructions"].(map[string]any)["means_code"] = "1"
		}, "body.invoice.payment_instructions.means_code", "value_error"},
		{"bic", func(inv, _ map[string]any) {
			// found by FuzzGenerate (testdata/fuzz/FuzzGenerate/713975a1cb6ec53b):
			// written as it was, it broke BICType's length of 11
			inv["payment_instructions"].(map[string]any)["credit_transfers"].([]any)[0].(map[string]any)["service_provider_id"] = "CAIXESBBmarzoXXX"
		}, "body.invoice.payment_instructions.credit_transfers[0].service_provider_id", "value_error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv, ex, ps := request(t, c.edit)
			var err error
			if ps == nil {
				_, err = Generate(inv, ex, "body")
			}
			nationaltest.Refused(t, ps, err, c.loc, c.typ)
		})
	}
}

// TestEightCharacterBIC: an 8-character BIC (the institution's main office)
// is written with the branch code XXX, as BICType's 11 positions require.
func TestEightCharacterBIC(t *testing.T) {
	res := generated(t, func(inv, _ map[string]any) {
		inv["payment_instructions"].(map[string]any)["credit_transfers"].([]any)[0].(map[string]any)["service_provider_id"] = "CAIXESBB"
	})
	if !bytes.Contains(res.XML, []byte("<BIC>CAIXESBBXXX</BIC>")) {
		t.Errorf("BIC not completed with XXX:\n%s", res.XML)
	}
}

// TestCreditNote: a 381 with its corrective data is InvoiceClass OR with
// the Corrective group, XSD-valid.
func TestCreditNote(t *testing.T) {
	res := generated(t, func(inv, ex map[string]any) {
		inv["type_code"] = "381"
		inv["preceding_invoices"] = []any{map[string]any{"id": "F2024-0001", "issue_date": "2024-02-01"}}
		ex["corrective"] = map[string]any{"reason_code": "10", "correction_method": "02"}
		ex["series_code"] = "R"
		ex["language"] = "ca"
	})
	for _, want := range []string{"<InvoiceClass>OR</InvoiceClass>", "<ReasonDescription>Detalle Operación</ReasonDescription>",
		"<CorrectionMethodDescription>Rectificación por diferencias</CorrectionMethodDescription>", "<StartDate>2024-02-01</StartDate>",
		"<InvoiceSeriesCode>R</InvoiceSeriesCode>", "<LanguageName>ca</LanguageName>"} {
		if !bytes.Contains(res.XML, []byte(want)) {
			t.Errorf("lacks %s", want)
		}
	}
}

// FuzzGenerate: decode + Generate on arbitrary JSON never panics, fails
// only with located model.Problems, and what it writes is XSD-valid except
// for caller text the XSD restricts further.
func FuzzGenerate(f *testing.F) {
	body := nationaltest.ReadJSON[map[string]json.RawMessage](f, "testdata/request.json")
	f.Add([]byte(body["invoice"]), []byte(body["extras"]))
	f.Add([]byte(`{"id":"1","issue_date":"2024-01-01","type_code":381,"currency_code":"EUR","seller":{"name":"s","vat_id":"ESB1","address":{"country_code":"ES"}},"buyer":{"name":"b","address":{"country_code":"FR"}},"lines":[{"id":"01","quantity":1,"unit_code":"C62","net_price":"0.000000001","category":"EXEMPT","vat_rate":0,"item":{"name":"x"}}]}`),
		[]byte(`{"corrective":{"reason_code":"01","correction_method":"01"},"irpf_rate":"7"}`))
	f.Fuzz(func(t *testing.T, invJSON, exJSON []byte) {
		inv, ex, ok := nationaltest.DecodeRequest(invJSON, exJSON, DecodeExtras)
		if !ok {
			return
		}
		res, err := Generate(inv, ex, "body")
		if err != nil {
			nationaltest.GenerateRefusal(t, err, "invoice", "extras")
			return
		}
		for _, e := range xsdErrors(t, res.XML) {
			if !strings.Contains(e, "Element 'ItemDescription'") && !strings.Contains(e, "atomic type") {
				t.Fatalf("XSD error %v\n%s", e, res.XML)
			}
		}
	})
}

func TestTablesFitTheSchema(t *testing.T) {
	for code, name := range provinces {
		if utf8.RuneCountInString(name) > 20 {
			t.Errorf("province %s %q is longer than Province's 20 characters", code, name)
		}
	}
}
