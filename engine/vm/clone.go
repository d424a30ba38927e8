package vm

// CloneExpr returns a deep copy of a tree that has not been wrapped in a
// program yet (no catalog slots, memo points or CSE slots), so that one
// parsed and rewritten tree can be wrapped by several programs, each with
// its own catalog (NewProgramIn and NewPatternIn annotate the tree they are
// given in place). Constant sequences, compiled regular expressions, code
// sets, builtins and extension functions are immutable and shared; the path
// killers of a copied path point into the copy.
//
// The copy's nodes and operand slices are carved out of two slabs, one
// allocation each instead of one per node and per slice: compiling every
// rule set clones some 15,000 trees at start-up.
func CloneExpr(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	nodes, ptrs := treeSize(e)
	c := cloner{nodes: make([]Expr, nodes), ptrs: make([]*Expr, ptrs)}
	return c.expr(e)
}

// treeSize counts the nodes of e and the operand pointers (Args and Preds)
// they hold; CloneExpr copies exactly the nodes it counts.
func treeSize(e *Expr) (nodes, ptrs int) {
	if e == nil {
		return 0, 0
	}
	nodes, ptrs = 1, len(e.Args)+len(e.Preds)
	for _, c := range e.Args {
		n, p := treeSize(c)
		nodes, ptrs = nodes+n, ptrs+p
	}
	for _, c := range e.Preds {
		n, p := treeSize(c)
		nodes, ptrs = nodes+n, ptrs+p
	}
	for _, b := range e.Binds {
		n, p := treeSize(b.In)
		nodes, ptrs = nodes+n, ptrs+p
	}
	return nodes, ptrs
}

// cloner hands out the slabs of one CloneExpr.
type cloner struct {
	nodes []Expr
	ptrs  []*Expr
}

func (c *cloner) expr(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	n := &c.nodes[0]
	c.nodes = c.nodes[1:]
	*n = *e
	n.fastIdx = 0 // an index into the catalog of e's program, if any
	n.Args = c.exprs(e.Args)
	n.Preds = c.exprs(e.Preds)
	if e.Binds != nil {
		n.Binds = make([]Binding, len(e.Binds))
		for i, b := range e.Binds {
			n.Binds[i] = Binding{Slot: b.Slot, In: c.expr(b.In)}
		}
	}
	if e.SeqType != nil {
		st := *e.SeqType
		n.SeqType = &st
	}
	if e.Path != nil {
		p := &PathInfo{Memo: append([]MemoPoint(nil), e.Path.Memo...)}
		for i := range p.Memo {
			p.Memo[i].key, p.Memo[i].lit = nil, nil // e's nodes: stepByKey finds the copy's
		}
		if e.Path.Kill != nil {
			p.Kill = make([]*NodeTest, 0, len(e.Path.Kill))
			for _, k := range e.Path.Kill {
				p.Kill = append(p.Kill, remapTest(k, e, n))
			}
		}
		n.Path = p
	}
	return n
}

func (c *cloner) exprs(es []*Expr) []*Expr {
	if es == nil {
		return nil
	}
	out := c.ptrs[:len(es):len(es)]
	c.ptrs = c.ptrs[len(es):]
	for i, e := range es {
		out[i] = c.expr(e)
	}
	return out
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
