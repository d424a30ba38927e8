// Package strictjson owns the strict, located decoding of small JSON
// inputs into Go structs (the Order-X order, the Facturae extras): unknown
// members are refused, required members (tag required:"true") must be
// present and non-empty, decimals (formats/model.Decimal, JSON strings or
// numbers) and dates (model.Date, YYYY-MM-DD) are parsed exactly, strings
// must be XML 1.0 text, and every problem is reported with its JSON path
// in the model.Problem shape. It uses only reflection over struct tags;
// the types stay with their format packages.
package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// Problem types of Decode besides the model's.
const (
	ProblemExtraForbidden = "extra_forbidden" // an unknown member (the order is decoded strictly)
)

// MaxBytes bounds the JSON Decode reads (the HTTP body limit is usually
// lower).
const MaxBytes = 16 << 20

var (
	decimalType = reflect.TypeFor[model.Decimal]()
	dateType    = reflect.TypeFor[model.Date]()
)

// Decode decodes data strictly into dst, a pointer to a struct whose
// fields are strings, bools, model.Decimal, model.Date, structs, pointers
// and slices of these, named by their json tags. Problems are located under
// locPrefix (for example "body"). A nil result means dst was filled.
func Decode(data []byte, dst any, locPrefix ...any) model.Problems {
	d := &decoder{Collector{Prefix: locPrefix}}
	if len(data) > MaxBytes {
		d.Add(nil, model.ProblemLimitExceeded, "input too large", nil, map[string]any{"limit": MaxBytes})
		return d.List
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		d.Add(nil, model.ProblemJSONInvalid, "JSON decode error: "+err.Error(), nil, map[string]any{"error": err.Error()})
		return d.List
	}
	if _, err := dec.Token(); err == nil {
		d.Add(nil, model.ProblemJSONInvalid, "JSON decode error: data after the value", nil, map[string]any{"error": "data after the value"})
		return d.List
	}
	v := reflect.ValueOf(dst).Elem()
	d.value(v, raw, nil)
	return d.List
}

type decoder struct{ Collector }

// Collector gathers the problems of a strict decoder (this package's and
// the hand-written ones of the formats), each located under Prefix.
type Collector struct {
	Prefix []any
	List   model.Problems
}

// Add records one problem at loc (below Prefix).
func (c *Collector) Add(loc []any, typ, msg string, input any, ctx map[string]any) {
	full := append(slices.Clone(c.Prefix), loc...)
	c.List = append(c.List, model.Problem{Loc: full, Type: typ, Msg: msg, Input: input, Ctx: ctx})
}

func at(loc []any, k ...any) []any { return append(slices.Clone(loc), k...) }

// InputOf is a decoded JSON value as a problem's input: scalars as given
// (numbers as their text), objects and arrays left out.
func InputOf(v any) any {
	switch x := v.(type) {
	case map[string]any, []any:
		return nil
	case json.Number:
		return x.String()
	}
	return v
}

// field is one JSON member of a struct type.
type field struct {
	name     string
	index    int
	required bool
}

var fieldCache sync.Map // reflect.Type -> []field

// fields returns the JSON members of a struct type in declaration order,
// with whether each is required.
func fields(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		fs = append(fs, field{name: name, index: i, required: f.Tag.Get("required") == "true"})
	}
	fieldCache.Store(t, fs)
	return fs
}

