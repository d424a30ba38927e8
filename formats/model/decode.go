package model

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
	"reflect"
	"strings"
	"sync"
)

// MaxDepth is the deepest nesting of JSON arrays and objects DecodeInvoice
// accepts; the model itself needs 5.
const MaxDepth = 64

// DecodeInvoice decodes the canonical JSON form of an invoice strictly. It
// reports every problem it finds, not only the first, each with its
// location: locPrefix (for example "body", "invoice") followed by the path
// inside data. Unknown object members are allowed and ignored; their paths
// are returned as JSON Pointers relative to data (for a response header).
//
// On success problems is empty and err is nil. Otherwise the invoice is nil,
// problems lists every problem and err is that same list (a Problems value,
// so errors.As works). A JSON syntax error or a nesting deeper than MaxDepth
// is a single problem of type json_invalid or limit_exceeded. DecodeInvoice
// never panics; it does not compute absent totals (see Invoice.Complete).
func DecodeInvoice(data []byte, locPrefix ...any) (inv *Invoice, ignored []string, problems Problems, err error) {
	root, perr := parseJSON(data)
	if perr != nil {
		p := Problem{Loc: append([]any{}, locPrefix...), Type: ProblemJSONInvalid, Msg: "JSON decode error: " + perr.Error(), Ctx: map[string]any{"error": perr.Error()}}
		var le *limitError
		if errors.As(perr, &le) {
			p.Type, p.Msg, p.Ctx = ProblemLimitExceeded, le.Error(), map[string]any{"limit": MaxDepth}
		}
		ps := Problems{p}
		return nil, nil, ps, ps
	}
	d := &decoder{prefix: locPrefix}
	inv = new(Invoice)
	d.value(reflect.ValueOf(inv).Elem(), root, nil)
	checkInvoice(inv, d)
	if len(d.problems) > 0 {
		return nil, d.ignored, d.problems, d.problems
	}
	return inv, d.ignored, nil, nil
}

// EncodeInvoice returns the canonical JSON form of inv: snake_case names,
// decimals as strings in canonical form, dates YYYY-MM-DD, absent optional
// terms omitted, both the VAT category code and its named form where the
// code has one.
func EncodeInvoice(inv *Invoice) ([]byte, error) {
	b, err := json.Marshal(inv)
	if err != nil {
		return nil, fmt.Errorf("model: encode invoice %q: %w", inv.ID, err)
	}
	return b, nil
}

// ---- reflection over the model types ----

var (
	decimalType = reflect.TypeFor[Decimal]()
	dateType    = reflect.TypeFor[Date]()
	bytesType   = reflect.TypeFor[[]byte]()
	enumIface   = reflect.TypeFor[enumType]()
)

type fieldInfo struct {
	name     string
	index    int
	required bool // required in JSON input
	calc     bool
	alt      string // name of an alternative field that may be given instead
	bt, card string
	doc      string
}

type structInfo struct {
	fields []fieldInfo
	byName map[string]int
}

// modelTables holds the field table of every model struct type. It is
// built once, on first use, and never changed afterwards: immutable shared
// data, like a compiled program, not mutable global state.
var modelTables = sync.OnceValue(func() map[reflect.Type]*structInfo {
	m := map[reflect.Type]*structInfo{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == decimalType || t == dateType || m[t] != nil {
			return
		}
		m[t] = buildStructInfo(t)
		for i := 0; i < t.NumField(); i++ {
			walk(t.Field(i).Type)
		}
	}
	walk(reflect.TypeFor[Invoice]())
	return m
})

// structInfoOf returns the field table of a model struct type.
func (d *decoder) structInfoOf(t reflect.Type) *structInfo {
	if si := modelTables()[t]; si != nil {
		return si
	}
	return buildStructInfo(t) // not reachable from Invoice (not used today)
}

