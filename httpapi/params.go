package httpapi

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// paramField describes one query parameter of a *Params struct.
type paramField struct {
	name  string
	index int
	kind  reflect.Kind // String or Bool
	enum  []string
	def   string
	doc   string
}

// paramSpec is the parsed description of a *Params struct type, built once per
// route when the Server is created.
type paramSpec struct {
	typ    reflect.Type
	fields []paramField
}

// newParamSpec reads the query/enum/default/doc tags of a Params struct.
func newParamSpec(params any) (*paramSpec, error) {
	t := reflect.TypeOf(params)
	if t == nil {
		t = reflect.TypeOf(wire.NoParams{})
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("params type %s is not a struct", t)
	}
	spec := &paramSpec{typ: t}
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("query")
		if name == "" {
			return nil, fmt.Errorf("params %s: field %s has no query tag", t, f.Name)
		}
		pf := paramField{name: name, index: i, kind: f.Type.Kind(), def: f.Tag.Get("default"), doc: f.Tag.Get("doc")}
		if e := f.Tag.Get("enum"); e != "" {
			pf.enum = strings.Split(e, ",")
		}
		switch pf.kind {
		case reflect.String:
			if pf.def != "" && pf.enum != nil && !slices.Contains(pf.enum, pf.def) {
				return nil, fmt.Errorf("params %s: default %q of %s not in enum", t, pf.def, name)
			}
		case reflect.Bool:
			if _, ok := parseBool(pf.def); pf.def != "" && !ok {
				return nil, fmt.Errorf("params %s: bad bool default %q", t, pf.def)
			}
		default:
			return nil, fmt.Errorf("params %s: field %s has unsupported kind %s", t, f.Name, pf.kind)
		}
		spec.fields = append(spec.fields, pf)
	}
	return spec, nil
}

// parse fills a new Params value from q, applying defaults. It returns a
// pointer to the struct and every problem found: enum violations (type enum,
// ctx.expected the allowed list), bad booleans (bool_parsing) and unknown
// parameters (extra_forbidden). When a parameter is repeated the last value
// wins, as in FastAPI.
func (p *paramSpec) parse(q url.Values) (any, []wire.ValidationError) {
	v := reflect.New(p.typ)
	var errs []wire.ValidationError
	for _, f := range p.fields {
		raw, given := lastValue(q, f.name)
		if !given {
			raw = f.def
		}
		field := v.Elem().Field(f.index)
		switch f.kind {
		case reflect.String:
			if given && f.enum != nil && !slices.Contains(f.enum, raw) {
				errs = append(errs, enumError([]any{"query", f.name}, raw, f.enum))
				continue
			}
			field.SetString(raw)
		case reflect.Bool:
			if raw == "" {
				continue
			}
			b, ok := parseBool(raw)
			if !ok {
				errs = append(errs, wire.ValidationError{
					Loc: []any{"query", f.name}, Type: "bool_parsing",
					Msg: "Input should be a valid boolean, unable to interpret input", Input: raw,
				})
				continue
			}
			field.SetBool(b)
		}
	}
	var extra []string
	for name := range q {
		if !p.has(name) {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		errs = append(errs, wire.ValidationError{
			Loc: []any{"query", name}, Type: wire.TypeExtraForbidden,
			Msg: "Extra inputs are not permitted", Input: q.Get(name),
		})
	}
	return v.Interface(), errs
}

func (p *paramSpec) has(name string) bool {
	for _, f := range p.fields {
		if f.name == name {
			return true
		}
	}
	return false
}

func lastValue(q url.Values, name string) (string, bool) {
	vs, ok := q[name]
	if !ok || len(vs) == 0 {
		return "", false
	}
	return vs[len(vs)-1], true
}

// parseBool accepts the spellings Pydantic accepts.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "1", "yes", "on", "t", "y":
		return true, true
	case "false", "0", "no", "off", "f", "n":
		return false, true
	}
	return false, false
}

// enumError is the Pydantic-shaped entry for a value outside allowed.
func enumError(loc []any, input string, allowed []string) wire.ValidationError {
	return wire.ValidationError{
		Loc: loc, Type: wire.TypeEnum, Input: input,
		Msg: "Input should be " + quoteList(allowed),
		Ctx: map[string]any{"expected": allowed},
	}
}

// quoteList renders ["a","b","c"] as "'a', 'b' or 'c'".
func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	if len(q) <= 1 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
