package model

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// miniValidator checks an instance against the subset of JSON Schema 2020-12
// that InvoiceSchema uses ($ref, type, enum, properties, required, items,
// minItems, minLength, pattern, anyOf, allOf). It exists so the tests can
// prove that the schema and the decoder agree.
type miniValidator struct {
	defs map[string]any
	errs []string
}

func (v *miniValidator) fail(path, format string, args ...any) {
	v.errs = append(v.errs, path+": "+fmt.Sprintf(format, args...))
}

func jsonType(x any) string {
	switch n := x.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case json.Number:
		if !strings.ContainsAny(string(n), ".eE") {
			return "integer"
		}
		return "number"
	}
	return "?"
}

func typeOK(want any, got string) bool {
	switch w := want.(type) {
	case string:
		return w == got || (w == "number" && got == "integer")
	case []any:
		for _, x := range w {
			if typeOK(x, got) {
				return true
			}
		}
	}
	return false
}

func (v *miniValidator) validate(s map[string]any, x any, path string) {
	if ref, ok := s["$ref"].(string); ok {
		v.validate(v.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any), x, path)
	}
	if t, ok := s["type"]; ok && !typeOK(t, jsonType(x)) {
		v.fail(path, "type %s, want %v", jsonType(x), t)
		return
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if fmt.Sprint(e) == fmt.Sprint(x) && (jsonType(e) == jsonType(x) || jsonType(x) == "integer" && jsonType(e) == "number") {
				found = true
			}
		}
		if !found {
			v.fail(path, "%v not in enum", x)
		}
	}
	if str, ok := x.(string); ok {
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			v.fail(path, "%q does not match %s", str, p)
		}
		if m, ok := s["minLength"].(json.Number); ok && string(m) == "1" && str == "" {
			v.fail(path, "empty string")
		}
	}
	if arr, ok := x.([]any); ok {
		if m, ok := s["minItems"].(json.Number); ok && string(m) == "1" && len(arr) == 0 {
			v.fail(path, "empty array")
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, el := range arr {
				v.validate(items, el, fmt.Sprintf("%s/%d", path, i))
			}
		}
	}
	if obj, ok := x.(map[string]any); ok {
		for _, r := range toStrings(s["required"]) {
			if _, ok := obj[r]; !ok {
				v.fail(path, "missing %s", r)
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for k, val := range obj {
				if ps, ok := props[k].(map[string]any); ok {
					v.validate(ps, val, path+"/"+k)
				}
			}
		}
	}
	for _, key := range []string{"anyOf", "allOf"} {
		subs, _ := s[key].([]any)
		passed := 0
		for _, sub := range subs {
			inner := &miniValidator{defs: v.defs}
			inner.validate(sub.(map[string]any), x, path)
			if len(inner.errs) == 0 {
				passed++
			} else if key == "allOf" {
				v.errs = append(v.errs, inner.errs...)
			}
		}
		if key == "anyOf" && len(subs) > 0 && passed == 0 {
			v.fail(path, "no anyOf alternative holds")
		}
	}
}

func schemaErrors(t *testing.T, instance []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(InvoiceSchema())))
	dec.UseNumber()
	var s map[string]any
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	dec = json.NewDecoder(strings.NewReader(string(instance)))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		t.Fatal(err)
	}
	v := &miniValidator{defs: s["$defs"].(map[string]any)}
	v.validate(s, x, "")
	return v.errs
}

// TestSchemaAgreesWithDecoder: what the decoder accepts the schema accepts,
// and the schema refuses what the decoder refuses for schema-level reasons.
func TestSchemaAgreesWithDecoder(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 100; i++ {
		b, _ := EncodeInvoice(RandomInvoice(r, RandomOptions{Incomplete: i%2 == 0}))
		if errs := schemaErrors(t, b); len(errs) > 0 {
			t.Fatalf("random invoice %d fails the schema: %v\n%s", i, errs, b)
		}
	}
	ex := docExamples(t)
	if errs := schemaErrors(t, ex["invoice"]); len(errs) > 0 {
		t.Errorf("doc example fails the schema: %v", errs)
	}
	for _, p := range []string{
		`{"id": null}`, `{"issue_date": "31.01.2024"}`, `{"type_code": "999"}`, `{"lines": []}`,
		`{"lines": [{"id": "1", "quantity": "x", "unit_code": "C62", "net_price": 1, "category": "STANDARD", "item": {"name": "x"}}]}`,
		`{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "category": "STANDARD", "item": {"name": "x"}}]}`,
		`{"lines": [{"id": "1", "quantity": 1, "unit_code": "C62", "net_price": 1, "item": {"name": "x"}}]}`,
		`{"allowances": [{"percentage": 5, "category": "STANDARD"}]}`, `{"seller": {"name": ""}}`,
	} {
		data := patch(t, p)
		_, _, ps, _ := DecodeInvoice(data)
		errs := schemaErrors(t, data)
		if len(ps) == 0 || len(errs) == 0 {
			t.Errorf("patch %s: decoder problems %v, schema errors %v; want both", p, ps, errs)
		}
	}
}
