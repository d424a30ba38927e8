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
	if st.Op != OpStep || st.Axis.Reverse() || st.PosConst != 0 || len(st.Preds) == 0 {
		return nil, nil, false
	}
	for _, p := range st.Preds {
		if p.PosConst != 0 || !booleanPred(p) || usesFocusPosition(p) || !closedExpr(p) {
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
	if c.keys == nil {
		c.keys = map[string]int32{}
	}
	if s, ok := c.keys[string(fp)]; ok {
		return s
	}
	c.nKeys++
	c.keys[string(fp)] = c.nKeys
	return c.nKeys
}

// stepByKey evaluates step st from the nodes cur (a memoised path prefix,
// in document order) through key slot slot; ok=false when the index does
// not apply and the step must be evaluated as usual.
func (f *frame) stepByKey(slot int32, st *Expr, cur xdm.Sequence) (_ xdm.Sequence, ok bool, err error) {
	if len(st.Preds) > 1 && len(cur) > 1 && st.Axis != AxisChild && st.Axis != AxisAttribute {
		return nil, false, nil
	}
	key, lit, _ := keyedStep(st)
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
	var hits []int32
	if key.Op == OpChildEq {
		hits = ix.pos[key.Str]
	} else {
		for _, it := range lit.Seq {
			switch {
			case it.T == xdm.TString || it.T == xdm.TUntyped:
				hits = append(hits, ix.pos[it.S]...)
			case it.T.IsNumeric() && ix.untyped:
				num := ix.numeric()
				if num == nil {
					return nil, false, nil // a key that does not cast: the step raises it
				}
				hits = append(hits, num[it.AsFloat()]...)
			default:
				return nil, false, nil // other comparison rules
			}
		}
		if len(lit.Seq) > 1 {
			slices.Sort(hits)
			hits = slices.Compact(hits)
		}
	}
	b := f.buf()
	for _, i := range hits {
		b = append(b, ix.nodes[i])
	}
	s := f.done(b)
	if s, err = f.filter(s, st.Preds[1:]); err != nil {
		return nil, true, err
	}
	return s, true, nil
}

// buildKeyIndex computes st's nodes from cur without predicates and the key
// of each. The index is unusable when a key raises an error, has an item
// that is not a string or untypedAtomic, or the nodes exceed the memo
// budget.
func (f *frame) buildKeyIndex(st, key *Expr, cur xdm.Sequence) (*keyIndex, error) {
	ix := &keyIndex{untyped: true}
	tmp := f.buf()
	for _, it := range cur {
		if it.T != xdm.TNode {
			f.drop(tmp)
			ix.unusable = true // the step raises the error
			return ix, nil
		}
		pd, pi := f.enter(it)
		var err error
		tmp, err = f.axis(st.Axis, &st.Test, xmltree.NodeID(it.Node), tmp, false)
		f.doc, f.docIdx = pd, pi
		if err != nil {
			f.drop(tmp)
			return nil, err
		}
	}
	if len(cur) > 1 {
		tmp = sortNodes(tmp)
	}
	if len(tmp) > maxIndexedNodes || f.memoItems+len(tmp) > maxMemoItems {
		f.drop(tmp)
		ix.unusable = true
		return ix, nil
	}
	f.memoItems += len(tmp)
	ix.nodes = slices.Clone(tmp)
	f.drop(tmp)
	ix.pos = make(map[string][]int32, len(ix.nodes))
	add := func(s string, i int) {
		if p := ix.pos[s]; len(p) == 0 || p[len(p)-1] != int32(i) {
			ix.pos[s] = append(p, int32(i))
		}
	}
	var keys []xdm.Item
	for i, it := range ix.nodes {
		if err := f.tick(); err != nil {
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
					return nil, err
				}
			}
			for _, kn := range keys {
				add(f.doc.StringValue(xmltree.NodeID(kn.Node)), i)
			}
			f.doc, f.docIdx = pd, pi
			continue
		}
		v, err := f.eval(key, focus{item: it, pos: i + 1, size: len(ix.nodes)})
		if err == nil {
			for _, x := range v {
				a := f.atom(x)
				switch a.T {
				case xdm.TUntyped:
					add(a.S, i)
				case xdm.TString:
					ix.untyped = false
					add(a.S, i)
				default:
					ix.unusable = true
				}
			}
		}
		f.doc, f.docIdx = pd, pi
		if err != nil || ix.unusable {
			ix.unusable, ix.nodes, ix.pos = true, nil, nil
			return ix, nil
		}
	}
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
