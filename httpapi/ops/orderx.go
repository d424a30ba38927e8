package ops

import (
	"context"
	"errors"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/orderx"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// OrderXResult is a generated Order-X document.
type OrderXResult struct {
	XML []byte
	// Report is the XSD + Schematron report of XML for the BASIC profile
	// (always valid when returned).
	Report *wire.Report
	// LineTotal is the order's LineTotalAmount as written.
	LineTotal string
}

// GenerateOrderX decodes an order (formats/orderx.DecodeOrder: strict,
// every problem located under ["body", ...]), writes Order-X 1.0 BASIC and
// gates it with the validator's Order-X XSD and Schematron (syntax orderx,
// profile basic), the path of validate/orderx. Input problems and fatal
// findings are a *RequestError (422); without a validator the operation is
// not implemented: no document leaves unchecked.
func (s *Service) GenerateOrderX(ctx context.Context, body []byte) (_ *OrderXResult, err error) {
	defer func() { wrap(&err, "ops.GenerateOrderX") }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := duplicateTopMember(body); err != nil {
		return nil, err
	}
	o, _, err := orderx.DecodeOrder(body, "body")
	if err != nil {
		return nil, problemsError(err)
	}
	gen, err := orderx.Generate(o, "body")
	if err != nil {
		var ps model.Problems
		if errors.As(err, &ps) {
			return nil, problemsError(err)
		}
		return nil, err
	}
	rep, err := s.Validate(ctx, ValidateRequest{Syntax: SyntaxOrderX, Profile: "basic", Body: gen.XML})
	if err != nil {
		return nil, err
	}
	if !rep.Valid {
		return nil, &RequestError{Fields: RuleViolations(rep, func(wire.Finding) []any { return []any{"body"} })}
	}
	return &OrderXResult{XML: gen.XML, Report: rep, LineTotal: gen.LineTotal.String()}, nil
}

// duplicateTopMember refuses a JSON object body that gives a member twice
// (encoding/json would keep the last silently). Other syntax errors are
// left to the body's decoder.
func duplicateTopMember(body []byte) error {
	_, dup, err := topMembers(body)
	if err == nil && dup != "" {
		return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body", dup}, Type: model.ProblemDuplicateKey,
			Msg: "Value error, member given twice", Input: dup}}}
	}
	return nil
}
