package convert

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// lookup resolves a JSON Pointer of model.Diff in inv and returns the
// business term of the deepest field on the way (its bt struct tag) and the
// value found, formatted for a loss reason ("absent" for a nil or missing
// value, "N entries" for arrays).
func lookup(inv *model.Invoice, ptr string) (bt, value string) {
	v := reflect.ValueOf(inv)
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return bt, "absent"
			}
			v = v.Elem()
		}
		if seg == "" {
			break
		}
		switch v.Kind() {
		case reflect.Struct:
			f, ok := fieldByJSON(v.Type(), seg)
			if !ok {
				return bt, "absent"
			}
			if tag := f.Tag.Get("bt"); tag != "" {
				bt = tag
			}
			v = v.FieldByIndex(f.Index)
		case reflect.Slice, reflect.Array:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= v.Len() {
				return bt, "absent"
			}
			v = v.Index(i)
		default:
			return bt, "absent"
		}
	}
	return bt, format(v)
}

func fieldByJSON(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func format(v reflect.Value) string {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "absent"
		}
		v = v.Elem()
	}
	if v.CanInterface() {
		if s, ok := v.Interface().(fmt.Stringer); ok {
			return strconv.Quote(s.String())
		}
	}
	switch v.Kind() {
	case reflect.String:
		if v.Len() == 0 {
			return "absent"
		}
		return strconv.Quote(v.String())
	case reflect.Slice, reflect.Array:
		return fmt.Sprintf("%d entries", v.Len())
	case reflect.Struct:
		return "a group"
	default:
		return fmt.Sprint(v.Interface())
	}
}
