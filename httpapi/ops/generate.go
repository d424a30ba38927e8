package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// GenerateRequest is one generate/ubl or generate/cii call.
type GenerateRequest struct {
	Syntax   string // ubl or cii
	Profile  string // one of AllowedProfiles(Syntax); empty = the syntax's default
	Validate bool   // refuse (422) a document with a fatal finding
	Body     []byte // the JSON request body: {"invoice": {...}}
}

// GenerateResult is a generated document.
type GenerateResult struct {
	XML []byte
	// Ignored lists the unknown request members that were ignored, as JSON
	// Pointers into the request body ("/invoice/foo").
	Ignored []string
	// Computed lists the values model.Complete derived, as JSON Pointers
	// into the request body ("/invoice/totals/line_total").
	Computed []string
	// Dropped lists the values of the request the profile cannot carry
	// and the document therefore does not have (facturx_minimum and
	// facturx_basicwl only: cii.ProfileView), as JSON Pointers into the
	// request body ("/invoice/lines/0/item/name") with their business term.
	Dropped []cii.Dropped
	// Report is the validation report of XML (nil when no validator is
	// configured and Validate was false).
	Report *wire.Report
}

// profileSpec is what a profile writes into BG-2 when the caller gave
// nothing.
type profileSpec struct {
	specID  string   // BT-24 written when absent
	accept  []string // BT-24 values the caller may give (besides specID)
	prefix  string   // any caller BT-24 with this prefix is accepted
	process string   // BT-23 written when absent ("" = none needed)
}

const peppolProcess = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"

// profileSpecs maps a generate profile to its specification identifier
// (BT-24) and business process (BT-23).
var profileSpecs = map[string]profileSpec{
	"en16931":          {specID: "urn:cen.eu:en16931:2017"},
	"peppol":           {specID: "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0", accept: []string{"urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0"}, process: peppolProcess},
	"xrechnung":        {specID: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0", prefix: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_", process: peppolProcess},
	"ro_cius":          {specID: "urn:cen.eu:en16931:2017#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1"},
	"br_fr":            {specID: "urn:cen.eu:en16931:2017"},
	"facturx_minimum":  {specID: "urn:factur-x.eu:1p0:minimum"},
	"facturx_basicwl":  {specID: "urn:factur-x.eu:1p0:basicwl"},
	"facturx_basic":    {specID: "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic"},
	"facturx_en16931":  {specID: "urn:cen.eu:en16931:2017"},
	"facturx_extended": {specID: "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended"},
}

// SpecificationID returns the BT-24 a generated document of profile carries
// when the caller gives none ("" for an unknown profile).
func SpecificationID(profile string) string { return profileSpecs[profile].specID }

