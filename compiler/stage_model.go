package compiler

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
)

// stageModel converts the include-resolved tree into the Schematron model.
// Unknown Schematron elements are an error (nothing is silently ignored);
// foreign elements (other namespaces) are skipped, as the skeleton does.
func stageModel(_ context.Context, u *Unit) error {
	r := u.Root
	s := &Schema{
		QueryBinding: r.AttrOr("queryBinding"),
		DefaultPhase: r.AttrOr("defaultPhase"),
		Pos:          u.pos(r),
	}
	if qb := strings.ToLower(s.QueryBinding); qb != "" && qb != "xslt2" && qb != "xpath2" && qb != "xslt" && qb != "xpath" {
		return u.errAt(r, "", "queryBinding", fmt.Sprintf("queryBinding %q is not supported", s.QueryBinding))
	}
	for _, c := range r.Children {
		if c.IsText() || c.Space != NSSchematron {
			continue
		}
		switch c.Local {
		case "title":
			s.Title = strings.Join(strings.Fields(textOf(c)), " ")
		case "ns":
			s.Namespaces = append(s.Namespaces, engine.Namespace{Prefix: c.AttrOr("prefix"), URI: c.AttrOr("uri")})
		case "let":
			l, err := u.buildLet(c)
			if err != nil {
				return err
			}
			s.Lets = append(s.Lets, l)
		case "phase":
			ph := &Phase{ID: c.AttrOr("id"), Pos: u.pos(c)}
			for _, a := range c.Children {
				switch {
				case a.isSch("active"):
					ph.Active = append(ph.Active, a.AttrOr("pattern"))
				case a.isSch("let"):
					l, err := u.buildLet(a)
					if err != nil {
						return err
					}
					ph.Lets = append(ph.Lets, l)
				}
			}
			s.Phases = append(s.Phases, ph)
		case "pattern":
			p, err := u.buildPattern(c)
			if err != nil {
				return err
			}
			s.Patterns = append(s.Patterns, p)
		case "diagnostics":
			for _, d := range c.Children {
				if !d.isSch("diagnostic") {
					continue
				}
				msg, err := u.buildMessage(d)
				if err != nil {
					return err
				}
				s.Diagnostics = append(s.Diagnostics, &Diagnostic{ID: d.AttrOr("id"), Message: msg, Pos: u.pos(d)})
			}
		case "p", "properties":
		default:
			return u.errAt(c, "", "sch:"+c.Local, "unsupported Schematron element in schema")
		}
	}
	u.Schema = s
	return nil
}

func (u *Unit) pos(n *Node) Pos { return Pos{File: n.File, Line: n.Line} }

func (u *Unit) errAt(n *Node, rule, construct, msg string) error {
	return &Error{File: u.Files[n.File], Line: n.Line, Rule: rule, Construct: construct, Msg: msg}
}

func (u *Unit) buildLet(n *Node) (*Let, error) {
	name, _ := n.Attr("name")
	val, ok := n.Attr("value")
	if name == "" {
		return nil, u.errAt(n, "", "sch:let", "let without name")
	}
	if !ok {
		return nil, u.errAt(n, "let "+name, "sch:let content", "a let without a value attribute is not supported")
	}
	return &Let{Name: name, Value: val, Pos: u.pos(n)}, nil
}

func (u *Unit) buildPattern(n *Node) (*Pattern, error) {
	p := &Pattern{ID: n.AttrOr("id"), Abstract: n.AttrOr("abstract") == "true", IsA: n.AttrOr("is-a"), Pos: u.pos(n)}
	for _, c := range n.Children {
		if c.IsText() || c.Space != NSSchematron {
			continue
		}
		switch c.Local {
		case "param":
			p.Params = append(p.Params, Param{Name: c.AttrOr("name"), Value: c.AttrOr("value"), Pos: u.pos(c)})
		case "let":
			l, err := u.buildLet(c)
			if err != nil {
				return nil, err
			}
			p.Lets = append(p.Lets, l)
		case "rule":
			r, err := u.buildRule(c)
			if err != nil {
				return nil, err
			}
			p.Rules = append(p.Rules, r)
		case "title", "p":
		default:
			return nil, u.errAt(c, "pattern "+p.ID, "sch:"+c.Local, "unsupported Schematron element in pattern")
		}
	}
	return p, nil
}

