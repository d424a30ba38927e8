package orderx

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.xml")

func readOrder(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/order.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGenerateGolden(t *testing.T) {
	o, _, err := DecodeOrder(readOrder(t), "body")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(o, "body")
	if err != nil {
		t.Fatal(err)
	}
	if res.LineTotal.String() != "188.20" || len(res.LineTotals) != 2 || res.LineTotals[0].String() != "62.50" {
		t.Errorf("totals %v %v", res.LineTotal, res.LineTotals)
	}
	golden.Check(t, "testdata/order.golden.xml", res.XML, *update)
}

func patchOrder(t *testing.T, edit func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(readOrder(t), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeOrderProblems(t *testing.T) {
	obj := func(m map[string]any, k string) map[string]any { return m[k].(map[string]any) }
	line := func(m map[string]any, i int) map[string]any { return m["lines"].([]any)[i].(map[string]any) }
	cases := []struct {
		name string
		edit func(m map[string]any)
		loc  string
		typ  string
	}{
		{"unknown member", func(m map[string]any) { m["vat_breakdown"] = []any{} }, "body.vat_breakdown", ProblemExtraForbidden},
		{"unknown nested", func(m map[string]any) { line(m, 0)["vat_rate"] = 20 }, "body.lines[0].vat_rate", ProblemExtraForbidden},
		{"missing id", func(m map[string]any) { delete(m, "id") }, "body.id", model.ProblemMissing},
		{"empty id", func(m map[string]any) { m["id"] = "" }, "body.id", model.ProblemStringTooShort},
		{"bad date", func(m map[string]any) { m["issue_date"] = "2024-02-30" }, "body.issue_date", model.ProblemDateParsing},
		{"date type", func(m map[string]any) { m["issue_date"] = 20240101 }, "body.issue_date", model.ProblemDateType},
		{"currency", func(m map[string]any) { m["currency"] = "eur" }, "body.currency", ProblemPattern},
		{"no lines", func(m map[string]any) { m["lines"] = []any{} }, "body.lines", model.ProblemTooShort},
		{"lines type", func(m map[string]any) { m["lines"] = "x" }, "body.lines", model.ProblemListType},
		{"line not object", func(m map[string]any) { m["lines"] = []any{3} }, "body.lines[0]", model.ProblemObjectType},
		{"null line", func(m map[string]any) { m["lines"] = []any{nil} }, "body.lines[0]", model.ProblemMissing},
		{"buyer address", func(m map[string]any) { delete(obj(m, "buyer"), "address") }, "body.buyer.address", model.ProblemMissing},
		{"country", func(m map[string]any) { obj(obj(m, "seller"), "address")["country_code"] = "France" }, "body.seller.address.country_code", ProblemPattern},
		{"global id scheme", func(m map[string]any) { obj(m, "seller")["global_id"] = map[string]any{"id": "1"} }, "body.seller.global_id.scheme_id", model.ProblemMissing},
		{"decimal", func(m map[string]any) { line(m, 1)["quantity"] = "3,5" }, "body.lines[1].quantity", model.ProblemDecimalParsing},
		{"decimal type", func(m map[string]any) { line(m, 1)["net_price"] = true }, "body.lines[1].net_price", model.ProblemDecimalType},
		{"zero quantity", func(m map[string]any) { line(m, 1)["quantity"] = 0 }, "body.lines[1].quantity", model.ProblemValueError},
		{"negative price", func(m map[string]any) { line(m, 1)["net_price"] = "-1" }, "body.lines[1].net_price", model.ProblemValueError},
		{"zero base", func(m map[string]any) { line(m, 0)["base_quantity"] = "0" }, "body.lines[0].base_quantity", model.ProblemValueError},
		{"unit", func(m map[string]any) { line(m, 1)["unit_code"] = "piece" }, "body.lines[1].unit_code", ProblemPattern},
		{"duplicate line id", func(m map[string]any) { line(m, 1)["id"] = "1" }, "body.lines[1].id", model.ProblemValueError},
		{"bool type", func(m map[string]any) { line(m, 0)["partial_delivery_allowed"] = "yes" }, "body.lines[0].partial_delivery_allowed", model.ProblemBoolType},
		{"string type", func(m map[string]any) { m["notes"] = []any{1} }, "body.notes[0]", model.ProblemStringType},
		{"control char", func(m map[string]any) { m["name"] = "a\x01b" }, "body.name", model.ProblemValueError},
		{"item missing", func(m map[string]any) { delete(line(m, 1), "item") }, "body.lines[1].item", model.ProblemMissing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ps, err := DecodeOrder(patchOrder(t, c.edit), "body")
			if err == nil {
				t.Fatal("accepted")
			}
			for _, p := range ps {
				if model.LocString(p.Loc) == c.loc && p.Type == c.typ {
					return
				}
			}
			t.Fatalf("want %s at %s; got %v", c.typ, c.loc, ps)
		})
	}
	for _, bad := range []string{``, `[]`, `{"id": "1"} {}`, `{`, `null`} {
		if _, ps, err := DecodeOrder([]byte(bad), "body"); err == nil || len(ps) == 0 {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestRandomOrdersRoundTrip: the JSON of a random order decodes to the
// same order, and Generate writes well-formed XML whose line totals add up.
func TestRandomOrdersRoundTrip(t *testing.T) {
	for seed := range uint64(200) {
		o := RandomOrder(rand.New(rand.NewPCG(seed, 7)))
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := DecodeOrder(b)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, b)
		}
		if b2, _ := json.Marshal(back); !bytes.Equal(b, b2) {
			t.Fatalf("seed %d: round trip differs\n%s\n%s", seed, b, b2)
		}
		res, err := Generate(back)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := wellFormed(res.XML); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		sum := model.NewDecimal(0, 2)
		for _, x := range res.LineTotals {
			sum = sum.Add(x)
		}
		if !sum.Equal(res.LineTotal) || !bytes.Contains(res.XML, []byte("<ram:LineTotalAmount>"+res.LineTotal.String()+"<")) {
			t.Fatalf("seed %d: line total %s vs %s", seed, res.LineTotal, sum)
		}
	}
}

func wellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return nil
			}
			return fmt.Errorf("not well-formed: %w", err)
		}
	}
}

// FuzzDecodeGenerate: DecodeOrder never panics and reports only located
// model.Problems; an order it accepts is always written, well-formed.
func FuzzDecodeGenerate(f *testing.F) {
	f.Add(readOrder(f))
	f.Add([]byte(`{"id":"1","issue_date":"2024-01-01","currency":"EUR","seller":{"name":"s"},"buyer":{"name":"b","address":{"country_code":"FR"}},"lines":[{"id":"1","item":{"name":"x"},"quantity":1e3,"unit_code":"C62","net_price":"0.0000001","base_quantity":"3"}]}`))
	f.Add([]byte(`{"lines":[null,{},[]],"seller":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, ps, err := DecodeOrder(data, "body")
		if err != nil {
			var got model.Problems
			if !errors.As(err, &got) || len(ps) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			for _, p := range ps {
				if len(p.Loc) == 0 || p.Loc[0] != "body" || p.Type == "" {
					t.Fatalf("bad problem %+v", p)
				}
			}
			return
		}
		res, err := Generate(o, "body")
		if err != nil {
			var got model.Problems
			if !errors.As(err, &got) {
				t.Fatalf("generate: %v", err)
			}
			return
		}
		if err := wellFormed(res.XML); err != nil {
			t.Fatal(err)
		}
	})
}
