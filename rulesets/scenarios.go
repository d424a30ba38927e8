package rulesets

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Scenario is one document-dependent configuration of a profile: the rule
// sets applied and the severity overrides (rule id -> effective flag).
type Scenario struct {
	Name     string
	Rulesets []*engine.Ruleset
	Levels   map[string]string
}

// scenarioSet selects a profile's scenario per document the way the
// official validator does: the first scenario (in configuration order)
// whose match expression is true on the document.
type scenarioSet struct {
	list []Scenario
	// matcher holds one pattern per scenario (rule on the root element, a
	// report whose id is the scenario index and whose test is the match).
	matcher *engine.Ruleset
	// def is the scenario whose sets Profile.Rulesets lists; rejectNoMatch
	// says a document no scenario matches is not accepted (KoSIT validator).
	def           int
	rejectNoMatch bool
}

// ErrNoScenario reports that no scenario of the profile's configuration
// matches the document (the official validator rejects it).
var ErrNoScenario = errors.New("no scenario of the validator configuration matches the document")

func (s *scenarioSet) defaultSets(fallback []*engine.Ruleset) []*engine.Ruleset {
	if s.def < 0 || s.def >= len(s.list) {
		return fallback
	}
	return s.list[s.def].Rulesets
}

// selectFor returns the index of the scenario of doc, -1 when none matches.
func (s *scenarioSet) selectFor(ctx context.Context, doc *xmltree.Document) (int, error) {
	fs, err := s.matcher.Validate(ctx, doc)
	if err != nil {
		return -1, fmt.Errorf("scenario selection: %w", err)
	}
	best := -1
	for _, f := range fs {
		i, err := strconv.Atoi(f.RuleID)
		if err != nil || i < 0 || i >= len(s.list) {
			return -1, fmt.Errorf("scenario selection: unexpected finding %q", f.RuleID)
		}
		if best < 0 || i < best {
			best = i
		}
	}
	return best, nil
}

// matchDef is one scenario's match expression and namespaces.
type matchDef struct {
	expr string
	ns   []engine.Namespace
}

// buildMatcher compiles the match expressions into one rule set; lets are
// schema-scope variables the expressions may reference.
func buildMatcher(name, source string, matches []matchDef, lets []engine.Let) (*engine.Ruleset, error) {
	t := &engine.Tables{Name: name, Version: "scenarios", Syntax: "any", Source: source, Phase: "#ALL",
		QueryBinding: "xslt2", Files: []string{source}, Lets: lets}
	seen := map[string]string{}
	for i, m := range matches {
		for _, n := range m.ns {
			if u, ok := seen[n.Prefix]; ok {
				if u != n.URI {
					return nil, fmt.Errorf("scenario %d: prefix %s bound to %s and %s", i, n.Prefix, u, n.URI)
				}
				continue
			}
			seen[n.Prefix] = n.URI
			t.Namespaces = append(t.Namespaces, n)
		}
		idx := int32(i)
		t.Patterns = append(t.Patterns, engine.Pattern{ID: "scenario-" + strconv.Itoa(i), FirstRule: idx, NumRules: 1, FirstLet: int32(len(lets))})
		t.Rules = append(t.Rules, engine.Rule{Context: "/*", Pattern: idx, FirstCheck: idx, NumChecks: 1, FirstLet: int32(len(lets))})
		t.Checks = append(t.Checks, engine.Check{ID: strconv.Itoa(i), Kind: engine.KindReport, Test: m.expr})
	}
	rs, err := engine.Load(t)
	if err != nil {
		return nil, fmt.Errorf("compile scenario matches of %s: %w", source, err)
	}
	return rs, nil
}

// Peppol 3.0.21: the self-billing rules replace the billing rules for a
// document declaring the self-billing specification (Peppol BIS
// Self-Billing 3.0); every other document gets the billing rules. sets are
// CEN, billing, self-billing (definitions order).
const peppolSelfBillingID = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0"

