package xpath

import (
	"github.com/einvoice-dev/einvoice/engine/vm"
)

// CompilePattern compiles an XSLT 2.0 match pattern: a union of path
// patterns using the child and attribute axes and "//", with an optional
// leading "/" or "//" and predicates.
func CompilePattern(src string, sc *StaticContext) (*vm.Pattern, error) {
	ps, err := newParser(src, sc)
	if err != nil {
		return nil, err
	}
	var alts []vm.PathPattern
	for {
		a, err := ps.parsePathPattern()
		if err != nil {
			return nil, err
		}
		alts = append(alts, a)
		t := ps.peek()
		if t.is("|") || t.isName("union") {
			ps.next()
			continue
		}
		if t.kind != tEOF {
			return nil, ps.errAt(t, "unexpected token in pattern")
		}
		break
	}
	for i := range alts {
		for j := range alts[i].Steps {
			st := &alts[i].Steps[j]
			for k, p := range st.Preds {
				wrapped := optimize(&vm.Expr{Op: vm.OpFilter, Preds: []*vm.Expr{p}})
				st.Preds[k] = wrapped.Preds[0]
			}
		}
	}
	return vm.NewPattern(src, alts, ps.nLocals), nil
}

func (ps *parser) parsePathPattern() (vm.PathPattern, error) {
	var pp vm.PathPattern
	desc := false
	t := ps.peek()
	switch {
	case t.is("/"):
		ps.next()
		pp.Absolute = true
		n := ps.peek()
		if n.kind == tEOF || n.is("|") || n.isName("union") && !ps.peekN(1).is("/") {
			return pp, nil
		}
	case t.is("//"):
		ps.next()
		pp.Absolute = true
		desc = true
	}
	for {
		st, err := ps.parseStepPattern()
		if err != nil {
			return pp, err
		}
		st.Desc = desc
		pp.Steps = append(pp.Steps, st)
		n := ps.peek()
		switch {
		case n.is("/"):
			desc = false
		case n.is("//"):
			desc = true
		default:
			return pp, nil
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
