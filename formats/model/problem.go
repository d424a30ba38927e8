package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Problem is one input problem, in the shape of the interface's
// ValidationError (FastAPI/Pydantic style): Loc is the path into the request
// (strings for object members, ints for array indices), Type one of the
// Problem* constants, Input the offending value where there is one, Ctx
// details such as the allowed values of an enumeration.
type Problem struct {
	Loc   []any          `json:"loc"`
	Msg   string         `json:"msg"`
	Type  string         `json:"type"`
	Input any            `json:"input,omitempty"`
	Ctx   map[string]any `json:"ctx,omitempty"`
}

// Problem types reported by DecodeInvoice and Complete.
const (
	ProblemJSONInvalid    = "json_invalid"      // not JSON (ctx.error holds the parser's message)
	ProblemLimitExceeded  = "limit_exceeded"    // nesting deeper than MaxDepth (ctx.limit)
	ProblemMissing        = "missing"           // a required term is absent (or null)
	ProblemStringType     = "string_type"       // a string was expected
	ProblemBoolType       = "bool_type"         // a boolean was expected
	ProblemStringTooShort = "string_too_short"  // a required string is empty (ctx.min_length)
	ProblemDecimalType    = "decimal_type"      // a decimal (JSON string or number) was expected
	ProblemDecimalParsing = "decimal_parsing"   // a string that is not a decimal number
	ProblemDateType       = "date_type"         // a date string was expected
	ProblemDateParsing    = "date_parsing"      // not YYYY-MM-DD or no such date
	ProblemEnum           = "enum"              // not one of the allowed values (ctx.expected)
	ProblemObjectType     = "model_type"        // a JSON object was expected
	ProblemListType       = "list_type"         // a JSON array was expected
	ProblemTooShort       = "too_short"         // an array needs more items (ctx.min_length)
	ProblemBase64         = "base64_decode"     // not standard padded base64
	ProblemDuplicateKey   = "duplicate_key"     // an object member given twice
	ProblemValueError     = "value_error"       // inconsistent values (e.g. category vs vat_category_code)
	ProblemCalculation    = "calculation_error" // Complete cannot derive a value (e.g. division by zero)
)

// Problems is a list of problems; as an error it is the whole list.
type Problems []Problem

// Error joins the problems as "loc: msg" lines.
func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(LocString(p.Loc))
		b.WriteString(": ")
		b.WriteString(p.Msg)
	}
	return b.String()
}

// LocString renders a loc as a dotted path with indices: body.invoice.lines[0].vat_rate.
func LocString(loc []any) string {
	var b strings.Builder
	for i, x := range loc {
		switch v := x.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", v)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// pointer renders a loc (without prefix) as a JSON Pointer (RFC 6901).
func pointer(loc []any) string {
	var b strings.Builder
	for _, x := range loc {
		b.WriteByte('/')
		switch v := x.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(v, "~", "~0"), "/", "~1"))
		}
	}
	return b.String()
}
