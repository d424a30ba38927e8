package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/convert"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// ConvertRequest is one /v1/convert/{source}-to-{target} call.
type ConvertRequest struct {
	Direction string // "ubl-to-cii", ... (convert.Directions)
	Profile   string // profile the target is validated for; empty = en16931, xrechnung for XRechnung targets
	Syntax    string // syntax of XRechnung output (ubl or cii); empty = the source's
	Body      []byte // the source XML
}

// ConvertResult is a converted document that passed the gate.
type ConvertResult struct {
	XML          []byte
	TargetSyntax string           // ubl or cii
	Profile      string           // the profile the target was validated for
	Changes      []convert.Change // deliberate, reported changes
	Report       *wire.Report     // validation report of XML
}

// Convert converts req.Body in req.Direction with formats/convert and
// validates the target with the same validator as Validate (the gate).
// Losses are a *RequestError with one conversion_loss entry per node or
// term: loc is ["body", <path>] where path is the source XPath in the
// reference form, "model:<JSON Pointer>" for a term that differs after the
// round trip, or "target:<XPath>" (ctx holds bt, path and line). Fatal
// findings in the target are rule_violation entries with loc ["body"] and
// the target location in ctx. An unknown direction is a 422 listing the
// supported ones.
func (s *Service) Convert(ctx context.Context, req ConvertRequest) (_ *ConvertResult, err error) {
	defer func() { wrap(&err, "ops.Convert(%s)", req.Direction) }()
	d, err := convert.ParseDirection(req.Direction)
	if err != nil {
		return nil, &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"path", "direction"}, Type: wire.TypeEnum, Input: req.Direction,
			Msg: "unknown conversion direction; supported: " + strings.Join(convert.Directions(), ", "),
			Ctx: map[string]any{"expected": convert.Directions()},
		}}}
	}
	if req.Profile != "" && !strings.Contains(","+wire.AllProfiles+",", ","+req.Profile+",") {
		return nil, profileError([]any{"query", "profile"}, req.Profile, wire.AllProfiles)
	}
	if s == nil || s.Validator == nil {
		return nil, &NotImplementedError{Operation: "convert_" + strings.ReplaceAll(req.Direction, "-", "_"), Capability: "the rule engine (the conversion gate) has not landed"}
	}
	gate := func(ctx context.Context, syntax, profile string, xml []byte) (any, bool, error) {
		rep, err := s.Validate(ctx, ValidateRequest{Syntax: syntax, Profile: profile, Body: xml})
		if err != nil {
			return nil, false, err
		}
		return rep, rep.Valid, nil
	}
	res, losses, err := convert.Convert(ctx, d, req.Body, convert.Options{Profile: req.Profile, Syntax: req.Syntax, Gate: gate})
	if err != nil {
		return nil, convertError(err)
	}
	if len(losses) > 0 {
		return nil, &RequestError{Fields: LossFields(losses)}
	}
	rep, _ := res.Report.(*wire.Report)
	if rep == nil {
		return nil, errors.New("the gate returned no report")
	}
	if !res.Valid {
		return nil, &RequestError{Fields: RuleViolations(rep, func(wire.Finding) []any { return []any{"body"} })}
	}
	return &ConvertResult{XML: res.XML, TargetSyntax: res.TargetSyntax, Profile: res.Profile, Changes: res.Changes, Report: rep}, nil
}

// LossFields turns conversion losses into conversion_loss entries.
func LossFields(losses []convert.Loss) []wire.ValidationError {
	out := make([]wire.ValidationError, 0, len(losses))
	for _, l := range losses {
		ctx := map[string]any{"path": l.Path}
		if l.BT != "" {
			ctx["bt"] = l.BT
		}
		if l.Line > 0 {
			ctx["line"] = l.Line
		}
		out = append(out, wire.ValidationError{Loc: []any{"body", l.Path}, Msg: l.Msg(), Type: wire.TypeConversionLoss, Ctx: ctx})
	}
	return out
}

// convertError maps formats/convert's input errors to 422 and keeps the
// rest (context, gate and engine failures) as they are.
func convertError(err error) error {
	var re *RequestError
	var ni *NotImplementedError
	if errors.As(err, &re) || errors.As(err, &ni) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	typ, loc := wire.TypeValueError, []any{"body"}
	switch {
	case errors.Is(err, convert.ErrParse):
		return parseError(err)
	case errors.Is(err, convert.ErrBadOption):
		loc = []any{"query", "syntax"}
	case errors.Is(err, convert.ErrSourceSyntax), errors.Is(err, convert.ErrNotXRechnung):
	default:
		return fmt.Errorf("converting: %w", err)
	}
	return &RequestError{Fields: []wire.ValidationError{{Loc: loc, Type: typ, Msg: "Value error, " + err.Error()}}}
}

// parseError turns a source the XML parser refused into the same 422 as
// validation gives: xml_syntax with ctx {line, column}, limit_exceeded with
// ctx {line, limit, max}.
func parseError(err error) error {
	var se *xmltree.SyntaxError
	if errors.As(err, &se) {
		return &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeXMLSyntax, Msg: se.Msg,
			Ctx: map[string]any{"line": se.Line, "column": se.Col},
		}}}
	}
	var le *xmltree.LimitError
	if errors.As(err, &le) {
		return &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeLimitExceeded, Msg: fmt.Sprintf("document exceeds %s (%d)", le.Limit, le.Max),
			Ctx: map[string]any{"line": le.Line, "limit": le.Limit, "max": le.Max},
		}}}
	}
	return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeXMLSyntax, Msg: "Value error, " + err.Error()}}}
}
