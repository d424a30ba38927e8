package vm

import (
	"slices"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Step indexes: a step whose predicate compares a key of the node with a
// variable, evaluated again from the same node for another value.
//
// BR-S-08 and its siblings sum, per VAT rate of the breakdown,
//
//	../../../cac:InvoiceLine[cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID)='S']
//	                        [cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $rate]
//
// from the invoice element: for every rate, the rate of every line is read
// and compared again. When a step's predicate j is "Q = $v" (Q a closed,
// non-positional expression of the node, $v a variable or a quantified
// binding, which does not depend on the node) and the predicates before it
// are closed, the compiler marks the step (Expr.KeyPred = j+1). Evaluated
// from a node of the validated document, the step keeps, per step and
// context node for the document, the nodes that pass the predicates before
// j and an index from Q's value to them; each later value of $v is a
// lookup, and the predicates after j run on the nodes it selects.
// Predicate j may also be "A and Q = $v" with A closed (EN 16931 CII:
// ram:SpecifiedLineTradeSettlement[ram:ApplicableTradeTax/ram:CategoryCode = 'S'
// and ram:ApplicableTradeTax/xs:decimal(ram:RateApplicablePercent) = $rate]):
// a node is then indexed when A holds, A evaluated before Q as the
// conjunction evaluates it.
//
// The answer is the step's:
//   - every predicate is boolean and ignores the position, so applying the
//     predicates to the whole axis result, one after the other, is what the
//     step does (filter), and the predicates before j do not read $v;
//   - the index is kept only when the predicates before j and Q raise no
//     error on any node, and Q's items are all strings or untypedAtomic
//     (compared as strings; a numeric $v only against untypedAtomic keys,
//     cast to xs:double as the comparison does) or all xs:decimal or
//     xs:integer (compared by value: their canonical forms are equal
//     exactly when the values are); otherwise, and for any other type of
//     $v, the step is evaluated as before, errors included.

// maxStepIndexes bounds the step indexes a frame keeps per document.
const maxStepIndexes = 64

type stepIndexKey struct {
	e    *Expr
	node xmltree.NodeID
}

// stepKeyPred returns the index of the predicate of step e that a step
// index can key on, or -1.
func stepKeyPred(e *Expr) int {
	if e.Op != OpStep || e.Axis.Reverse() || e.ConstPos() != 0 || len(e.Preds) == 0 {
		return -1
	}
	for _, p := range e.Preds {
		if p.ConstPos() != 0 || !booleanPred(p) || usesFocusPosition(p) {
			return -1
		}
	}
	for j, p := range e.Preds {
		if _, q, _ := varKeyPred(p); q != nil {
			return j
		}
		if !closedExpr(p) {
			return -1
		}
	}
	return -1
}

// varKeyPred splits predicate p, "Q = $v" or "A and Q = $v" with A
// closed, into A (nil when absent), Q and the variable reference; q is nil
// when p is of neither form.
func varKeyPred(p *Expr) (a, q, v *Expr) {
	if p.Op == OpAnd && len(p.Args) == 2 && closedExpr(p.Args[0]) {
		if q, v := varKeyCmp(p.Args[1]); q != nil {
			return p.Args[0], q, v
		}
	}
	q, v = varKeyCmp(p)
	return nil, q, v
}

// varKeyCmp splits "Q = $v" (either order) into Q and the variable
// reference; nil when p is not of that form.
func varKeyCmp(p *Expr) (q, v *Expr) {
	if p.Op != OpGenCmp || p.Cmp != xdm.OpEq || p.Set != nil || len(p.Args) != 2 {
		return nil, nil
	}
	isVar := func(e *Expr) bool { return e.Op == OpVar || e.Op == OpLocal }
	a, b := p.Args[0], p.Args[1]
	if isVar(a) {
		a, b = b, a
	}
	if !isVar(b) || isVar(a) || !closedExpr(a) || focusFree(a) {
		return nil, nil
	}
	return a, b
}

// keyVar returns the variable reference of p, a key predicate that
// varKeyPred split ("Q = $v" either way round, or "A and Q = $v"), without
// its tests of closedness, which a lookup need not repeat.
func keyVar(p *Expr) *Expr {
	if p.Op == OpAnd {
		p = p.Args[1]
	}
	if a := p.Args[0]; a.Op == OpVar || a.Op == OpLocal {
		return a
	}
	return p.Args[1]
}

// prepareStepKey marks a step that a step index applies to.
func prepareStepKey(e *Expr) {
	if j := stepKeyPred(e); j >= 0 && j < 255 {
		e.KeyPred = uint8(j + 1)
	}
}

// prepareStepClass numbers the class of step e when it has a step index:
// the fingerprint of its predicates up to the key (appendKeyPreds). BR-S-08
// filters the same invoice lines by the same predicates through
// //cac:InvoiceLine[…] and ../../../cac:InvoiceLine[…]: two steps, one
// index.
func (c *Catalog) prepareStepClass(e *Expr) {
	if e.KeyPred == 0 {
		return
	}
	c.fp = appendKeyPreds(c.fp[:0], e)
	k, ok := c.classes[string(c.fp)]
	if !ok {
		if c.classes == nil {
			c.classes, c.stepClass = map[string]int32{}, map[*Expr]int32{}
		}
		k = int32(len(c.classes)) + 1
		c.classes[string(c.fp)] = k
	}
	c.stepClass[e] = k
}

// sharedIndex is a step index built for the current document, with the
// class of its step and the nodes it was built from (before predicates).
type sharedIndex struct {
	class int32
	from  []xdm.Item
	ix    *keyIndex
}

// sharedStepIndex returns the index of class k already built from the
// nodes from for the current document, if any.
func (f *frame) sharedStepIndex(k int32, from []xdm.Item) *keyIndex {
	for _, s := range f.shared {
		if s.class == k && slices.EqualFunc(s.from, from, func(a, b xdm.Item) bool { return a.NodeKey() == b.NodeKey() }) {
			return s.ix
		}
	}
	return nil
}

// StepIndexBuilds returns how many step indexes the Env built for its
// current document (a test hook: steps of one class from the same nodes
// share one).
func (env *Env) StepIndexBuilds() int {
	if f := env.fr; f != nil && f.memoDoc == env.Doc {
		return f.stepBuilds
	}
	return 0
}

// stepByIndex evaluates step e (KeyPred > 0) from node n of the validated
// document through its index; ok=false when the index does not apply. Only
// steps from the root or the document element are indexed (the rule sets'
// document-wide sums start there): a step from each line would build an
// index per line, each used about once.
func (f *frame) stepByIndex(e *Expr, n xmltree.NodeID, out []xdm.Item) (_ []xdm.Item, ok bool, err error) {
	if n != 0 && f.doc.Parent(n) != 0 {
		return out, false, nil
	}
	if f.stepIdxDoc != f.env.Doc {
		// the memo budget (stepNodes), arena and index maps are per
		// document too (memoReady, which drops the step indexes when it
		// starts a document, first)
		f.memoReady(focus{item: f.node(n), pos: 1, size: 1})
		f.stepIdxDoc = f.env.Doc
		clear(f.stepIdx)
	}
	k := stepIndexKey{e, n}
	ix := f.stepIdx[k]
	if ix == nil {
		if ix, err = f.buildStepIndex(e, xdm.Sequence{f.node(n)}); err != nil {
			return out, false, err
		}
		if f.stepIdx == nil {
			f.stepIdx = make(map[stepIndexKey]*keyIndex)
		}
		if len(f.stepIdx) >= maxStepIndexes {
			clear(f.stepIdx)
		}
		f.stepIdx[k] = ix
	}
	s, ok, err := f.lookupStepIndex(ix, e)
	if !ok || err != nil {
		return out, ok, err
	}
	return append(out, s...), true, nil
}

// pathStepByIndex evaluates step st, the first variable-dependent step of
// an absolute path, from the path's memoised prefix cur through the
// index of key slot slot (kept per document, like the memo).
func (f *frame) pathStepByIndex(slot int32, st *Expr, cur xdm.Sequence) (_ xdm.Sequence, ok bool, err error) {
	if int(st.KeyPred) < len(st.Preds) && len(cur) > 1 && st.Axis != AxisChild && st.Axis != AxisAttribute {
		return nil, false, nil // the predicates after the key would not run in the step's order
	}
	ix := f.keyIdx[slot-1]
	if ix == nil {
		if ix, err = f.buildStepIndex(st, cur); err != nil {
			return nil, false, err
		}
		f.keyIdx[slot-1] = ix
	}
	return f.lookupStepIndex(ix, st)
}

// lookupStepIndex selects the nodes of e's index whose key equals a value
// of the variable and applies the predicates after the key predicate.
func (f *frame) lookupStepIndex(ix *keyIndex, e *Expr) (_ xdm.Sequence, ok bool, err error) {
	if ix.unusable {
		return nil, false, nil
	}
	j := int(e.KeyPred) - 1
	ve := keyVar(e.Preds[j])
	if len(ix.nodes) == 0 {
		return nil, true, nil // the predicate is never evaluated
	}
	v, err := f.eval(ve, focus{item: ix.nodes[0], pos: 1, size: len(ix.nodes)})
	if err != nil {
		return nil, false, nil // the step raises it
	}
	return f.selectByKey(ix, v, e.Preds[j+1:])
}

// buildStepIndex computes the nodes of step e from the nodes ctx (in
// document order) that pass the predicates before the key predicate, and
// the key of each.
func (f *frame) buildStepIndex(e *Expr, ctx xdm.Sequence) (*keyIndex, error) {
	ix := f.newKeyIndex()
	nodes, ok, err := f.stepNodes(e, ctx)
	if err != nil || !ok {
		ix.unusable = true
		return ix, err
	}
	// The list of built indexes belongs to the memo's document and
	// catalog (memoReady resets it).
	k := int32(0)
	if f.memoDoc == f.env.Doc && f.memoCat == f.prog.cat {
		k = f.prog.cat.stepClass[e]
	}
	if k > 0 {
		if s := f.sharedStepIndex(k, nodes); s != nil {
			return s, nil
		}
	}
	f.stepBuilds++
	if err := f.fillStepIndex(ix, e, nodes); err != nil {
		return nil, err
	}
	if k > 0 {
		if len(f.shared) >= maxStepIndexes {
			clear(f.shared)
			f.shared = f.shared[:0]
		}
		f.shared = append(f.shared, sharedIndex{class: k, from: nodes, ix: ix})
	}
	return ix, nil
}

// fillStepIndex fills ix from nodes, the nodes of step e before its
// predicates.
func (f *frame) fillStepIndex(ix *keyIndex, e *Expr, nodes []xdm.Item) error {
	j := int(e.KeyPred) - 1
	pre, q, _ := varKeyPred(e.Preds[j])
	s, err := f.keyPrefilter(nodes, e.Preds[:j])
	if err != nil {
		ix.unusable = true
		return nil
	}
	ix.nodes = f.memoCopy(s) // the result lives in the evaluation's arena
	mark := f.posMark()
	defer f.posDrop(mark) // on the error returns; a no-op after posFlush
	strs, decs := false, false
	for i, it := range ix.nodes {
		if err := f.tick(); err != nil {
			return err
		}
		pd, pi := f.enter(it)
		ok := f.indexKey(ix, pre, q, focus{item: it, pos: i + 1, size: len(ix.nodes)}, i, &strs, &decs)
		f.doc, f.docIdx = pd, pi
		if !ok || (strs && decs) {
			ix.unusable, ix.nodes = true, nil
			return nil
		}
	}
	ix.decimal = decs
	ix.pos = f.indexMap(len(ix.nodes))
	f.posFlush(mark, ix.pos)
	return nil
}

// keyPrefilter returns the nodes that pass preds, the predicates before a
// step index's key: boolean, closed and blind to the position
// (stepKeyPred), so each node is tested on its own, the predicates in
// their order, as filter's answer would be. A predicate is tried
// frame-free first and without the predicate memo: an index is built once
// per step class and document, and nothing else reads those predicates
// on those nodes. Any error makes the index unusable (the step raises it).
func (f *frame) keyPrefilter(nodes []xdm.Item, preds []*Expr) (xdm.Sequence, error) {
	if len(preds) == 0 {
		return nodes, nil
	}
	b := f.buf()
	for i, it := range nodes {
		if err := f.tick(); err != nil {
			return nil, err
		}
		pd, pi := f.enter(it)
		keep, err := true, error(nil)
		for _, p := range preds {
			if keep, err = f.predBool(p, focus{item: it, pos: i + 1, size: len(nodes)}); err != nil || !keep {
				break
			}
		}
		f.doc, f.docIdx = pd, pi
		if err != nil {
			return nil, err
		}
		if keep {
			b = append(b, it)
		}
	}
	return f.done(b), nil
}

// indexKey adds node i of the index under its keys (Q on fc, when the
// closed conjunct pre, if any, holds); false when the index is unusable.
func (f *frame) indexKey(ix *keyIndex, pre, q *Expr, fc focus, i int, strs, decs *bool) bool {
	if pre != nil {
		// "A and Q = $v": A first, as the conjunction evaluates it.
		keep, err := f.predBool(pre, fc)
		if err != nil {
			return false
		}
		if !keep {
			return true
		}
	}
	usable := true
	addItem := func(a xdm.Item) bool {
		var key string
		switch a.T {
		case xdm.TUntyped:
			*strs, key = true, a.S
		case xdm.TString:
			*strs, key, ix.untyped = true, a.S, false
		case xdm.TDecimal, xdm.TInteger:
			*decs, key = true, a.Decimal().String()
		default:
			usable = false
			return false
		}
		f.posAdd(key, i)
		return true
	}
	if fc.item.T == xdm.TNode && f.fastKey(q, xmltree.NodeID(fc.item.Node), addItem) {
		return usable
	}
	if !usable {
		return false
	}
	v, err := f.eval(q, fc)
	if err != nil {
		return false
	}
	for _, x := range v {
		if !addItem(f.atom(x)) {
			return false
		}
	}
	return true
}
