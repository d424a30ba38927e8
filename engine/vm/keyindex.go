package vm

import (
	"slices"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Keyed memo points: one index per document for a family of absolute paths
// that differ only in a literal.
//
// The EN 16931 rule sets ask the same question once per VAT category code:
//
//	//cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'AE'][…]
//	//cac:TaxCategory[…VAT…]/cbc:ID[normalize-space(.) = 'O']
//	//ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax[ram:CategoryCode='AE']
//
// Each is a memo point of its own (memo.go): for each of the thirteen codes
// the last step is evaluated in full, computing the same key (the
// normalized ID) on the same nodes. When a memo point's step has a first
// predicate "K = literal" (K a closed expression of the node: a child or
// attribute value, a function of it), the catalog gives it a key slot
// shared by every path with the same prefix, axis, node test and K,
// whatever the literal. The first evaluation of any of them computes the
// step's nodes without predicates and K on each, once, into an index from
// key string to nodes; every literal is then a lookup, and the remaining
// predicates run on the few nodes it selects.
//
// The answer is the same as the step's:
//   - every predicate is non-positional (a boolean operator, no position()
//     or last(), no numeric predicate), so filtering the whole step result
//     equals filtering each context node's part of it;
//   - an index is built only when K evaluates without error on every node
//     and every key item is an xs:string or xs:untypedAtomic; otherwise the
//     slot is marked unusable for the document and the step is evaluated
//     as before, so errors surface exactly where they did;
//   - the literal compares as the general comparison would: strings by
//     codepoints; numbers only against untypedAtomic keys, cast to
//     xs:double (ValueIndex.numeric); any other literal evaluates the step;
//   - with further predicates, which may raise errors of their own, the
//     nodes they run on must come in the order the step would visit them:
//     one context node, or a child or attribute step (the children of
//     nodes in document order are in document order).

// keyIndex is one key slot's index for the current document: the step's
// nodes (document order) and, per key string, their positions.
type keyIndex struct {
	valueIndex
	unusable bool
	untyped  bool // every key item was xs:untypedAtomic (numeric literals may compare)
	decimal  bool // the keys are the canonical forms of xs:decimal/xs:integer values (stepindex.go)
}

// keyedStep reports the key expression and the literal of st's first
// predicate when st can use a key slot (see above), or ok=false.
func keyedStep(st *Expr) (key, lit *Expr, ok bool) {
	if st.Op != OpStep || st.Axis.Reverse() || st.ConstPos() != 0 || len(st.Preds) == 0 {
		return nil, nil, false
	}
	for _, p := range st.Preds {
		if p.ConstPos() != 0 || !booleanPred(p) || usesFocusPosition(p) || !closedExpr(p) {
			return nil, nil, false
		}
	}
	p := st.Preds[0]
	switch p.Op {
	case OpChildEq:
		return p, nil, true
	case OpGenCmp:
		if p.Cmp != xdm.OpEq || p.Set != nil || len(p.Args) != 2 {
			return nil, nil, false
		}
		a, b := p.Args[0], p.Args[1]
		if a.Op == OpConst {
			a, b = b, a
		}
		if b.Op != OpConst || a.Op == OpConst {
			return nil, nil, false
		}
		return a, b, true
	}
	return nil, nil, false
}

// booleanPred reports whether p's value is always a boolean (so it is
// never a positional predicate).
func booleanPred(p *Expr) bool {
	switch p.Op {
	case OpAnd, OpOr, OpGenCmp, OpValCmp, OpNodeCmp, OpNot, OpExists, OpEmpty, OpCodeSet, OpCodeToken,
		OpChildEq, OpLenAfter, OpBlankCmp, OpCastable, OpInstanceOf, OpSome, OpEvery:
		return true
	}
	return false
}

// keySlotFor appends to c's key slots the slot of step st after the path
// prefix whose fingerprint is prefix (0 when st has no key).
func (c *Catalog) keySlotFor(prefix []byte, st *Expr) int32 {
	key, _, ok := keyedStep(st)
	if !ok {
		return 0
	}
	if key.Op != OpChildEq {
		c.prepareFastKey(key)
	}
	fp := append(prefix, "/k"...)
	fp = appendInt(fp, int64(st.Axis))
	fp = writeTest(fp, &st.Test)
	fp = append(fp, '|')
	if key.Op == OpChildEq {
		fp = append(fp, 'c')
		fp = appendInt(fp, int64(key.Axis))
		fp = writeTest(fp, &key.Test)
	} else {
		fp = fingerprint(fp, key)
	}
	return c.keySlot(fp)
}

// stepByKey evaluates step st from the nodes cur (a memoised path prefix,
// in document order) through the key slot of memo point mp; ok=false when
// the index does not apply and the step must be evaluated as usual.
func (f *frame) stepByKey(mp *MemoPoint, st *Expr, cur xdm.Sequence) (_ xdm.Sequence, ok bool, err error) {
	if len(st.Preds) > 1 && len(cur) > 1 && st.Axis != AxisChild && st.Axis != AxisAttribute {
		return nil, false, nil
	}
	slot, key, lit := mp.Key, mp.key, mp.lit
	if key == nil {
		key, lit, _ = keyedStep(st)
	}
	ix := f.keyIdx[slot-1]
	if ix == nil {
		if ix, err = f.buildKeyIndex(st, key, cur); err != nil {
			return nil, false, err
		}
		f.keyIdx[slot-1] = ix
	}
	if ix.unusable {
		return nil, false, nil
	}
	var v xdm.Sequence
	if key.Op == OpChildEq {
		v = f.one(xdm.String(key.Str))
	} else {
		v = lit.Seq
	}
	return f.selectByKey(ix, v, st.Preds[1:])
}

// selectByKey returns the nodes of ix whose key equals an item of v, as
// the general comparison = finds them (in index order), filtered by the
// predicates rest; ok=false when an item of v does not compare that way
// with these keys, and the step must run as usual: strings and
// untypedAtomic items by string; numbers against untypedAtomic keys cast to
// xs:double (ValueIndex.numeric; nil when a key does not cast, and the
// step raises that); decimals and integers against decimal keys by
// canonical form; anything else does not use the index.
func (f *frame) selectByKey(ix *keyIndex, v xdm.Sequence, rest []*Expr) (_ xdm.Sequence, ok bool, err error) {
	var hits []int32
	if len(v) == 1 {
		// One value (a code looked up in a list): its positions, used
		// as they are (not modified) when ascending without repeats (a
		// node with two equal keys is listed twice).
		var ok bool
		if hits, ok = ix.lookup(f, v[0]); !ok {
			return nil, false, nil
		}
		for k := 1; k < len(hits); k++ {
			if hits[k] <= hits[k-1] {
				hits = slices.Compact(slices.Sorted(slices.Values(hits)))
				break
			}
		}
	} else {
		for _, it := range v {
			h, ok := ix.lookup(f, it)
			if !ok {
				return nil, false, nil
			}
			hits = append(hits, h...)
		}
		// A general comparison holds when one pair does: the union of
		// the items' hits (several strings can cast to one double).
		slices.Sort(hits)
		hits = slices.Compact(hits)
	}
	b := f.buf()
	for _, i := range hits {
		b = append(b, ix.nodes[i])
	}
	s, err := f.filter(f.done(b), rest)
	return s, true, err
}

// lookup returns the positions of the nodes whose key equals item it;
// ok=false when the index cannot tell (see selectByKey).
func (ix *keyIndex) lookup(f *frame, it xdm.Item) (_ []int32, ok bool) {
	a := f.atom(it)
	switch {
	case ix.decimal && (a.T == xdm.TDecimal || a.T == xdm.TInteger):
		return ix.pos[a.Decimal().String()], true
	case ix.decimal:
		return nil, false // compared as doubles, or an error
	case a.T == xdm.TString || a.T == xdm.TUntyped:
		return ix.pos[a.S], true
	case a.T.IsNumeric() && ix.untyped:
		num := ix.numeric()
		if num == nil {
			return nil, false
		}
		// NaN is no map key that matches: it equals nothing, as in the
		// comparison; 0 and -0 are one key, and equal there too.
		return num[a.AsFloat()], true
	}
	return nil, false
}

// stepNodes returns a copy of the nodes step st selects, without its
// predicates, from the nodes ctx (in document order); ok=false when an item
// of ctx is not a node (the step raises that) or the nodes exceed the memo
// budget, which they are counted against.
func (f *frame) stepNodes(st *Expr, ctx xdm.Sequence) (_ []xdm.Item, ok bool, err error) {
	tmp := f.buf()
	for _, c := range ctx {
		if c.T != xdm.TNode {
			f.drop(tmp)
			return nil, false, nil
		}
		pd, pi := f.enter(c)
		tmp, err = f.axis(st.Axis, &st.Test, xmltree.NodeID(c.Node), tmp, false) // names resolve in c's document
		f.doc, f.docIdx = pd, pi
		if err != nil {
			f.drop(tmp)
			return nil, false, err
		}
	}
	if len(ctx) > 1 {
		tmp = sortNodes(tmp)
	}
	if len(tmp) > maxIndexedNodes || f.memoItems+len(tmp) > maxMemoItems {
		f.drop(tmp)
		return nil, false, nil
	}
	f.memoItems += len(tmp)
	nodes := f.memoCopy(tmp)
	f.drop(tmp)
	return nodes, true, nil
}

// buildKeyIndex computes st's nodes from cur without predicates and the key
// of each. The index is unusable when a key raises an error, has an item
// that is not a string or untypedAtomic, or the nodes exceed the memo
// budget.
func (f *frame) buildKeyIndex(st, key *Expr, cur xdm.Sequence) (*keyIndex, error) {
	ix := f.newKeyIndex()
	nodes, ok, err := f.stepNodes(st, cur)
	if err != nil || !ok {
		ix.unusable = true
		return ix, err
	}
	ix.nodes = nodes
	mark := f.posMark()
	defer f.posDrop(mark) // on the error returns; a no-op after posFlush
	add := f.posAdd
	var keys []xdm.Item
	if key.Op == OpChildEq {
		keys = f.buf() // the key nodes of one node at a time
	}
	for i, it := range ix.nodes {
		if err := f.tick(); err != nil {
			if key.Op == OpChildEq {
				f.drop(keys)
			}
			return nil, err
		}
		pd, pi := f.enter(it)
		if key.Op == OpChildEq {
			keys = keys[:0]
			var err error
			km := f.matcher(&key.Test, key.Axis) // names resolve in the node's document
			if !km.never {
				if keys, err = f.axisWith(&km, key.Axis, xmltree.NodeID(it.Node), keys, false); err != nil {
					f.doc, f.docIdx = pd, pi
					f.drop(keys)
					return nil, err
				}
			}
			for _, kn := range keys {
				add(f.doc.StringValue(xmltree.NodeID(kn.Node)), i)
			}
			f.doc, f.docIdx = pd, pi
			continue
		}
		addItem := func(a xdm.Item) bool {
			switch a.T {
			case xdm.TUntyped:
				add(a.S, i)
			case xdm.TString:
				ix.untyped = false
				add(a.S, i)
			default:
				ix.unusable = true
			}
			return true
		}
		var err error
		if !f.fastKey(key, xmltree.NodeID(it.Node), addItem) {
			var v xdm.Sequence
			v, err = f.eval(key, focus{item: it, pos: i + 1, size: len(ix.nodes)})
			if err == nil {
				for _, x := range v {
					addItem(f.atom(x))
				}
			}
		}
		f.doc, f.docIdx = pd, pi
		if err != nil || ix.unusable {
			ix.unusable, ix.nodes = true, nil
			return ix, nil
		}
	}
	if key.Op == OpChildEq {
		f.drop(keys)
	}
	ix.pos = f.indexMap(len(ix.nodes))
	f.posFlush(mark, ix.pos)
	return ix, nil
}

// KeyIndexes returns how many key and step indexes the Env holds for its
// current document (a test hook: registered documents must not get one,
// see evalPath).
func (env *Env) KeyIndexes() int {
	f := env.fr
	if f == nil || f.memoDoc != env.Doc {
		return 0
	}
	n := 0
	for _, ix := range f.keyIdx {
		if ix != nil {
			n++
		}
	}
	if f.stepIdxDoc == env.Doc {
		n += len(f.stepIdx)
	}
	return n
}
