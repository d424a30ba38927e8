package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const minimalJSON = `{
  "id": "INV-1", "issue_date": "2024-01-31", "type_code": "380", "currency_code": "EUR",
  "seller": {"name": "Seller", "vat_id": "DE123456789", "address": {"country_code": "DE"}},
  "buyer": {"name": "Buyer", "address": {"country_code": "FR"}},
  "lines": [{"id": "1", "quantity": "2", "unit_code": "C62", "net_price": "10", "category": "STANDARD", "vat_rate": "19", "item": {"name": "Widget"}}]
}`

// patch applies JSON merge-patch-like edits (RFC 7396: null deletes) to minimalJSON.
func patch(t *testing.T, p string) []byte {
	t.Helper()
	var base, pt map[string]any
	if err := json.Unmarshal([]byte(minimalJSON), &base); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(p), &pt); err != nil {
		t.Fatalf("patch %s: %v", p, err)
	}
	var merge func(dst, src map[string]any)
	merge = func(dst, src map[string]any) {
		for k, v := range src {
			if v == nil {
				delete(dst, k)
				continue
			}
			if sm, ok := v.(map[string]any); ok {
				if dm, ok := dst[k].(map[string]any); ok {
					merge(dm, sm)
					continue
				}
			}
			dst[k] = v
		}
	}
	merge(base, pt)
	b, _ := json.Marshal(base)
	return b
}

type wantProblem struct {
	loc string // LocString of the loc without prefix
	typ string
}