func peppolScenarios(_ string, sets []*engine.Ruleset) (*scenarioSet, error) {
	if len(sets) != 3 {
		return nil, fmt.Errorf("peppol 3.0.21: %d rule sets, want 3", len(sets))
	}
	ns := []engine.Namespace{{Prefix: "cbc", URI: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"}}
	m, err := buildMatcher("Peppol BIS Billing 3.0.21", "rulesets/peppol-bis-billing/3.0.21/sch", []matchDef{
		{expr: "normalize-space(/*/cbc:CustomizationID) = '" + peppolSelfBillingID + "'", ns: ns},
		{expr: "true()", ns: ns},
	}, nil)
	if err != nil {
		return nil, err
	}
	return &scenarioSet{matcher: m, def: 1, list: []Scenario{
		{Name: "Peppol BIS Self-Billing 3.0.21", Rulesets: []*engine.Ruleset{sets[0], sets[2]}},
		{Name: "Peppol BIS Billing 3.0.21", Rulesets: []*engine.Ruleset{sets[0], sets[1]}},
	}}, nil
}

// XRechnungConfig is the official validator configuration, relative to the
// shared directory.
const XRechnungConfig = "rulesets/xrechnung/validator-configuration/scenarios.xml"

type xmlScenarios struct {
	Scenarios []xmlScenario `xml:"scenario"`
}

type xmlScenario struct {
	Name       string `xml:"name"`
	Namespaces []struct {
		Prefix string `xml:"prefix,attr"`
		URI    string `xml:",chardata"`
	} `xml:"namespace"`
	Match      string `xml:"match"`
	Schematron []struct {
		Location string `xml:"resource>location"`
	} `xml:"validateWithSchematron"`
	Levels []struct {
		Level string `xml:"level,attr"`
		ID    string `xml:",chardata"`
	} `xml:"createReport>customLevel"`
}

// xrPlaceholders maps the build placeholders of the configuration's match
// expressions to the XRechnung rule set's own variables holding the same
// identifiers (common.sch): the build fills both from one property.
var xrPlaceholder = regexp.MustCompile(`'@([a-z.]+)@'`)

func xrPlaceholderVar(name string) (string, bool) {
	switch name {
	case "xrechnung.spec.id":
		return "XR-CIUS-ID", true
	case "xrechnung.extension.id":
		return "XR-EXTENSION-ID", true
	case "xrechnung.cvd.id":
		return "XR-CVD-ID", true
	}
	return "", false
}

// xrLevel maps a customLevel to our flag.
func xrLevel(level string) (string, error) {
	switch level {
	case "error":
		return "fatal", nil
	case "warning", "information":
		return level, nil
	}
	return "", fmt.Errorf("unknown customLevel %q", level)
}

// xrechnungScenarios reads the official validator configuration and keeps
// the scenarios whose Schematron resources are this syntax's EN 16931 and
// XRechnung rule sets (sets[0], sets[1]), in configuration order.
func xrechnungScenarios(shared string, sets []*engine.Ruleset) (*scenarioSet, error) {
	if shared == "" {
		return nil, errors.New("the XRechnung validator configuration is read from the shared directory: load with WithShared")
	}
	if len(sets) != 2 {
		return nil, fmt.Errorf("xrechnung: %d rule sets, want 2", len(sets))
	}
	data, err := os.ReadFile(filepath.Join(shared, filepath.FromSlash(XRechnungConfig)))
	if err != nil {
		return nil, fmt.Errorf("read validator configuration: %w", err)
	}
	return parseXRechnungScenarios(data, sets)
}

func parseXRechnungScenarios(data []byte, sets []*engine.Ruleset) (*scenarioSet, error) {
	var cfg xmlScenarios
	if err := xml.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("parse %s: %w", XRechnungConfig, err)
	}
	en, xr := sets[0], sets[1]
	syn := strings.ToUpper(en.Syntax)
	// Variables the placeholders resolve to, copied (expressions as
	// compiled) from the XRechnung rule set, with those they depend on.
	var lets []engine.Let
	for _, l := range xr.Tables().Lets {
		switch l.Name {
		case "XR-MAJOR-MINOR-VERSION", "CVD-MAJOR-MINOR-VERSION", "XR-CIUS-ID", "XR-EXTENSION-ID", "XR-CVD-ID":
			lets = append(lets, engine.Let{Name: l.Name, Expr: l.Expr, Scope: engine.ScopeSchema})
		}
	}
	s := &scenarioSet{def: -1, rejectNoMatch: true}
	var matches []matchDef
	for _, sc := range cfg.Scenarios {
		var rs []*engine.Ruleset
		usable := len(sc.Schematron) > 0
		for _, r := range sc.Schematron {
			base := strings.TrimSuffix(filepath.Base(r.Location), ".xsl")
			switch base {
			case "EN16931-" + syn + "-validation":
				rs = append(rs, en)
			case "XRechnung-" + syn + "-validation":
				rs = append(rs, xr)
			default:
				usable = false
			}
		}
		if !usable {
			continue
		}
		levels := map[string]string{}
		for _, l := range sc.Levels {
			f, err := xrLevel(l.Level)
			if err != nil {
				return nil, fmt.Errorf("scenario %q: %w", sc.Name, err)
			}
			levels[strings.TrimSpace(l.ID)] = f
		}
		var bad error
		expr := xrPlaceholder.ReplaceAllStringFunc(sc.Match, func(m string) string {
			v, ok := xrPlaceholderVar(m[2 : len(m)-2])
			if !ok {
				bad = fmt.Errorf("scenario %q: unknown placeholder %s", sc.Name, m)
			}
			return "$" + v
		})
		if bad != nil {
			return nil, bad
		}
		if strings.Contains(expr, "@") {
			return nil, fmt.Errorf("scenario %q: unresolved placeholder in %q", sc.Name, expr)
		}
		md := matchDef{expr: strings.TrimSpace(expr)}
		for _, n := range sc.Namespaces {
			md.ns = append(md.ns, engine.Namespace{Prefix: n.Prefix, URI: strings.TrimSpace(n.URI)})
		}
		if len(rs) == 2 && s.def < 0 {
			s.def = len(s.list)
		}
		matches = append(matches, md)
		s.list = append(s.list, Scenario{Name: strings.TrimSpace(sc.Name), Rulesets: rs, Levels: levels})
	}
	if len(s.list) == 0 {
		return nil, fmt.Errorf("%s: no scenario for %s", XRechnungConfig, syn)
	}
	m, err := buildMatcher("XRechnung "+syn, XRechnungConfig, matches, lets)
	if err != nil {
		return nil, err
	}
	s.matcher = m
	return s, nil
}
