package vm

import "sync"

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
// rule set clones some 15,000 trees at start-up. ExprArena.Clone carves
// them out of chunks shared by many copies instead.
func CloneExpr(e *Expr) *Expr { return (*ExprArena)(nil).Clone(e) }

// ExprArena hands out the storage of copies (Clone, ClonePatterns) from
// chunks that many copies share: the copies a rule-set load makes stay for
// as long as its rule sets, while the load's garbage (parse trees, tokens,
// fingerprints) is freed as soon as it ends. Allocated one by one, the two
// were interleaved in the same spans (the server's warm-up runs with the
// collector off), and a span that keeps one live node cannot go back to
// the OS: the idle server kept ~10 MB more heap in use. A chunk holds
// nodes only (no garbage), so it is whole or it is gone.
//
// An ExprArena is safe for concurrent use; its zero value is ready, and a
// nil one allocates each copy on its own (CloneExpr). A copy is never
// freed while another copy of its chunk lives: an arena belongs to
// storage that lives and dies together (one xpath.Cache, one load).
type ExprArena struct {
	mu    sync.Mutex
	nodes []Expr  // the rest of the current chunk of nodes
	ptrs  []*Expr // the rest of the current chunk of operand pointers
}

// The chunks: 512 nodes (96 KB) and 4,096 operand pointers (32 KB). A
// tree of more than an eighth of a chunk (64 nodes, 512 pointers; about
// one tree in forty, a third of the nodes) has slabs of its own, so no
// chunk ends with more than an eighth unused.
const (
	arenaNodes = 512
	arenaPtrs  = 4096
)

// take returns a cloner with room for exactly nodes nodes and ptrs operand
// pointers.
func (a *ExprArena) take(nodes, ptrs int) cloner {
	if a == nil || nodes > arenaNodes/8 || ptrs > arenaPtrs/8 {
		return cloner{nodes: make([]Expr, nodes), ptrs: make([]*Expr, ptrs)}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.nodes) < nodes {
		a.nodes = make([]Expr, arenaNodes)
	}
	if len(a.ptrs) < ptrs {
		a.ptrs = make([]*Expr, arenaPtrs)
	}
	// Full slice expressions: a slab cannot grow into the next copy's.
	c := cloner{nodes: a.nodes[:nodes:nodes], ptrs: a.ptrs[:ptrs:ptrs]}
	a.nodes, a.ptrs = a.nodes[nodes:], a.ptrs[ptrs:]
	return c
}

// Clone is CloneExpr with the copy's storage from a.
func (a *ExprArena) Clone(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	c := a.take(treeSize(e))
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
	for _, b := range e.Bindings() {
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
	if a := e.Aux; a != nil && (a.Binds != nil || a.SeqType != nil) {
		// The copy's own: its bindings' operands are copies too, and
		// its program writes the catalog slot of the type's name. Any
		// other ExprAux is shared (ExprAux).
		na := *a
		if a.Binds != nil {
			na.Binds = make([]Binding, len(a.Binds))
			for i, b := range a.Binds {
				na.Binds[i] = Binding{Slot: b.Slot, In: c.expr(b.In)}
			}
		}
		if a.SeqType != nil {
			st := *a.SeqType
			na.SeqType = &st
		}
		n.Aux = &na
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

func (a *ExprArena) cloneExprs(es []*Expr) []*Expr {
	if es == nil {
		return nil
	}
	out := make([]*Expr, len(es))
	for i, c := range es {
		out[i] = a.Clone(c)
	}
	return out
}

// ClonePatterns returns a deep copy of path patterns that have not been
// wrapped by NewPatternIn yet (see CloneExpr).
func ClonePatterns(alts []PathPattern) []PathPattern { return (*ExprArena)(nil).ClonePatterns(alts) }

// ClonePatterns is the package's ClonePatterns with the storage of the
// predicates' copies from a.
func (a *ExprArena) ClonePatterns(alts []PathPattern) []PathPattern {
	out := make([]PathPattern, len(alts))
	for i, alt := range alts {
		out[i] = PathPattern{Absolute: alt.Absolute, Steps: make([]PatternStep, len(alt.Steps))}
		for j, st := range alt.Steps {
			st.Preds = a.cloneExprs(st.Preds)
			out[i].Steps[j] = st
		}
	}
	return out
}
