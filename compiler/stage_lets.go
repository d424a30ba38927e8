package compiler

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
)

// stageLets lays the model out as flat engine.Tables and binds every let to a
// variable slot: schema (and selected-phase) lets first, then per pattern its
// pattern lets followed by the lets of each of its rules. Diagnostics
// references are resolved to indexes.
func stageLets(_ context.Context, u *Unit) error {
	s := u.Schema
	t := &engine.Tables{
		Name:         u.Config.Name,
		Version:      u.Config.Version,
		Syntax:       u.Config.Syntax,
		Source:       u.Files[0],
		SHA256:       SourceHash(u.Files, u.Data),
		Phase:        s.SelectedPhase,
		QueryBinding: s.QueryBinding,
		Namespaces:   s.Namespaces,
		Files:        append([]string(nil), u.Files...),
	}
	if u.Config.XSLFunctions {
		defs, ns, err := xslfunc.ParseXSLFunctions(u.Data[0])
		if err != nil {
			return fmt.Errorf("%s: %w", u.Files[0], err)
		}
		t.Functions = defs
		for _, p := range slices.Sorted(maps.Keys(ns)) {
			t.FunctionNamespaces = append(t.FunctionNamespaces, engine.Namespace{Prefix: p, URI: ns[p]})
		}
	}
	diag := map[string]int32{}
	for _, d := range s.Diagnostics {
		diag[d.ID] = int32(len(t.Diagnostics))
		t.Diagnostics = append(t.Diagnostics, engine.Diagnostic{ID: d.ID, Message: d.Message, Pos: sp(d.Pos)})
	}
	addLet := func(l *Let, scope engine.LetScope) {
		t.Lets = append(t.Lets, engine.Let{Name: l.Name, Expr: l.Value, Scope: scope, Pos: sp(l.Pos)})
	}
	for _, l := range s.Lets {
		addLet(l, engine.ScopeSchema)
	}
	for pi, p := range s.Patterns {
		tp := engine.Pattern{ID: p.ID, FirstRule: int32(len(t.Rules)), FirstLet: int32(len(t.Lets)), NumLets: int32(len(p.Lets)), Pos: sp(p.Pos)}
		for _, l := range p.Lets {
			addLet(l, engine.ScopePattern)
		}
		for _, r := range p.Rules {
			if strings.TrimSpace(r.Context) == "" {
				return u.errPos(r.Pos, r.ID, "sch:rule", "rule without context")
			}
			tr := engine.Rule{ID: r.ID, Context: r.Context, Flag: r.Flag, Pattern: int32(pi),
				FirstCheck: int32(len(t.Checks)), NumChecks: int32(len(r.Checks)),
				FirstLet: int32(len(t.Lets)), NumLets: int32(len(r.Lets)), Pos: sp(r.Pos)}
			for _, l := range r.Lets {
				addLet(l, engine.ScopeRule)
			}
			for _, c := range r.Checks {
				tc := engine.Check{ID: c.ID, Flag: c.Flag, Role: c.Role, Kind: c.Kind, Test: c.Test, Message: c.Message, Pos: sp(c.Pos)}
				for _, d := range c.Diagnostics {
					i, ok := diag[d]
					if !ok {
						return u.errPos(c.Pos, c.ID, "diagnostics", fmt.Sprintf("no diagnostic %q", d))
					}
					tc.Diagnostics = append(tc.Diagnostics, i)
				}
				t.Checks = append(t.Checks, tc)
			}
			t.Rules = append(t.Rules, tr)
		}
		tp.NumRules = int32(len(t.Rules)) - tp.FirstRule
		t.Patterns = append(t.Patterns, tp)
	}
	if err := u.collectDocuments(t); err != nil {
		return err
	}
	u.Tables = t
	return nil
}

func sp(p Pos) engine.SourcePos { return engine.SourcePos{File: int32(p.File), Line: int32(p.Line)} }

// dumpTables writes the tables as text, one line per item.
func dumpTables(u *Unit, w io.Writer) error {
	t := u.Tables
	var b strings.Builder
	fmt.Fprintf(&b, "tables %s %s %s phase=%s sha256=%s\n", t.Name, t.Version, t.Syntax, t.Phase, t.SHA256)
	for i, l := range t.Lets {
		fmt.Fprintf(&b, "let[%d] scope=%d $%s := %s\n", i, l.Scope, l.Name, l.Expr)
	}
	for pi, p := range t.Patterns {
		fmt.Fprintf(&b, "pattern[%d] %s rules=%d\n", pi, p.ID, p.NumRules)
		for ri := p.FirstRule; ri < p.FirstRule+p.NumRules; ri++ {
			r := t.Rules[ri]
			fmt.Fprintf(&b, "  rule[%d] %q  // %s:%d\n", ri, r.Context, t.Files[r.Pos.File], r.Pos.Line)
			if u.index != nil {
				fmt.Fprintf(&b, "    index: %s\n", u.index[ri])
			}
			for ci := r.FirstCheck; ci < r.FirstCheck+r.NumChecks; ci++ {
				c := t.Checks[ci]
				fmt.Fprintf(&b, "    %s %s [%s] %q\n", c.Kind, c.ID, c.Flag, c.Test)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