func buildStructInfo(t reflect.Type) *structInfo {
	si := &structInfo{byName: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		card := f.Tag.Get("card")
		calc := f.Tag.Get("calc") == "1"
		alt := f.Tag.Get("alt")
		fi := fieldInfo{name: name, index: i, card: card, calc: calc, alt: alt, bt: f.Tag.Get("bt"), doc: f.Tag.Get("doc"),
			required: strings.HasPrefix(card, "1") && !calc && alt == ""}
		si.byName[name] = len(si.fields)
		si.fields = append(si.fields, fi)
	}
	return si
}

// ---- the decoder ----

type decoder struct {
	prefix   []any
	loc      []any
	problems Problems
	ignored  []string
	bad      map[string]bool // JSON Pointers (without prefix) that have a problem
}

// hasProblem reports whether a problem was already reported at the member
// name of the current location.
func (d *decoder) hasProblem(name string) bool {
	if len(d.bad) == 0 {
		return false
	}
	if d.bad[pointer(d.loc)] { // the object itself was wrong (null, not an object)
		return true
	}
	d.loc = append(d.loc, name)
	b := d.bad[pointer(d.loc)]
	d.loc = d.loc[:len(d.loc)-1]
	return b
}

func (d *decoder) add(typ, msg string, input any, ctx map[string]any, extra ...any) {
	loc := make([]any, 0, len(d.prefix)+len(d.loc)+len(extra))
	loc = append(append(append(loc, d.prefix...), d.loc...), extra...)
	if d.bad == nil {
		d.bad = map[string]bool{}
	}
	d.bad[pointer(loc[len(d.prefix):])] = true
	d.problems = append(d.problems, Problem{Loc: loc, Msg: msg, Type: typ, Input: input, Ctx: ctx})
}

// inputValue turns a JSON tree node into a plain value for Problem.Input.
func inputValue(n any) any {
	switch v := n.(type) {
	case *jsonObject:
		return "{...}"
	case []any:
		return "[...]"
	case json.Number:
		return string(v)
	case string:
		if len(v) > 200 {
			return v[:200] + "..."
		}
		return v
	}
	return n
}

