package vm

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Pattern is a compiled XSLT 2.0 match pattern (a Schematron rule context).
// A node N matches when it is in the result of root(N)//(P) (or /P for an
// absolute pattern); Matches decides this by walking upwards from N.
// Patterns are immutable and safe for concurrent use.
type Pattern struct {
	src  string
	alts []PathPattern
	prog *Program // evaluation shell for the predicates (no root expression)
}

// PathPattern is one branch of a union pattern.
type PathPattern struct {
	Absolute bool          // starts with "/" or "//"
	Steps    []PatternStep // in source order; empty for the pattern "/"
}

// PatternStep is one step of a path pattern.
type PatternStep struct {
	Desc  bool // separated from the previous step (or the root) by "//"
	Attr  bool // attribute axis
	Test  NodeTest
	Preds []*Expr
	// Positional is set by the compiler when a predicate may depend on the
	// position (numeric value, position(), last()): only then are the
	// node's siblings collected; otherwise the predicates are tested on the
	// node alone.
	Positional bool
}

// NewPattern wraps compiled path patterns; they must not be modified later.
func NewPattern(src string, alts []PathPattern, nLocals int) *Pattern {
	return NewPatternFuncs(src, alts, nLocals, nil)
}

// NewPatternFuncs is NewPattern for predicates compiled against fns.
func NewPatternFuncs(src string, alts []PathPattern, nLocals int, fns *Functions) *Pattern {
	return NewPatternIn(src, alts, nLocals, fns, nil)
}

// NewPatternIn is NewPatternFuncs with the names numbered in cat (see
// NewProgramIn); cat may be nil.
func NewPatternIn(src string, alts []PathPattern, nLocals int, fns *Functions, cat *Catalog) *Pattern {
	pt := &Pattern{src: src, alts: alts, prog: NewProgramIn(src, nil, nLocals, fns, cat)}
	for i := range alts {
		for j := range alts[i].Steps {
			st := &alts[i].Steps[j]
			if cat != nil && namedTest(&st.Test) {
				st.Test.Slot = cat.slot(st.Test.Space, st.Test.Local)
			}
			for _, pr := range st.Preds {
				cat.prepare(pr)
				pt.prog.vars = collectVars(pt.prog.vars, pr)
			}
		}
	}
	return pt
}

// VarSlots returns the Env.Vars slots the pattern's predicates read.
func (pt *Pattern) VarSlots() []int { return pt.prog.vars }

// Source returns the pattern text.
func (pt *Pattern) Source() string { return pt.src }

// Alternatives returns the branches (read-only).
func (pt *Pattern) Alternatives() []PathPattern { return pt.alts }

// ElementNames returns the expanded element names the final step of the
// pattern can match; any is true when some branch can match other nodes
// (wildcards, attributes, kind tests, "/").
func (pt *Pattern) ElementNames() (names []xdm.QName, any bool) {
	for _, a := range pt.alts {
		if len(a.Steps) == 0 {
			any = true
			continue
		}
		last := a.Steps[len(a.Steps)-1]
		if last.Attr || last.Test.Kind != TestName {
			any = true
			continue
		}
		names = append(names, xdm.QName{Space: last.Test.Space, Local: last.Test.Local})
	}
	return names, any
}

// Matches reports whether node matches the pattern.
func (pt *Pattern) Matches(ctx context.Context, env *Env, node xmltree.NodeID) (bool, error) {
	f := env.acquire(ctx, pt.prog)
	defer f.release()
	for i := range pt.alts {
		a := &pt.alts[i]
		if len(a.Steps) == 0 {
			if f.doc.Kind(node) == xmltree.KindDocument {
				return true, nil
			}
			continue
		}
		ok, err := f.matchStep(a, len(a.Steps)-1, node)
		if err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

func (f *frame) matchStep(a *PathPattern, i int, n xmltree.NodeID) (bool, error) {
	st := &a.Steps[i]
	axis := AxisChild
	if st.Attr {
		axis = AxisAttribute
	}
	m := f.matcher(&st.Test, axis)
	if m.never || !f.matches(&m, n) {
		return false, nil
	}
	if st.Attr != (f.doc.Kind(n) == xmltree.KindAttribute) {
		return false, nil
	}
	p := f.doc.Parent(n)
	if p == xmltree.None {
		return false, nil
	}
	if len(st.Preds) > 0 {
		ok, err := f.patternPreds(st, axis, p, n)
		if err != nil || !ok {
			return false, err
		}
	}
	if i == 0 {
		if !a.Absolute || st.Desc {
			return true, nil
		}
		return f.doc.Kind(p) == xmltree.KindDocument, nil
	}
	if !st.Desc {
		return f.matchStep(a, i-1, p)
	}
	for anc := p; anc != xmltree.None; anc = f.doc.Parent(anc) {
		if err := f.tick(); err != nil {
			return false, err
		}
		ok, err := f.matchStep(a, i-1, anc)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// patternPreds evaluates the predicates of a step for n among the nodes the
// step selects from its parent p.
func (f *frame) patternPreds(st *PatternStep, axis Axis, p, n xmltree.NodeID) (bool, error) {
	if !st.Positional {
		fc := focus{item: f.node(n), pos: 1, size: 1}
		for _, pr := range st.Preds {
			ok, err := f.predicate(pr, fc)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
	tmp := f.buf()
	tmp, err := f.axis(axis, &st.Test, p, tmp, false)
	if err != nil {
		return false, err
	}
	s := f.done(tmp)
	s, err = f.filter(s, st.Preds)
	if err != nil {
		return false, err
	}
	return containsNode(s, f.node(n)), nil
}
