package vm

import (
	"slices"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Per-node memoisation of predicates.
//
// Rule sets test the same predicate on the same node many times: the
// EN 16931 UBL contexts cac:…/cac:TaxCategory[normalize-space(cbc:ID) = 'X']
// [cac:TaxScheme/normalize-space(upper-case(cbc:ID))='VAT'] are tried one
// after the other on every tax category, and BR-S-08 filters every invoice
// line by the same [cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID)
// = 'S'] for each rate and each sum. A predicate whose value depends only on
// the node it is evaluated on — a boolean-valued expression (so its value is
// not a position) without variables, local bindings, extension functions,
// current-date(), position() or last() — that occurs more than once in the
// rule set gets a slot (shared by equal fingerprints), and the frame keeps
// its value per (slot, node) for the current document. Only error-free
// evaluations are stored.

// maxPredMemo bounds the memoised predicate values per Env and document.
const maxPredMemo = 1 << 16

// preparePred gives p a predicate memo slot when it is memoisable.
func (c *Catalog) preparePred(p *Expr) {
	if c == nil || !memoisablePred(p) {
		return
	}
	p.PredSlot = c.useSlot(c.preds, &c.predUses, p)
}

// useSlot returns the slot of e's fingerprint in slots (numbering a new one
// when needed) and counts one more use of it in uses.
func (c *Catalog) useSlot(slots map[string]int32, uses *[]int32, e *Expr) int32 {
	c.fp = fingerprint(c.fp[:0], e)
	s, ok := slots[string(c.fp)]
	if !ok {
		*uses = append(*uses, 0)
		s = int32(len(*uses))
		slots[string(c.fp)] = s
	}
	(*uses)[s-1]++
	return s
}

// memoisablePred: a statically boolean, closed predicate that does not look
// at the focus position or size.
func memoisablePred(p *Expr) bool {
	switch p.Op {
	case OpAnd, OpOr, OpGenCmp, OpValCmp, OpNot, OpExists, OpEmpty, OpCodeSet, OpCodeToken, OpChildEq, OpLenAfter, OpBlankCmp:
	default:
		return false
	}
	return closedExpr(p) && !usesFocusPosition(p) && costlyExpr(p)
}

func usesFocusPosition(e *Expr) bool {
	if e.Op == OpCall && e.Builtin != nil && (e.Builtin.Name == "position" || e.Builtin.Name == "last") {
		return true
	}
	for _, a := range e.Args {
		if usesFocusPosition(a) {
			return true
		}
	}
	for _, p := range e.Preds {
		if usesFocusPosition(p) {
			return true
		}
	}
	return false
}

// costlyExpr reports whether e does more than one cheap node test (a
// predicate like [cbc:ID] or [@schemeID] costs less than the memo lookup).
func costlyExpr(e *Expr) bool {
	switch e.Op {
	case OpPath, OpCall, OpFilter:
		return true
	case OpStep:
		if len(e.Preds) > 0 {
			return true
		}
	}
	for _, a := range e.Args {
		if costlyExpr(a) {
			return true
		}
	}
	return false
}

// predMemoLookup returns the memoised value of predicate p on the focus
// node, if any; use reports whether p is memoised for this focus at all.
func (f *frame) predMemoLookup(p *Expr, fc focus) (val, found, use bool) {
	cat := f.prog.cat
	if p.PredSlot == 0 || cat == nil || cat.predUses[p.PredSlot-1] < 2 ||
		fc.undefined || fc.item.T != xdm.TNode || fc.item.Doc != 0 || f.docIdx != 0 {
		return false, false, false
	}
	f.nodeMemoReady()
	v, ok := f.predMemo.Get(p.PredSlot, fc.item.Node)
	return v, ok, true
}

// nodeMemoReady resets the per-node memos when the Env's document or the
// program's catalog (whose slots key them) changed.
func (f *frame) nodeMemoReady() {
	if f.predDoc != f.env.Doc || f.predCat != f.prog.cat {
		f.predDoc, f.predCat = f.env.Doc, f.prog.cat
		f.predMemo.Reset()
		f.nodeMemo.Reset()
		// Values of the previous document are no longer referenced
		// (results leave the vm as copies): the chunk is reused.
		f.nodeArena = f.nodeArena[:0]
		f.nodeItems = 0
	}
}

// prepareNodePath gives a relative, variable-free, costly path (more than
// two steps, or predicates, or an expression step, e.g.
// cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent)) a slot in
// the per-node path memo: its value depends only on the focus node.
func (c *Catalog) prepareNodePath(e *Expr) {
	if len(e.Args) < 2 || e.Args[0].Op == OpRoot || !closedExpr(e) || usesFocusPosition(e) {
		return
	}
	costly := len(e.Args) > 2
	for _, a := range e.Args[1:] {
		costly = costly || a.Op != OpStep || len(a.Preds) > 0
	}
	if !costly {
		return
	}
	e.NodeSlot = c.useSlot(c.nodes, &c.nodeUses, e)
}

// prepareNodeCall gives a built-in function call whose value depends only
// on the focus node and that reads the document (an argument walks a
// path, e.g. normalize-space(cbc:ID), upper-case(cbc:ID)) a slot in the same
// per-node memo: the nine VAT-category rule contexts of EN 16931
// cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'X'] then compute the
// normalized code of a line once instead of nine times.
func (c *Catalog) prepareNodeCall(e *Expr) {
	if e.Builtin == nil || !closedExpr(e) || usesFocusPosition(e) || !readsDocument(e) {
		return
	}
	e.NodeSlot = c.useSlot(c.nodes, &c.nodeUses, e)
}

// prepareFocusCalls gives the built-in calls of predicate p that take the
// context item itself as an argument (normalize-space(.)) a slot in the
// per-node memo, as prepareNodeCall does for calls that walk a path. Only in
// predicates: there the focus is a node a step selected, which the sibling
// rules filter again (the nine VAT categories of EN 16931 test
// cbc:ID[normalize-space(.) = 'S'], 'Z', 'E'... on the same IDs), while a
// check's own normalize-space(.) on its context node is seldom asked twice
// and would only pay for the store (Peppol's code-list checks: +11 %
// instructions when every such call was memoised).
func (c *Catalog) prepareFocusCalls(p *Expr) {
	if c == nil {
		return
	}
	if p.Op == OpCall && p.NodeSlot == 0 && p.Builtin != nil && closedExpr(p) && !usesFocusPosition(p) &&
		slices.ContainsFunc(p.Args, func(a *Expr) bool { return a.Op == OpContext }) {
		p.NodeSlot = c.useSlot(c.nodes, &c.nodeUses, p)
	}
	switch p.Op {
	case OpPath, OpStep, OpFilter:
		return // a new focus: not the node the predicate filters
	}
	for _, a := range p.Args {
		c.prepareFocusCalls(a)
	}
}

// readsDocument reports whether an argument of e takes an axis step.
func readsDocument(e *Expr) bool {
	for _, a := range e.Args {
		switch a.Op {
		case OpPath, OpStep, OpFilter:
			return true
		}
		if readsDocument(a) {
			return true
		}
	}
	return false
}

// nodePathLookup returns the memoised value of path e on the focus node;
// use reports whether e is memoised for this focus at all.
func (f *frame) nodePathLookup(e *Expr, fc focus) (val xdm.Sequence, found, use bool) {
	cat := f.prog.cat
	if cat == nil || cat.nodeUses[e.NodeSlot-1] < 2 ||
		fc.undefined || fc.item.T != xdm.TNode || fc.item.Doc != 0 || f.docIdx != 0 {
		return nil, false, false
	}
	f.nodeMemoReady()
	v, ok := f.nodeMemo.Get(e.NodeSlot, fc.item.Node)
	return v, ok, true
}

func (f *frame) nodePathStore(e *Expr, fc focus, s xdm.Sequence) {
	if f.nodeItems+len(s) > maxMemoItems || f.nodeMemo.Len() >= maxPredMemo {
		return
	}
	f.nodeItems += len(s)
	var c xdm.Sequence
	if n := len(s); n > 0 {
		l := len(f.nodeArena)
		if l+n > cap(f.nodeArena) {
			f.nodeArena = make([]xdm.Item, 0, max(2*cap(f.nodeArena), n, 256))
			l = 0
		}
		f.nodeArena = f.nodeArena[:l+n]
		c = f.nodeArena[l : l+n : l+n]
		copy(c, s)
	}
	f.nodeMemo.Put(e.NodeSlot, fc.item.Node, c)
}

func (f *frame) predMemoStore(p *Expr, fc focus, v bool) {
	if f.predMemo.Len() < maxPredMemo {
		f.predMemo.Put(p.PredSlot, fc.item.Node, v)
	}
}
