package ops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/repair"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// RepairRequest is one repair/ubl or repair/cii call.
type RepairRequest struct {
	Syntax  string // ubl or cii
	Profile string // profile the repaired document is validated for; empty = the syntax's default
	Body    []byte // the XML document
}

// Repair repairs req.Body with formats/repair and validates the repaired
// document with the same validator as Validate. The answer carries the
// repaired XML, every change and the report, valid or not: repair never
// refuses a document its parser reads (the report says what remains wrong).
func (s *Service) Repair(ctx context.Context, req RepairRequest) (_ *wire.RepairResponse, err error) {
	defer func() { wrap(&err, "ops.Repair(%s, %s)", req.Syntax, req.Profile) }()
	if req.Profile == "" {
		req.Profile = DefaultProfile(req.Syntax)
	}
	var fn func(context.Context, []byte) (*repair.Result, error)
	switch req.Syntax {
	case SyntaxUBL:
		fn = repair.RepairUBL
	case SyntaxCII:
		fn = repair.RepairCII
	default:
		return nil, &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"query", "syntax"}, Msg: "Input should be 'ubl' or 'cii'", Type: wire.TypeEnum,
			Input: req.Syntax, Ctx: map[string]any{"expected": []string{SyntaxUBL, SyntaxCII}},
		}}}
	}
	allowed := AllowedProfiles(req.Syntax)
	if !slices.Contains(strings.Split(allowed, ","), req.Profile) {
		return nil, profileError([]any{"query", "profile"}, req.Profile, allowed)
	}
	if s == nil || s.Validator == nil {
		return nil, &NotImplementedError{Operation: "repair_" + req.Syntax, Capability: "the rule engine (re-validation of the repaired document) has not landed"}
	}
	res, err := fn(ctx, req.Body)
	switch {
	case errors.Is(err, repair.ErrParse):
		return nil, parseError(err)
	case errors.Is(err, repair.ErrSyntax):
		return nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError, Msg: "Value error, " + err.Error()}}}
	case err != nil:
		return nil, fmt.Errorf("repairing: %w", err)
	}
	rep, err := s.Validate(ctx, ValidateRequest{Syntax: req.Syntax, Profile: req.Profile, Body: res.XML})
	if err != nil {
		return nil, err
	}
	out := &wire.RepairResponse{XML: string(res.XML), Changes: make([]wire.RepairChange, 0, len(res.Changes)), Report: *rep}
	for _, c := range res.Changes {
		out.Changes = append(out.Changes, wire.RepairChange{Location: c.Location, BT: c.BT, From: c.From, To: c.To, Reason: c.Reason})
	}
	for _, p := range res.Unfixed {
		out.Unfixed = append(out.Unfixed, wire.RepairProblem{Location: p.Location, BT: p.BT, Value: p.Value, Reason: p.Reason})
	}
	return out, nil
}