// Generate decodes the canonical invoice model from req.Body, completes it,
// sets BG-2 for the profile, writes the syntax and validates the result
// with the same validator as Validate. Every input problem is a
// *RequestError (422) with loc ["body","invoice",...]; with req.Validate a
// document with a fatal finding is a *RequestError of rule_violation
// entries pointing into the request body.
func (s *Service) Generate(ctx context.Context, req GenerateRequest) (_ *GenerateResult, err error) {
	defer func() { wrap(&err, "ops.Generate(%s, %s)", req.Syntax, req.Profile) }()
	if req.Syntax != SyntaxUBL && req.Syntax != SyntaxCII {
		return nil, &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"query", "syntax"}, Msg: "Input should be 'ubl' or 'cii'", Type: wire.TypeEnum,
			Input: req.Syntax, Ctx: map[string]any{"expected": []string{SyntaxUBL, SyntaxCII}},
		}}}
	}
	if req.Profile == "" {
		req.Profile = DefaultProfile(req.Syntax)
	}
	allowed := AllowedProfiles(req.Syntax)
	if !slices.Contains(strings.Split(allowed, ","), req.Profile) {
		return nil, profileError([]any{"query", "profile"}, req.Profile, allowed)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inv, ignored, err := DecodeGenerateBody(req.Body)
	if err != nil {
		return nil, err
	}
	res := &GenerateResult{Ignored: ignored}
	computed, cerr := inv.Complete("body", "invoice")
	if cerr != nil {
		return nil, problemsError(cerr)
	}
	for _, c := range computed {
		res.Computed = append(res.Computed, "/invoice"+c)
	}
	if err := applyProfile(inv, req.Profile); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	switch req.Syntax {
	case SyntaxUBL:
		err = ubl.Write(&buf, inv, ubl.WriteOptions{})
		if errors.Is(err, ubl.ErrNotWritable) {
			return nil, writerRefusal("UBL", err)
		}
	default:
		view, dropped := cii.ProfileView(inv, cii.ViewOf(req.Profile))
		for _, d := range dropped {
			d.Pointer = "/invoice" + d.Pointer
			res.Dropped = append(res.Dropped, d)
		}
		err = cii.Write(&buf, view, cii.WriteOptions{})
		if errors.Is(err, cii.ErrNotRepresentable) {
			return nil, writerRefusal("CII", err)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", req.Syntax, err)
	}
	res.XML = buf.Bytes()
	rep, err := s.Validate(ctx, ValidateRequest{Syntax: req.Syntax, Profile: req.Profile, Body: res.XML})
	var ni *NotImplementedError
	switch {
	case err != nil && !req.Validate && errors.As(err, &ni):
		return res, nil // nothing to count with; the caller asked for no gate
	case err != nil:
		return nil, err
	}
	res.Report = rep
	if req.Validate && !rep.Valid {
		return nil, &RequestError{Fields: RuleViolations(rep, BodyLoc)}
	}
	return res, nil
}

// DecodeGenerateBody decodes {"invoice": {...}} strictly. Unknown members
// (at the top level and inside the invoice) are returned as JSON Pointers
// into the body; every problem is one entry of a *RequestError.
func DecodeGenerateBody(body []byte) (*model.Invoice, []string, error) {
	top, dup, err := topMembers(body)
	if err != nil {
		return nil, nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeJSONInvalid, Msg: "JSON decode error: " + err.Error()}}}
	}
	if dup != "" {
		return nil, nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body", dup}, Type: model.ProblemDuplicateKey,
			Msg: "Value error, member given twice", Input: dup}}}
	}
	var ignored []string
	for k := range top {
		if k != "invoice" {
			ignored = append(ignored, "/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
		}
	}
	slices.Sort(ignored)
	raw, ok := top["invoice"]
	if !ok || string(raw) == "null" {
		return nil, ignored, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body", "invoice"}, Type: wire.TypeMissing, Msg: "Field required"}}}
	}
	inv, ign, _, err := model.DecodeInvoice(raw, "body", "invoice")
	for _, p := range ign {
		ignored = append(ignored, "/invoice"+p)
	}
	if err != nil {
		return nil, ignored, problemsError(err)
	}
	return inv, ignored, nil
}

// topMembers splits a JSON object into its members (raw values) and
// reports the first member name given twice.
func topMembers(body []byte) (members map[string]json.RawMessage, dup string, err error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return nil, "", err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, "", errors.New("the body must be a JSON object")
	}
	members = map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, "", err
		}
		if _, seen := members[key]; seen && dup == "" {
			dup = key
		}
		members[key] = raw
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, "", errors.New("extra data after the JSON object")
	}
	return members, dup, nil
}

// problemsError turns a model.Problems error into a *RequestError.
func problemsError(err error) error {
	var ps model.Problems
	if !errors.As(err, &ps) {
		return err
	}
	fields := make([]wire.ValidationError, 0, len(ps))
	for _, p := range ps {
		fields = append(fields, wire.ValidationError{Loc: p.Loc, Msg: p.Msg, Type: p.Type, Input: p.Input, Ctx: p.Ctx})
	}
	return &RequestError{Fields: fields}
}

