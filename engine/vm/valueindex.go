package vm

import (
	"slices"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Value indexes over registered documents.
//
// The Factur-X rule sets look codes up in a code-list database registered
// as a document (vm.Functions.RegisterDocument):
//
//	document('FACTUR-X_EN16931_codedb.xml')/codedb/cl[@id=8]/enumeration[@value=$codeValue8]
//
// The last step filters ~2,000 enumeration elements by comparing each one's
// @value with the variable: a general comparison per element, for every unit
// code of the invoice. Registered documents never change, so a step from a
// node of such a document whose first predicate is "key = value" (key a
// predicate-free attribute or child step, value a variable or a constant)
// can keep, per step and context node, the axis result and an index from
// each key string to the positions that carry it. The predicate is then a
// map lookup per item of the value — exactly the general comparison when
// every value item is a string or untypedAtomic (both compare as strings
// with the key's untypedAtomic). When every value item is numeric (the code
// list's own step, cl[@id=8]) the key is cast to xs:double and compared as
// a double, as the general comparison does; that index is built on first
// use, and only when every key casts (otherwise the scan raises the cast
// error, as the reference would). For any other value type the step is
// evaluated as usual.

// maxValueIndexes bounds the indexes a frame keeps; maxIndexedNodes the
// nodes of one indexed axis result.
const (
	maxValueIndexes = 64
	maxIndexedNodes = 1 << 16
)

type valueIndexKey struct {
	e    *Expr
	doc  *xmltree.Document
	node xmltree.NodeID
}

// valueIndex is the axis result of a step from one node and, per key
// string, the positions in it (ascending) whose key has that string.
type valueIndex struct {
	nodes xdm.Sequence
	pos   map[string][]int32
	// num (built on first numeric lookup, numBuilt): the positions by the
	// key cast to xs:double; nil when some key does not cast.
	num      map[float64][]int32
	numBuilt bool
}

// numeric returns the index by xs:double value (nil: some key does not
// cast to xs:double, so the comparison must run as usual).
func (ix *valueIndex) numeric() map[float64][]int32 {
	if ix.numBuilt {
		return ix.num
	}
	ix.numBuilt = true
	num := make(map[float64][]int32, len(ix.pos))
	for s, ps := range ix.pos {
		d, err := xdm.Cast(xdm.Item{T: xdm.TUntyped, S: s}, xdm.TDouble)
		if err != nil {
			return nil
		}
		k := d.AsFloat()
		num[k] = append(num[k], ps...)
	}
	ix.num = num
	return num
}

// indexablePred reports whether p is "key = value" with key a
// predicate-free named attribute or child step and value a variable, a
// local binding or a constant (which do not depend on the focus); it
// returns the two sides.
func indexablePred(p *Expr) (key, val *Expr, ok bool) {
	if p.Op != OpGenCmp || p.Cmp != xdm.OpEq || p.Set != nil || len(p.Args) != 2 {
		return nil, nil, false
	}
	isKey := func(e *Expr) bool {
		return e.Op == OpStep && len(e.Preds) == 0 && e.Test.Kind == TestName &&
			(e.Axis == AxisAttribute || e.Axis == AxisChild)
	}
	isVal := func(e *Expr) bool { return e.Op == OpVar || e.Op == OpLocal || e.Op == OpConst }
	switch a, b := p.Args[0], p.Args[1]; {
	case isKey(a) && isVal(b):
		return a, b, true
	case isKey(b) && isVal(a):
		return b, a, true
	}
	return nil, nil, false
}

// indexedStep evaluates step e from node n of a registered document through
// a value index; ok is false when it does not apply (the caller then
// evaluates the step as usual).
func (f *frame) indexedStep(e *Expr, n xmltree.NodeID, out []xdm.Item) (_ []xdm.Item, ok bool, err error) {
	if f.docIdx == 0 || e.Axis.Reverse() || len(e.Preds) == 0 {
		return out, false, nil
	}
	keyE, valE, ok := indexablePred(e.Preds[0])
	if !ok {
		return out, false, nil
	}
	k := valueIndexKey{e, f.doc, n}
	ix := f.valIdx[k]
	if ix == nil {
		if ix, err = f.buildValueIndex(e, keyE, n); err != nil || ix == nil {
			return out, false, err
		}
		if f.valIdx == nil {
			f.valIdx = make(map[valueIndexKey]*keyIndex)
		}
		if len(f.valIdx) >= maxValueIndexes {
			clear(f.valIdx)
		}
		f.valIdx[k] = ix
	}
	if len(ix.nodes) == 0 {
		return out, true, nil // the predicate is never evaluated
	}
	// The value does not depend on the focus: evaluated once, as the first
	// item's predicate would.
	v, err := f.eval(valE, focus{item: ix.nodes[0], pos: 1, size: len(ix.nodes)})
	if err != nil {
		return out, true, err
	}
	r, ok, err := f.selectByKey(ix, v, e.Preds[1:])
	if !ok || err != nil {
		return out, ok, err
	}
	return append(out, r...), true, nil
}

// buildValueIndex evaluates the axis of e from n and indexes its nodes by
// the string values of keyE (nil when the result is too large to index).
func (f *frame) buildValueIndex(e, keyE *Expr, n xmltree.NodeID) (*keyIndex, error) {
	tmp := f.buf()
	tmp, err := f.axis(e.Axis, &e.Test, n, tmp, false)
	if err != nil || len(tmp) > maxIndexedNodes {
		f.drop(tmp)
		return nil, err
	}
	ix := &keyIndex{valueIndex: valueIndex{nodes: slices.Clone(tmp), pos: make(map[string][]int32, len(tmp))}, untyped: true}
	f.drop(tmp)
	km := f.matcher(&keyE.Test, keyE.Axis)
	var keys []xdm.Item
	for i, it := range ix.nodes {
		if err := f.tick(); err != nil {
			return nil, err
		}
		keys = keys[:0]
		if !km.never {
			if keys, err = f.axisWith(&km, keyE.Axis, xmltree.NodeID(it.Node), keys, false); err != nil {
				return nil, err
			}
		}
		for _, kn := range keys {
			s := f.doc.StringValue(xmltree.NodeID(kn.Node))
			if p := ix.pos[s]; len(p) == 0 || p[len(p)-1] != int32(i) {
				ix.pos[s] = append(p, int32(i))
			}
		}
	}
	return ix, nil
}
