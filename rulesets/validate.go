package rulesets

import (
	"context"
	"fmt"
	"slices"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Finding is an engine finding after the profile's severity overrides:
// Flag is the effective severity; DeclaredFlag, set only where an override
// changed it, keeps the rule set's own flag (DECISIONS.md).
type Finding struct {
	engine.Finding
	DeclaredFlag string
}

// Result is the Schematron part of a validation by a profile (the XSD step
// is the caller's).
type Result struct {
	Profile, Syntax, Version string
	// Scenario is the scenario applied ("" for a profile without
	// scenarios, or when none matched).
	Scenario string
	Rulesets []*engine.Ruleset // applied, in order
	Findings []Finding
	// Complete is false when a rule set could not be applied (load or
	// evaluation error: see Errors); the result is then never Valid.
	Complete bool
	// Valid: complete, a scenario matched (profiles with scenarios), and
	// no finding with an effective fatal flag (an assert without flag
	// counts as fatal, as the API treats it).
	Valid  bool
	Errors []error
}

// Validate applies the profile to doc: it selects the scenario, runs its
// rule sets in order and applies the scenario's severity overrides. A rule
// set that fails (profile Err, dynamic evaluation error) makes the result
// incomplete and invalid; the other sets still run. The error is non-nil
// only when ctx ends.
func (p *Profile) Validate(ctx context.Context, doc *xmltree.Document) (*Result, error) {
	p.ensure()
	res := &Result{Profile: p.Name, Syntax: p.Syntax, Version: p.Version, Complete: true}
	if p.Err != nil {
		res.Complete = false
		res.Errors = append(res.Errors, p.Err)
		return res, nil
	}
	sets := p.Rulesets
	var levels map[string]string
	matched := true
	if p.scenarios != nil {
		i, err := p.scenarios.selectFor(ctx, doc)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			res.Complete = false
			res.Errors = append(res.Errors, err)
			return res, nil
		}
		if i >= 0 {
			sc := p.scenarios.list[i]
			res.Scenario, sets, levels = sc.Name, sc.Rulesets, sc.Levels
		} else if p.scenarios.rejectNoMatch {
			matched = false
			res.Errors = append(res.Errors, ErrNoScenario)
		}
	}
	for _, rs := range sets {
		res.Rulesets = append(res.Rulesets, rs)
		fs, err := rs.Validate(ctx, doc)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			res.Complete = false
			res.Errors = append(res.Errors, fmt.Errorf("rule set %s (%s): %w", rs.Label(), rs.Syntax, err))
		}
		res.Findings = slices.Grow(res.Findings, len(fs))
		for _, f := range fs {
			out := Finding{Finding: f}
			if lv, ok := levels[f.RuleID]; ok && lv != f.Flag {
				out.DeclaredFlag = f.Flag
				out.Flag = lv
			}
			res.Findings = append(res.Findings, out)
		}
	}
	res.Valid = res.Complete && matched && !anyFatal(res.Findings)
	return res, nil
}

// IsFatal says whether a finding's effective flag rejects the document:
// fatal or error, or no flag on an assert.
func IsFatal(f Finding) bool {
	switch f.Flag {
	case "fatal", "error":
		return true
	case "warning", "information", "info":
		return false
	}
	return f.Kind != "report"
}

func anyFatal(fs []Finding) bool {
	for _, f := range fs {
		if IsFatal(f) {
			return true
		}
	}
	return false
}

// Scenarios lists the profile's scenarios in selection order (nil for a
// profile without scenarios).
func (p *Profile) Scenarios() []Scenario {
	p.ensure()
	if p.scenarios == nil {
		return nil
	}
	return append([]Scenario(nil), p.scenarios.list...)
}