// value decodes node into v (a settable value of an Order type).
func (d *decoder) value(v reflect.Value, node any, loc []any) {
	t := v.Type()
	switch {
	case t.Kind() == reflect.Pointer:
		e := reflect.New(t.Elem())
		n := len(d.List)
		d.value(e.Elem(), node, loc)
		if len(d.List) == n {
			v.Set(e)
		}
	case t == decimalType:
		var s string
		switch x := node.(type) {
		case string:
			s = x
		case json.Number:
			s = x.String()
		default:
			d.Add(loc, model.ProblemDecimalType, "Decimal input should be a string or number", InputOf(node), nil)
			return
		}
		x, err := model.ParseDecimal(s)
		if err != nil {
			d.Add(loc, model.ProblemDecimalParsing, "Input should be a valid decimal", s, nil)
			return
		}
		v.Set(reflect.ValueOf(x))
	case t == dateType:
		s, ok := node.(string)
		if !ok {
			d.Add(loc, model.ProblemDateType, "Input should be a valid date string (YYYY-MM-DD)", InputOf(node), nil)
			return
		}
		x, err := model.ParseDate(s)
		if err != nil {
			d.Add(loc, model.ProblemDateParsing, "Input should be a valid date (YYYY-MM-DD)", s, nil)
			return
		}
		v.Set(reflect.ValueOf(x))
	case t.Kind() == reflect.String:
		s, ok := node.(string)
		if !ok {
			d.Add(loc, model.ProblemStringType, "Input should be a valid string", InputOf(node), nil)
			return
		}
		if !xmlText(s) {
			d.Add(loc, model.ProblemValueError, "the string holds a character XML 1.0 cannot carry (control character or invalid UTF-8)", s, nil)
			return
		}
		v.SetString(s)
	case t.Kind() == reflect.Bool:
		b, ok := node.(bool)
		if !ok {
			d.Add(loc, model.ProblemBoolType, "Input should be a valid boolean", InputOf(node), nil)
			return
		}
		v.SetBool(b)
	case t.Kind() == reflect.Slice:
		arr, ok := node.([]any)
		if !ok {
			d.Add(loc, model.ProblemListType, "Input should be a valid list", InputOf(node), nil)
			return
		}
		s := reflect.MakeSlice(t, len(arr), len(arr))
		for i, e := range arr {
			if e == nil {
				d.Add(at(loc, i), model.ProblemMissing, "Input should not be null", nil, nil)
				continue
			}
			d.value(s.Index(i), e, at(loc, i))
		}
		v.Set(s)
	case t.Kind() == reflect.Struct:
		m, ok := node.(map[string]any)
		if !ok {
			d.Add(loc, model.ProblemObjectType, "Input should be a valid object", InputOf(node), nil)
			return
		}
		fs := fields(t)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !slices.ContainsFunc(fs, func(f field) bool { return f.name == k }) {
				d.Add(at(loc, k), ProblemExtraForbidden, "Extra inputs are not permitted", InputOf(m[k]), nil)
			}
		}
		for _, f := range fs {
			x, ok := m[f.name]
			if !ok || x == nil {
				if f.required {
					d.Add(at(loc, f.name), model.ProblemMissing, "Field required", nil, nil)
				}
				continue
			}
			d.value(v.Field(f.index), x, at(loc, f.name))
			if f.required && v.Field(f.index).Kind() == reflect.String && v.Field(f.index).Len() == 0 {
				d.Add(at(loc, f.name), model.ProblemStringTooShort, "String should have at least 1 character", "", map[string]any{"min_length": 1})
			}
		}
	default:
		panic(fmt.Sprintf("strictjson: no decoder for %s", t))
	}
}

// Members returns, for the struct type of root and each struct type nested
// in it, its JSON member names in order, required ones suffixed with "*"
// (by type name). API wire types are checked against it.
func Members(root reflect.Type) map[string][]string {
	out := map[string][]string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == decimalType || t == dateType {
			return
		}
		if _, done := out[t.Name()]; done {
			return
		}
		out[t.Name()] = nil
		var names []string
		for _, f := range fields(t) {
			n := f.name
			if f.required {
				n += "*"
			}
			names = append(names, n)
			walk(t.Field(f.index).Type)
		}
		out[t.Name()] = names
	}
	walk(root)
	return out
}

// xmlText reports whether s is valid UTF-8 made of XML 1.0 characters.
func xmlText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r == 0x9 || r == 0xA || r == 0xD:
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			return false
		}
	}
	return true
}
