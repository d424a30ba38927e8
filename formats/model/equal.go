package model

import (
	"bytes"
	"reflect"
	"strings"
)

// Diff compares two invoices term by term and returns the JSON Pointers of
// the terms that differ ("/lines/0/net_amount", "/seller/vat_id"; a whole
// array when the lengths differ). Decimals compare by value (1.50 equals
// 1.5); an absent optional term differs from a present one, but an empty
// optional string is the same as an absent one; a VAT category compares by
// its resolved code (category STANDARD equals vat_category_code S). Conversion
// uses it to prove
// that a document read back equals its source.
func Diff(a, b *Invoice) []string {
	var out []string
	diffValue(reflect.ValueOf(a), reflect.ValueOf(b), nil, &out)
	return out
}

// Equal reports whether inv and o hold the same business terms (Diff is empty).
func (inv *Invoice) Equal(o *Invoice) bool { return len(Diff(inv, o)) == 0 }

var (
	vatCodeType     = reflect.TypeFor[VATCategoryCode]()
	vatCategoryType = reflect.TypeFor[VATCategory]()
)

// resolvedCode returns the VAT category code of a struct that has the code
// and/or its named form.
func resolvedCode(v reflect.Value) VATCategoryCode {
	var code VATCategoryCode
	var name VATCategory
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Type() {
		case vatCodeType:
			code = VATCategoryCode(f.String())
		case vatCategoryType:
			name = VATCategory(f.String())
		}
	}
	if code == "" {
		return name.Code()
	}
	return code
}

func diffValue(a, b reflect.Value, loc []any, out *[]string) {
	t := a.Type()
	switch {
	case t == decimalType:
		if !a.Interface().(Decimal).Equal(b.Interface().(Decimal)) {
			*out = append(*out, pointer(loc))
		}
	case t == dateType:
		if a.Interface().(Date) != b.Interface().(Date) {
			*out = append(*out, pointer(loc))
		}
	case t == bytesType:
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			*out = append(*out, pointer(loc))
		}
	case t.Kind() == reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				*out = append(*out, pointer(loc))
			}
			return
		}
		diffValue(a.Elem(), b.Elem(), loc, out)
	case t.Kind() == reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "" || name == "-" {
				continue
			}
			if f.Type == vatCategoryType {
				continue // the named form: compared through the resolved code
			}
			if f.Type == vatCodeType {
				if resolvedCode(a) != resolvedCode(b) {
					*out = append(*out, pointer(append(loc, name)))
				}
				continue
			}
			diffValue(a.Field(i), b.Field(i), append(loc, name), out)
		}
	case t.Kind() == reflect.Slice:
		if a.Len() != b.Len() {
			*out = append(*out, pointer(loc))
			return
		}
		for i := 0; i < a.Len(); i++ {
			diffValue(a.Index(i), b.Index(i), append(loc, i), out)
		}
	case t.Kind() == reflect.String:
		if a.String() != b.String() {
			*out = append(*out, pointer(loc))
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			*out = append(*out, pointer(loc))
		}
	}
}
