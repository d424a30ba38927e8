package vm

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Frame-free step indexes: the interpreter's step indexes (stepindex.go)
// for the fast paths.
//
// BR-S-08 and its siblings sum, for every VAT rate of the breakdown, the
// lines and allowances of that category at that rate:
//
//	every $rate in xs:decimal(cbc:Percent) satisfies …
//	  sum(../../../cac:InvoiceLine[cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID)='S']
//	                              [cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $rate]/…)
//
// Walked, every line's category and rate are read again for every rate
// and every subtotal. A fast step whose predicate j is "Q = $v" or
// "A and Q = $v" (stepKeyPred, varKeyPred: Q and A closed, the predicates
// before j closed, $v the variable of a frame-free quantified expression),
// or else "Q = 'literal'" or "A and Q = 'literal'" (stepLitKeyPred: the
// category of BR-E-08 and its siblings, each a walk of the same lines for
// another category), keeps instead, per document, the nodes that pass the
// predicates before j (and A) and the key of each (Q's items); each
// lookup (a binding of $v, a literal) reads the keys, sorted after a
// few lookups (sortAfter) and then searched, and the predicates after j
// run on the nodes it finds, in document order, as the walk would. Steps
// of one class (the predicates up to the key, appendKeyClass) from the
// same nodes share one index: //cac:InvoiceLine[…] and
// ../../../cac:InvoiceLine[…] from the invoice.
//
// The answer is the walk's: the predicates are boolean and blind to the
// position (stepKeyPred), so testing each node on its own, in order, is
// the step; "Q = $v" holds for a node exactly when one of Q's items equals
// $v, which the index finds when both sides are xs:decimal or xs:integer
// (equal values have equal Decimal.Small pairs) or both strings or
// xs:untypedAtomic (compared as strings). For any other pair (a number
// against untypedAtomic is compared as doubles, a string against a number
// raises XPTY0004), a key that is a big decimal, keys of both kinds, or
// a predicate that cannot decide on some node while the index is built,
// the step gives up and the interpreter evaluates the test.
//
// As the interpreter's, steps from the document node or the document
// element are indexed (the document-wide sums start there), each from its
// node (keyWalk); a step from each line would build an index per line,
// used about once. A step of an absolute path after named child steps
// without predicates (CII's /rsm:CrossIndustryInvoice/…/ram:SpecifiedTradeAllowanceCharge[…])
// is indexed once for all the nodes of those steps (keyChainWalk). Fewer
// than minKeyCands nodes are walked as before.

// fastKey is the key predicate of a fast step (fastStep.key).
type fastKey struct {
	j    int      // the key predicate's index in the step's predicates
	and  fastBool // A of "A and Q = $v", or nil
	q    fastOperand
	slot int // $v's local slot, or -1 for a literal key
	// lit: the string literal of "Q = 'lit'" (slot -1).
	lit xdm.Item
	// class: the fingerprint of the predicates up to the key
	// (appendKeyClass). Two steps of one class from the same nodes
	// (//cac:InvoiceLine[…] and ../../../cac:InvoiceLine[…] from the
	// invoice) share one index.
	class string
}

// compileFastKey returns the fastKey of step e, whose predicates compiled
// to preds, or nil when it has none.
func compileFastKey(e *Expr, preds []fastBool) *fastKey {
	if len(preds) != len(e.Preds) {
		return nil
	}
	var k *fastKey
	var pre, q *Expr
	if j := stepKeyPred(e); j >= 0 {
		var v *Expr
		if pre, q, v = varKeyPred(e.Preds[j]); v.Op != OpLocal {
			return nil
		}
		k = &fastKey{j: j, slot: v.Slot}
	} else if j, lit := stepLitKeyPred(e); j >= 0 {
		// A literal (BR-E-08: ../../../cac:InvoiceLine[cac:Item/
		// cac:ClassifiedTaxCategory/normalize-space(cbc:ID)='E']): one
		// index serves the categories of the breakdown.
		pre, q, _ = litKeyPred(e.Preds[j])
		k = &fastKey{j: j, slot: -1, lit: lit}
	} else {
		return nil
	}
	k.class = string(appendKeyClass(nil, e.Preds[:k.j], pre, q))
	if pre != nil {
		if k.and = compileFast(pre); k.and == nil {
			return nil
		}
	}
	o, ok := fastOperandOf(q)
	if !ok || o.count || o.countOf != nil {
		return nil
	}
	k.q = o
	return k
}

