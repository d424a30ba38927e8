package ops

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// SchemaValidator validates a document against one XSD-only national
// format of the catalog (rulesets.Schemas(): "facturae", "ksef_fa"). The
// engine validator implements it; generate/facturae and generate/ksef gate
// their documents with it.
type SchemaValidator interface {
	ValidateSchema(ctx context.Context, name string, body []byte) (*wire.Report, error)
}

// decodeInvoiceExtras decodes {"invoice": {...}, "extras": {...}}: the
// invoice strictly (DecodeGenerateBody: unknown invoice members are
// ignored and listed), the extras with decode (nil raw when absent and not
// required). Every problem of both is one entry of a single *RequestError.
func decodeInvoiceExtras(body []byte, extrasRequired bool, decode func(raw []byte) error) (*model.Invoice, []string, error) {
	inv, ignored, ierr := DecodeGenerateBody(body)
	ignored = slices.DeleteFunc(ignored, func(p string) bool { return p == "/extras" })
	var fields []wire.ValidationError
	var re *RequestError
	switch {
	case errors.As(ierr, &re):
		if len(re.Fields) == 1 && len(re.Fields[0].Loc) == 1 { // the body itself is not a JSON object
			return nil, nil, ierr
		}
		fields = append(fields, re.Fields...)
	case ierr != nil:
		return nil, nil, ierr
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeJSONInvalid, Msg: "JSON decode error: " + err.Error()}}}
	}
	raw, ok := top["extras"]
	if ok && string(raw) == "null" {
		ok = false
	}
	var xerr error
	switch {
	case ok:
		xerr = decode(raw)
	case extrasRequired:
		fields = append(fields, wire.ValidationError{Loc: []any{"body", "extras"}, Type: wire.TypeMissing, Msg: "Field required"})
	default:
		xerr = decode(nil)
	}
	if xerr != nil {
		var perr *RequestError
		if !errors.As(problemsError(xerr), &perr) {
			return nil, nil, xerr
		}
		fields = append(fields, perr.Fields...)
	}
	if len(fields) > 0 {
		return nil, nil, &RequestError{Fields: fields}
	}
	return inv, ignored, nil
}

// gateSchema validates doc with the named national schema; an XSD error is
// a 422 rule_violation at ["body"]. Without a schema validator the
// operation is not implemented (no document leaves unchecked).
func (s *Service) gateSchema(ctx context.Context, op, name string, doc []byte) (*wire.Report, error) {
	var sv SchemaValidator
	ok := false
	if s != nil {
		sv, ok = s.Validator.(SchemaValidator)
	}
	if !ok {
		return nil, &NotImplementedError{Operation: op, Capability: "the rule engine (engine/xsd) has not landed"}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep, err := sv.ValidateSchema(ctx, name, doc)
	if err != nil {
		return nil, err
	}
	if !rep.Valid {
		return nil, &RequestError{Fields: RuleViolations(rep, func(wire.Finding) []any { return []any{"body"} })}
	}
	return rep, nil
}

// generated turns a generator's error into the operation's: model.Problems
// are a 422, anything else stays internal.
func generated(err error) error {
	var ps model.Problems
	if errors.As(err, &ps) {
		return problemsError(err)
	}
	return err
}

// underInvoice returns a generator's computed members (JSON Pointers in
// the invoice) as members of the request body ("/invoice/...").
func underInvoice(computed []string) []string {
	var out []string
	for _, c := range computed {
		out = append(out, "/invoice"+c)
	}
	return out
}