// value decodes node into v (of the model type t = v.Type()). fi is the
// field being decoded (nil for the root and slice elements).
func (d *decoder) value(v reflect.Value, node any, fi *fieldInfo) {
	t := v.Type()
	switch {
	case t == decimalType:
		var dv Decimal
		var err error
		switch n := node.(type) {
		case string:
			dv, err = ParseDecimal(n)
		case json.Number:
			dv, err = parseJSONNumber(string(n))
		default:
			d.add(ProblemDecimalType, "Input should be a valid decimal (a JSON string or number)", inputValue(node), nil)
			return
		}
		if err != nil {
			d.add(ProblemDecimalParsing, "Input should be a valid decimal", inputValue(node), nil)
			return
		}
		v.Set(reflect.ValueOf(dv))
	case t == dateType:
		s, ok := node.(string)
		if !ok {
			d.add(ProblemDateType, "Input should be a valid date string (YYYY-MM-DD)", inputValue(node), nil)
			return
		}
		dt, err := ParseDate(s)
		if err != nil {
			var de *DateError
			msg := "Input should be a valid date in the format YYYY-MM-DD"
			if errors.As(err, &de) {
				msg += ": " + de.Msg
			}
			d.add(ProblemDateParsing, msg, inputValue(node), nil)
			return
		}
		v.Set(reflect.ValueOf(dt))
	case t == bytesType:
		s, ok := node.(string)
		if !ok {
			d.add(ProblemStringType, "Input should be a valid string (base64)", inputValue(node), nil)
			return
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			d.add(ProblemBase64, "Input should be valid base64 (RFC 4648, standard alphabet, padded)", inputValue(node), nil)
			return
		}
		v.SetBytes(b)
	case t.Kind() == reflect.Pointer:
		p := reflect.New(t.Elem())
		d.value(p.Elem(), node, fi)
		v.Set(p)
	case t.Kind() == reflect.Struct:
		obj, ok := node.(*jsonObject)
		if !ok {
			d.add(ProblemObjectType, "Input should be an object", inputValue(node), nil)
			return
		}
		d.object(v, obj)
	case t.Kind() == reflect.Slice:
		arr, ok := node.([]any)
		if !ok {
			d.add(ProblemListType, "Input should be a valid array", inputValue(node), nil)
			return
		}
		if fi != nil && strings.HasPrefix(fi.card, "1") && !fi.calc && len(arr) == 0 {
			d.add(ProblemTooShort, "Array should have at least 1 item", nil, map[string]any{"min_length": 1})
			return
		}
		s := reflect.MakeSlice(t, len(arr), len(arr))
		for i, el := range arr {
			d.loc = append(d.loc, i)
			if el == nil {
				d.add(ProblemObjectType, "Input should be an object, not null", nil, nil)
			} else {
				d.value(s.Index(i), el, nil)
			}
			d.loc = d.loc[:len(d.loc)-1]
		}
		v.Set(s)
	case t.Kind() == reflect.String:
		var s string
		switch n := node.(type) {
		case string:
			s = n
		case json.Number:
			if ie, ok := reflect.Zero(t).Interface().(integerEnum); ok && ie.acceptsInteger() && isJSONInteger(string(n)) {
				s = string(n)
				break
			}
			d.add(ProblemStringType, "Input should be a valid string", inputValue(node), nil)
			return
		default:
			d.add(ProblemStringType, "Input should be a valid string", inputValue(node), nil)
			return
		}
		if t.Implements(enumIface) {
			allowed := reflect.Zero(t).Interface().(enumType).enumValues()
			found := false
			for _, a := range allowed {
				if a == s {
					found = true
					break
				}
			}
			if !found {
				d.add(ProblemEnum, "Input should be one of: "+strings.Join(allowed, ", "), inputValue(node),
					map[string]any{"expected": allowed})
				return
			}
		}
		if s == "" && fi != nil && fi.required {
			d.add(ProblemStringTooShort, "String should have at least 1 character", s, map[string]any{"min_length": 1})
			return
		}
		if r, at, bad := xmlio.InvalidChar(s); bad {
			// An escaped control character (\u0003) is valid JSON but cannot
			// be written into the XML of any syntax.
			d.add(ProblemValueError, fmt.Sprintf("Value error, character U+%04X at byte %d cannot be written in XML", r, at), inputValue(node),
				map[string]any{"character": fmt.Sprintf("U+%04X", r), "offset": at})
			return
		}
		v.SetString(s)
	case t.Kind() == reflect.Bool:
		b, ok := node.(bool)
		if !ok {
			d.add(ProblemBoolType, "Input should be a valid boolean", inputValue(node), nil)
			return
		}
		v.SetBool(b)
	default:
		d.add(ProblemValueError, "unsupported model type "+t.String(), nil, nil)
	}
}