// stepLitKeyPred is stepKeyPred for a predicate "Q = 'lit'" or
// "A and Q = 'lit'" (litKeyPred): its index and the literal, or -1.
func stepLitKeyPred(e *Expr) (int, xdm.Item) {
	if e.Op != OpStep || e.Axis.Reverse() || e.ConstPos() != 0 || len(e.Preds) == 0 {
		return -1, xdm.Item{}
	}
	for _, p := range e.Preds {
		if p.ConstPos() != 0 || !booleanPred(p) || usesFocusPosition(p) || !closedExpr(p) {
			return -1, xdm.Item{}
		}
	}
	for j, p := range e.Preds {
		if _, q, lit := litKeyPred(p); q != nil {
			return j, lit
		}
	}
	return -1, xdm.Item{}
}

// litKeyPred splits predicate p, "Q = 'lit'" or "A and Q = 'lit'" (either
// order, Q closed and reading the focus, A closed), into A (nil when
// absent), Q and the literal; q is nil when p is of neither form.
func litKeyPred(p *Expr) (a, q *Expr, lit xdm.Item) {
	if p.Op == OpAnd && len(p.Args) == 2 && closedExpr(p.Args[0]) {
		if q, lit := litKeyCmp(p.Args[1]); q != nil {
			return p.Args[0], q, lit
		}
	}
	q, lit = litKeyCmp(p)
	return nil, q, lit
}

// litKeyCmp splits "Q = 'lit'" (either order) into Q and the literal;
// an OpChildEq (cbc:ID = 'S') into its child step and its string.
func litKeyCmp(p *Expr) (*Expr, xdm.Item) {
	if p.Op == OpChildEq {
		return &Expr{Op: OpStep, Axis: AxisChild, Test: p.Test}, xdm.String(p.Str)
	}
	if p.Op != OpGenCmp || p.Cmp != xdm.OpEq || p.Set != nil || len(p.Args) != 2 {
		return nil, xdm.Item{}
	}
	isLit := func(e *Expr) bool { return e.Op == OpConst && len(e.Seq) == 1 && e.Seq[0].T == xdm.TString }
	a, b := p.Args[0], p.Args[1]
	if isLit(a) {
		a, b = b, a
	}
	if !isLit(b) || isLit(a) || !closedExpr(a) || focusFree(a) {
		return nil, xdm.Item{}
	}
	return a, b.Seq[0]
}

// maxFastKeyIndexes bounds the frame-free step indexes kept per document.
const maxFastKeyIndexes = 16

// fastKeyIndex is the index of a class of steps (fastKey.class) from a
// list of nodes (see above).
type fastKeyIndex struct {
	class string
	cands []xmltree.NodeID // the step's nodes before its predicates
	// sorted: ents are sorted (after sortAfter lookups: a key looked
	// up a few times, a category the breakdown has once, is found by
	// reading them all, which costs less than sorting them); busy counts
	// the lookups reading ents, which a sort would disturb.
	sorted bool
	finds  int
	busy   int
	ok     bool // usable (see above)
	dec    bool // the keys are numbers (Decimal.Small pairs), else strings
	nodes  []xmltree.NodeID
	ents   []keyEnt // in node order, or by key, then node, once sorted
}

// keyUse is the index a step uses from a node.
type keyUse struct {
	st   *fastStep
	from xmltree.NodeID
	ix   *fastKeyIndex
}

// keyEnt is one key of the node at position pos of fastKeyIndex.nodes.
type keyEnt struct {
	c   int64
	s   int32
	pos int32
	str string
}

func (a keyEnt) cmpKey(b keyEnt) int {
	if c := cmp.Compare(a.c, b.c); c != 0 {
		return c
	}
	if c := cmp.Compare(a.s, b.s); c != 0 {
		return c
	}
	return strings.Compare(a.str, b.str)
}

// keyContext reports whether a step from n may use an index: n is the
// document node or the document element.
func keyContext(d *xmltree.Document, n xmltree.NodeID) bool {
	return n == 0 || d.Parent(n) == 0
}

// keyUse returns the index step st uses from node from in the current
// document; found=false when it has not been given one yet, ix nil when
// the step is walked node by node (addKeyUse).
func (fe *fastEnv) keyUse(st *fastStep, from xmltree.NodeID) (ix *fastKeyIndex, found bool) {
	if fe.keyDoc != fe.doc {
		fe.keyDoc, fe.keyN = fe.doc, 0
		fe.keyUses = fe.keyUses[:0]
	}
	for _, u := range fe.keyUses {
		if u.st == st && u.from == from {
			return u.ix, true
		}
	}
	return nil, false
}

// minKeyCands is the fewest nodes a step is indexed for: below it,
// testing each node costs less than gathering and keeping their keys.
const minKeyCands = 4

