package vm

import (
	"slices"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Per-document memoisation of absolute paths.
//
// A path that starts at the root ("/x", "//x[p]/y"), or at a registered
// document (document('codes.xml')/..., see memoRoot), and whose steps
// reference no variable has one value per document, whatever the context
// node and whichever assertion evaluates it. The EN 16931 rules repeat such
// paths (//cac:TaxCategory[cac:TaxScheme/normalize-space(upper-case(cbc:ID))
// ='VAT'] appears in dozens of asserts), so Catalog.prepare gives every
// costly prefix of such a path a memo slot keyed by its structure (equal
// sub-expressions of different programs share the slot), and the frame
// keeps, per document, the values computed so far. A value is stored only
// after it was computed without error, so errors surface exactly where they
// did before; memoised sequences are never modified by the evaluator (the
// same contract as variable values).

// MemoPoint marks a prefix of an absolute path whose value is memoised per
// document: Args[0..Arg] of the path, stored in memo slot Slot (1-based).
type MemoPoint struct {
	Arg  int
	Slot int32
	// Key is the key slot (1-based) of Args[Arg] when that step's first
	// predicate compares a key of the node with a literal (keyindex.go).
	Key int32
	// key and lit are that step's key expression and literal (keyedStep),
	// found once when the point is made.
	key, lit *Expr
}

// maxMemoItems bounds the items one Env memoises per document; beyond it
// values are recomputed (a hostile document cannot make memory grow with
// the number of rules times the size of the document).
const maxMemoItems = 1 << 16

// minMemoSteps is the number of plain steps from which a variable-free
// prefix is worth a memo slot without any costly step: CII-DT-033 tests
// /rsm:CrossIndustryInvoice/…/ram:BilledQuantity/@unitCode (five steps,
// every line visited) on each quantity of the invoice.
const minMemoSteps = 2

// memoPoints returns the memo points of an OpPath: the prefixes
// [Root, a1..ai] ending at a costly argument (a step with predicates, or an
// expression step) within the longest variable-free prefix, and that prefix
// itself when it has a costly argument or at least minMemoSteps steps.
func (c *Catalog) memoPoints(e *Expr) (_ []MemoPoint, varKey MemoPoint) {
	if len(e.Args) < 2 || !memoRoot(e.Args[0]) {
		return nil, MemoPoint{}
	}
	last := 0
	for i := 1; i < len(e.Args) && closedExpr(e.Args[i]); i++ {
		last = i
	}
	var out []MemoPoint
	costly := false
	fp := fingerprint(c.fp[:0], e.Args[0])
	defer func() { c.fp = fp[:0] }()
	for i := 1; i <= last; i++ {
		a := e.Args[i]
		key := c.keySlotFor(fp, a)
		fp = append(fp, '/')
		fp = fingerprint(fp, a)
		c1 := a.Op != OpStep || len(a.Preds) > 0
		costly = costly || c1 || i >= minMemoSteps
		if c1 || (i == last && costly) {
			if n := len(out); n > 0 && out[n-1].Arg == i {
				continue
			}
			mp := MemoPoint{Arg: i, Slot: c.memoSlot(fp), Key: key}
			if key > 0 {
				mp.key, mp.lit, _ = keyedStep(a)
				c.noteKeyUse(key, mp.Slot)
			}
			out = append(out, mp)
		}
	}
	if n := len(out); n > 0 && out[n-1].Arg == last && last+1 < len(e.Args) {
		// fp is the fingerprint of the memoised prefix, Args[0..last]
		varKey = c.varKeyPoint(fp, e.Args[last+1], last+1)
	}
	return out, varKey
}

// varKeyPoint returns the key point of step st, right after the memoised
// prefix whose fingerprint is prefix, when st has a predicate "Q = $v"
// (stepindex.go); Arg 0 when none.
func (c *Catalog) varKeyPoint(prefix []byte, st *Expr, arg int) MemoPoint {
	if st.KeyPred == 0 {
		return MemoPoint{}
	}
	fp := append(prefix, "/v"...)
	fp = appendInt(fp, int64(st.Axis))
	fp = writeTest(fp, &st.Test)
	return MemoPoint{Arg: arg, Key: c.keySlot(appendKeyPreds(fp, st))}
}

// appendKeyPreds appends the fingerprint of what a step index of step st
// (KeyPred > 0) depends on besides the step's nodes: the predicates
// before the key predicate and the key predicate's closed conjunct and key
// (not the variable, which only the lookup reads).
func appendKeyPreds(fp []byte, st *Expr) []byte {
	j := int(st.KeyPred) - 1
	pre, q, _ := varKeyPred(st.Preds[j])
	return appendKeyClass(fp, st.Preds[:j], pre, q)
}

// appendKeyClass appends the fingerprint of the predicates before a key,
// the key predicate's closed conjunct pre (nil when none) and its key q.
func appendKeyClass(fp []byte, before []*Expr, pre, q *Expr) []byte {
	for _, p := range before {
		fp = fingerprint(fp, p)
	}
	fp = append(fp, '|')
	if pre != nil {
		fp = fingerprint(fp, pre)
	}
	fp = append(fp, '|')
	return fingerprint(fp, q)
}

// keySlot returns the key slot of fingerprint fp, numbering a new one when
// needed.
func (c *Catalog) keySlot(fp []byte) int32 {
	if s, ok := c.keys[string(fp)]; ok {
		return s
	}
	if c.keys == nil {
		c.keys = map[string]int32{}
	}
	c.nKeys++
	c.keys[string(fp)] = c.nKeys
	return c.nKeys
}

// noteKeyUse records that memo slot is keyed by key slot key.
func (c *Catalog) noteKeyUse(key, slot int32) {
	for int(key) > len(c.keyFirst) {
		c.keyFirst = append(c.keyFirst, 0)
		c.keyShared = append(c.keyShared, false)
	}
	switch first := c.keyFirst[key-1]; {
	case first == 0:
		c.keyFirst[key-1] = slot
	case first != slot:
		c.keyShared[key-1] = true
	}
}

// keyIsShared reports whether key slot key (1-based) keys the memo points
// of several paths (noteKeyUse).
func (c *Catalog) keyIsShared(key int32) bool {
	return key > 0 && int(key) <= len(c.keyShared) && c.keyShared[key-1]
}

// memoRoot reports whether a path's first argument has one value per
// document: the root, or fn:document of a constant, a registered document,
// which never changes (the Factur-X code lists:
// document('FACTUR-X_EN16931_codedb.xml')/codedb/cl[@id=8]/enumeration[@value=$v]
// then evaluates only its last step).
func memoRoot(e *Expr) bool {
	switch e.Op {
	case OpRoot:
		return true
	case OpCall:
		return e.Builtin != nil && e.Builtin.Name == "document" && len(e.Args) == 1 && e.Args[0].Op == OpConst
	}
	return false
}

func (c *Catalog) memoSlot(key []byte) int32 {
	if s, ok := c.memo[string(key)]; ok {
		return s
	}
	c.nMemo++
	c.memo[string(key)] = c.nMemo
	return c.nMemo
}

// closedExpr reports whether e's value, for a given focus, depends on
// nothing but the focus and the document: no variables, no local bindings,
// no extension functions (their purity is not known), no current-date().
func closedExpr(e *Expr) bool { return closedBut(e, false) }

// closedBut is closedExpr, reading local variables allowed when locals is
// set (a frame-free test's shares that read a quantified variable,
// planNumShares).
func closedBut(e *Expr, locals bool) bool {
	if !ownClosed(e, locals) {
		return false
	}
	for _, a := range e.Args {
		if !closedBut(a, locals) {
			return false
		}
	}
	for _, p := range e.Preds {
		if !closedBut(p, locals) {
			return false
		}
	}
	return true
}

// ownClosed is closedBut of e without its operands.
func ownClosed(e *Expr, locals bool) bool {
	switch e.Op {
	case OpLocal:
		return locals
	case OpVar, OpFor, OpSome, OpEvery:
		return false
	case OpExtCall:
		if !e.Pure {
			return false
		}
	case OpCall:
		if e.Builtin == nil || e.Builtin.Name == "current-date" {
			return false
		}
	}
	return len(e.Bindings()) == 0
}

// fingerprint appends a canonical form of e to b: two expressions with the
// same fingerprint evaluate identically (for the closed expressions
// memoised). It appends to a reused buffer (Catalog.fp) so that Load does
// not allocate a string per node of every expression tree.
func fingerprint(b []byte, e *Expr) []byte {
	b = append(b, '(')
	b = appendInt(b, int64(e.Op))
	b = append(b, ' ')
	switch e.Op {
	case OpConst:
		for _, it := range e.Seq {
			b = appendInt(b, int64(it.T))
			b = append(b, ':')
			b = appendStr(b, it.StringValue())
			if it.T == xdm.TDecimal || it.T == xdm.TInteger {
				// the Java scale decides the digits of a division
				b = append(b, 's')
				b = appendInt(b, int64(it.Decimal().JavaScale()))
			}
			b = append(b, ',')
		}
	case OpStep, OpChildEq:
		b = appendInt(b, int64(e.Axis))
		b = writeTest(b, &e.Test)
	case OpGenCmp, OpValCmp, OpNodeCmp, OpLenAfter, OpBlankCmp:
		b = appendInt(b, int64(e.Cmp))
	case OpArith:
		b = appendInt(b, int64(e.Arith))
	case OpCast, OpCastable:
		b = appendInt(b, int64(e.Type))
		if e.Optional {
			b = append(b, '?')
		}
	case OpInstanceOf:
		st := e.InstanceType()
		b = append(b, '"')
		b = strconv.AppendBool(b, st.Empty)
		b = strconv.AppendBool(b, st.Item)
		b = strconv.AppendBool(b, st.Atomic)
		b = appendInt(b, int64(st.Type))
		b = append(b, '/')
		b = appendInt(b, int64(st.Occ))
		b = append(b, '"')
		b = writeTest(b, &st.Test)
	case OpCall:
		b = append(b, e.Builtin.Name...)
		if re := e.Regex(); re != nil {
			b = appendStr(b, re.String())
		}
	case OpLocal:
		// A local variable by its slot (the hash-consing of
		// planNumShares and prepareCSE; no closed expression has one).
		b = append(b, '$')
		b = appendInt(b, int64(e.Slot))
	}
	// Fields any op may carry.
	b = appendStr(b, e.Str)
	if e.ConstPos() != 0 {
		b = append(b, '#')
		b = appendInt(b, int64(e.ConstPos()))
	}
	if e.Set != nil {
		b = append(b, "set"...)
		b = appendInt(b, int64(len(e.Set)))
		// the set is derived from Str (code lists) or from Args[1] (a
		// constant list), both part of the fingerprint.
	}
	for _, a := range e.Args {
		b = fingerprint(b, a)
	}
	b = append(b, '[')
	for _, p := range e.Preds {
		b = fingerprint(b, p)
	}
	return append(b, "])"...)
}

func writeTest(b []byte, t *NodeTest) []byte {
	b = append(b, " t"...)
	b = appendInt(b, int64(t.Kind))
	if t.Named {
		b = append(b, 'N')
	}
	b = appendStr(b, t.Space)
	return appendStr(b, t.Local)
}

// memoReady prepares the frame's memo table for the current document and
// catalog and reports whether memoisation applies to focus fc (a node of
// the validated document).
func (f *frame) memoReady(fc focus) bool {
	if fc.undefined || fc.item.T != xdm.TNode || fc.item.Doc != 0 || f.docIdx != 0 {
		return false
	}
	f.memoTable(f.env.Doc, f.prog.cat)
	return true
}

// memoTable makes the frame's memo table and indexes those of doc and
// cat's programs: empty when they were another document's or catalog's.
func (f *frame) memoTable(doc *xmltree.Document, cat *Catalog) {
	if f.memoDoc != doc || f.memoCat != cat || len(f.memo) < int(cat.nMemo) || len(f.keyIdx) < int(cat.nKeys) {
		f.memoDoc, f.memoCat = doc, cat
		if cap(f.memo) < int(cat.nMemo) {
			f.memo = make([]xdm.Sequence, cat.nMemo)
			f.memoSet = make([]bool, cat.nMemo)
		}
		if cap(f.memoMiss) < int(cat.nMemo) {
			f.memoMiss = make([]bool, cat.nMemo)
		}
		f.memo = f.memo[:cat.nMemo]
		f.memoSet = f.memoSet[:cat.nMemo]
		f.memoMiss = f.memoMiss[:cat.nMemo]
		clear(f.memo)
		clear(f.memoSet)
		clear(f.memoMiss)
		if cap(f.keyIdx) < int(cat.nKeys) {
			f.keyIdx = make([]*keyIndex, cat.nKeys)
		}
		f.keyIdx = f.keyIdx[:cat.nKeys]
		clear(f.keyIdx)
		f.memoItems = 0
		clear(f.shared)
		f.shared, f.stepBuilds = f.shared[:0], 0
		// No value of the previous document is referenced any more (results
		// leave the vm as copies), so its chunk and its indexes' maps are
		// reused; the step indexes, which hold both, go with them.
		f.memoArena = f.memoArena[:0]
		clear(f.ixArena) // the maps and sequences of the previous document's indexes
		f.ixArena, f.posArena = f.ixArena[:0], f.posArena[:0]
		f.stepIdxDoc = nil
		clear(f.stepIdx)
		f.recycleIndexMaps()
	}
}

// maxSpareMaps and maxSpareMapLen bound the index maps a frame keeps for
// later documents (a map does not shrink when cleared).
const (
	maxSpareMaps   = 64
	maxSpareMapLen = 1 << 10
)

// indexMap returns an empty map for an index of the memo document, reused
// from an earlier document when there is one.
func (f *frame) indexMap(size int) map[string][]int32 {
	var m map[string][]int32
	if n := len(f.spareMaps); n > 0 {
		m, f.spareMaps = f.spareMaps[n-1], f.spareMaps[:n-1]
	} else {
		m = make(map[string][]int32, size)
	}
	f.usedMaps = append(f.usedMaps, m)
	return m
}

// keyPos is one (key, position) pair of an index being built.
type keyPos struct {
	key string
	i   int32
	k   uint8 // posGroupFew's number of the key
}

// posMark starts the pairs of an index: posFlush or posDrop with the mark
// ends them.
func (f *frame) posMark() int { return len(f.kps) }

// posAdd records node i of the index being built under key. Positions
// come in ascending order.
func (f *frame) posAdd(key string, i int) { f.kps = append(f.kps, keyPos{key: key, i: int32(i)}) }

// posFlush writes the pairs since mark into m, the positions of each key
// ascending and once each, and ends them: one insertion per distinct key
// and one array for all positions, instead of a lookup, an insertion and
// an append per pair (most of an index's build: its keys repeat, VAT on
// every tax scheme).
func (f *frame) posFlush(mark int, m map[string][]int32) {
	ps := f.kps[mark:]
	if all := f.posInts(len(ps)); len(ps) > 0 && !posGroupFew(ps, m, all) {
		slices.SortStableFunc(ps, func(a, b keyPos) int { return strings.Compare(a.key, b.key) })
		for j := 0; j < len(ps); {
			start, key := len(all), ps[j].key
			for ; j < len(ps) && ps[j].key == key; j++ {
				if n := len(all); n == start || all[n-1] != ps[j].i {
					all = append(all, ps[j].i)
				}
			}
			m[key] = all[start:len(all):len(all)]
		}
	}
	f.posDrop(mark)
}

// posFewKeys is the largest number of distinct keys posGroupFew groups.
const posFewKeys = 4

// posGroupFew is posFlush's grouping for pairs with at most posFewKeys
// distinct keys (a code on every line, two VAT rates): one pass over the
// pairs per key instead of sorting them, with the same result (each key's
// positions in the order they were added, repeats dropped). false, with
// m unchanged, when there are more keys. all has room for len(ps)
// positions.
func posGroupFew(ps []keyPos, m map[string][]int32, all []int32) bool {
	var keys [posFewKeys]string
	d, k := 0, 0
	for j := range ps {
		// Most pairs repeat the key before them: compared first.
		if d == 0 || ps[j].key != keys[k] {
			for k = 0; k < d && keys[k] != ps[j].key; k++ {
			}
			if k == d {
				if d == posFewKeys {
					return false
				}
				keys[d] = ps[j].key
				d++
			}
		}
		ps[j].k = uint8(k)
	}
	for k, key := range keys[:d] {
		start := len(all)
		for _, p := range ps {
			if int(p.k) == k {
				if n := len(all); n == start || all[n-1] != p.i {
					all = append(all, p.i)
				}
			}
		}
		m[key] = all[start:len(all):len(all)]
	}
	return true
}

// posDrop ends the pairs since mark without writing them.
func (f *frame) posDrop(mark int) {
	clear(f.kps[mark:]) // the keys are the documents' strings
	f.kps = f.kps[:mark]
}

// recycleIndexMaps clears the maps handed out for the memo document and
// keeps the small ones for the next.
func (f *frame) recycleIndexMaps() {
	for i, m := range f.usedMaps {
		if len(f.spareMaps) < maxSpareMaps && len(m) <= maxSpareMapLen {
			clear(m)
			f.spareMaps = append(f.spareMaps, m)
		}
		f.usedMaps[i] = nil
	}
	f.usedMaps = f.usedMaps[:0]
}

// memoCopy returns a copy of s in the memo document's arena.
func (f *frame) memoCopy(s []xdm.Item) xdm.Sequence {
	n := len(s)
	if n == 0 {
		return nil
	}
	l := len(f.memoArena)
	if l+n > cap(f.memoArena) {
		// A new chunk; values stored earlier keep the old one.
		f.memoArena = make([]xdm.Item, 0, max(2*cap(f.memoArena), n, 256))
		l = 0
	}
	f.memoArena = f.memoArena[:l+n]
	c := f.memoArena[l : l+n : l+n]
	copy(c, s)
	return c
}

// newKeyIndex returns an empty key or step index (untyped until a string
// key is added) from the frame's arena of the memo document's indexes,
// which the next document reuses (memoReady): the indexes a document
// builds are allocated once per chunk, not one by one.
func (f *frame) newKeyIndex() *keyIndex {
	if len(f.ixArena) == cap(f.ixArena) {
		// A new chunk; indexes handed out earlier keep the old one.
		f.ixArena = make([]keyIndex, 0, max(2*cap(f.ixArena), 16))
	}
	f.ixArena = f.ixArena[:len(f.ixArena)+1]
	ix := &f.ixArena[len(f.ixArena)-1]
	*ix = keyIndex{untyped: true}
	return ix
}

// posInts returns an empty slice with room for n positions, from the
// frame's arena of index positions (see newKeyIndex).
func (f *frame) posInts(n int) []int32 {
	l := len(f.posArena)
	if l+n > cap(f.posArena) {
		f.posArena = make([]int32, 0, max(2*cap(f.posArena), n, 256))
		l = 0
	}
	f.posArena = f.posArena[:l+n]
	return f.posArena[l : l : l+n]
}

// memoStore keeps a copy of s in slot (1-based), within the item budget.
func (f *frame) memoStore(slot int32, s xdm.Sequence) {
	if f.memoItems+len(s) > maxMemoItems {
		return
	}
	f.memoItems += len(s)
	f.memo[slot-1] = f.memoCopy(s)
	f.memoSet[slot-1] = true
}

// appendStr appends s length-prefixed ("5:hello"): unambiguous like a
// quoted string, without escaping every rune (Load fingerprints every node
// of every expression).
func appendStr(b []byte, s string) []byte {
	b = appendInt(b, int64(len(s)))
	b = append(b, ':')
	return append(b, s...)
}

// focusFree reports whether e's value does not depend on the focus: a
// constant, an absolute path, or a call of such arguments (built-ins with at
// least one argument, which then do not read the context item; pure
// extension functions). Callers also check closedExpr.
func focusFree(e *Expr) bool { return sameForEveryFocus(e, false) }

// sameForEveryFocus is focusFree; with globals it also admits variable
// references (the global lets, in a rule context) and the operators over
// such operands (docConstant, guard.go).
func sameForEveryFocus(e *Expr, globals bool) bool {
	if globals && (len(e.Preds) > 0 || len(e.Bindings()) > 0) {
		return false
	}
	switch e.Op {
	case OpConst:
		return true
	case OpVar:
		return globals
	case OpPath:
		return len(e.Args) > 1 && e.Args[0].Op == OpRoot && !usesFocusPosition(e) && (!globals || closedPath(e))
	case OpUnion, OpIntersect, OpExcept:
		// /ubl:Invoice | /cn:CreditNote (BR-FR's custom:isSpecialContract…)
	case OpAnd, OpOr, OpNot, OpGenCmp, OpValCmp, OpArith, OpNeg, OpIf, OpEmpty, OpExists, OpCount, OpSeq,
		OpCodeSet, OpCodeToken, OpCast, OpCastable, OpBlankCmp:
		if !globals {
			return false
		}
	case OpCall:
		if e.Builtin == nil || len(e.Args) == 0 {
			return false
		}
	case OpExtCall:
		if !e.Pure {
			return false
		}
	default:
		return false
	}
	for _, a := range e.Args {
		if !sameForEveryFocus(a, globals) {
			return false
		}
	}
	return true
}

// appendInt appends the decimal form of n, as strconv.AppendInt does, with
// a shortcut for the one- and two-digit numbers (ops, axes, kinds, most
// slots) that make up nearly every number of a fingerprint: compiling the
// rule sets formats about a million of them.
func appendInt(b []byte, n int64) []byte {
	switch {
	case 0 <= n && n < 10:
		return append(b, byte('0'+n))
	case 10 <= n && n < 100:
		return append(b, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(b, n, 10)
}
