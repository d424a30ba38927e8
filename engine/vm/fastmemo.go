package vm

import (
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Absolute paths read from the interpreter's memo table, without a frame.
//
// The fast paths leave a descendant path with predicates
// (//cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'Z'][…VAT…]) to
// the interpreter, which keeps its nodes per document (memo.go) and finds
// the nodes of one code through a key index (keyindex.go): walking it
// again for each test would cost more. But the tests built of such paths,
// the VAT category rules (BR-Z-02: exists(A) and (exists(B) or exists(C))
// or not(exists(A))), then pay the interpreter's fixed costs for a few
// lookups: ~2,300 instructions each, for some fifty document-level tests
// of every EN 16931 rule set.
//
// A fastMemo path reads what the interpreter has already computed for the
// current document, and decides only from that:
//   - a name of the path's killers (PathKillers) that the document lacks:
//     the path is empty, which the interpreter finds first too;
//   - the value of its last memo point, which is the whole path, when
//     stored (memoSet): the same nodes, in the same order, as evaluating
//     it again;
//   - a last step keyed by a literal string (K = 'Z') whose key index the
//     interpreter built in this document for another literal: the slot
//     is the prefix's, the step's and the key's, and an index exists only
//     once the prefix was evaluated without error, so its nodes are the
//     step's on that prefix; those with the key, in document order,
//     filtered by the step's remaining predicates as fast predicates (one
//     that cannot decide gives up), are what selectByKey finds, and are
//     stored in the memo for the tests after this one;
//   - an empty prefix: every later step of nothing is nothing.
//
// Anything else (the memo or the index not yet made for this document, an
// index of numbers, a literal that is not a string) does not decide, and
// the interpreter evaluates the test, filling the memo for the tests after
// it. The memo table is the frame's own (fastEnv.fr): it is read only when
// it holds the Env's document and the catalog the fastEnv resolves.

// fastMemo is the memo reading of an absolute path (fastPath.memo).
type fastMemo struct {
	pts []MemoPoint
	// kills: the catalog slots of the path's killers (PathKillers): when
	// one of these names is not in the document, the path is empty, as
	// the interpreter finds before it reads or fills the memo.
	kills []int32
	// keyed: the last memo point is the last step, keyed by the string
	// lit, with the step's remaining predicates rest.
	keyed bool
	lit   string
	rest  []fastBool
	// walk: the path as steps the walk takes (fastPathOf), for a memo
	// that holds nothing for it yet (memoCollect); nil when it has none.
	walk *fastPath
}

// memoPath returns the fastPath of e read from the memo, when e is an
// absolute path whose last memo point is its whole value.
func memoPath(e *Expr) (fastPath, bool) {
	if e.Op != OpPath || len(e.Args) < 2 || e.Args[0].Op != OpRoot {
		return fastPath{}, false
	}
	pts := e.memoPoints()
	if len(pts) == 0 || pts[len(pts)-1].Arg != len(e.Args)-1 {
		return fastPath{}, false
	}
	m := &fastMemo{pts: pts}
	for _, t := range e.Kills() {
		if t.Slot > 0 {
			m.kills = append(m.kills, t.Slot)
		}
	}
	if lp := pts[len(pts)-1]; lp.Key > 0 {
		st := e.Args[lp.Arg]
		key, lit, ok := lp.key, lp.lit, lp.key != nil
		if !ok {
			key, lit, ok = keyedStep(st)
		}
		switch {
		case !ok:
		case key.Op == OpChildEq:
			m.keyed, m.lit = true, key.Str
		case len(lit.Seq) == 1 && lit.Seq[0].T == xdm.TString:
			m.keyed, m.lit = true, lit.Seq[0].S
		}
		for _, pr := range st.Preds[1:] {
			fn := compileFast(pr)
			if fn == nil || pr.ConstPos() != 0 {
				m.keyed = false
				break
			}
			m.rest = append(m.rest, fn)
		}
	}
	// preds set: no shortcut of the walk applies (oneChildStep,
	// chainEnd, up), so every reading goes through collect and walk.
	return fastPath{steps: []fastStep{{kind: fsMemo}}, preds: true, memo: m}, true
}

// memoCollect is collect for a path read from the memo: its nodes, up to
// limit, appended to buf; ok=false when the memo cannot tell.
func (fe *fastEnv) memoCollect(m *fastMemo, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	for _, s := range m.kills {
		if fe.ids[s-1] < 0 {
			return buf, true
		}
	}
	f := fe.fr
	if f == nil || f.memoDoc != fe.doc || f.memoCat != f.cat || f.cat == nil {
		return buf, false
	}
	last := &m.pts[len(m.pts)-1]
	if s := int(last.Slot) - 1; s < len(f.memoSet) && f.memoSet[s] {
		return nodesOf(f.memo[s], buf, limit)
	}
	if m.keyed {
		if k := int(last.Key) - 1; k < len(f.keyIdx) && f.keyIdx[k] != nil {
			return fe.keyCollect(f, m, f.keyIdx[k], buf, limit)
		}
	}
	// An empty prefix: nothing after it.
	for _, mp := range m.pts[:len(m.pts)-1] {
		if s := int(mp.Slot) - 1; s < len(f.memoSet) && f.memoSet[s] && len(f.memo[s]) == 0 {
			return buf, true
		}
	}
	if m.walk != nil && !(m.keyed && f.cat.keyIsShared(last.Key)) {
		return fe.memoWalk(f, m, buf, limit)
	}
	return buf, false
}

// memoWalk is memoCollect for a path that nothing in the memo decides
// and that no other path shares a key index with (UBL-SR-29's
// //cac:PartyIdentification/cbc:ID[upper-case(@schemeID) = 'SEPA'],
// tested once a document): its steps walked whole, as the interpreter
// would evaluate them (a walk that cannot decide does not), and stored in
// the memo for the tests after this one.
func (fe *fastEnv) memoWalk(f *frame, m *fastMemo, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	slot := m.pts[len(m.pts)-1].Slot
	if int(slot) > len(f.memo) {
		return buf, false // a table made before the catalog grew (memoReady)
	}
	all, ok := fe.collect(m.walk, 0, fastMaxNodes+1)
	if !ok || len(all) > fastMaxNodes {
		return buf, false
	}
	fe.memoKeep(f, slot, all)
	if len(all) > limit {
		all = all[:limit]
	}
	return append(buf, all...), true
}

// keyCollect collects the nodes of m's keyed last step through ix, the
// index the interpreter built for it in this document: the prefix it
// was built from is the path's (the key slot is the prefix's, step's and
// key's), evaluated without error, since the index exists.
func (fe *fastEnv) keyCollect(f *frame, m *fastMemo, ix *keyIndex, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	if ix.unusable || ix.decimal {
		return buf, false
	}
	hits := ix.pos[m.lit]
	for i := 1; i < len(hits); i++ {
		if hits[i] <= hits[i-1] {
			// The index lists a node once per key, in document order
			// (posGroup); anything else is the interpreter's.
			return buf, false
		}
	}
	fe.depth++
	defer func() { fe.depth-- }()
	for _, h := range hits {
		it := ix.nodes[h]
		if it.T != xdm.TNode || it.Doc != 0 {
			return buf, false
		}
		keep, ok := fe.pass(m.rest, xmltree.NodeID(it.Node))
		if !ok {
			return buf, false
		}
		if keep {
			if len(buf) == limit {
				return buf, true
			}
			buf = append(buf, xmltree.NodeID(it.Node))
		}
	}
	fe.memoKeep(f, m.pts[len(m.pts)-1].Slot, buf)
	return buf, true
}

// memoKeep stores nodes, the whole value of a path, in memo slot s, for
// the tests after this one (the interpreter's included), unless the
// memo's budget is spent.
func (fe *fastEnv) memoKeep(f *frame, s int32, nodes []xmltree.NodeID) {
	items := fe.memoItems[:0]
	for _, n := range nodes {
		items = append(items, xdm.NodeItem(int32(n)))
	}
	fe.memoItems = items
	f.memoStore(s, items)
}

// nodesOf appends the nodes of memoised value v (nodes of the Env's
// document) to buf, up to limit.
func nodesOf(v xdm.Sequence, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	for _, it := range v {
		if it.T != xdm.TNode || it.Doc != 0 {
			return buf, false
		}
		if len(buf) == limit {
			break
		}
		buf = append(buf, xmltree.NodeID(it.Node))
	}
	return buf, true
}

// compileFastMemoCall compiles a call of an extension function with one
// value per document (Catalog.prepare gives it a memo slot: BR-FR's
// custom:isSpecialContractBD(/ubl:Invoice|/cn:CreditNote)) as the
// effective boolean value of the value the interpreter stored in the
// memo for this document; nil for other calls. Until the interpreter
// made it, it does not decide.
func compileFastMemoCall(e *Expr) fastBool {
	mp := e.memoPoints()
	if len(mp) != 1 {
		return nil
	}
	s := int(mp[0].Slot) - 1
	return func(fe *fastEnv, _ xmltree.NodeID) (bool, bool) {
		f := fe.fr
		if f == nil || f.memoDoc != fe.doc || f.memoCat != f.cat || f.cat == nil || s >= len(f.memoSet) || !f.memoSet[s] {
			return false, false
		}
		v, err := seqEBV(f.memo[s])
		return v, err == nil
	}
}