func (u *Unit) buildRule(n *Node) (*Rule, error) {
	r := &Rule{ID: n.AttrOr("id"), Context: n.AttrOr("context"), Flag: n.AttrOr("flag"), Abstract: n.AttrOr("abstract") == "true", Pos: u.pos(n)}
	for _, c := range n.Children {
		if c.IsText() || c.Space != NSSchematron {
			continue
		}
		switch c.Local {
		case "let":
			l, err := u.buildLet(c)
			if err != nil {
				return nil, err
			}
			r.Lets = append(r.Lets, l)
			r.Items = append(r.Items, RuleItem{Let: l})
		case "assert", "report":
			k := engine.KindAssert
			if c.Local == "report" {
				k = engine.KindReport
			}
			msg, err := u.buildMessage(c)
			if err != nil {
				return nil, err
			}
			ck := &Check{Kind: k, ID: c.AttrOr("id"), Flag: c.AttrOr("flag"), Role: c.AttrOr("role"), Test: c.AttrOr("test"), Message: msg, Diagnostics: strings.Fields(c.AttrOr("diagnostics")), Pos: u.pos(c)}
			if _, ok := c.Attr("test"); !ok {
				return nil, u.errAt(c, ck.ID, "sch:"+c.Local, "missing test attribute")
			}
			r.Checks = append(r.Checks, ck)
			r.Items = append(r.Items, RuleItem{Check: ck})
		case "extends":
			id := c.AttrOr("rule")
			if id == "" {
				return nil, u.errAt(c, r.ID, "sch:extends href", "only extends rule=\"id\" is supported")
			}
			r.Extends = append(r.Extends, id)
			r.Items = append(r.Items, RuleItem{Extends: id})
		case "title", "p":
		default:
			return nil, u.errAt(c, "rule "+r.Context, "sch:"+c.Local, "unsupported Schematron element in rule")
		}
	}
	return r, nil
}

// buildMessage splits the content of an assert, report or diagnostic into
// literal text and value-of / name parts. Inline markup (emph, dir, span and
// foreign elements) contributes its content.
func (u *Unit) buildMessage(n *Node) ([]engine.MessagePart, error) {
	var parts []engine.MessagePart
	add := func(p engine.MessagePart) {
		if p.Kind == engine.PartText && len(parts) > 0 && parts[len(parts)-1].Kind == engine.PartText {
			parts[len(parts)-1].Text += p.Text
			return
		}
		parts = append(parts, p)
	}
	var walk func(n *Node) error
	walk = func(n *Node) error {
		for _, c := range n.Children {
			switch {
			case c.IsText():
				add(engine.MessagePart{Kind: engine.PartText, Text: c.Text})
			case c.isSch("value-of"):
				sel, ok := c.Attr("select")
				if !ok {
					return u.errAt(c, "", "sch:value-of", "value-of without select")
				}
				add(engine.MessagePart{Kind: engine.PartValueOf, Text: sel})
			case c.isSch("name"):
				add(engine.MessagePart{Kind: engine.PartName, Text: c.AttrOr("path")})
			default:
				if err := walk(c); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(n); err != nil {
		return nil, err
	}
	return parts, nil
}

func textOf(n *Node) string {
	var b strings.Builder
	var walk func(*Node)
	walk = func(n *Node) {
		if n.IsText() {
			b.WriteString(n.Text)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// dumpSchema writes the model as indented text.
func dumpSchema(u *Unit, w io.Writer) error {
	s := u.Schema
	var b strings.Builder
	fmt.Fprintf(&b, "schema %q queryBinding=%q defaultPhase=%q selected=%q\n", s.Title, s.QueryBinding, s.DefaultPhase, s.SelectedPhase)
	for _, ns := range s.Namespaces {
		fmt.Fprintf(&b, "ns %s=%s\n", ns.Prefix, ns.URI)
	}
	for _, l := range s.Lets {
		fmt.Fprintf(&b, "let $%s := %s\n", l.Name, l.Value)
	}
	for _, ph := range s.Phases {
		fmt.Fprintf(&b, "phase %s active=%v\n", ph.ID, ph.Active)
	}
	for _, p := range s.Patterns {
		fmt.Fprintf(&b, "pattern %s abstract=%v is-a=%q params=%d  // %s:%d\n", p.ID, p.Abstract, p.IsA, len(p.Params), u.Files[p.Pos.File], p.Pos.Line)
		for _, l := range p.Lets {
			fmt.Fprintf(&b, "  let $%s := %s\n", l.Name, l.Value)
		}
		for _, r := range p.Rules {
			fmt.Fprintf(&b, "  rule context=%q  // %s:%d\n", r.Context, u.Files[r.Pos.File], r.Pos.Line)
			for _, l := range r.Lets {
				fmt.Fprintf(&b, "    let $%s := %s\n", l.Name, l.Value)
			}
			for _, c := range r.Checks {
				fmt.Fprintf(&b, "    %s %s flag=%s test=%q\n", c.Kind, c.ID, c.Flag, c.Test)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