func TestDecodeProblems(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch string
		raw   string
		want  []wantProblem
	}{
		{name: "valid", patch: `{}`},
		{name: "missing header terms", patch: `{"id": null, "issue_date": null, "type_code": null, "currency_code": null}`,
			want: []wantProblem{{"id", "missing"}, {"issue_date", "missing"}, {"type_code", "missing"}, {"currency_code", "missing"}}},
		{name: "missing parties and lines", patch: `{"seller": null, "buyer": null, "lines": null}`,
			want: []wantProblem{{"seller", "missing"}, {"buyer", "missing"}, {"lines", "missing"}}},
		{name: "empty lines", patch: `{"lines": []}`, want: []wantProblem{{"lines", "too_short"}}},
		{name: "wrong types", patch: `{"id": 7, "seller": "x", "lines": {}, "notes": [{"text": true}]}`,
			want: []wantProblem{{"id", "string_type"}, {"seller", "model_type"}, {"lines", "list_type"}, {"notes[0].text", "string_type"}}},
		{name: "empty required string", patch: `{"seller": {"name": ""}}`, want: []wantProblem{{"seller.name", "string_too_short"}}},
		{name: "bad dates", patch: `{"issue_date": "2024-02-30", "due_date": "31.01.2024", "tax_point_date": 20240101, "delivery": {"date": "2024-01-01T00:00:00Z"}}`,
			want: []wantProblem{{"issue_date", "date_parsing"}, {"tax_point_date", "date_type"}, {"due_date", "date_parsing"}, {"delivery.date", "date_parsing"}}},
		{name: "bad decimals", raw: strings.Replace(strings.Replace(minimalJSON, `"quantity": "2"`, `"quantity": "2,5"`, 1), `"vat_rate": "19"`, `"vat_rate": true`, 1),
			want: []wantProblem{{"lines[0].quantity", "decimal_parsing"}, {"lines[0].vat_rate", "decimal_type"}}},
		{name: "enums", patch: `{"type_code": "999", "lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "category": "LUXURY", "item": {"name": "x"}}], "vat_breakdown": [{"vat_category_code": "X"}]}`,
			want: []wantProblem{{"type_code", "enum"}, {"vat_breakdown[0].vat_category_code", "enum"}, {"lines[0].category", "enum"}}},
		{name: "type code as integer", patch: `{"type_code": 381}`},
		{name: "type code as non-integer number", patch: `{"type_code": 380.5}`, want: []wantProblem{{"type_code", "string_type"}}},
		{name: "category and code inconsistent", patch: `{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "category": "STANDARD", "vat_category_code": "E", "item": {"name": "x"}}]}`,
			want: []wantProblem{{"lines[0].category", "value_error"}}},
		{name: "raw IGIC code", patch: `{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "vat_category_code": "L", "vat_rate": 7, "item": {"name": "x"}}]}`},
		{name: "line without category, price and net", patch: `{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "item": {"name": "x"}}]}`,
			want: []wantProblem{{"lines[0].vat_category_code", "missing"}, {"lines[0].net_price", "missing"}}},
		{name: "line with net amount only", patch: `{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_amount": "5", "category": "ZERO", "vat_rate": 0, "item": {"name": "x"}}]}`},
		{name: "allowance without amount or base", patch: `{"allowances": [{"percentage": "5", "category": "STANDARD", "vat_rate": 19}, {"base_amount": "100", "percentage": "5", "vat_category_code": "S", "vat_rate": 19}]}`,
			want: []wantProblem{{"allowances[0].amount", "missing"}}},
		{name: "base64", patch: `{"supporting_documents": [{"id": "a", "attachment": {"content": "not base64!", "mime_code": "text/csv", "filename": "a.csv"}}, {"id": "b", "attachment": {"content": "aGk=", "mime_code": "text/csv"}}]}`,
			want: []wantProblem{{"supporting_documents[0].attachment.content", "base64_decode"}, {"supporting_documents[1].attachment.filename", "missing"}}},
		{name: "duplicate key", raw: strings.Replace(minimalJSON, `"id": "INV-1",`, `"id": "INV-1", "id": "INV-2",`, 1),
			want: []wantProblem{{"id", "duplicate_key"}}},
		{name: "null array element", patch: `{"notes": [null]}`, want: []wantProblem{{"notes[0]", "model_type"}}},
		{name: "null and non-object lines", patch: `{"lines": [null, 5, {"id": "3", "quantity": 1, "unit_code": "C62", "net_price": 1, "category": "ZERO", "vat_rate": 0, "item": {"name": "x"}}]}`,
			want: []wantProblem{{"lines[0]", "model_type"}, {"lines[1]", "model_type"}}},
		{name: "json syntax", raw: `{"id": "INV-1",`, want: []wantProblem{{"", "json_invalid"}}},
		{name: "trailing data", raw: minimalJSON + ` {}`, want: []wantProblem{{"", "json_invalid"}}},
		{name: "not an object", raw: `[1, 2]`, want: []wantProblem{{"", "model_type"}}},
		{name: "too deep", raw: strings.Repeat("[", 65) + strings.Repeat("]", 65), want: []wantProblem{{"", "limit_exceeded"}}},
		{name: "deep but allowed extra", raw: strings.Replace(minimalJSON, `"id": "INV-1",`, `"id": "INV-1", "x": `+strings.Repeat("[", 60)+strings.Repeat("]", 60)+`,`, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.raw)
			if tc.raw == "" {
				data = patch(t, tc.patch)
			}
			inv, _, problems, err := DecodeInvoice(data, "body", "invoice")
			var got []wantProblem
			for _, p := range problems {
				if len(p.Loc) < 2 || p.Loc[0] != "body" || p.Loc[1] != "invoice" {
					t.Errorf("problem %v lacks the loc prefix", p)
				}
				if p.Msg == "" {
					t.Errorf("problem %v has no msg", p)
				}
				got = append(got, wantProblem{LocString(p.Loc[2:]), p.Type})
			}
			if !sameProblems(got, tc.want) {
				t.Errorf("problems = %v\nwant %v", got, tc.want)
			}
			if (err != nil) != (len(tc.want) > 0) || (inv == nil) != (len(tc.want) > 0) {
				t.Errorf("err = %v, inv nil = %v", err, inv == nil)
			}
			if err != nil {
				var ps Problems
				if !errors.As(err, &ps) || len(ps) != len(problems) {
					t.Errorf("err is not the Problems list: %v", err)
				}
			}
		})
	}
}

func sameProblems(a, b []wantProblem) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[wantProblem]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		if seen[x] == 0 {
			return false
		}
		seen[x]--
	}
	return true
}

func TestDecodeProblemDetails(t *testing.T) {
	_, _, ps, _ := DecodeInvoice(patch(t, `{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "category": "LUXURY", "vat_rate": "abc", "item": {"name": "x"}}]}`), "body", "invoice")
	if len(ps) != 2 {
		t.Fatalf("problems = %v", ps)
	}
	byLoc := map[string]Problem{}
	for _, p := range ps {
		byLoc[LocString(p.Loc)] = p
	}
	enum := byLoc["body.invoice.lines[0].category"]
	if enum.Type != ProblemEnum || enum.Input != "LUXURY" {
		t.Errorf("enum problem = %+v", enum)
	}
	if exp, _ := enum.Ctx["expected"].([]string); !reflect.DeepEqual(exp, VATCategory("").enumValues()) {
		t.Errorf("enum ctx.expected = %v", enum.Ctx["expected"])
	}
	rate := byLoc["body.invoice.lines[0].vat_rate"]
	if rate.Type != ProblemDecimalParsing || rate.Input != "abc" {
		t.Errorf("rate problem = %+v", rate)
	}
	// The loc is a JSON array of strings and integers.
	b, _ := json.Marshal(rate)
	if !strings.Contains(string(b), `"loc":["body","invoice","lines",0,"vat_rate"]`) {
		t.Errorf("problem JSON = %s", b)
	}
	// Missing terms name their BT id.
	_, _, ps, _ = DecodeInvoice(patch(t, `{"id": null}`))
	if len(ps) != 1 || ps[0].Ctx["bt"] != "BT-1" || LocString(ps[0].Loc) != "id" {
		t.Errorf("missing id = %+v", ps)
	}
}

