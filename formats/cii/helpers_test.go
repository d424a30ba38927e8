package cii

import (
	"fmt"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// sharedDir is ../shared relative to the repository (EINVOICE_SHARED
// overrides it).
func sharedDir(t testing.TB) string {
	return testshared.Dir(t)
}

// corpusFiles lists the CII EN 16931 examples of the shared corpora.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	root := sharedDir(t)
	var files []string
	for _, pat := range []string{
		"corpus/en16931/cii/examples/*.xml",
		"corpus/factur-x/1.09.2/phive-test-files/en16931/*.xml",
		"corpus/xrechnung-testsuite/technical-cases/*/*uncefact*.xml",
		"corpus/xrechnung-testsuite/technical-cases/*/*/*uncefact*.xml",
	} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	// Peppol BIS examples are UBL; include any CII ones should they appear.
	if m, _ := filepath.Glob(filepath.Join(root, "corpus/peppol-bis-billing/3.0.19/examples/*.xml")); len(m) > 0 {
		for _, f := range m {
			if doc := parseFile(t, f); Detect(doc) {
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no CII examples under %s (set EINVOICE_SHARED)", root)
	}
	return files
}

func parseFile(t testing.TB, path string) *xmltree.Document {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc
}

// modelDiff returns the field paths where a and b differ (decimals compare
// by value and display scale, i.e. by their written form).
func modelDiff(a, b *model.Invoice) []string {
	var out []string
	diffValue("invoice", reflect.ValueOf(a), reflect.ValueOf(b), &out)
	return out
}

var decimalType = reflect.TypeOf(model.Decimal{})

func diffValue(path string, a, b reflect.Value, out *[]string) {
	if a.Type() == decimalType {
		da, db := a.Interface().(model.Decimal), b.Interface().(model.Decimal)
		if da.String() != db.String() {
			*out = append(*out, fmt.Sprintf("%s: %s != %s", path, da, db))
		}
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			*out = append(*out, fmt.Sprintf("%s: nil %v != nil %v", path, a.IsNil(), b.IsNil()))
			return
		}
		if !a.IsNil() {
			diffValue(path, a.Elem(), b.Elem(), out)
		}
	case reflect.Struct:
		// The named VAT category is another spelling of the code: compare
		// the effective code (the readers set only VATCategoryCode).
		if code, named := a.FieldByName("VATCategoryCode"), a.FieldByName("Category"); code.IsValid() && named.IsValid() {
			ea, eb := effectiveCode(a), effectiveCode(b)
			if ea != eb {
				*out = append(*out, fmt.Sprintf("%s: VAT category %q != %q", path, ea, eb))
			}
		}
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if f.Name == "VATCategoryCode" || f.Name == "Category" && f.Type == reflect.TypeOf(model.VATCategory("")) {
				continue
			}
			if !f.IsExported() {
				continue // model types keep no state in unexported fields but Decimal's
			}
			diffValue(path+"."+f.Name, a.Field(i), b.Field(i), out)
		}
	case reflect.Slice:
		if a.Type().Elem().Kind() == reflect.Uint8 {
			if string(a.Bytes()) != string(b.Bytes()) {
				*out = append(*out, fmt.Sprintf("%s: bytes differ (%d vs %d)", path, a.Len(), b.Len()))
			}
			return
		}
		if a.Len() != b.Len() {
			*out = append(*out, fmt.Sprintf("%s: len %d != %d", path, a.Len(), b.Len()))
			return
		}
		for i := 0; i < a.Len(); i++ {
			diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), out)
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			*out = append(*out, fmt.Sprintf("%s: %v != %v", path, a.Interface(), b.Interface()))
		}
	}
}

func effectiveCode(v reflect.Value) model.VATCategoryCode {
	if c := v.FieldByName("VATCategoryCode").Interface().(model.VATCategoryCode); c != "" {
		return c
	}
	return v.FieldByName("Category").Interface().(model.VATCategory).Code()
}