// writerRefusal is the 422 for a model the syntax cannot carry.
func writerRefusal(syntax string, err error) error {
	return &RequestError{Fields: []wire.ValidationError{{
		Loc: []any{"body", "invoice"}, Type: wire.TypeValueError,
		Msg: "Value error, the invoice cannot be written in " + syntax + ": " + err.Error(),
	}}}
}

// applyProfile sets BT-24 (and BT-23 where the profile needs it) when the
// caller gave none; a caller's BT-24 that contradicts the profile is a 422.
func applyProfile(inv *model.Invoice, profile string) error {
	spec := profileSpecs[profile]
	if inv.ProcessControl == nil {
		inv.ProcessControl = &model.ProcessControl{}
	}
	pc := inv.ProcessControl
	switch got := pc.SpecificationID; {
	case got == "":
		pc.SpecificationID = spec.specID
	case got == spec.specID, slices.Contains(spec.accept, got), spec.prefix != "" && strings.HasPrefix(got, spec.prefix):
	default:
		return &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body", "invoice", "process_control", "specification_id"}, Type: wire.TypeValueError, Input: got,
			Msg: fmt.Sprintf("Value error, the specification identifier (BT-24) contradicts profile %s, which writes %s; omit it or choose the matching profile", profile, spec.specID),
			Ctx: map[string]any{"profile": profile, "expected": spec.specID},
		}}}
	}
	if pc.BusinessProcess == "" && spec.process != "" {
		pc.BusinessProcess = spec.process
	}
	return nil
}

// BodyLoc returns the request-body loc of a finding of a generated
// document: the model field of the first business term the finding names
// whose path resolves completely (a line index is taken from the finding's
// location), else the array of the first one that resolves partly - BT
// terms first, then BG terms; else ["body","invoice"].
func BodyLoc(f wire.Finding) []any {
	for _, kind := range []string{"BT-", "BG-"} {
		var partial []any
		for _, term := range f.Terms {
			if !strings.HasPrefix(term, kind) {
				continue
			}
			path, ok := btPaths()[term]
			if !ok {
				continue
			}
			loc, complete := resolve(path, f.Location)
			if complete {
				return loc
			}
			if partial == nil {
				partial = loc
			}
		}
		if partial != nil {
			return partial
		}
	}
	return []any{"body", "invoice"}
}

// resolve turns a btPaths entry into a body loc, filling a line index from
// location; it stops at an index it cannot tell (complete is then false).
func resolve(path []any, location string) (loc []any, complete bool) {
	loc = []any{"body", "invoice"}
	for _, step := range path {
		if step != wildcard {
			loc = append(loc, step)
			continue
		}
		idx, ok := lineIndex(location)
		if !ok || loc[len(loc)-1] != "lines" {
			return loc, false
		}
		loc = append(loc, idx)
	}
	return loc, true
}

// RuleViolations turns the fatal findings of rep into 422 entries (and one
// entry when the report is incomplete without a fatal finding).
func RuleViolations(rep *wire.Report, loc func(wire.Finding) []any) []wire.ValidationError {
	var out []wire.ValidationError
	for _, f := range rep.Findings {
		if f.Flag != wire.FlagFatal {
			continue
		}
		out = append(out, wire.ValidationError{
			Loc: loc(f), Msg: f.Message, Type: wire.TypeRuleViolation,
			Ctx: map[string]any{"rule_id": f.RuleID, "flag": f.Flag, "location": f.Location},
		})
	}
	if len(out) == 0 && !rep.Valid {
		out = append(out, wire.ValidationError{Loc: []any{"body"}, Type: wire.TypeRuleViolation,
			Msg: "validation did not run to the end (incomplete report); the document is not accepted",
			Ctx: map[string]any{"rule_id": "", "flag": wire.FlagFatal, "location": ""}})
	}
	return out
}
