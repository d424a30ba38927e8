package orderx

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

// Problem types of DecodeOrder besides the model's.
const (
	ProblemExtraForbidden = "extra_forbidden" // an unknown member (the order is decoded strictly)
)

// MaxOrderBytes bounds the JSON DecodeOrder reads (the HTTP body limit is
// usually lower).
const MaxOrderBytes = 16 << 20

var (
	decimalType = reflect.TypeFor[model.Decimal]()
	dateType    = reflect.TypeFor[model.Date]()
)

// DecodeOrder decodes an order strictly: unknown members are refused
// (extra_forbidden), required members must be present and non-empty, and
// decimals (JSON strings or numbers) and dates (YYYY-MM-DD) are parsed
// exactly. Every problem is reported, located under locPrefix (for example
// "body"). The error is non-nil exactly when problems is non-empty (it is
// the model.Problems).
func DecodeOrder(data []byte, locPrefix ...any) (*Order, model.Problems, error) {
	d := &decoder{prefix: locPrefix}
	if len(data) > MaxOrderBytes {
		d.add(nil, model.ProblemLimitExceeded, "order too large", nil, map[string]any{"limit": MaxOrderBytes})
		return nil, d.problems, d.problems
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		d.add(nil, model.ProblemJSONInvalid, "JSON decode error: "+err.Error(), nil, map[string]any{"error": err.Error()})
		return nil, d.problems, d.problems
	}
	if _, err := dec.Token(); err == nil {
		d.add(nil, model.ProblemJSONInvalid, "JSON decode error: data after the value", nil, map[string]any{"error": "data after the value"})
		return nil, d.problems, d.problems
	}
	o := new(Order)
	d.value(reflect.ValueOf(o).Elem(), raw, nil)
	if len(d.problems) == 0 {
		d.check(o)
	}
	if len(d.problems) > 0 {
		return nil, d.problems, d.problems
	}
	return o, nil, nil
}

type decoder struct {
	prefix   []any
	problems model.Problems
}

func (d *decoder) add(loc []any, typ, msg string, input any, ctx map[string]any) {
	full := append(slices.Clone(d.prefix), loc...)
	d.problems = append(d.problems, model.Problem{Loc: full, Type: typ, Msg: msg, Input: input, Ctx: ctx})
}

func at(loc []any, k ...any) []any { return append(slices.Clone(loc), k...) }

func inputOf(v any) any {
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

// Fields returns the JSON members of a struct type of this package in
// declaration order, with whether each is required.
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
		n := len(d.problems)
		d.value(e.Elem(), node, loc)
		if len(d.problems) == n {
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
			d.add(loc, model.ProblemDecimalType, "Decimal input should be a string or number", inputOf(node), nil)
			return
		}
		x, err := model.ParseDecimal(s)
		if err != nil {
			d.add(loc, model.ProblemDecimalParsing, "Input should be a valid decimal", s, nil)
			return
		}
		v.Set(reflect.ValueOf(x))
	case t == dateType:
		s, ok := node.(string)
		if !ok {
			d.add(loc, model.ProblemDateType, "Input should be a valid date string (YYYY-MM-DD)", inputOf(node), nil)
			return
		}
		x, err := model.ParseDate(s)
		if err != nil {
			d.add(loc, model.ProblemDateParsing, "Input should be a valid date (YYYY-MM-DD)", s, nil)
			return
		}
		v.Set(reflect.ValueOf(x))
	case t.Kind() == reflect.String:
		s, ok := node.(string)
		if !ok {
			d.add(loc, model.ProblemStringType, "Input should be a valid string", inputOf(node), nil)
			return
		}
		if !xmlText(s) {
			d.add(loc, model.ProblemValueError, "the string holds a character XML 1.0 cannot carry (control character or invalid UTF-8)", s, nil)
			return
		}
		v.SetString(s)
	case t.Kind() == reflect.Bool:
		b, ok := node.(bool)
		if !ok {
			d.add(loc, model.ProblemBoolType, "Input should be a valid boolean", inputOf(node), nil)
			return
		}
		v.SetBool(b)
	case t.Kind() == reflect.Slice:
		arr, ok := node.([]any)
		if !ok {
			d.add(loc, model.ProblemListType, "Input should be a valid list", inputOf(node), nil)
			return
		}
		s := reflect.MakeSlice(t, len(arr), len(arr))
		for i, e := range arr {
			if e == nil {
				d.add(at(loc, i), model.ProblemMissing, "Input should not be null", nil, nil)
				continue
			}
			d.value(s.Index(i), e, at(loc, i))
		}
		v.Set(s)
	case t.Kind() == reflect.Struct:
		m, ok := node.(map[string]any)
		if !ok {
			d.add(loc, model.ProblemObjectType, "Input should be a valid object", inputOf(node), nil)
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
				d.add(at(loc, k), ProblemExtraForbidden, "Extra inputs are not permitted", inputOf(m[k]), nil)
			}
		}
		for _, f := range fs {
			x, ok := m[f.name]
			if !ok || x == nil {
				if f.required {
					d.add(at(loc, f.name), model.ProblemMissing, "Field required", nil, nil)
				}
				continue
			}
			d.value(v.Field(f.index), x, at(loc, f.name))
			if f.required && v.Field(f.index).Kind() == reflect.String && v.Field(f.index).Len() == 0 {
				d.add(at(loc, f.name), model.ProblemStringTooShort, "String should have at least 1 character", "", map[string]any{"min_length": 1})
			}
		}
	default:
		panic(fmt.Sprintf("orderx: no decoder for %s", t))
	}
}

