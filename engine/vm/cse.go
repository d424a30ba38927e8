package vm

import (
	"bytes"
	"hash/maphash"
	"slices"

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
	locals []xdm.Item // values of the slot's locals (Program.cseLocals), concatenated (each local ≤ cseMaxLocal items)
	lens   []int
	val    []xdm.Item
	err    error
	// hwVal and hwLocals: how much of val and locals was written since the
	// frame's last release (which clears that much).
	hwVal, hwLocals int
}

// cseMaxLocal bounds the items of one local variable kept in a key.
const cseMaxLocal = 4

// prepareCSE numbers the repeated costly subexpressions of root and
// returns the local variable slots each shared slot reads (the key of its
// value, indexed by Expr.CSE-1). Structure is compared by hash-consing
// (each node's key is its own fields plus its children's ids), so the cost
// is linear in the size of the tree. hc may be a scratch table reused
// across programs (nil: a fresh one).
func prepareCSE(root *Expr, hc *hashCons) [][]int32 {
	if countCandidates(root, 0) < 2 {
		return nil
	}
	if hc == nil {
		hc = &hashCons{}
	}
	hc.reset()
	groups := map[int32][]*Expr{}
	size := map[int32]int{}
	var order []int32
	var stack []int32 // children ids of the nodes being walked
	var walk func(e *Expr) (id int32, n int)
	walk = func(e *Expr) (int32, int) {
		mark := len(stack)
		n := 1
		for _, a := range e.Args {
			id, k := walk(a)
			stack, n = append(stack, id), n+k
		}
		stack = append(stack, -1)
		for _, p := range e.Preds {
			id, k := walk(p)
			stack, n = append(stack, id), n+k
		}
		stack = append(stack, -2)
		for _, bd := range e.Bindings() {
			id, k := walk(bd.In)
			stack, n = append(stack, int32(bd.Slot), id), n+k
		}
		kids := stack[mark:]
		stack = stack[:mark]
		id := hc.id(e, kids)
		if cseCandidate(e) {
			if _, ok := groups[id]; !ok {
				order = append(order, id)
				size[id] = n
			}
			groups[id] = append(groups[id], e)
		}
		return id, n
	}
	walk(root)
	// Larger subexpressions first; an occurrence inside a kept one is
	// covered (the outer value is reused, the inner one is not reached).
	slices.SortStableFunc(order, func(a, b int32) int { return size[b] - size[a] })
	covered := map[*Expr]bool{}
	var slots [][]int32
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
		slots = append(slots, localSlots(nil, g[0]))
		for _, e := range g {
			e.CSE = int32(len(slots))
			cover(covered, e)
		}
	}
	return slots
}

// hashCons gives structurally equal subtrees the same id. Keys live in one
// byte arena and are found by their hash; equal hashes compare the bytes,
// so a collision never merges different subtrees.
type hashCons struct {
	byHash map[uint64]int32 // hash -> first id with it
	next   []int32          // id -> next id with the same hash (-1: none)
	off    []int32          // id -> start of its key in keys (end: off[id+1] or len)
	keys   []byte
	seed   maphash.Seed
}

func (h *hashCons) reset() {
	if h.byHash == nil {
		h.byHash = map[uint64]int32{}
		h.seed = maphash.MakeSeed()
	}
	clear(h.byHash)
	h.next, h.off, h.keys = h.next[:0], h.off[:0], h.keys[:0]
}

func (h *hashCons) key(id int32) []byte {
	end := len(h.keys)
	if int(id)+1 < len(h.off) {
		end = int(h.off[id+1])
	}
	return h.keys[h.off[id]:end]
}

// id returns the id of e given its children's ids (Args, -1, Preds, -2,
// then slot and id per binding). A node's own fields are those of the memo
// fingerprint (trusted to tell different expressions apart) plus the
// variable slot.
func (h *hashCons) id(e *Expr, kids []int32) int32 {
	head := *e
	head.Args, head.Preds = nil, nil // fingerprint reads no binding
	start := len(h.keys)
	b := fingerprint(h.keys, &head)
	switch e.Op {
	case OpVar, OpLocal:
		b = append(b, 'v')
		b = appendInt(b, int64(e.Slot))
	}
	for _, k := range kids {
		b = append(b, ',')
		b = appendInt(b, int64(k))
	}
	k := b[start:]
	hash := maphash.Bytes(h.seed, k)
	first, ok := h.byHash[hash]
	if ok {
		for id := first; id >= 0; id = h.next[id] {
			if bytes.Equal(h.key(id), k) {
				h.keys = b[:start] // drop the duplicate key
				return id
			}
		}
	}
	h.keys = b
	id := int32(len(h.off))
	h.off = append(h.off, int32(start))
	if ok {
		h.next = append(h.next, h.next[first])
		h.next[first] = id
	} else {
		h.next = append(h.next, -1)
		h.byHash[hash] = id
	}
	return id
}

// countCandidates counts candidate nodes up to 2.
func countCandidates(e *Expr, n int) int {
	switch e.Op {
	case OpCall, OpPath, OpFilter, OpCount:
		n++
	}
	eachChild(e, func(c *Expr) {
		if n < 2 {
			n = countCandidates(c, n)
		}
	})
	return n
}

func cover(m map[*Expr]bool, e *Expr) {
	eachChild(e, func(c *Expr) {
		m[c] = true
		cover(m, c)
	})
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
	pure := true
	eachChild(e, func(c *Expr) { pure = pure && pureExpr(c) })
	return pure
}

func localSlots(acc []int32, e *Expr) []int32 {
	if e.Op == OpLocal && !slices.Contains(acc, int32(e.Slot)) {
		acc = append(acc, int32(e.Slot))
	}
	eachChild(e, func(c *Expr) { acc = localSlots(acc, c) })
	return acc
}

// eachChild calls fn for every direct sub-expression of e: Args, Preds,
// then the binding sequences.
func eachChild(e *Expr, fn func(*Expr)) {
	for _, a := range e.Args {
		fn(a)
	}
	for _, p := range e.Preds {
		fn(p)
	}
	for _, b := range e.Bindings() {
		fn(b.In)
	}
}

// evalShared evaluates a shared subexpression through its slot.
func (f *frame) evalShared(e *Expr, fc focus) (xdm.Sequence, error) {
	i := int(e.CSE) - 1
	if i >= len(f.cse) {
		f.cseIn = e
		return f.eval(e, fc)
	}
	ent := &f.cse[i]
	locals := f.prog.cseLocals[i]
	if ent.set && ent.fc == fc && ent.docIdx == f.docIdx && f.sameLocals(ent, locals) {
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
	f.cseUsed = true
	ok := f.keepLocals(ent, locals)
	fcKey, doc := fc, f.docIdx
	f.cseIn = e
	v, err := f.eval(e, fc)
	if !ok {
		ent.set = false
		return v, err
	}
	ent.set, ent.fc, ent.docIdx, ent.err = true, fcKey, doc, err
	ent.val = append(ent.val[:0], v...)
	ent.hwVal = max(ent.hwVal, len(ent.val))
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
		ent.hwLocals = max(ent.hwLocals, len(ent.locals))
	}
	return true
}
