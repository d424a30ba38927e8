package vm

import (
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Absolute paths read from the memo table, or made for it, without a frame.
//
// A descendant path with predicates
// (//cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'Z'][…VAT…]) is
// kept per document (memo.go), and the nodes of one code are found
// through a key index (keyindex.go): walking it again for each test would
// cost more. The tests built of such paths, the VAT category rules
// (BR-Z-02: exists(A) and (exists(B) or exists(C)) or not(exists(A))),
// read them without a frame; paying the interpreter's fixed costs for a
// few lookups would cost ~2,300 instructions each, for some fifty
// document-level tests of every EN 16931 rule set.
//
// A fastMemo path decides from what is kept for the current document:
//   - a name of the path's killers (PathKillers) that the document lacks:
//     the path is empty, which the interpreter finds first too;
//   - the value of its last memo point, which is the whole path, when
//     stored (memoSet): the same nodes, in the same order, as evaluating
//     it again;
//   - a last step keyed by a literal string (K = 'Z') whose key index
//     exists in this document: the slot is the prefix's, the step's and
//     the key's, and an index exists only once the prefix was evaluated
//     without error, so its nodes are the step's on that prefix; those
//     with the key, in document order, filtered by the step's remaining
//     predicates as fast predicates (one that cannot decide gives up),
//     are what selectByKey finds, and are stored in the memo for the
//     tests after this one;
//   - an empty prefix: every later step of nothing is nothing.
//
// What is not kept yet is made without a frame when it can be, and kept
// for the tests after this one (the interpreter's included):
//   - the key index of a keyed last step, when its prefix is walked (or
//     read from the memo) and its keys read as the interpreter's
//     buildKeyIndex would (buildMemoKeyIndex): then as above;
//   - otherwise, when no other path shares its key index, the path
//     itself, walked whole (memoWalk). A path whose index serves others
//     and cannot be built this way is left to the interpreter, which
//     builds that index for all of them.
//
// Anything else (an index of numbers, a literal that is not a string, a
// walk that cannot decide) does not decide, and the interpreter evaluates
// the test, filling the memo for the tests after it. The memo table is
// the frame's own (fastEnv.fr), for the Env's document and the catalog the
// fastEnv resolves: a frame-free test on a new document makes it
// (memoTable), as the interpreter's first evaluation there would.

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
	// kb: how the key index of a keyed last step is built without a
	// frame (buildMemoKeyIndex), nil when it cannot be (setKeyBuild).
	kb *keyBuild
}

// keyBuild is what a fastMemo needs to build its last step's key index
// as the interpreter's buildKeyIndex does: the path's steps before that
// step, the step's name (a named child or descendant step), and its key:
// the key nodes' one step (OpChildEq: their string values are the keys)
// or an operand whose items are the keys.
type keyBuild struct {
	prefix fastPath
	// prefixSlot: the memo slot of the prefix's value (0: none), read
	// instead of walking it when the interpreter stored it.
	prefixSlot int32
	slot       int32
	desc       bool // the step is a descendant step (//cac:TaxCategory[…]), not a child step
	keyStep    *fastPath
	key        fastOperand
}

// setKeyBuild fills m.kb from p, the walk of path e (one step per
// argument), when m's last memo point is keyed (a literal string key)
// on a named child or descendant step whose key has a frame-free form.
func (m *fastMemo) setKeyBuild(e *Expr, p *fastPath) {
	lp := m.pts[len(m.pts)-1]
	if !m.keyed || len(p.steps) != len(e.Args) {
		return
	}
	if k := p.steps[lp.Arg].kind; k != fsChild && k != fsDesc {
		return
	}
	st := e.Args[lp.Arg]
	key := lp.key
	if key == nil {
		key, _, _ = keyedStep(st)
	}
	kb := &keyBuild{prefix: fastPath{steps: p.steps[:lp.Arg], preds: true, abs: true, kept: true}, slot: p.steps[lp.Arg].slot, desc: p.steps[lp.Arg].kind == fsDesc}
	if n := len(m.pts); n > 1 && m.pts[n-2].Arg == lp.Arg-1 {
		kb.prefixSlot = m.pts[n-2].Slot
	}
	for _, s := range kb.prefix.steps {
		kb.prefix.desc = kb.prefix.desc || s.kind == fsDesc || s.kind == fsDescAlt
	}
	switch {
	case key == nil:
		return
	case key.Op == OpChildEq:
		ks, ok := fastStepOf(&Expr{Op: OpStep, Axis: key.Axis, Test: key.Test})
		if !ok || (ks.kind != fsChild && ks.kind != fsAttr) {
			return
		}
		kb.keyStep = &fastPath{steps: []fastStep{ks}}
	default:
		o, ok := fastOperandOf(key)
		if !ok || o.count {
			return
		}
		kb.key = o
	}
	m.kb = kb
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
	if f == nil || f.cat == nil {
		return buf, false
	}
	// The table of this document: the interpreter's, or a new one when
	// no evaluation has made it yet (the document element's rule runs
	// its tests first, most of them frame-free). A table of this
	// document for another catalog is left as it is (a guard: a rule
	// set's programs share one catalog): making it again for each test
	// would undo the interpreter's values. memoTable also sizes the table
	// for every slot of the catalog (one that grew since is made again),
	// so the slots below are all in range.
	if f.memoDoc == fe.doc && f.memoCat != f.cat {
		return buf, false
	}
	f.memoTable(fe.doc, f.cat)
	last := &m.pts[len(m.pts)-1]
	s := int(last.Slot) - 1
	if f.memoSet[s] {
		return nodesOf(f.memo[s], buf, limit)
	}
	// A frame-free walk or build that gave up once in this document
	// (on a node the interpreter alone decides) is not tried again.
	tried := f.memoMiss[s]
	if m.keyed {
		if k := int(last.Key) - 1; f.keyIdx[k] != nil {
			return fe.keyCollect(f, m, f.keyIdx[k], buf, limit)
		}
		if m.kb != nil && !tried {
			ix, empty, ok := fe.buildMemoKeyIndex(f, m.kb, last.Key)
			switch {
			case ok && empty:
				return buf, true // an empty prefix: the interpreter builds no index either
			case ok:
				f.keyIdx[last.Key-1] = ix
				return fe.keyCollect(f, m, ix, buf, limit)
			default:
				f.memoMiss[s], tried = true, true
			}
		}
	}
	// An empty prefix: nothing after it.
	for _, mp := range m.pts[:len(m.pts)-1] {
		if ps := int(mp.Slot) - 1; f.memoSet[ps] && len(f.memo[ps]) == 0 {
			return buf, true
		}
	}
	if m.walk != nil && !tried && !(m.keyed && f.cat.keyIsShared(last.Key)) {
		buf, ok := fe.memoWalk(f, m, buf, limit)
		if !ok {
			f.memoMiss[s] = true
		}
		return buf, ok
	}
	return buf, false
}

