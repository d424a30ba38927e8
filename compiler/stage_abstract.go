package compiler

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
)

// stageAbstract instantiates abstract patterns and abstract rules.
//
// A pattern with is-a="X" becomes a copy of the abstract pattern X (its lets
// and rules) under the instance's id, with every "$name" of a param replaced
// textually by the param's value in the context, test, let value, value-of
// select and name path attributes. As in the ISO skeleton (iso_abstract_expand)
// the replacement is literal (no regex) and applied param by param; params are
// applied longest name first so that $BR-1 cannot eat the prefix of $BR-10.
// Abstract patterns and abstract rules are then dropped; each <extends rule>
// is replaced by the lets and checks of the abstract rule it names.
func stageAbstract(_ context.Context, u *Unit) error {
	s := u.Schema
	abstract := map[string]*Pattern{}
	for _, p := range s.Patterns {
		if p.Abstract {
			if p.ID == "" {
				return u.errPos(p.Pos, "", "sch:pattern", "abstract pattern without id")
			}
			abstract[p.ID] = p
		}
	}
	var out []*Pattern
	for _, p := range s.Patterns {
		switch {
		case p.Abstract:
			continue
		case p.IsA != "":
			a, ok := abstract[p.IsA]
			if !ok {
				return u.errPos(p.Pos, "pattern "+p.ID, "is-a", fmt.Sprintf("no abstract pattern with id %q", p.IsA))
			}
			inst, err := u.instantiate(p, a)
			if err != nil {
				return err
			}
			out = append(out, inst)
		default:
			out = append(out, p)
		}
	}
	// Abstract rules, from any pattern (the ISO standard puts them in the
	// pattern that uses them; this also accepts them elsewhere).
	abstractRules := map[string]*Rule{}
	for _, p := range out {
		for _, r := range p.Rules {
			if r.Abstract {
				abstractRules[r.ID] = r
			}
		}
	}
	for _, p := range out {
		var rules []*Rule
		for _, r := range p.Rules {
			if r.Abstract {
				continue
			}
			if len(r.Extends) > 0 {
				if err := u.expandExtends(r, abstractRules, 0); err != nil {
					return err
				}
			}
			rules = append(rules, r)
		}
		p.Rules = rules
	}
	s.Patterns = out
	return nil
}

func (u *Unit) errPos(p Pos, rule, construct, msg string) error {
	return &Error{File: u.Files[p.File], Line: p.Line, Rule: rule, Construct: construct, Msg: msg}
}

// instantiate copies abstract pattern a for instance p.
func (u *Unit) instantiate(p, a *Pattern) (*Pattern, error) {
	params := append([]Param(nil), p.Params...)
	for _, pr := range params {
		if pr.Name == "" {
			return nil, u.errPos(pr.Pos, "pattern "+p.ID, "sch:param", "param without name")
		}
	}
	// A duplicated param name (EN 16931 CII declares CII-SR-282 twice) is
	// applied twice; the first declaration replaces every occurrence, so it
	// wins, as in the skeleton's sequential expansion and in the reference
	// results (the official preprocessed file keeps the last one instead).
	sort.SliceStable(params, func(i, j int) bool { return len(params[i].Name) > len(params[j].Name) })
	expand := func(s string) string { return Substitute(s, params) }

	inst := &Pattern{ID: p.ID, Pos: p.Pos}
	for _, l := range a.Lets {
		inst.Lets = append(inst.Lets, &Let{Name: l.Name, Value: expand(l.Value), Pos: l.Pos})
	}
	for _, r := range a.Rules {
		nr := &Rule{ID: r.ID, Context: expand(r.Context), Flag: r.Flag, Abstract: r.Abstract, Extends: r.Extends, Pos: r.Pos}
		for _, it := range r.Items {
			switch {
			case it.Let != nil:
				l := &Let{Name: it.Let.Name, Value: expand(it.Let.Value), Pos: it.Let.Pos}
				nr.Lets = append(nr.Lets, l)
				nr.Items = append(nr.Items, RuleItem{Let: l})
			case it.Check != nil:
				c := *it.Check
				c.Test = expand(c.Test)
				c.Message = expandMessage(c.Message, expand)
				nr.Checks = append(nr.Checks, &c)
				nr.Items = append(nr.Items, RuleItem{Check: &c})
			default:
				nr.Items = append(nr.Items, it)
			}
		}
		inst.Rules = append(inst.Rules, nr)
	}
	return inst, nil
}

func expandMessage(msg []engine.MessagePart, expand func(string) string) []engine.MessagePart {
	out := make([]engine.MessagePart, len(msg))
	for i, m := range msg {
		if m.Kind != engine.PartText {
			m.Text = expand(m.Text)
		}
		out[i] = m
	}
	return out
}

// Substitute replaces "$"+name by value for each param in the given order,
// literally, each replacement applied to the result of the previous one.
func Substitute(s string, params []Param) string {
	if !strings.Contains(s, "$") {
		return s
	}
	for _, p := range params {
		s = strings.ReplaceAll(s, "$"+p.Name, p.Value)
	}
	return s
}

// expandExtends replaces the extends items of r by the abstract rules' items.
func (u *Unit) expandExtends(r *Rule, abstractRules map[string]*Rule, depth int) error {
	if depth > 16 {
		return u.errPos(r.Pos, r.ID, "sch:extends", "extends nested too deeply (cycle?)")
	}
	var items []RuleItem
	for _, it := range r.Items {
		if it.Extends == "" {
			items = append(items, it)
			continue
		}
		a, ok := abstractRules[it.Extends]
		if !ok {
			return u.errPos(r.Pos, r.ID, "sch:extends", fmt.Sprintf("no abstract rule with id %q", it.Extends))
		}
		if len(a.Extends) > 0 {
			cp := *a
			cp.Items = append([]RuleItem(nil), a.Items...)
			if err := u.expandExtends(&cp, abstractRules, depth+1); err != nil {
				return err
			}
			a = &cp
		}
		items = append(items, a.Items...)
	}
	r.Items = items
	r.Extends = nil
	r.Lets, r.Checks = nil, nil
	for _, it := range items {
		if it.Let != nil {
			r.Lets = append(r.Lets, it.Let)
		}
		if it.Check != nil {
			r.Checks = append(r.Checks, it.Check)
		}
	}
	return nil
}
