package vm

import (
	"cmp"
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
// before j closed, $v the variable of a frame-free quantified expression)
// keeps instead, per document and context node, the nodes that pass the
// predicates before j (and A) and, sorted, the key of each (Q's items);
// each binding of $v is then a binary search, and the predicates after j
// run on the nodes it finds, in document order, as the walk would.
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
// the step gives up and the interpreter evaluates the test. As the
// interpreter's, only steps from the document node or the document
// element are indexed (the document-wide sums start there); a step from
// each line would build an index per line, used about once.

// fastKey is the key predicate of a fast step (fastStep.key).
type fastKey struct {
	j    int      // the key predicate's index in the step's predicates
	and  fastBool // A of "A and Q = $v", or nil
	q    fastOperand
	slot int // $v's local slot
	// class: the fingerprint of the predicates up to the key
	// (appendKeyPredsAt). Two steps of one class from the same nodes
	// (//cac:InvoiceLine[…] and ../../../cac:InvoiceLine[…] from the
	// invoice) share one index.
	class string
}

// compileFastKey returns the fastKey of step e, whose predicates compiled
// to preds, or nil when it has none.
func compileFastKey(e *Expr, preds []fastBool) *fastKey {
	j := stepKeyPred(e)
	if j < 0 || j >= len(preds) {
		return nil
	}
	pre, q, v := varKeyPred(e.Preds[j])
	if q == nil || v.Op != OpLocal {
		return nil
	}
	k := &fastKey{j: j, slot: v.Slot, class: string(appendKeyPredsAt(nil, e, j))}
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

// maxFastKeyIndexes bounds the frame-free step indexes kept per document.
const maxFastKeyIndexes = 16

// fastKeyIndex is the index of a class of steps (fastKey.class) from a
// list of nodes (see above).
type fastKeyIndex struct {
	class string
	cands []xmltree.NodeID // the step's nodes before its predicates
	ok    bool             // usable (see above)
	dec   bool             // the keys are numbers (Decimal.Small pairs), else strings
	nodes []xmltree.NodeID
	ents  []keyEnt // sorted by key, then position
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

// keyIndex returns the index of step st (of name id, fsChild or fsDesc)
// from n for the current document, building it on first use (or taking
// the one of its class built from the same nodes); nil when the document
// has as many as it keeps.
func (fe *fastEnv) keyIndex(st *fastStep, n xmltree.NodeID, id xmltree.NameID) *fastKeyIndex {
	if fe.keyDoc != fe.doc {
		fe.keyDoc, fe.keyN = fe.doc, 0
		fe.keyUses = fe.keyUses[:0]
	}
	for _, u := range fe.keyUses {
		if u.st == st && u.from == n {
			return u.ix
		}
	}
	if len(fe.keyUses) == 2*maxFastKeyIndexes {
		return nil
	}
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
	fe.keyUses = append(fe.keyUses, keyUse{st: st, from: n, ix: ix})
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
	slices.SortFunc(ix.ents, func(a, b keyEnt) int {
		if c := a.cmpKey(b); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	// A node with two equal keys is listed once.
	ix.ents = slices.CompactFunc(ix.ents, func(a, b keyEnt) bool { return a.pos == b.pos && a.cmpKey(b) == 0 })
	ix.ok = true
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

// find returns the entries of ix whose key equals v; ok=false when the
// index cannot tell (see above).
func (ix *fastKeyIndex) find(v xdm.Item) (_ []keyEnt, ok bool) {
	if len(ix.ents) == 0 {
		return nil, true // no node has a key: the comparison never holds
	}
	var key keyEnt
	switch {
	case ix.dec && (v.T == xdm.TDecimal || v.T == xdm.TInteger):
		c, s, small := v.Decimal().Small()
		if !small {
			return nil, false
		}
		key = keyEnt{c: c, s: s}
	case !ix.dec && (v.T == xdm.TString || v.T == xdm.TUntyped):
		key = keyEnt{s: -1, str: v.S}
	default:
		return nil, false
	}
	lo, _ := slices.BinarySearchFunc(ix.ents, key, keyEnt.cmpKey)
	hi := lo
	for hi < len(ix.ents) && ix.ents[hi].cmpKey(key) == 0 {
		hi++
	}
	return ix.ents[lo:hi], true
}

// keyWalk is walk for step i of p, which has a key (fastStep.key), from
// n: through its index when there is one, node by node otherwise.
// handled=false when the step is to be walked as usual.
func (fe *fastEnv) keyWalk(p *fastPath, i int, n xmltree.NodeID, id xmltree.NameID, buf []xmltree.NodeID, limit int) (_ []xmltree.NodeID, ok, handled bool) {
	st := &p.steps[i]
	if !keyContext(fe.doc, n) {
		return buf, false, false
	}
	v, bound := fe.local(st.key.slot)
	if !bound {
		return buf, false, true
	}
	ix := fe.keyIndex(st, n, id)
	if ix == nil {
		return buf, false, false
	}
	if !ix.ok {
		return buf, false, true
	}
	hits, ok := ix.find(v)
	if !ok {
		return buf, false, true
	}
	rest := st.preds[st.key.j+1:]
	for _, h := range hits {
		if len(buf) >= limit {
			break
		}
		c := ix.nodes[h.pos]
		keep, ok := fe.pass(rest, c)
		if !ok {
			return buf, false, true
		}
		if keep {
			if buf, ok = fe.walk(p, i+1, c, buf, limit); !ok {
				return buf, false, true
			}
		}
	}
	return buf, true, true
}
