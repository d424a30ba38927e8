package vm

import (
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Per-document memoisation of absolute paths.
//
// A path that starts at the root ("/x", "//x[p]/y") and whose steps
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
}

// maxMemoItems bounds the items one Env memoises per document; beyond it
// values are recomputed (a hostile document cannot make memory grow with
// the number of rules times the size of the document).
const maxMemoItems = 1 << 16

// memoPoints returns the memo points of an OpPath: the prefixes
// [Root, a1..ai] ending at a costly argument (a step with predicates, or an
// expression step) within the longest variable-free prefix, and that prefix
// itself.
func (c *Catalog) memoPoints(e *Expr) []MemoPoint {
	if len(e.Args) < 2 || e.Args[0].Op != OpRoot {
		return nil
	}
	last := 0
	for i := 1; i < len(e.Args) && closedExpr(e.Args[i]); i++ {
		last = i
	}
	var out []MemoPoint
	costly := false
	var fp strings.Builder
	fingerprint(&fp, e.Args[0])
	for i := 1; i <= last; i++ {
		a := e.Args[i]
		fp.WriteByte('/')
		fingerprint(&fp, a)
		c1 := a.Op != OpStep || len(a.Preds) > 0
		costly = costly || c1
		if c1 || (i == last && costly) {
			if n := len(out); n > 0 && out[n-1].Arg == i {
				continue
			}
			out = append(out, MemoPoint{Arg: i, Slot: c.memoSlot(fp.String())})
		}
	}
	return out
}

func (c *Catalog) memoSlot(key string) int32 {
	if s, ok := c.memo[key]; ok {
		return s
	}
	c.nMemo++
	c.memo[key] = c.nMemo
	return c.nMemo
}

// closedExpr reports whether e's value, for a given focus, depends on
// nothing but the focus and the document: no variables, no local bindings,
// no extension functions (their purity is not known), no current-date().
func closedExpr(e *Expr) bool {
	switch e.Op {
	case OpVar, OpLocal, OpFor, OpSome, OpEvery, OpExtCall:
		return false
	case OpCall:
		if e.Builtin == nil || e.Builtin.Name == "current-date" {
			return false
		}
	}
	for _, a := range e.Args {
		if !closedExpr(a) {
			return false
		}
	}
	for _, p := range e.Preds {
		if !closedExpr(p) {
			return false
		}
	}
	return len(e.Binds) == 0
}

// fingerprint writes a canonical form of e: two expressions with the same
// fingerprint evaluate identically (for the closed expressions memoised).
func fingerprint(b *strings.Builder, e *Expr) {
	b.WriteString("(")
	b.WriteString(strconv.Itoa(int(e.Op)))
	b.WriteByte(' ')
	switch e.Op {
	case OpConst:
		for _, it := range e.Seq {
			b.WriteString(strconv.Itoa(int(it.T)))
			b.WriteByte(':')
			b.WriteString(strconv.Quote(it.StringValue()))
			if it.T == xdm.TDecimal || it.T == xdm.TInteger {
				// the Java scale decides the digits of a division
				b.WriteString("s" + strconv.Itoa(int(it.D.JavaScale())))
			}
			b.WriteByte(',')
		}
	case OpStep, OpChildEq:
		b.WriteString(strconv.Itoa(int(e.Axis)))
		writeTest(b, &e.Test)
	case OpGenCmp, OpValCmp, OpNodeCmp:
		b.WriteString(strconv.Itoa(int(e.Cmp)))
	case OpArith:
		b.WriteString(strconv.Itoa(int(e.Arith)))
	case OpCast, OpCastable:
		b.WriteString(strconv.Itoa(int(e.Type)))
		if e.Optional {
			b.WriteByte('?')
		}
	case OpInstanceOf:
		st := &e.SeqType
		b.WriteString(strconv.Quote(strconv.FormatBool(st.Empty) + strconv.FormatBool(st.Item) + strconv.FormatBool(st.Atomic) +
			strconv.Itoa(int(st.Type)) + "/" + strconv.Itoa(int(st.Occ))))
		writeTest(b, &st.Test)
	case OpCall:
		b.WriteString(e.Builtin.Name)
		if e.Re != nil {
			b.WriteString(strconv.Quote(e.Re.String()))
		}
	}
	// Fields any op may carry.
	b.WriteString(strconv.Quote(e.Str))
	if e.PosConst != 0 {
		b.WriteString("#" + strconv.Itoa(e.PosConst))
	}
	if e.Set != nil {
		b.WriteString("set" + strconv.Itoa(len(e.Set)))
		// the set is derived from Str (code lists) or from Args[1] (a
		// constant list), both part of the fingerprint.
	}
	for _, a := range e.Args {
		fingerprint(b, a)
	}
	b.WriteString("[")
	for _, p := range e.Preds {
		fingerprint(b, p)
	}
	b.WriteString("])")
}

func writeTest(b *strings.Builder, t *NodeTest) {
	b.WriteString(" t" + strconv.Itoa(int(t.Kind)))
	if t.Named {
		b.WriteByte('N')
	}
	b.WriteString(strconv.Quote(t.Space))
	b.WriteString(strconv.Quote(t.Local))
}

// memoReady prepares the frame's memo table for the current document and
// catalog and reports whether memoisation applies to focus fc (a node of
// the validated document).
func (f *frame) memoReady(fc focus) bool {
	if fc.undefined || fc.item.T != xdm.TNode || fc.item.Doc != 0 || f.docIdx != 0 {
		return false
	}
	cat := f.prog.cat
	if f.memoDoc != f.env.Doc || f.memoCat != cat || len(f.memo) < int(cat.nMemo) {
		f.memoDoc, f.memoCat = f.env.Doc, cat
		if cap(f.memo) < int(cat.nMemo) {
			f.memo = make([]xdm.Sequence, cat.nMemo)
			f.memoSet = make([]bool, cat.nMemo)
		}
		f.memo = f.memo[:cat.nMemo]
		f.memoSet = f.memoSet[:cat.nMemo]
		clear(f.memo)
		clear(f.memoSet)
		f.memoItems = 0
		// No value of the previous document is referenced any more (results
		// leave the vm as copies), so its chunk is reused.
		f.memoArena = f.memoArena[:0]
	}
	return true
}

// memoStore keeps a copy of s in slot (1-based), within the item budget.
func (f *frame) memoStore(slot int32, s xdm.Sequence) {
	if f.memoItems+len(s) > maxMemoItems {
		return
	}
	f.memoItems += len(s)
	var c xdm.Sequence
	if n := len(s); n > 0 {
		l := len(f.memoArena)
		if l+n > cap(f.memoArena) {
			// A new chunk; values stored earlier keep the old one.
			f.memoArena = make([]xdm.Item, 0, max(2*cap(f.memoArena), n, 256))
			l = 0
		}
		f.memoArena = f.memoArena[:l+n]
		c = f.memoArena[l : l+n : l+n]
		copy(c, s)
	}
	f.memo[slot-1] = c
	f.memoSet[slot-1] = true
}
