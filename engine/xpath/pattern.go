package xpath

import (
	"github.com/einvoice-dev/einvoice/engine/vm"
)

// CompilePattern compiles an XSLT 2.0 match pattern: a union of path
// patterns using the child and attribute axes and "//", with an optional
// leading "/" or "//" and predicates.
func CompilePattern(src string, sc *StaticContext) (*vm.Pattern, error) {
	if sc != nil && sc.Cache != nil {
		return sc.Cache.compilePattern(src, sc)
	}
	ps, alts, err := parsePattern(src, sc, false)
	if err != nil {
		return nil, err
	}
	return vm.NewPatternIn(src, alts, ps.nLocals, ps.sc.Functions, ps.sc.Catalog), nil
}

// parsePattern parses, checks and rewrites a pattern; it is not yet
// wrapped. With track, the parser records what it read from sc.
func parsePattern(src string, sc *StaticContext, track bool) (*parser, []vm.PathPattern, error) {
	ps, err := newParser(src, sc)
	if err != nil {
		return nil, nil, err
	}
	ps.track = track
	alts, err := ps.parseUnionPattern()
	if err != nil {
		return nil, nil, err
	}
	if t := ps.peek(); t.kind != tEOF {
		return nil, nil, ps.errAt(t, "unexpected token in pattern")
	}
	for i := range alts {
		for j := range alts[i].Steps {
			st := &alts[i].Steps[j]
			for k, p := range st.Preds {
				wrapped := optimize(&vm.Expr{Op: vm.OpFilter, Preds: []*vm.Expr{p}})
				st.Preds[k] = wrapped.Preds[0]
			}
			st.Positional = !nonPositional(st.Preds)
		}
	}
	return ps, alts, nil
}

func (ps *parser) parseUnionPattern() ([]vm.PathPattern, error) {
	var alts []vm.PathPattern
	for {
		a, err := ps.parsePathPattern()
		if err != nil {
			return nil, err
		}
		alts = append(alts, a...)
		t := ps.peek()
		if t.is("|") || t.isName("union") {
			ps.next()
			continue
		}
		return alts, nil
	}
}

// parsePathPattern parses one path pattern. Parenthesised unions with
// predicates inside a pattern, "(A | B)[p]/rest" (XSLT 3.0, used by Peppol,
// XRechnung and BR-FR), are expanded to "A[p]/rest | B[p]/rest": exact for
// non-positional predicates, which is what the rule sets use (positional
// ones are rejected).
func (ps *parser) parsePathPattern() ([]vm.PathPattern, error) {
	start := vm.PathPattern{}
	desc := false
	t := ps.peek()
	switch {
	case t.is("/"):
		ps.next()
		start.Absolute = true
		n := ps.peek()
		if n.kind == tEOF || n.is("|") || n.is(")") || n.isName("union") && !ps.peekN(1).is("/") {
			return []vm.PathPattern{start}, nil
		}
	case t.is("//"):
		ps.next()
		start.Absolute = true
		desc = true
	}
	return ps.parseRelPattern(start, desc)
}

// positional reports whether a predicate may select by position.
func positional(p *vm.Expr) bool {
	switch p.Op {
	case vm.OpConst:
		return len(p.Seq) == 1 && p.Seq[0].T.IsNumeric()
	case vm.OpCall:
		if p.FuncName() == "position" || p.FuncName() == "last" {
			return true
		}
	case vm.OpArith:
		return true
	}
	for _, a := range p.Args {
		if positional(a) {
			return true
		}
	}
	return false
}

// parseRelPattern parses steps (or parenthesised groups) separated by "/"
// or "//", extending the prefix pattern; it returns the alternatives.
func (ps *parser) parseRelPattern(prefix vm.PathPattern, desc bool) ([]vm.PathPattern, error) {
	alts := []vm.PathPattern{prefix}
	for {
		t := ps.peek()
		if t.is("(") {
			if err := ps.enter(t); err != nil {
				return nil, err
			}
			ps.next()
			inner, err := ps.parseUnionPattern()
			ps.depth--
			if err != nil {
				return nil, err
			}
			if _, err := ps.expect(")"); err != nil {
				return nil, err
			}
			preds, err := ps.parsePredicates()
			if err != nil {
				return nil, err
			}
			for _, p := range preds {
				if positional(p) {
					return nil, ps.errAt(t, "positional predicate on a parenthesised pattern is not supported")
				}
			}
			var next []vm.PathPattern
			for _, a := range alts {
				for _, b := range inner {
					if len(b.Steps) == 0 && (len(preds) > 0 || len(a.Steps) > 0 || a.Absolute) {
						return nil, ps.errAt(t, "'/' inside a parenthesised pattern is only allowed alone")
					}
					if b.Absolute && (len(a.Steps) > 0 || a.Absolute) {
						return nil, ps.errAt(t, "absolute pattern after a step")
					}
					c := vm.PathPattern{Absolute: a.Absolute || b.Absolute}
					c.Steps = append(append([]vm.PatternStep(nil), a.Steps...), b.Steps...)
					if len(b.Steps) > 0 {
						first := &c.Steps[len(a.Steps)]
						if len(a.Steps) > 0 || a.Absolute {
							first.Desc = desc
						}
						last := &c.Steps[len(c.Steps)-1]
						last.Preds = append(append([]*vm.Expr(nil), last.Preds...), preds...)
					}
					next = append(next, c)
				}
			}
			if len(next) > 1<<10 {
				return nil, ps.errAt(t, "pattern expands to too many alternatives")
			}
			alts = next
		} else {
			st, err := ps.parseStepPattern()
			if err != nil {
				return nil, err
			}
			st.Desc = desc
			for i := range alts {
				alts[i].Steps = append(alts[i].Steps[:len(alts[i].Steps):len(alts[i].Steps)], st)
			}
		}
		n := ps.peek()
		switch {
		case n.is("/"):
			desc = false
		case n.is("//"):
			desc = true
		default:
			return alts, nil
		}
		ps.next()
	}
}

func (ps *parser) parseStepPattern() (vm.PatternStep, error) {
	var st vm.PatternStep
	t := ps.peek()
	ax := vm.AxisChild
	switch {
	case t.is("@"):
		ps.next()
		ax = vm.AxisAttribute
	case t.kind == tName && ps.peekN(1).is("::"):
		switch t.text {
		case "child":
		case "attribute":
			ax = vm.AxisAttribute
		default:
			return st, ps.errAt(t, "axis not allowed in a pattern")
		}
		ps.next()
		ps.next()
	case t.kind == tName && ps.peekN(1).is("(") && !kindTests[t.text]:
		return st, ps.errAt(t, "function calls (id, key) in patterns are not supported")
	}
	test, err := ps.parseNodeTest(ax)
	if err != nil {
		return st, err
	}
	preds, err := ps.parsePredicates()
	if err != nil {
		return st, err
	}
	st.Attr = ax == vm.AxisAttribute
	st.Test = test
	st.Preds = preds
	return st, nil
}
