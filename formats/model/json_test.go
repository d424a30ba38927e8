package model

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// TestJSONRoundTrip: encode → decode gives the same model, and encoding is
// stable (canonical).
func TestJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 200; i++ {
		inv := RandomInvoice(r, RandomOptions{})
		b, err := EncodeInvoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		back, ignored, ps, err := DecodeInvoice(b)
		if err != nil {
			t.Fatalf("invoice %d: %v\n%s", i, ps, b)
		}
		if len(ignored) != 0 {
			t.Errorf("canonical form has unknown members %v", ignored)
		}
		if d := Diff(inv, back); len(d) != 0 {
			t.Fatalf("invoice %d differs after the round trip at %v\n%s", i, d, b)
		}
		b2, _ := EncodeInvoice(back)
		if !bytes.Equal(b, b2) {
			t.Fatalf("encoding not stable:\n%s\n%s", b, b2)
		}
		if bytes.Contains(b, []byte(`":0.`)) || bytes.Contains(b, []byte(`e+`)) {
			t.Errorf("decimal encoded as a JSON number: %s", b)
		}
	}
}

func TestInvoiceSchemaGolden(t *testing.T) {
	got := InvoiceSchema()
	path := filepath.Join("testdata", "invoice.schema.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestInvoiceSchemaGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("InvoiceSchema differs from %s; run with -update if the change is intended", path)
	}
}

// TestInvoiceSchemaContent checks what the schema must say, independent of
// the golden file.
func TestInvoiceSchemaContent(t *testing.T) {
	var s map[string]any
	if err := jsonUnmarshal(InvoiceSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", s["$schema"])
	}
	defs := s["$defs"].(map[string]any)
	inv := defs["Invoice"].(map[string]any)
	req := toStrings(inv["required"])
	for _, r := range []string{"id", "issue_date", "type_code", "currency_code", "seller", "buyer", "lines"} {
		if !contains(req, r) {
			t.Errorf("Invoice.required lacks %s: %v", r, req)
		}
	}
	for _, r := range []string{"totals", "vat_breakdown"} {
		if contains(req, r) {
			t.Errorf("computed %s is required", r)
		}
	}
	props := inv["properties"].(map[string]any)
	id := props["id"].(map[string]any)
	if !strings.HasPrefix(id["description"].(string), "BT-1 ") || id["minLength"] != float64(1) {
		t.Errorf("id = %v", id)
	}
	tc := props["type_code"].(map[string]any)
	if !contains(toStrings(tc["enum"]), "380") || !containsAny(tc["enum"].([]any), float64(381)) {
		t.Errorf("type_code enum = %v", tc["enum"])
	}
	line := defs["Line"].(map[string]any)
	lp := line["properties"].(map[string]any)
	cat := lp["category"].(map[string]any)
	if got := toStrings(cat["enum"]); !reflect.DeepEqual(got, VATCategory("").enumValues()) {
		t.Errorf("line category enum = %v", got)
	}
	if lp["vat_rate"].(map[string]any)["$ref"] != "#/$defs/Decimal" {
		t.Errorf("vat_rate = %v", lp["vat_rate"])
	}
	if line["allOf"] == nil {
		t.Error("Line lacks the category/price alternatives")
	}
	dec := defs["Decimal"].(map[string]any)
	if !reflect.DeepEqual(toStrings(dec["type"]), []string{"string", "number"}) || dec["pattern"] != DecimalPattern {
		t.Errorf("Decimal = %v", dec)
	}
	// Sub-lines (BG-DEX-01) are lines: the definition refers to itself.
	if sub := lp["sub_lines"].(map[string]any); sub["type"] != "array" || sub["items"].(map[string]any)["$ref"] != "#/$defs/Line" {
		t.Errorf("sub_lines = %v", sub)
	}
	lines := props["lines"].(map[string]any)
	if lines["minItems"] != float64(1) || lines["type"] != "array" {
		t.Errorf("lines = %v", lines)
	}
	// Every property of every definition has a description; every one
	// generated from a bt tag starts with its id.
	btRe := regexp.MustCompile(`^(BT|BG)-(DEX-)?[0-9]+`)
	for name, def := range defs {
		ps, _ := def.(map[string]any)["properties"].(map[string]any)
		for pn, p := range ps {
			pm := p.(map[string]any)
			desc, _ := pm["description"].(string)
			if desc == "" {
				t.Errorf("%s.%s has no description", name, pn)
			}
			if pm["x-bt"] != nil && !btRe.MatchString(desc) {
				t.Errorf("%s.%s description %q lacks its BT/BG id", name, pn, desc)
			}
		}
	}
	// The decimal pattern accepts what ParseDecimal accepts.
	re := regexp.MustCompile(DecimalPattern)
	for _, in := range []string{"1", "-1.50", "+.5", "5.", "x", "1e3", ""} {
		_, err := ParseDecimal(in)
		if re.MatchString(in) != (err == nil) {
			t.Errorf("pattern and ParseDecimal disagree on %q", in)
		}
	}
}

func TestInvoiceSchemaDefinitions(t *testing.T) {
	defs := InvoiceSchemaDefinitions("#/components/schemas/", "Model")
	var full map[string]any
	if err := jsonUnmarshal(InvoiceSchema(), &full); err != nil {
		t.Fatal(err)
	}
	if len(defs) != len(full["$defs"].(map[string]any)) {
		t.Errorf("%d definitions, the standalone schema has %d", len(defs), len(full["$defs"].(map[string]any)))
	}
	for _, name := range []string{"ModelInvoice", "ModelLine", "ModelDecimal", "ModelDate", "ModelAddress"} {
		if defs[name] == nil {
			t.Errorf("missing %s", name)
		}
	}
	refRe := regexp.MustCompile(`"\$ref":"([^"]*)"`)
	for name, b := range defs {
		for _, m := range refRe.FindAllStringSubmatch(string(b), -1) {
			target, ok := strings.CutPrefix(m[1], "#/components/schemas/")
			if !ok || defs[target] == nil {
				t.Errorf("%s: dangling $ref %s", name, m[1])
			}
		}
	}
}

func toStrings(v any) []string {
	var out []string
	if xs, ok := v.([]any); ok {
		for _, x := range xs {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func containsAny(xs []any, v any) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}
