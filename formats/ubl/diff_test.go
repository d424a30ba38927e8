package ubl

import (
	"fmt"
	"reflect"

	"github.com/einvoice-dev/einvoice/formats/model"
)

var (
	decimalType  = reflect.TypeFor[model.Decimal]()
	categoryType = reflect.TypeFor[model.VATCategory]()
	codeType     = reflect.TypeFor[model.VATCategoryCode]()
)

// Diff returns the field paths where a and b differ ("Lines[2].NetPrice:
// 10.00 != 10.0"). Decimals compare by value and written form; a VAT
// category compares by its effective code (VATCategoryCode or the code of
// the named Category).
func Diff(a, b *model.Invoice) []string {
	var out []string
	diffValue(&out, "Invoice", reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem())
	return out
}

func diffValue(out *[]string, path string, a, b reflect.Value) {
	switch {
	case a.Type() == decimalType:
		da, db := a.Interface().(model.Decimal), b.Interface().(model.Decimal)
		if !da.Equal(db) || da.String() != db.String() {
			*out = append(*out, fmt.Sprintf("%s: %s != %s", path, da.String(), db.String()))
		}
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				*out = append(*out, fmt.Sprintf("%s: %s != %s", path, show(a), show(b)))
			}
			return
		}
		diffValue(out, path, a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Type().Elem().Kind() == reflect.Uint8 {
			if string(a.Bytes()) != string(b.Bytes()) {
				*out = append(*out, fmt.Sprintf("%s: %d bytes != %d bytes", path, a.Len(), b.Len()))
			}
			return
		}
		if a.Len() != b.Len() {
			*out = append(*out, fmt.Sprintf("%s: length %d != %d", path, a.Len(), b.Len()))
		}
		for i := range min(a.Len(), b.Len()) {
			diffValue(out, fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
		}
	case reflect.Struct:
		t := a.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Type == categoryType {
				continue // compared with the code
			}
			fa, fb := a.Field(i), b.Field(i)
			if f.Type == codeType {
				ca, cb := effectiveCode(a, fa), effectiveCode(b, fb)
				if ca != cb {
					*out = append(*out, fmt.Sprintf("%s.%s: %q != %q", path, f.Name, ca, cb))
				}
				continue
			}
			diffValue(out, path+"."+f.Name, fa, fb)
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			*out = append(*out, fmt.Sprintf("%s: %v != %v", path, show(a), show(b)))
		}
	}
}

func effectiveCode(parent, code reflect.Value) model.VATCategoryCode {
	c := code.Interface().(model.VATCategoryCode)
	if c != "" {
		return c
	}
	if f := parent.FieldByName("Category"); f.IsValid() && f.Type() == categoryType {
		return f.Interface().(model.VATCategory).Code()
	}
	return c
}

func show(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("&%+v", v.Elem().Interface())
	}
	return fmt.Sprintf("%q", fmt.Sprint(v.Interface()))
}
