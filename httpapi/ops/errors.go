package ops

import (
	"fmt"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// RequestError reports a problem with the caller's input (unknown profile,
// malformed XML, a limit exceeded). Transports answer it with 422 and Fields.
type RequestError struct {
	Fields []wire.ValidationError
}

func (e *RequestError) Error() string {
	if len(e.Fields) == 0 {
		return "invalid request"
	}
	msgs := make([]string, 0, len(e.Fields))
	for _, f := range e.Fields {
		msgs = append(msgs, fmt.Sprintf("%v: %s", f.Loc, f.Msg))
	}
	return "invalid request: " + strings.Join(msgs, "; ")
}

// NotImplementedError reports an operation whose capability has not landed yet.
// Transports answer it with 501.
type NotImplementedError struct {
	Operation  string // operation id, e.g. "validate_ubl"
	Capability string // what is missing, e.g. "engine (rule engine issue)"
}

func (e *NotImplementedError) Error() string {
	return fmt.Sprintf("%s is not implemented yet: %s", e.Operation, e.Capability)
}

// profileError builds the 422 for a profile outside allowed.
func profileError(loc []any, profile, allowed string) *RequestError {
	list := strings.Split(allowed, ",")
	return &RequestError{Fields: []wire.ValidationError{{
		Loc:   loc,
		Msg:   fmt.Sprintf("Input should be %s", quoteList(list)),
		Type:  wire.TypeEnum,
		Input: profile,
		Ctx:   map[string]any{"expected": list},
	}}}
}

// quoteList renders ["a","b","c"] as "'a', 'b' or 'c'" like Pydantic.
func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