// addKeyUse gives step st from node from the index of its class built
// from cands (its nodes before its predicates, in document order),
// building it unless one was; nil when the step is to be walked node by
// node (fewer than minKeyCands nodes, or the document has as many
// indexes as it keeps).
func (fe *fastEnv) addKeyUse(st *fastStep, from xmltree.NodeID, cands []xmltree.NodeID) *fastKeyIndex {
	if len(fe.keyUses) == 2*maxFastKeyIndexes {
		return nil
	}
	if len(cands) < minKeyCands {
		fe.keyUses = append(fe.keyUses, keyUse{st: st, from: from})
		return nil
	}
	var ix *fastKeyIndex
	for _, x := range fe.keyIxs[:fe.keyN] {
		if x.class == st.key.class && slices.Equal(x.cands, cands) {
			ix = x
			break
		}
	}
	if ix == nil {
		if fe.keyN == maxFastKeyIndexes {
			return nil
		}
		if fe.keyN == len(fe.keyIxs) {
			fe.keyIxs = append(fe.keyIxs, new(fastKeyIndex))
		}
		ix = fe.keyIxs[fe.keyN]
		fe.keyN++
		ix.class, ix.cands = st.key.class, append(ix.cands[:0], cands...)
		fe.buildKeyIndex(ix, st)
	}
	fe.keyUses = append(fe.keyUses, keyUse{st: st, from: from, ix: ix})
	return ix
}

// buildKeyIndex fills ix from its nodes, by the predicates of step st.
func (fe *fastEnv) buildKeyIndex(ix *fastKeyIndex, st *fastStep) {
	ix.ok, ix.dec = false, false
	ix.nodes, ix.ents = ix.nodes[:0], ix.ents[:0]
	for _, c := range ix.cands {
		if !fe.addKeyNode(ix, st, c) {
			return
		}
	}
	kinds := 0
	for _, e := range ix.ents {
		if e.s >= 0 {
			kinds |= 1
		} else {
			kinds |= 2
		}
	}
	if kinds == 3 {
		return
	}
	ix.dec = kinds == 1
	ix.sorted, ix.finds, ix.busy = false, 0, 0
	ix.ok = true
}

