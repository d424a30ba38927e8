package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// maxFieldErrors caps the number of entries in one 422 body.
const maxFieldErrors = 100

var (
	unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	binaryType      = reflect.TypeOf(wire.Binary(nil))
)

// jsonField reads the JSON name of a struct field and whether it is required:
// a field is required when tagged required:"true" or when its json tag has no
// omitempty. Skip is true for unexported fields and json:"-".
func jsonField(f reflect.StructField) (name string, required, skip bool) {
	if !f.IsExported() {
		return "", false, true
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, true
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	required = f.Tag.Get("required") == "true" || !strings.Contains(opts, "omitempty")
	return name, required, false
}

// decodeJSON decodes data into dst (a pointer to a struct) after checking the
// document against dst's Go type, so that every problem is reported with its
// full location in the Pydantic shape: loc ["body", "invoice", "lines", 0,
// "vat_rate"]. Numbers are kept as json.Number, never float64. Unknown
// properties are allowed (the interface says so) and ignored.
func decodeJSON(data []byte, dst any) []wire.ValidationError {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return []wire.ValidationError{jsonSyntaxError(err, len(data))}
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		for end < len(data) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
			end++
		}
		return []wire.ValidationError{{
			Loc: []any{"body", end}, Type: wire.TypeJSONInvalid,
			Msg: "JSON decode error", Ctx: map[string]any{"error": "extra data after the JSON value"},
		}}
	}
	c := checker{}
	c.check(doc, reflect.TypeOf(dst).Elem(), []any{"body"})
	if len(c.errs) > 0 {
		return c.errs
	}
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		// The checker accepted the document, so this is a mismatch between the
		// checker and encoding/json; report it rather than guess a location.
		return []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError, Msg: "Value error, " + err.Error()}}
	}
	return nil
}

func jsonSyntaxError(err error, n int) wire.ValidationError {
	off := n
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 {
		off = int(se.Offset) - 1 // Offset counts the offending byte; loc holds its index
	}
	msg := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of JSON input"
	}
	return wire.ValidationError{
		Loc: []any{"body", off}, Type: wire.TypeJSONInvalid, Msg: "JSON decode error",
		Ctx: map[string]any{"error": msg},
	}
}

type checker struct {
	errs []wire.ValidationError
}

func (c *checker) add(loc []any, typ, msg string, input any) {
	if len(c.errs) >= maxFieldErrors {
		return
	}
	e := wire.ValidationError{Loc: slicesClone(loc), Type: typ, Msg: msg}
	if isScalar(input) {
		e.Input = input
	}
	c.errs = append(c.errs, e)
}

func isScalar(v any) bool {
	switch v.(type) {
	case string, bool, json.Number, nil:
		return true
	}
	return false
}

func slicesClone(loc []any) []any { return append([]any(nil), loc...) }

// check verifies that v (decoded with UseNumber) fits type t.
func (c *checker) check(v any, t reflect.Type, loc []any) {
	if len(c.errs) >= maxFieldErrors {
		return
	}
	if t.Kind() == reflect.Pointer {
		if v == nil {
			return
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) && t != binaryType {
		raw, err := json.Marshal(v)
		if err == nil {
			err = reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw)
		}
		if err != nil {
			c.add(loc, wire.TypeValueError, "Value error, "+err.Error(), v)
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			c.add(loc, "model_attributes_type", "Input should be a valid dictionary or object to extract fields from", v)
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, required, skip := jsonField(f)
			if skip {
				continue
			}
			fv, present := obj[name]
			if !present {
				if required {
					c.add(append(loc, name), wire.TypeMissing, "Field required", nil)
				}
				continue
			}
			c.check(fv, f.Type, append(loc, name))
			if e := f.Tag.Get("enum"); e != "" {
				if sv, ok := fv.(string); ok && !slices.Contains(strings.Split(e, ","), sv) {
					if len(c.errs) < maxFieldErrors {
						c.errs = append(c.errs, enumError(append(slicesClone(loc), name), sv, strings.Split(e, ",")))
					}
				}
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			c.add(loc, "dict_type", "Input should be a valid dictionary", v)
			return
		}
		for k, ev := range obj {
			c.check(ev, t.Elem(), append(loc, k))
		}
	case reflect.Slice:
		if t == binaryType {
			if _, ok := v.(string); !ok {
				c.add(loc, "string_type", "Input should be a valid string", v)
			}
			return
		}
		arr, ok := v.([]any)
		if !ok {
			c.add(loc, "list_type", "Input should be a valid list", v)
			return
		}
		for i, ev := range arr {
			c.check(ev, t.Elem(), append(loc, i))
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			c.add(loc, "string_type", "Input should be a valid string", v)
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			c.add(loc, "bool_type", "Input should be a valid boolean", v)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			c.add(loc, "int_type", "Input should be a valid integer", v)
			return
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			c.add(loc, "int_parsing", "Input should be a valid integer", v)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			c.add(loc, "int_type", "Input should be a valid integer", v)
			return
		}
		if _, err := strconv.ParseUint(string(n), 10, t.Bits()); err != nil {
			c.add(loc, "int_parsing", "Input should be a valid integer", v)
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			c.add(loc, "float_type", "Input should be a valid number", v)
		}
	default:
		c.add(loc, wire.TypeValueError, fmt.Sprintf("Value error, unsupported field type %s", t.Kind()), nil)
	}
}