// buildMemoKeyIndex builds key slot k's index as the interpreter's
// buildKeyIndex does, without a frame: the nodes of the prefix (walked, or
// read from its memo point), their children of the step's name in
// document order (a descendant step: the descendants of the one prefix
// node), and the key of each. empty: the prefix has no node, and the path is empty without an
// index (evalPath stops there). ok=false when it cannot: a walk that does
// not decide, children out of document order (nested prefix nodes, which
// the interpreter sorts), more than fastMaxNodes nodes or more than the
// memo holds, a key the walk cannot read, or a key item that is not a
// string or untypedAtomic (the interpreter then marks the index
// unusable).
func (fe *fastEnv) buildMemoKeyIndex(f *frame, kb *keyBuild, k int32) (_ *keyIndex, empty, ok bool) {
	var cur []xmltree.NodeID
	if s := int(kb.prefixSlot) - 1; s >= 0 && f.memoSet[s] {
		for _, it := range f.memo[s] {
			if it.T != xdm.TNode || it.Doc != 0 {
				return nil, false, false
			}
		}
		for fe.depth >= len(fe.bufs) {
			fe.bufs = append(fe.bufs, nil)
		}
		cur = fe.bufs[fe.depth][:0] // collect's buffer of this depth
		cur, _ = nodesOf(f.memo[s], cur, len(f.memo[s]))
		fe.bufs[fe.depth] = cur
	} else {
		var ok bool
		if cur, ok = fe.collect(&kb.prefix, 0, fastMaxNodes+1); !ok || len(cur) > fastMaxNodes {
			return nil, false, false
		}
	}
	if len(cur) == 0 {
		return nil, true, true
	}
	d := fe.doc
	items := fe.memoItems[:0]
	if id := fe.ids[kb.slot-1]; id >= 0 && kb.desc {
		if len(cur) > 1 {
			return nil, false, false // subtrees that may nest: the interpreter sorts them
		}
		if cur[0] == 0 || d.Kind(cur[0]) == xmltree.KindElement {
			l := d.NamedIn(cur[0], id, false)
			if len(l) > fastMaxNodes {
				return nil, false, false
			}
			for _, n := range l {
				items = append(items, xdm.NodeItem(int32(n)))
			}
		}
	} else if id >= 0 {
		for _, c := range cur {
			first, second := fe.kids.children(d, c, id)
			for n := first; n != xmltree.None; n = nextNamed(d, n, first, second, id) {
				if l := len(items); l == fastMaxNodes || (l > 0 && xmltree.NodeID(items[l-1].Node) >= n) {
					fe.memoItems = items
					return nil, false, false
				}
				items = append(items, xdm.NodeItem(int32(n)))
			}
		}
	}
	fe.memoItems = items
	if f.memoItems+len(items) > maxMemoItems {
		return nil, false, false
	}
	mark := f.posMark()
	untyped := true
	fe.depth++
	defer func() { fe.depth-- }()
	for i, it := range items {
		n := xmltree.NodeID(it.Node)
		if kb.keyStep != nil {
			keys, ok := fe.collect(kb.keyStep, n, fastMaxNodes+1)
			if !ok || len(keys) > fastMaxNodes {
				f.posDrop(mark)
				return nil, false, false
			}
			for _, kn := range keys {
				f.posAdd(d.StringValue(kn), i)
			}
			continue
		}
		typed := true
		if !kb.key.items(fe, n, func(a xdm.Item) bool {
			switch a.T {
			case xdm.TUntyped:
			case xdm.TString:
				untyped = false
			default:
				typed = false
				return false
			}
			f.posAdd(a.S, i)
			return true
		}) || !typed {
			f.posDrop(mark)
			return nil, false, false
		}
	}
	ix := f.newKeyIndex()
	ix.untyped = untyped
	f.memoItems += len(items)
	ix.nodes = f.memoCopy(items)
	ix.pos = f.indexMap(len(items))
	f.posFlush(mark, ix.pos)
	return ix, false, true
}

// memoWalk is memoCollect for a path that nothing in the memo decides
// and that no other path shares a key index with (UBL-SR-29's
// //cac:PartyIdentification/cbc:ID[upper-case(@schemeID) = 'SEPA'],
// tested once a document): its steps walked whole, as the interpreter
// would evaluate them (a walk that cannot decide does not), and stored in
// the memo for the tests after this one.
func (fe *fastEnv) memoWalk(f *frame, m *fastMemo, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	slot := m.pts[len(m.pts)-1].Slot
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