// sort sorts the entries by key, then position, a node with two equal
// keys listed once.
func (ix *fastKeyIndex) sort() {
	slices.SortFunc(ix.ents, func(a, b keyEnt) int {
		if c := a.cmpKey(b); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	ix.ents = slices.CompactFunc(ix.ents, func(a, b keyEnt) bool { return a.pos == b.pos && a.cmpKey(b) == 0 })
	ix.sorted = true
}

// addKeyNode adds node c to ix when it passes the predicates of st before
// the key (and A), with its keys; false when one of them cannot decide, or a
// key is of no kind the index holds.
func (fe *fastEnv) addKeyNode(ix *fastKeyIndex, st *fastStep, c xmltree.NodeID) bool {
	k := st.key
	keep, ok := fe.pass(st.preds[:k.j], c)
	if !ok {
		return false
	}
	if keep && k.and != nil {
		if keep, ok = k.and(fe, c); !ok {
			return false
		}
	}
	if !keep {
		return true
	}
	pos := int32(len(ix.nodes))
	ix.nodes = append(ix.nodes, c)
	return k.q.items(fe, c, func(a xdm.Item) bool {
		switch a.T {
		case xdm.TDecimal, xdm.TInteger:
			v, s, small := a.Decimal().Small()
			if !small {
				return false
			}
			ix.ents = append(ix.ents, keyEnt{c: v, s: s, pos: pos})
		case xdm.TString, xdm.TUntyped:
			ix.ents = append(ix.ents, keyEnt{s: -1, pos: pos, str: a.S})
		default:
			return false
		}
		return true
	})
}

// keyOf returns the entry key that v equals; ok=false when the index
// cannot tell (see above).
func (ix *fastKeyIndex) keyOf(v xdm.Item) (keyEnt, bool) {
	switch {
	case ix.dec && (v.T == xdm.TDecimal || v.T == xdm.TInteger):
		c, s, small := v.Decimal().Small()
		return keyEnt{c: c, s: s}, small
	case !ix.dec && (v.T == xdm.TString || v.T == xdm.TUntyped):
		return keyEnt{s: -1, str: v.S}, true
	}
	return keyEnt{}, false
}

// keyWalk is walk for step i of p, which has a key (fastStep.key), from
// n, the document node or element (keyContext): through the step's index.
// handled=false when the step is to be walked as usual.
func (fe *fastEnv) keyWalk(p *fastPath, i int, n xmltree.NodeID, id xmltree.NameID, buf []xmltree.NodeID, limit int) (_ []xmltree.NodeID, ok, handled bool) {
	st := &p.steps[i]
	ix, found := fe.keyUse(st, n)
	if !found {
		d := fe.doc
		var cands []xmltree.NodeID
		if st.kind == fsDesc {
			cands = d.NamedIn(n, id, false)
		} else {
			cands = fe.keyCands[:0]
			first, second := fe.kids.children(d, n, id)
			for c := first; c != xmltree.None; c = nextNamed(d, c, first, second, id) {
				cands = append(cands, c)
			}
			fe.keyCands = cands
		}
		ix = fe.addKeyUse(st, n, cands)
	}
	if ix == nil {
		return buf, false, false
	}
	buf, ok = fe.keyLookup(p, i, ix, buf, limit)
	return buf, ok, true
}

// keyChainWalk is walk for an absolute path whose step k = p.chainKey, a
// step with a key below the document element, follows named child steps
// without predicates (/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/
// ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeAllowanceCharge[…]):
// the step's nodes from all the nodes of those steps are the nodes of its
// name whose ancestors have those names, up to the document node, in
// document order, as the walk would reach them; one index of them serves
// the path. handled=false when the path is to be walked as usual.
func (fe *fastEnv) keyChainWalk(p *fastPath, buf []xmltree.NodeID, limit int) (_ []xmltree.NodeID, ok, handled bool) {
	k := p.chainKey
	st := &p.steps[k]
	ix, found := fe.keyUse(st, 0)
	if !found {
		id := fe.ids[st.slot-1]
		if id < 0 {
			return buf, true, true // no node of the name: nothing
		}
		d := fe.doc
		cands := fe.keyCands[:0]
	next:
		for _, c := range d.NamedIn(0, id, false) {
			a := c
			for j := k - 1; j >= 1; j-- {
				if a = d.Parent(a); a == xmltree.None || !fe.named(&p.steps[j], a) {
					continue next
				}
			}
			if d.Parent(a) == 0 {
				cands = append(cands, c)
			}
		}
		fe.keyCands = cands
		ix = fe.addKeyUse(st, 0, cands)
	}
	if ix == nil {
		return buf, false, false
	}
	buf, ok = fe.keyLookup(p, k, ix, buf, limit)
	return buf, ok, true
}

// keyLookup appends the nodes of steps i and after of p from the nodes of
// index ix whose key equals the key predicate's value, those that pass
// the predicates after it.
func (fe *fastEnv) keyLookup(p *fastPath, i int, ix *fastKeyIndex, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	st := &p.steps[i]
	if !ix.ok {
		return buf, false
	}
	v := st.key.lit
	if st.key.slot >= 0 {
		var bound bool
		if v, bound = fe.local(st.key.slot); !bound {
			return buf, false
		}
	}
	if len(ix.ents) == 0 {
		return buf, true // no node has a key: the comparison never holds
	}
	key, ok := ix.keyOf(v)
	if !ok {
		return buf, false
	}
	// The first sortAfter lookups read every entry; later ones sort
	// them first, unless a lookup is reading them (one of the nodes'
	// predicates or steps looks up this index again).
	hits, linear := ix.ents, !ix.sorted && (ix.finds < sortAfter(len(ix.ents)) || ix.busy > 0)
	if !linear {
		if !ix.sorted {
			ix.sort()
		}
		lo, _ := slices.BinarySearchFunc(ix.ents, key, keyEnt.cmpKey)
		hi := lo
		for hi < len(ix.ents) && ix.ents[hi].cmpKey(key) == 0 {
			hi++
		}
		hits = ix.ents[lo:hi]
	}
	ix.finds++
	ix.busy++
	buf, ok = fe.keyHits(p, i, ix, hits, key, linear, buf, limit)
	ix.busy--
	return buf, ok
}

// sortAfter is the number of lookups that read all n entries of an index
// before the next sorts them: a sort costs about as many comparisons as
// 2·log2(n) readings (a few categories or rates, each looked up two or
// three times, are read; a breakdown of many rates is searched).
func sortAfter(n int) int { return 2 * bits.Len(uint(n)) }

// keyHits appends the nodes of steps i and after of p from the nodes of
// hits, entries of ix (those of key when linear), that pass the
// predicates after the key predicate.
func (fe *fastEnv) keyHits(p *fastPath, i int, ix *fastKeyIndex, hits []keyEnt, key keyEnt, linear bool, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	rest := p.steps[i].preds[p.steps[i].key.j+1:]
	last := int32(-1)
	for _, h := range hits {
		if len(buf) >= limit {
			break
		}
		if linear && (h.pos == last || h.cmpKey(key) != 0) {
			continue // a node's keys are side by side
		}
		last = h.pos
		c := ix.nodes[h.pos]
		keep, ok := fe.pass(rest, c)
		if !ok {
			return buf, false
		}
		if keep {
			if buf, ok = fe.walk(p, i+1, c, buf, limit); !ok {
				return buf, false
			}
		}
	}
	return buf, true
}