func isJSONInteger(s string) bool {
	if s == "" || len(s) > 18 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (d *decoder) object(v reflect.Value, obj *jsonObject) {
	si := d.structInfoOf(v.Type())
	var seenBuf [48]bool
	var seen []bool
	if len(si.fields) <= len(seenBuf) {
		seen = seenBuf[:len(si.fields)]
	} else {
		seen = make([]bool, len(si.fields))
	}
	for i, k := range obj.keys {
		idx, ok := si.byName[k]
		if !ok {
			d.loc = append(d.loc, k)
			d.ignored = append(d.ignored, pointer(d.loc))
			d.loc = d.loc[:len(d.loc)-1]
			continue
		}
		fi := &si.fields[idx]
		if seen[idx] {
			d.add(ProblemDuplicateKey, "Duplicate object member", nil, nil, k)
			continue
		}
		seen[idx] = true
		n := obj.vals[i]
		if n == nil { // null is absent
			seen[idx] = false
			continue
		}
		d.loc = append(d.loc, k)
		d.value(v.Field(fi.index), n, fi)
		d.loc = d.loc[:len(d.loc)-1]
	}
	for i := range si.fields {
		if !seen[i] && si.fields[i].required {
			d.add(ProblemMissing, "Field required", nil, fieldCtx(&si.fields[i]), si.fields[i].name)
		}
	}
}

func fieldCtx(fi *fieldInfo) map[string]any {
	if fi.bt == "" {
		return nil
	}
	return map[string]any{"bt": fi.bt}
}

// ---- cross-field checks after decoding ----

// checkInvoice reports the problems that need more than one field: the VAT
// category given as a code and/or a name, a line price or net amount, an
// allowance amount or its base and percentage. It also normalises the VAT
// category: both the code and (where it has one) the name are set.
func checkInvoice(inv *Invoice, d *decoder) {
	at := func(loc ...any) func() {
		n := len(d.loc)
		d.loc = append(d.loc, loc...)
		return func() { d.loc = d.loc[:n] }
	}
	for i := range inv.Allowances {
		done := at("allowances", i)
		checkCategory(d, &inv.Allowances[i].VATCategoryCode, &inv.Allowances[i].Category, "BT-95")
		checkAmount(d, inv.Allowances[i].Amount, inv.Allowances[i].BaseAmount, inv.Allowances[i].Percentage, "BT-92")
		done()
	}
	for i := range inv.Charges {
		done := at("charges", i)
		checkCategory(d, &inv.Charges[i].VATCategoryCode, &inv.Charges[i].Category, "BT-102")
		checkAmount(d, inv.Charges[i].Amount, inv.Charges[i].BaseAmount, inv.Charges[i].Percentage, "BT-99")
		done()
	}
	for i := range inv.VATBreakdown {
		done := at("vat_breakdown", i)
		checkCategory(d, &inv.VATBreakdown[i].VATCategoryCode, &inv.VATBreakdown[i].Category, "BT-118")
		done()
	}
	WalkLines(inv.Lines, func(l *Line, loc []any) {
		done := at(loc...)
		checkCategory(d, &l.VATCategoryCode, &l.Category, "BT-151")
		if l.NetPrice == nil && l.NetAmount == nil && !d.hasProblem("net_price") && !d.hasProblem("net_amount") {
			d.add(ProblemMissing, "Field required: give net_price (BT-146) or net_amount (BT-131)", nil,
				map[string]any{"bt": "BT-146"}, "net_price")
		}
		for j := range l.Allowances {
			a := &l.Allowances[j]
			done := at("allowances", j)
			checkAmount(d, a.Amount, a.BaseAmount, a.Percentage, "BT-136")
			done()
		}
		for j := range l.Charges {
			a := &l.Charges[j]
			done := at("charges", j)
			checkAmount(d, a.Amount, a.BaseAmount, a.Percentage, "BT-141")
			done()
		}
		done()
	})
}

func checkCategory(d *decoder, code *VATCategoryCode, name *VATCategory, bt string) {
	if d.hasProblem("vat_category_code") || d.hasProblem("category") {
		return
	}
	switch {
	case *code == "" && *name == "":
		d.add(ProblemMissing, "Field required: give vat_category_code or category", nil,
			map[string]any{"bt": bt}, "vat_category_code")
	case *code == "":
		*code = name.Code()
	case *name == "":
		*name = code.Category()
	case name.Code() != *code:
		d.add(ProblemValueError, fmt.Sprintf("category %s is VAT category code %s, not %s", *name, name.Code(), *code),
			string(*name), map[string]any{"vat_category_code": string(*code), "expected": string(code.Category())}, "category")
	}
}

func checkAmount(d *decoder, amount, base, pct *Decimal, bt string) {
	if d.hasProblem("amount") || d.hasProblem("base_amount") || d.hasProblem("percentage") {
		return
	}
	if amount == nil && (base == nil || pct == nil) {
		d.add(ProblemMissing, "Field required: give amount, or base_amount and percentage", nil,
			map[string]any{"bt": bt}, "amount")
	}
}
