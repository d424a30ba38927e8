package vm

// CloneExpr returns a deep copy of a tree that has not been wrapped in a
// program yet (no catalog slots, memo points or CSE slots), so that one
// parsed and rewritten tree can be wrapped by several programs, each with
// its own catalog (NewProgramIn and NewPatternIn annotate the tree they are
// given in place). Constant sequences, compiled regular expressions, code
// sets, builtins and extension functions are immutable and shared; the path
// killers of a copied path point into the copy.
func CloneExpr(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	n := *e
	n.Args = cloneExprs(e.Args)
	n.Preds = cloneExprs(e.Preds)
	if e.Binds != nil {
		n.Binds = make([]Binding, len(e.Binds))
		for i, b := range e.Binds {
			n.Binds[i] = Binding{Slot: b.Slot, In: CloneExpr(b.In)}
		}
	}
	if e.SeqType != nil {
		st := *e.SeqType
		n.SeqType = &st
	}
	if e.Path != nil {
		p := &PathInfo{Memo: append([]MemoPoint(nil), e.Path.Memo...)}
		if e.Path.Kill != nil {
			p.Kill = make([]*NodeTest, 0, len(e.Path.Kill))
			for _, k := range e.Path.Kill {
				p.Kill = append(p.Kill, remapTest(k, e, &n))
			}
		}
		n.Path = p
	}
	return &n
}

// remapTest returns the copy in n of the node test k of e's operands (path
// killers are the tests of a path's own steps, PathKillers); a test that is
// not one of them is copied.
func remapTest(k *NodeTest, e, n *Expr) *NodeTest {
	for i, a := range e.Args {
		if &a.Test == k {
			return &n.Args[i].Test
		}
	}
	c := *k
	return &c
}

func cloneExprs(es []*Expr) []*Expr {
	if es == nil {
		return nil
	}
	out := make([]*Expr, len(es))
	for i, c := range es {
		out[i] = CloneExpr(c)
	}
	return out
}

// ClonePatterns returns a deep copy of path patterns that have not been
// wrapped by NewPatternIn yet (see CloneExpr).
func ClonePatterns(alts []PathPattern) []PathPattern {
	out := make([]PathPattern, len(alts))
	for i, a := range alts {
		out[i] = PathPattern{Absolute: a.Absolute, Steps: make([]PatternStep, len(a.Steps))}
		for j, st := range a.Steps {
			st.Preds = cloneExprs(st.Preds)
			out[i].Steps[j] = st
		}
	}
	return out
}
