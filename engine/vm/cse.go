package vm

import (
	"slices"
	"strconv"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Common-subexpression elimination within one program.
//
// The official rules repeat costly subexpressions inside one test: BR-S-08
// (and its siblings for every VAT category) computes each
// sum(../../../cac:InvoiceLine[…][… = $rate]/…) twice per rate, once for
// the lower and once for the upper bound. Such subexpressions depend on the
// quantified variable, so the per-document memos (memo.go, predmemo.go),
// which only hold closed expressions, cannot share them.
//
// At program build, costly subexpressions (function calls, paths, filters)
// that occur at least twice with the same structure (fingerprint, variable
// slots included) get a shared slot. During one evaluation the frame keeps,
// per slot, the last value with its key: the focus (item, position, size,
// current document) and the values of the local variables the
// subexpression reads. A later occurrence with an equal key reuses the
// value (a copy, so no caller can alter the kept one). Within one
// evaluation nothing else can change the value of a subexpression without
// extension calls (excluded, their purity is unknown) or current-date
// (excluded): the document, the external variables and the function
// registry are fixed. Keys compare items with ==, so equal values held
// differently (a big.Int decimal, NaN) only miss, never match wrongly.

// cseEntry is one shared slot's last value in a frame.
type cseEntry struct {
	set    bool
	fc     focus
	docIdx uint16
	locals []xdm.Item // values of Expr.CSELocals, concatenated (each local ≤ cseMaxLocal items)
	lens   []int
	val    []xdm.Item
	err    error
}

// cseMaxLocal bounds the items of one local variable kept in a key.
const cseMaxLocal = 4

// prepareCSE numbers the repeated costly subexpressions of root and
// returns how many slots it assigned.
func prepareCSE(root *Expr) int {
	groups := map[string][]*Expr{}
	var order []string
	var fp []byte
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if e == nil {
			return
		}
		if cseCandidate(e) {
			fp = cseFingerprint(fp[:0], e)
			k := string(fp)
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], e)
		}
		for _, a := range e.Args {
			walk(a)
		}
		for _, p := range e.Preds {
			walk(p)
		}
		for _, b := range e.Binds {
			walk(b.In)
		}
	}
	walk(root)
	// Larger subexpressions first; an occurrence inside a kept one is
	// covered (the outer value is reused, the inner one is not reached).
	slices.SortStableFunc(order, func(a, b string) int { return len(b) - len(a) })
	covered := map[*Expr]bool{}
	n := 0
	for _, k := range order {
		var g []*Expr
		for _, e := range groups[k] {
			if !covered[e] {
				g = append(g, e)
			}
		}
		if len(g) < 2 {
			continue
		}
		n++
		locals := localSlots(nil, g[0])
		for _, e := range g {
			e.CSE = int32(n)
			e.CSELocals = locals
			cover(covered, e)
		}
	}
	return n
}

func cover(m map[*Expr]bool, e *Expr) {
	for _, a := range e.Args {
		m[a] = true
		cover(m, a)
	}
	for _, p := range e.Preds {
		m[p] = true
		cover(m, p)
	}
	for _, b := range e.Binds {
		m[b.In] = true
		cover(m, b.In)
	}
}

// cseCandidate: a costly subexpression whose value depends only on the
// focus, the document, the external variables and its local variables.
func cseCandidate(e *Expr) bool {
	switch e.Op {
	case OpCall:
		if e.Builtin == nil {
			return false
		}
	case OpPath, OpFilter, OpCount:
	default:
		return false
	}
	return pureExpr(e)
}

func pureExpr(e *Expr) bool {
	switch e.Op {
	case OpExtCall:
		return false
	case OpCall:
		if e.Builtin == nil || e.Builtin.Name == "current-date" {
			return false
		}
	}
	for _, a := range e.Args {
		if !pureExpr(a) {
			return false
		}
	}
	for _, p := range e.Preds {
		if !pureExpr(p) {
			return false
		}
	}
	for _, b := range e.Binds {
		if !pureExpr(b.In) {
			return false
		}
	}
	return true
}

// cseFingerprint is fingerprint with variable and local slots and
// bindings, which the memo fingerprint (closed expressions only) omits.
func cseFingerprint(b []byte, e *Expr) []byte {
	b = fingerprint(b, e)
	return appendSlots(b, e)
}

func appendSlots(b []byte, e *Expr) []byte {
	switch e.Op {
	case OpVar:
		b = append(b, 'v')
		b = strconv.AppendInt(b, int64(e.Slot), 10)
	case OpLocal:
		b = append(b, 'l')
		b = strconv.AppendInt(b, int64(e.Slot), 10)
	}
	b = append(b, '{')
	for _, bd := range e.Binds {
		b = append(b, 'b')
		b = strconv.AppendInt(b, int64(bd.Slot), 10)
		b = cseFingerprint(b, bd.In)
	}
	for _, a := range e.Args {
		b = appendSlots(b, a)
	}
	for _, p := range e.Preds {
		b = appendSlots(b, p)
	}
	return append(b, '}')
}

func localSlots(acc []int32, e *Expr) []int32 {
	if e.Op == OpLocal {
		found := false
		for _, s := range acc {
			found = found || s == int32(e.Slot)
		}
		if !found {
			acc = append(acc, int32(e.Slot))
		}
	}
	for _, a := range e.Args {
		acc = localSlots(acc, a)
	}
	for _, p := range e.Preds {
		acc = localSlots(acc, p)
	}
	for _, bd := range e.Binds {
		acc = localSlots(acc, bd.In)
	}
	return acc
}

// evalShared evaluates a shared subexpression through its slot.
func (f *frame) evalShared(e *Expr, fc focus) (xdm.Sequence, error) {
	i := int(e.CSE) - 1
	if i >= len(f.cse) {
		f.cseIn = e
		return f.eval(e, fc)
	}
	ent := &f.cse[i]
	if ent.set && ent.fc == fc && ent.docIdx == f.docIdx && f.sameLocals(ent, e.CSELocals) {
		if ent.err != nil {
			return nil, ent.err
		}
		out := f.alloc(len(ent.val))
		copy(out, ent.val)
		return out, nil
	}
	// Record the key before evaluating: the locals cannot change during
	// the evaluation of e (bindings inside e are restored by quantified,
	// and a key that no longer fits is simply not kept).
	ok := f.keepLocals(ent, e.CSELocals)
	fcKey, doc := fc, f.docIdx
	f.cseIn = e
	v, err := f.eval(e, fc)
	if !ok {
		ent.set = false
		return v, err
	}
	ent.set, ent.fc, ent.docIdx, ent.err = true, fcKey, doc, err
	ent.val = append(ent.val[:0], v...)
	return v, err
}

func (f *frame) sameLocals(ent *cseEntry, slots []int32) bool {
	k := 0
	for j, s := range slots {
		var cur xdm.Sequence
		if int(s) < len(f.locals) {
			cur = f.locals[s]
		}
		if len(cur) != ent.lens[j] {
			return false
		}
		for _, it := range cur {
			if it != ent.locals[k] {
				return false
			}
			k++
		}
	}
	return true
}

func (f *frame) keepLocals(ent *cseEntry, slots []int32) bool {
	ent.set = false
	ent.locals, ent.lens = ent.locals[:0], ent.lens[:0]
	for _, s := range slots {
		var cur xdm.Sequence
		if int(s) < len(f.locals) {
			cur = f.locals[s]
		}
		if len(cur) > cseMaxLocal {
			return false
		}
		ent.lens = append(ent.lens, len(cur))
		ent.locals = append(ent.locals, cur...)
	}
	return true
}