// check applies the rules the types cannot say: at least one line, a
// buyer address, distinct line ids, codes of the right shape, quantities
// and prices that Order-X can carry.
func (d *decoder) check(o *Order) {
	if len(o.Lines) == 0 {
		d.add([]any{"lines"}, model.ProblemTooShort, "List should have at least 1 item", nil, map[string]any{"min_length": 1})
	}
	if o.Buyer.Address == nil {
		d.add([]any{"buyer", "address"}, model.ProblemMissing, "Field required: Order-X BASIC needs the buyer's postal address", nil, nil)
	}
	if !isUpper(o.Currency, 3) {
		d.add([]any{"currency"}, ProblemPattern, "Input should be an ISO 4217 code (3 capital letters)", o.Currency, map[string]any{"pattern": "^[A-Z]{3}$"})
	}
	for _, p := range []struct {
		who string
		p   *Party
	}{{"seller", &o.Seller}, {"buyer", &o.Buyer}} {
		if g := p.p.GlobalID; g != nil && g.SchemeID == "" {
			d.add([]any{p.who, "global_id", "scheme_id"}, model.ProblemMissing, "Field required: Order-X requires the scheme of a global identifier", nil, nil)
		}
		if a := p.p.Address; a != nil && !isUpper(a.CountryCode, 2) {
			d.add([]any{p.who, "address", "country_code"}, ProblemPattern, "Input should be an ISO 3166-1 alpha-2 code (2 capital letters)", a.CountryCode, map[string]any{"pattern": "^[A-Z]{2}$"})
		}
	}
	seen := map[string]int{}
	for i := range o.Lines {
		l := &o.Lines[i]
		if j, dup := seen[l.ID]; dup {
			d.add([]any{"lines", i, "id"}, model.ProblemValueError, fmt.Sprintf("line id already used by lines[%d]", j), l.ID, nil)
		}
		seen[l.ID] = i
		if l.Quantity.Sign() <= 0 {
			d.add([]any{"lines", i, "quantity"}, model.ProblemValueError, "Input should be greater than 0", l.Quantity.String(), map[string]any{"gt": 0})
		}
		if l.NetPrice.Sign() < 0 {
			d.add([]any{"lines", i, "net_price"}, model.ProblemValueError, "Input should be greater than or equal to 0", l.NetPrice.String(), map[string]any{"ge": 0})
		}
		if l.BaseQuantity != nil && l.BaseQuantity.Sign() <= 0 {
			d.add([]any{"lines", i, "base_quantity"}, model.ProblemValueError, "Input should be greater than 0", l.BaseQuantity.String(), map[string]any{"gt": 0})
		}
		if g := l.Item.StandardID; g != nil && g.SchemeID == "" {
			d.add([]any{"lines", i, "item", "standard_id", "scheme_id"}, model.ProblemMissing, "Field required: Order-X requires the scheme of a global identifier", nil, nil)
		}
		if !isUnitCode(l.UnitCode) {
			d.add([]any{"lines", i, "unit_code"}, ProblemPattern, "Input should be a UN/ECE Recommendation 20/21 unit code (1-3 capital letters or digits)", l.UnitCode, map[string]any{"pattern": "^[A-Z0-9]{1,3}$"})
		}
	}
}

// ProblemPattern is a string of the wrong shape.
const ProblemPattern = "string_pattern_mismatch"

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

func isUpper(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func isUnitCode(s string) bool {
	if len(s) < 1 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < 'A' || s[i] > 'Z') && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// Members returns, for the order and each nested object type ("Order",
// "Party", "Identifier", "Contact", "Address", "Line", "Item"), its JSON
// member names in order, required ones suffixed with "*". The API's wire
// type is checked against it.
func Members() map[string][]string {
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
	walk(reflect.TypeFor[Order]())
	return out
}