func TestDecodeIgnoredExtras(t *testing.T) {
	data := patch(t, `{"x_custom": 1, "seller": {"fax": "123", "address": {"planet": "Earth"}}, "lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "category": "STANDARD", "vat_rate": 19, "item": {"name": "x", "a/b": 2}, "colour": "red"}]}`)
	inv, ignored, ps, err := DecodeInvoice(data, "body")
	if err != nil {
		t.Fatalf("%v %v", ps, err)
	}
	want := []string{"/lines/0/colour", "/lines/0/item/a~1b", "/seller/address/planet", "/seller/fax", "/x_custom"}
	got := append([]string(nil), ignored...)
	sortStrings(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ignored = %v, want %v", got, want)
	}
	if inv.Seller.Name != "Seller" || inv.Lines[0].VATCategoryCode != VATStandard {
		t.Errorf("decoded = %+v", inv)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestDecodeNormalisesCategory(t *testing.T) {
	inv, _, _, err := DecodeInvoice(patch(t, `{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "vat_category_code": "K", "vat_rate": 0, "item": {"name": "x"}}, {"id": "2", "quantity": 1, "unit_code": "C62", "net_price": 1, "category": "REVERSE_CHARGE", "vat_rate": 0, "item": {"name": "x"}}, {"id": "3", "quantity": 1, "unit_code": "C62", "net_price": 1, "vat_category_code": "M", "vat_rate": 4, "item": {"name": "x"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		code VATCategoryCode
		name VATCategory
	}{{"K", "INTRA_COMMUNITY"}, {"AE", "REVERSE_CHARGE"}, {"M", ""}} {
		if l := inv.Lines[i]; l.VATCategoryCode != want.code || l.Category != want.name {
			t.Errorf("line %d: %s %s, want %s %s", i, l.VATCategoryCode, l.Category, want.code, want.name)
		}
	}
}

// TestDecodeEveryProblemAtOnce checks that independent problems anywhere in
// the document are all reported in one pass.
func TestDecodeEveryProblemAtOnce(t *testing.T) {
	var lines []string
	for i := 0; i < 5; i++ {
		lines = append(lines, fmt.Sprintf(`{"id": "%d", "quantity": "q%d", "unit_code": "C62", "net_price": 1, "category": "STANDARD", "item": {}}`, i, i))
	}
	data := patch(t, `{"lines": [`+strings.Join(lines, ",")+`]}`)
	_, _, ps, _ := DecodeInvoice(data)
	if len(ps) != 10 {
		t.Fatalf("got %d problems, want 10: %v", len(ps), ps)
	}
	for i := 0; i < 5; i++ {
		// patch re-marshals with sorted keys: item comes before quantity.
		if LocString(ps[2*i].Loc) != fmt.Sprintf("lines[%d].item.name", i) || LocString(ps[2*i+1].Loc) != fmt.Sprintf("lines[%d].quantity", i) {
			t.Errorf("problems %d: %v %v", i, ps[2*i].Loc, ps[2*i+1].Loc)
		}
	}
}

// TestDecodeRejectsCharactersXMLCannotCarry: an escaped control character
// is valid JSON but no syntax can write it; the decoder reports it at its
// JSON path (422) instead of the writer failing later (a 500 found by
// schemathesis on generate/ubl).
func TestDecodeRejectsCharactersXMLCannotCarry(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"\u0003x"`, "U+0003"},
		{`"a\bc"`, "U+0008"},
		{`"\uffff"`, "U+FFFF"},
	} {
		_, _, ps, _ := DecodeInvoice(patch(t, `{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "category": "STANDARD", "vat_rate": 19, "item": {"name": `+c.in+`}}]}`), "body")
		if len(ps) != 1 || LocString(ps[0].Loc) != "body.lines[0].item.name" || ps[0].Type != ProblemValueError || !strings.Contains(ps[0].Msg, c.want) {
			t.Errorf("%s: problems = %+v", c.in, ps)
		}
	}
	// Tab, line feed and carriage return are XML characters.
	if _, _, ps, _ := DecodeInvoice(patch(t, `{"note": "a\tb\nc\rd"}`)); len(ps) != 0 {
		t.Errorf("whitespace escapes refused: %+v", ps)
	}
}
