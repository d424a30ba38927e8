package engineval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/rulesets"
)

// Validator validates UBL and CII documents with the catalog's rule sets and
// schemas. It is immutable after New and safe for concurrent use.
type Validator struct {
	catalog   *rulesets.Catalog
	schemas   map[string]*xsd.Schema // by XSDRoot.Path
	fatturapa *xsd.Schema
	limits    xmltree.Limits
}

// FatturaPA schema and catalog, relative to the shared directory.
const (
	fatturaPAXSD     = "rulesets/fatturapa/1.2.2/Schema_del_file_xml_FatturaPA_v1.2.2.xsd"
	fatturaPACatalog = "rulesets/fatturapa/1.2.2/catalog.xml"
	fatturaPAName    = "FatturaPA XSD"
	fatturaPAVersion = "1.2.2"
)

var _ ops.Validator = (*Validator)(nil)

// New loads the rule-set catalog and compiles every XSD the UBL and CII
// profiles name, reading schemas from sharedDir (the official data tree).
// It fails when any rule set or schema cannot be loaded.
func New(sharedDir string) (_ *Validator, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("engineval.New(%s): %w", sharedDir, err)
		}
	}()
	cat, err := rulesets.Load()
	if err != nil {
		return nil, err
	}
	v := &Validator{catalog: cat, schemas: map[string]*xsd.Schema{}, limits: xmltree.DefaultLimits()}
	for _, syntax := range []string{rulesets.SyntaxUBL, rulesets.SyntaxCII, rulesets.SyntaxOrderX} {
		for _, name := range cat.Profiles(syntax) {
			p, _ := cat.Profile(syntax, name)
			for _, root := range p.XSD {
				if _, done := v.schemas[root.Path]; done {
					continue
				}
				s, err := xsd.Load(filepath.Join(sharedDir, filepath.FromSlash(root.Path)), xsd.Options{})
				if err != nil {
					v.Close()
					return nil, fmt.Errorf("schema %s: %w", root.Path, err)
				}
				v.schemas[root.Path] = s
			}
		}
	}
	v.fatturapa, err = xsd.Load(filepath.Join(sharedDir, filepath.FromSlash(fatturaPAXSD)),
		xsd.Options{CatalogFiles: []string{filepath.Join(sharedDir, filepath.FromSlash(fatturaPACatalog))}})
	if err != nil {
		v.Close()
		return nil, fmt.Errorf("schema %s: %w", fatturaPAXSD, err)
	}
	return v, nil
}

// Close releases the compiled schemas.
func (v *Validator) Close() {
	for _, s := range v.schemas {
		s.Close()
	}
	if v.fatturapa != nil {
		v.fatturapa.Close()
	}
}

// Rulesets lists every loaded rule set.
func (v *Validator) Rulesets() []wire.RulesetRef {
	var out []wire.RulesetRef
	for _, rs := range v.catalog.Rulesets() {
		out = append(out, wire.RulesetRef{Name: rs.Name + " " + strings.ToUpper(rs.Syntax), Version: rs.Version})
	}
	return append(out, wire.RulesetRef{Name: fatturaPAName, Version: fatturaPAVersion})
}

// Validate implements ops.Validator.
func (v *Validator) Validate(ctx context.Context, req ops.ValidateRequest) (*wire.Report, error) {
	start := time.Now()
	if req.Syntax == ops.SyntaxFatturaPA {
		return v.validateFatturaPA(ctx, req.Body, start)
	}
	if req.Syntax == ops.SyntaxOrderX && req.Profile == "" {
		req.Profile = orderXProfile(req.Body)
	}
	p, ok := v.catalog.Profile(req.Syntax, req.Profile)
	if !ok {
		avail := v.catalog.Profiles(req.Syntax)
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"query", "profile"}, Type: wire.TypeNotLanded, Input: req.Profile,
			Msg: fmt.Sprintf("Profile '%s' is not available yet for %s; available now: %s", req.Profile, req.Syntax, strings.Join(avail, ", ")),
			Ctx: map[string]any{"available": avail},
		}}}
	}
	if req.Version != "" {
		var versions []string
		for _, rs := range p.Rulesets {
			versions = append(versions, rs.Version)
		}
		if !slices.Contains(versions, req.Version) {
			return nil, &ops.RequestError{Fields: []wire.ValidationError{{
				Loc: []any{"query", "version"}, Type: wire.TypeEnum, Input: req.Version,
				Msg: "Rule-set version not loaded; available: " + strings.Join(versions, ", "),
				Ctx: map[string]any{"expected": versions},
			}}}
		}
	}
	doc, err := xmltree.Parse(req.Body, v.limits)
	if err != nil {
		return nil, xmlError(err)
	}
	root := doc.Root()
	ns, local := doc.NameSpace(doc.Name(root)), doc.NameLocal(doc.Name(root))
	var schema *xsd.Schema
	var schemaPath string
	for _, r := range p.XSD {
		if r.Namespace == ns && r.Local == local {
			schema, schemaPath = v.schemas[r.Path], r.Path
		}
	}
	if schema == nil {
		var want []string
		for _, r := range p.XSD {
			want = append(want, "{"+r.Namespace+"}"+r.Local)
		}
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeValueError, Input: "{" + ns + "}" + local,
			Msg: fmt.Sprintf("Value error, root element {%s}%s is not a %s document; expected %s", ns, local, strings.ToUpper(req.Syntax), strings.Join(want, " or ")),
			Ctx: map[string]any{"expected": want, "line": doc.Line(root)},
		}}}
	}
	rep := &wire.Report{Profile: p.Name, Syntax: req.Syntax, Complete: true, Findings: []wire.Finding{},
		Rulesets: []wire.RulesetRef{{Name: "XSD", Version: schemaPath}}}
	if rep.Findings, err = xsdFindings(ctx, schema, req.Body); err != nil {
		return nil, err
	}
	for _, rs := range p.Rulesets {
		rep.Rulesets = append(rep.Rulesets, wire.RulesetRef{Name: rs.Name, Version: rs.Version})
		fs, err := rs.Validate(ctx, doc)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			var ee *engine.EvalError
			if errors.As(err, &ee) {
				return nil, &ops.RequestError{Fields: []wire.ValidationError{{
					Loc: []any{"body"}, Type: "evaluation_error",
					Msg: fmt.Sprintf("rule set %s could not be applied to the document: %v", ee.Ruleset, ee.Err),
					Ctx: map[string]any{"ruleset": ee.Ruleset, "rule_id": ee.RuleID, "location": ee.Location, "code": ee.Code()},
				}}}
			}
			return nil, fmt.Errorf("rule set %s: %w", rs.Label(), err)
		}
		for _, f := range fs {
			rep.Findings = append(rep.Findings, finding(f))
		}
	}
	rep.DurationMS = time.Since(start).Milliseconds()
	rep.Recount()
	return rep, nil
}

// validateFatturaPA is XSD-only: no official business-rule set exists.
func (v *Validator) validateFatturaPA(ctx context.Context, body []byte, start time.Time) (*wire.Report, error) {
	if _, err := xmltree.Parse(body, v.limits); err != nil {
		return nil, xmlError(err)
	}
	fs, err := xsdFindings(ctx, v.fatturapa, body)
	if err != nil {
		return nil, err
	}
	rep := &wire.Report{Profile: "fatturapa", Syntax: ops.SyntaxFatturaPA, Complete: true, Findings: fs,
		Rulesets: []wire.RulesetRef{{Name: fatturaPAName, Version: fatturaPAVersion}}}
	rep.DurationMS = time.Since(start).Milliseconds()
	rep.Recount()
	return rep, nil
}

// xsdFindings validates body against schema; errors are findings with
// rule_id XSD, in libxml2's (document) order.
func xsdFindings(ctx context.Context, schema *xsd.Schema, body []byte) ([]wire.Finding, error) {
	xerrs, err := schema.Validate(ctx, body)
	switch {
	case errors.Is(err, xsd.ErrTooLarge):
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeLimitExceeded, Msg: "document too large for schema validation"}}}
	case errors.Is(err, xsd.ErrDoctype):
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeXMLSyntax, Msg: "DOCTYPE declarations are not allowed"}}}
	case err != nil:
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, fmt.Errorf("xsd %s: %w", schema.Path(), err)
	}
	out := []wire.Finding{}
	for _, e := range xerrs {
		flag := wire.FlagFatal
		if e.Level == xsd.LevelWarning {
			flag = wire.FlagWarning
		}
		out = append(out, wire.Finding{RuleID: "XSD", Flag: flag, Message: e.Message,
			Source: "xsd", Line: e.Line, Terms: []string{}})
	}
	return out, nil
}

// orderXProfile reads the Order-X profile from the guideline URN
// (urn:order-x.eu:1p0:basic|comfort|extended); "" (the catalog default)
// when there is none.
func orderXProfile(body []byte) string {
	const urn = "urn:order-x.eu:1p0:"
	i := bytes.Index(body, []byte(urn))
	if i < 0 {
		return ""
	}
	rest := body[i+len(urn):]
	for _, p := range []string{"basic", "comfort", "extended"} {
		if bytes.HasPrefix(rest, []byte(p)) {
			return p
		}
	}
	return ""
}

// finding converts an engine finding. An assert without a flag is treated as
// fatal (fail closed), a report without a flag as information.
func finding(f engine.Finding) wire.Finding {
	flag := f.Flag
	switch flag {
	case wire.FlagFatal, wire.FlagWarning, wire.FlagInformation:
	case "error":
		flag = wire.FlagFatal
	default:
		flag = wire.FlagFatal
		if f.Kind == "report" {
			flag = wire.FlagInformation
		}
	}
	terms := f.Terms
	if terms == nil {
		terms = []string{}
	}
	return wire.Finding{RuleID: f.RuleID, Flag: flag, Message: f.Message, Location: f.Location,
		Test: f.Test, Source: f.Source, Line: f.Line, Terms: terms}
}

// xmlError turns a parse failure into a 422 with the line in ctx.
func xmlError(err error) error {
	var se *xmltree.SyntaxError
	if errors.As(err, &se) {
		return &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeXMLSyntax, Msg: se.Msg,
			Ctx: map[string]any{"line": se.Line, "column": se.Col},
		}}}
	}
	var le *xmltree.LimitError
	if errors.As(err, &le) {
		return &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeLimitExceeded, Msg: fmt.Sprintf("document exceeds %s (%d)", le.Limit, le.Max),
			Ctx: map[string]any{"line": le.Line, "limit": le.Limit, "max": le.Max},
		}}}
	}
	return fmt.Errorf("parse: %w", err)
}
