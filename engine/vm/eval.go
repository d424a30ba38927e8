package vm

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

func (f *frame) contextNode(fc focus) (xmltree.NodeID, error) {
	if !fc.undefined && fc.item.T == xdm.TNode {
		return xmltree.NodeID(fc.item.Node), nil
	}
	return 0, contextNotNode(fc)
}

// contextNotNode is the error of a focus whose item is not a node.
func contextNotNode(fc focus) error {
	if fc.undefined {
		return &xdm.Error{Code: xdm.ErrNoContext, Msg: "context item is undefined"}
	}
	return xdm.Errorf(xdm.ErrNotNode, "context item is %s, not a node", fc.item.T)
}

// eval evaluates e with focus fc. The result lives in the arena.
func (f *frame) eval(e *Expr, fc focus) (xdm.Sequence, error) {
	if e.CSE != 0 {
		if f.cseIn != e {
			return f.evalShared(e, fc)
		}
		f.cseIn = nil // evalShared evaluating e itself
	}
	switch e.Op {
	case OpConst:
		return e.Seq, nil
	case OpContext:
		if fc.undefined {
			return nil, &xdm.Error{Code: xdm.ErrNoContext, Msg: "context item is undefined"}
		}
		return f.one(fc.item), nil
	case OpRoot:
		n, err := f.contextNode(fc)
		if err != nil {
			return nil, err
		}
		for f.doc.Parent(n) != xmltree.None {
			n = f.doc.Parent(n)
		}
		return f.one(f.node(n)), nil
	case OpVar:
		if e.Slot >= len(f.env.Vars) {
			return nil, xdm.Errorf(xdm.ErrType, "variable slot %d has no value", e.Slot)
		}
		return f.env.Vars[e.Slot], nil
	case OpLocal:
		return f.locals[e.Slot], nil
	case OpSeq:
		b := f.buf()
		for _, a := range e.Args {
			s, err := f.eval(a, fc)
			if err != nil {
				return nil, err
			}
			b = append(b, s...)
		}
		return f.done(b), nil
	case OpPath:
		if e.NodeSlot > 0 {
			v, found, use := f.nodePathLookup(e, fc)
			if found {
				return v, nil
			}
			if use {
				v, err := f.evalPath(e, fc)
				if err == nil {
					f.nodePathStore(e, fc, v)
				}
				return v, err
			}
		}
		return f.evalPath(e, fc)
	case OpStep:
		n, err := f.contextNode(fc)
		if err != nil {
			return nil, err
		}
		if len(e.Preds) == 0 {
			// Straight into the arena (see plainSteps).
			start := len(f.arena)
			out, err := f.step(e, n, f.arena)
			f.arena = out
			if err != nil || len(out) == start {
				f.arena = out[:start]
				return nil, err
			}
			return out[start:len(out):len(out)], nil
		}
		b := f.buf()
		b, err = f.step(e, n, b)
		if err != nil {
			return nil, err
		}
		return f.done(b), nil
	case OpFilter:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return nil, err
		}
		return f.filter(s, e.Preds)
	case OpValCmp:
		a, b, ok, err := f.operands(e, fc, e.Cmp.String())
		if err != nil || !ok {
			return nil, err // an empty operand gives the empty sequence
		}
		r, err := xdm.CompareValues(e.Cmp, a, b)
		if err != nil {
			return nil, err
		}
		return f.boolSeq(r), nil
	case OpNodeCmp:
		b, empty, err := f.nodeCmp(e, fc)
		if err != nil || empty {
			return nil, err
		}
		return f.boolSeq(b), nil
	case OpAnd, OpOr, OpGenCmp, OpSome, OpEvery, OpCastable,
		OpInstanceOf, OpCodeSet, OpCodeToken, OpExists, OpEmpty, OpNot, OpChildEq, OpLenAfter, OpBlankCmp:
		b, err := f.evalBool(e, fc)
		if err != nil {
			return nil, err
		}
		return f.boolSeq(b), nil
	case OpArith:
		a, b, ok, err := f.operands(e, fc, e.Arith.String())
		if err != nil || !ok {
			return nil, err
		}
		r, err := xdm.Arith(e.Arith, a, b)
		if err != nil {
			return nil, err
		}
		return f.one(r), nil
	case OpNeg:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return nil, err
		}
		a, ok, err := f.single(s, "unary minus")
		if err != nil || !ok {
			return nil, err
		}
		r, err := xdm.Negate(a)
		if err != nil {
			return nil, err
		}
		return f.one(r), nil
	case OpRange:
		return f.evalRange(e, fc)
	case OpUnion, OpIntersect, OpExcept:
		return f.evalSetOp(e, fc)
	case OpIf:
		c, err := f.evalBool(e.Args[0], fc)
		if err != nil {
			return nil, err
		}
		if c {
			return f.eval(e.Args[1], fc)
		}
		return f.eval(e.Args[2], fc)
	case OpFor:
		b := f.buf()
		b, err := f.evalFor(e, 0, fc, b)
		if err != nil {
			return nil, err
		}
		return f.done(b), nil
	case OpCast:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return nil, err
		}
		a, ok, err := f.single(s, "cast as")
		if err != nil {
			return nil, err
		}
		if !ok {
			if e.Optional {
				return nil, nil
			}
			return nil, xdm.Errorf(xdm.ErrType, "cast as %s of an empty sequence", e.Type)
		}
		r, err := xdm.Cast(a, e.Type)
		if err != nil {
			return nil, err
		}
		return f.one(r), nil
	case OpCall:
		if e.NodeSlot > 0 {
			v, found, use := f.nodePathLookup(e, fc)
			if found {
				return v, nil
			}
			if use {
				v, err := f.call(e, fc)
				if err == nil {
					f.nodePathStore(e, fc, v)
				}
				return v, err
			}
		}
		return f.call(e, fc)
	case OpExtCall:
		if mp := e.memoPoints(); len(mp) == 1 && f.memoReady(fc) {
			slot := mp[0].Slot
			if f.memoSet[slot-1] {
				return f.memo[slot-1], nil
			}
			v, err := f.extCall(e, fc)
			if err == nil {
				f.memoStore(slot, v)
			}
			return v, err
		}
		return f.extCall(e, fc)
	case OpCount:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return nil, err
		}
		return f.one(xdm.Integer(int64(len(s)))), nil
	}
	return nil, xdm.Errorf(xdm.ErrType, "internal: unknown op %d", e.Op)
}

// operands evaluates and atomizes the two operands of a binary arithmetic
// or value comparison; ok=false when either is empty.
func (f *frame) operands(e *Expr, fc focus, what string) (a, b xdm.Item, ok bool, err error) {
	s, err := f.eval(e.Args[0], fc)
	if err != nil {
		return a, b, false, err
	}
	a, ok1, err := f.single(s, what)
	if err != nil {
		return a, b, false, err
	}
	s, err = f.eval(e.Args[1], fc)
	if err != nil {
		return a, b, false, err
	}
	b, ok2, err := f.single(s, what)
	if err != nil {
		return a, b, false, err
	}
	return a, b, ok1 && ok2, nil
}

// evalBool evaluates e and returns its effective boolean value, without
// materialising sequences for boolean ops.
func (f *frame) evalBool(e *Expr, fc focus) (bool, error) {
	switch e.Op {
	case OpAnd:
		a, err := f.evalBool(e.Args[0], fc)
		if err != nil || !a {
			return false, err
		}
		return f.evalBool(e.Args[1], fc)
	case OpOr:
		a, err := f.evalBool(e.Args[0], fc)
		if err != nil || a {
			return a, err
		}
		return f.evalBool(e.Args[1], fc)
	case OpNot:
		b, err := f.evalBool(e.Args[0], fc)
		return !b, err
	case OpGenCmp:
		return f.generalCmp(e, fc)
	case OpValCmp:
		a, b, ok, err := f.operands(e, fc, e.Cmp.String())
		if err != nil || !ok {
			return false, err
		}
		return xdm.CompareValues(e.Cmp, a, b)
	case OpNodeCmp:
		b, _, err := f.nodeCmp(e, fc)
		return b, err
	case OpSome, OpEvery:
		return f.quantified(e, 0, fc)
	case OpCastable:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return false, err
		}
		if len(s) > 1 {
			return false, nil
		}
		if len(s) == 0 {
			return e.Optional, nil
		}
		return xdm.CastableErr(f.atom(s[0]), e.Type)
	case OpInstanceOf:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return false, err
		}
		return f.instanceOf(s, e.InstanceType()), nil
	case OpExists, OpEmpty:
		var nonEmpty bool
		a := e.Args[0]
		if a.Op == OpStep && len(a.Preds) == 0 {
			n, err := f.contextNode(fc)
			if err != nil {
				return false, err
			}
			nonEmpty, err = f.stepAny(a, n)
			if err != nil {
				return false, err
			}
		} else {
			s, err := f.eval(a, fc)
			if err == nil {
				nonEmpty = len(s) > 0
			} else if nonEmpty, err = f.retryLazily(a, fc, nil, err); err != nil {
				return false, err
			}
		}
		return nonEmpty == (e.Op == OpExists), nil
	case OpCodeSet, OpCodeToken:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return false, err
		}
		a, ok, err := f.single(s, "normalize-space")
		if err != nil {
			return false, err
		}
		v := ""
		if ok {
			if a.T != xdm.TString && a.T != xdm.TUntyped {
				return false, xdm.Errorf(xdm.ErrType, "normalize-space: argument is %s, xs:string expected", a.T)
			}
			v = a.S
		}
		return codeListHas(NormalizeSpace(v), e.Op == OpCodeToken, e.Set, e.Str), nil
	case OpChildEq:
		n, err := f.contextNode(fc)
		if err != nil {
			return false, err
		}
		return f.childEq(e, n)
	case OpStep:
		if len(e.Preds) == 0 {
			// not(*), cac:X and ...: true when the step selects a node;
			// stop at the first, as exists() does, instead of collecting
			// every node for the effective boolean value.
			n, err := f.contextNode(fc)
			if err != nil {
				return false, err
			}
			return f.stepAny(e, n)
		}
	case OpCall:
		if e.Builtin != nil && e.Builtin.Name == "normalize-space" {
			// not(normalize-space()), [normalize-space(X)]: the effective
			// boolean value is "has a non-whitespace character", found
			// without building the normalized string (a 200 KB attachment
			// is scanned up to its first character).
			var s string
			if len(e.Args) == 1 {
				v, err := f.eval(e.Args[0], fc)
				if err != nil {
					return false, err
				}
				if s, err = f.strArg(v, "normalize-space"); err != nil {
					return false, err
				}
			} else {
				var err error
				if s, err = f.ctxString(nil, fc, "normalize-space"); err != nil {
					return false, err
				}
			}
			return !xmltree.Blank(s), nil
		}

	case OpBlankCmp:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return false, err
		}
		v, err := f.strArg(s, "normalize-space")
		if err != nil {
			return false, err
		}
		return xmltree.Blank(v) == (e.Cmp == xdm.OpEq), nil
	case OpLenAfter:
		s, err := f.eval(e.Args[0], fc)
		if err != nil {
			return false, err
		}
		v, err := f.strArg(s, "substring-after")
		if err != nil {
			return false, err
		}
		after := ""
		if i := strings.Index(v, e.Str); i >= 0 {
			after = v[i+len(e.Str):]
		}
		return xdm.CompareGeneral(e.Cmp, xdm.Integer(int64(utf8.RuneCountInString(after))), e.Args[1].Seq[0])
	}
	s, err := f.eval(e, fc)
	return f.ebvOrAny(e, fc, s, err)
}

func (f *frame) generalCmp(e *Expr, fc focus) (bool, error) {
	if e.Card != cmpLeftFirst {
		return f.generalCmpOrdered(e, fc)
	}
	l, err := f.eval(e.Args[0], fc)
	if err != nil {
		return f.generalCmpLazy(e, fc, err)
	}
	if len(l) == 0 {
		return false, nil
	}
	if e.Set != nil {
		// Args[1] is a constant list of strings (e.g. a country code list):
		// strings and untypedAtomic compare as strings, so a set lookup is
		// exact; other types fall back to the general rules below.
		generic := false
		for _, a := range l {
			a = f.atom(a)
			if a.T != xdm.TString && a.T != xdm.TUntyped {
				generic = true
				break
			}
			if _, ok := e.Set[a.S]; ok {
				return true, nil
			}
		}
		if !generic {
			return false, nil
		}
	}
	r, err := f.eval(e.Args[1], fc)
	if err != nil || len(r) == 0 {
		return false, err
	}
	for _, a := range l {
		a = f.atom(a)
		for _, b := range r {
			ok, err := xdm.CompareGeneral(e.Cmp, a, f.atom(b))
			if err != nil {
				return false, err
			}
			if ok {
				return true, nil
			}
		}
	}
	return false, nil
}

// generalCmpOrdered is generalCmp for a comparison of a single operand
// with a sequence (Expr.Card): the single side first, false when it is
// empty, then the other side, pulled node by node when its whole
// evaluation raises (cardinality.go, retryLazily).
func (f *frame) generalCmpOrdered(e *Expr, fc focus) (bool, error) {
	one, many := e.Args[1], e.Args[0]
	if e.Card == cmpOneMany {
		one, many = many, one
	}
	s, err := f.eval(one, fc)
	if err != nil {
		return false, err
	}
	v, ok, err := f.single(s, "general comparison")
	if err != nil || !ok {
		return false, err
	}
	cmp := func(it xdm.Item) (bool, error) {
		if e.Card == cmpOneMany {
			return xdm.CompareGeneral(e.Cmp, v, f.atom(it))
		}
		return xdm.CompareGeneral(e.Cmp, f.atom(it), v)
	}
	seq, err := f.eval(many, fc)
	if err != nil {
		return f.retryLazily(many, fc, cmp, err)
	}
	for _, it := range seq {
		if ok, err := cmp(it); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// generalCmpLazy answers a general comparison of a path with constants
// whose whole evaluation raised err, as the reference does: node by node
// in its order, the first match ending it (lazyany.go). Other comparisons
// keep err.
func (f *frame) generalCmpLazy(e *Expr, fc focus, err error) (bool, error) {
	r := e.Args[1]
	if r.Op != OpConst {
		return false, err
	}
	return f.retryLazily(e.Args[0], fc, func(it xdm.Item) (bool, error) {
		a := f.atomNode(it)
		if e.Set != nil && (a.T == xdm.TString || a.T == xdm.TUntyped) {
			_, in := e.Set[a.S]
			return in, nil
		}
		for _, b := range r.Seq {
			if ok, err := xdm.CompareGeneral(e.Cmp, a, f.atom(b)); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}, err)
}

// nodeCmp evaluates is, << and >>; empty=true when an operand is empty
// (the result is then the empty sequence).
func (f *frame) nodeCmp(e *Expr, fc focus) (res, empty bool, err error) {
	l, err := f.eval(e.Args[0], fc)
	if err != nil {
		return false, false, err
	}
	r, err := f.eval(e.Args[1], fc)
	if err != nil {
		return false, false, err
	}
	if len(l) == 0 || len(r) == 0 {
		return false, true, nil
	}
	if len(l) > 1 || len(r) > 1 || l[0].T != xdm.TNode || r[0].T != xdm.TNode {
		return false, false, &xdm.Error{Code: xdm.ErrType, Msg: "node comparison needs single nodes"}
	}
	a, b := l[0].NodeKey(), r[0].NodeKey()
	switch e.Cmp {
	case xdm.OpEq:
		return a == b, false, nil
	case xdm.OpLt:
		return a < b, false, nil
	}
	return a > b, false, nil
}

func (f *frame) evalPath(e *Expr, fc focus) (xdm.Sequence, error) {
	kill, memoPts, varKey := e.Kills(), e.memoPoints(), e.varKey()
	if len(kill) > 0 && !fc.undefined && fc.item.T == xdm.TNode && fc.item.Doc == f.docIdx {
		for _, t := range kill {
			if f.nameAbsent(t) {
				return nil, nil
			}
		}
	}
	start, memo, next := 1, false, 0
	var cur xdm.Sequence
	if len(memoPts) > 0 && f.memoReady(fc) {
		memo = true
		for j := len(memoPts) - 1; j >= 0; j-- {
			if mp := memoPts[j]; f.memoSet[mp.Slot-1] {
				cur, start, next = f.memo[mp.Slot-1], mp.Arg+1, j+1
				break
			}
		}
	}
	if start == 1 {
		var err error
		if cur, err = f.eval(e.Args[0], fc); err != nil {
			return nil, err
		}
	}
	for ai := start; ai < len(e.Args); ai++ {
		st := e.Args[ai]
		if len(cur) == 0 {
			return nil, nil
		}
		// Registered documents (code lists) keep their value indexes
		// across validated documents (valueindex.go); the per-document
		// indexes are for the validated document's own paths.
		if memo && ai == varKey.Arg && cur[0].Doc == 0 {
			r, ok, err := f.pathStepByIndex(varKey.Key, st, cur)
			if err != nil {
				return nil, err
			}
			if ok {
				cur = r
				continue
			}
		}
		if memo && next < len(memoPts) && memoPts[next].Arg == ai && memoPts[next].Key > 0 && cur[0].Doc == 0 {
			r, ok, err := f.stepByKey(&memoPts[next], st, cur)
			if err != nil {
				return nil, err
			}
			if ok {
				cur = r
				f.memoStore(memoPts[next].Slot, cur)
				next++
				continue
			}
		}
		var err error
		if st.Op == OpStep && len(st.Preds) == 0 {
			cur, err = f.plainSteps(st, cur)
		} else {
			cur, err = f.pathStep(st, cur)
		}
		if err != nil {
			return nil, err
		}
		if memo && next < len(memoPts) && memoPts[next].Arg == ai {
			f.memoStore(memoPts[next].Slot, cur)
			next++
		}
	}
	return cur, nil
}

// pathStep applies step st of a path to every item of cur.
func (f *frame) pathStep(st *Expr, cur xdm.Sequence) (xdm.Sequence, error) {
	b := f.buf()
	nodes, atoms := 0, 0
	for i, it := range cur {
		if it.T != xdm.TNode {
			f.drop(b)
			return nil, xdm.Errorf(xdm.ErrNotNode, "path step applied to %s", it.T)
		}
		if err := f.tick(); err != nil {
			return nil, err
		}
		pd, pi := f.enter(it)
		if st.Op == OpStep {
			var err error
			b, err = f.step(st, xmltree.NodeID(it.Node), b)
			f.doc, f.docIdx = pd, pi
			if err != nil {
				return nil, err
			}
			continue
		}
		if st.fastIdx != 0 {
			// xs:decimal(cbc:Amount), normalize-space(cbc:ID): the
			// operand's items on the node, without a frame; where it
			// cannot decide, the interpreter evaluates the step.
			// (fastKey with the append inline, not fastKeyAppend: one
			// call less per node of a hot step, 0.2 % of the EN 16931
			// UBL step by callgrind.)
			mark := len(b)
			if f.fastKey(st, xmltree.NodeID(it.Node), func(x xdm.Item) bool {
				b = append(b, x)
				return true
			}) {
				f.doc, f.docIdx = pd, pi
				atoms += len(b) - mark
				continue
			}
			b = b[:mark]
		}
		r, err := f.eval(st, focus{item: it, pos: i + 1, size: len(cur)})
		f.doc, f.docIdx = pd, pi
		if err != nil {
			return nil, err
		}
		for _, x := range r {
			if x.T == xdm.TNode {
				nodes++
			} else {
				atoms++
			}
		}
		b = append(b, r...)
	}
	if nodes > 0 && atoms > 0 {
		f.drop(b)
		return nil, &xdm.Error{Code: xdm.ErrMixedPath, Msg: "path result mixes nodes and atomic values"}
	}
	if atoms == 0 && len(cur) > 1 {
		b = sortNodes(b)
	} else if atoms == 0 && st.Op != OpStep {
		b = sortNodes(b)
	}
	return f.done(b), nil
}

// plainSteps applies a predicate-free axis step to every item of cur,
// straight into the arena: such a step evaluates nothing that could use
// the arena meanwhile, so no scratch buffer and no copy are needed. (An
// append that moves the arena leaves the results handed out before in
// the old array, which they keep alive.)
func (f *frame) plainSteps(st *Expr, cur xdm.Sequence) (xdm.Sequence, error) {
	start := len(f.arena)
	out := f.arena
	for i := range cur {
		it := &cur[i]
		if it.T != xdm.TNode {
			f.arena = out[:start]
			return nil, xdm.Errorf(xdm.ErrNotNode, "path step applied to %s", it.T)
		}
		if err := f.tick(); err != nil {
			f.arena = out[:start]
			return nil, err
		}
		pd, pi := f.doc, f.docIdx
		if it.Doc != pi {
			f.doc, f.docIdx = f.docAt(it.Doc), it.Doc
		}
		var err error
		out, err = f.step(st, xmltree.NodeID(it.Node), out)
		f.doc, f.docIdx = pd, pi
		if err != nil {
			f.arena = out[:start]
			return nil, err
		}
	}
	if len(cur) > 1 {
		out = out[:start+len(sortNodes(out[start:]))]
	}
	f.arena = out
	if len(out) == start {
		return nil, nil
	}
	return out[start:len(out):len(out)], nil
}

// sortNodes puts node items in document order without duplicates.
func sortNodes(b []xdm.Item) []xdm.Item {
	sorted := true
	for i := 1; i < len(b); i++ {
		if b[i].NodeKey() <= b[i-1].NodeKey() {
			sorted = false
			break
		}
	}
	if sorted {
		return b
	}
	slices.SortFunc(b, func(x, y xdm.Item) int { return cmp.Compare(x.NodeKey(), y.NodeKey()) })
	return slices.CompactFunc(b, func(x, y xdm.Item) bool { return x.NodeKey() == y.NodeKey() })
}

// filter applies predicates to a sequence in its order (axis order for
// steps, so positions count backwards on reverse axes).
func (f *frame) filter(s xdm.Sequence, preds []*Expr) (xdm.Sequence, error) {
	for _, p := range preds {
		if len(s) == 0 {
			return nil, nil
		}
		if pos := p.ConstPos(); pos > 0 {
			if pos <= len(s) {
				s = s[pos-1 : pos : pos]
			} else {
				s = nil
			}
			continue
		}
		b := f.buf()
		for i, it := range s {
			if err := f.tick(); err != nil {
				return nil, err
			}
			pd, pi := f.enter(it)
			keep, err := f.predicate(p, focus{item: it, pos: i + 1, size: len(s)})
			f.doc, f.docIdx = pd, pi
			if err != nil {
				return nil, err
			}
			if keep {
				b = append(b, it)
			}
		}
		s = f.done(b)
	}
	return s, nil
}

// predicate evaluates one predicate: a numeric result selects by position,
// anything else by effective boolean value.
func (f *frame) predicate(p *Expr, fc focus) (bool, error) {
	if p.PredSlot > 0 {
		v, found, use := f.predMemoLookup(p, fc)
		if found {
			return v, nil
		}
		if use {
			v, err := f.predBool(p, fc)
			if err == nil {
				f.predMemoStore(p, fc, v)
			}
			return v, err
		}
	}
	if p.fastIdx != 0 {
		if v, ok := f.tryFastPred(p, fc); ok {
			return v, nil
		}
	}
	switch p.Op {
	case OpAnd, OpOr, OpGenCmp, OpValCmp, OpNot, OpExists, OpEmpty, OpSome, OpEvery,
		OpCodeSet, OpCodeToken, OpChildEq, OpLenAfter, OpBlankCmp, OpCastable, OpInstanceOf:
		return f.evalBool(p, fc)
	case OpCall:
		if p.Builtin != nil && p.Builtin.Name == "normalize-space" {
			return f.evalBool(p, fc) // a string: never a position
		}
	case OpStep:
		if len(p.Preds) == 0 {
			// [@schemeID], [cbc:ID]: a node sequence, never a position;
			// evalBool stops at its first node.
			return f.evalBool(p, fc)
		}
	}
	r, err := f.eval(p, fc)
	if err != nil {
		return f.ebvOrAny(p, fc, nil, err) // a path: never a position
	}
	if len(r) == 1 && r[0].T.IsNumeric() {
		if r[0].T == xdm.TDouble {
			return r[0].Float() == float64(fc.pos), nil
		}
		return r[0].Decimal().Cmp(xdm.DecimalFromInt(int64(fc.pos))) == 0, nil
	}
	return f.ebv(r)
}

func (f *frame) evalRange(e *Expr, fc focus) (xdm.Sequence, error) {
	a, b, ok, err := f.operands(e, fc, "to")
	if err != nil || !ok {
		return nil, err
	}
	lo, err := toInt(a)
	if err != nil {
		return nil, err
	}
	hi, err := toInt(b)
	if err != nil {
		return nil, err
	}
	if hi < lo {
		return nil, nil
	}
	if hi-lo >= maxRange {
		return nil, &xdm.Error{Code: "FOAR0002", Msg: "range too large"}
	}
	out := f.alloc(int(hi - lo + 1))
	for i := range out {
		out[i] = xdm.Integer(lo + int64(i))
	}
	return out, nil
}

func toInt(a xdm.Item) (int64, error) {
	if a.T == xdm.TUntyped {
		r, err := xdm.Cast(a, xdm.TInteger)
		if err != nil {
			return 0, err
		}
		a = r
	}
	if a.T != xdm.TInteger {
		return 0, xdm.Errorf(xdm.ErrType, "range bound is %s, not xs:integer", a.T)
	}
	v, ok := a.Decimal().Int64()
	if !ok {
		return 0, &xdm.Error{Code: "FOAR0002", Msg: "integer out of range"}
	}
	return v, nil
}

func (f *frame) evalSetOp(e *Expr, fc focus) (xdm.Sequence, error) {
	l, err := f.eval(e.Args[0], fc)
	if err != nil {
		return nil, err
	}
	r, err := f.eval(e.Args[1], fc)
	if err != nil {
		return nil, err
	}
	for _, s := range [2]xdm.Sequence{l, r} {
		for _, it := range s {
			if it.T != xdm.TNode {
				return nil, xdm.Errorf(xdm.ErrType, "set operator on %s", it.T)
			}
		}
	}
	b := f.buf()
	switch e.Op {
	case OpUnion:
		b = append(append(b, l...), r...)
	case OpIntersect:
		for _, it := range l {
			if containsNode(r, it) {
				b = append(b, it)
			}
		}
	default:
		for _, it := range l {
			if !containsNode(r, it) {
				b = append(b, it)
			}
		}
	}
	return f.done(sortNodes(b)), nil
}

func containsNode(s xdm.Sequence, n xdm.Item) bool {
	for _, it := range s {
		if it.Node == n.Node && it.Doc == n.Doc {
			return true
		}
	}
	return false
}

// forMemoTab holds the values of a scalar for-body (Program.scalarFors)
// for the integers 0 to forMemoSize-1 of its variable: the body reads
// that one variable and calls nothing that depends on anything else
// (compileScalar), so its value for a number is the same each time, in
// every document. XRechnung's IBAN check (BR-DE-19) runs its body on each
// codepoint of the account number: the digits and capital letters are a
// few dozen numbers. Errors and refusals are not kept (the body runs again
// and raises them again).
type forMemoTab struct {
	val [forMemoSize]xdm.Item
	has [forMemoSize]uint8 // forMemoItem, forMemoEmpty, or 0: not known
}

const (
	forMemoSize  = 128
	forMemoItem  = 1
	forMemoEmpty = 2
	// maxForMemos bounds the bodies a frame keeps values for (the rule
	// sets have a handful of such for-expressions).
	maxForMemos = 64
)

// forMemoOf returns the table of scalar for-expression e.
func (f *frame) forMemoOf(e *Expr) *forMemoTab {
	tab := f.forMemo[e]
	if tab == nil {
		if f.forMemo == nil || len(f.forMemo) >= maxForMemos {
			f.forMemo = make(map[*Expr]*forMemoTab)
		}
		tab = new(forMemoTab)
		f.forMemo[e] = tab
	}
	return tab
}

func (f *frame) evalFor(e *Expr, i int, fc focus, b []xdm.Item) ([]xdm.Item, error) {
	binds := e.Bindings()
	if i == len(binds) {
		r, err := f.eval(e.Args[0], fc)
		if err != nil {
			return b, err
		}
		return append(b, r...), nil
	}
	bd := binds[i]
	s, err := f.eval(bd.In, fc)
	if err != nil {
		return b, err
	}
	if body := f.prog.scalarFors[e]; body != nil && allAtomic(s) {
		start, refused := len(b), false
		if f.scalar == nil {
			f.scalar = new(ScalarEnv)
		}
		tab := f.forMemoOf(e)
		for _, it := range s {
			if err := f.tick(); err != nil {
				return b, err
			}
			v, small := it.SmallInt()
			small = small && v >= 0 && v < forMemoSize
			if small {
				switch tab.has[v] {
				case forMemoItem:
					b = append(b, tab.val[v])
					continue
				case forMemoEmpty:
					continue
				}
			}
			f.scalar.Val[0], f.scalar.Has[0] = it, true
			r, ok, err := body(f.scalar)
			if err == errScalarRefused {
				b, refused = b[:start], true // the interpreter's loop below
				break
			}
			if err != nil {
				return b, err
			}
			if ok {
				b = append(b, r)
			}
			if small {
				tab.val[v], tab.has[v] = r, forMemoEmpty
				if ok {
					tab.has[v] = forMemoItem
				}
			}
		}
		if !refused {
			return b, nil
		}
	}
	for j := range s {
		if err := f.tick(); err != nil {
			return b, err
		}
		f.locals[bd.Slot] = s[j : j+1 : j+1]
		if b, err = f.evalFor(e, i+1, fc, b); err != nil {
			return b, err
		}
	}
	return b, nil
}

func (f *frame) quantified(e *Expr, i int, fc focus) (bool, error) {
	some := e.Op == OpSome
	binds := e.Bindings()
	if i == len(binds) {
		return f.evalBool(e.Args[0], fc)
	}
	bd := binds[i]
	s, err := f.eval(bd.In, fc)
	if err != nil {
		return false, err
	}
	for j := range s {
		if err := f.tick(); err != nil {
			return false, err
		}
		f.locals[bd.Slot] = s[j : j+1 : j+1]
		ok, err := f.quantified(e, i+1, fc)
		if err != nil {
			return false, err
		}
		if ok == some {
			return some, nil
		}
	}
	return !some, nil
}

func (f *frame) instanceOf(s xdm.Sequence, t *SeqType) bool {
	if t.Empty {
		return len(s) == 0
	}
	switch t.Occ {
	case OccOne:
		if len(s) != 1 {
			return false
		}
	case OccOptional:
		if len(s) > 1 {
			return false
		}
	case OccPlus:
		if len(s) == 0 {
			return false
		}
	}
	for _, it := range s {
		switch {
		case t.Item:
		case t.Atomic:
			if it.T == xdm.TNode || !xdm.InstanceOf(it, t.Type) {
				return false
			}
		default:
			if it.T != xdm.TNode {
				return false
			}
			pd, pi := f.enter(it)
			ok := f.kindMatches(xmltree.NodeID(it.Node), &t.Test)
			f.doc, f.docIdx = pd, pi
			if !ok {
				return false
			}
		}
	}
	return true
}

func (f *frame) extCall(e *Expr, fc focus) (xdm.Sequence, error) {
	if e.ExtFunc() == nil {
		return nil, &xdm.Error{Code: xdm.ErrExternal, Msg: e.FuncName() + ": extension function registered without an implementation"}
	}
	base := len(f.args)
	for _, a := range e.Args {
		s, err := f.eval(a, fc)
		if err != nil {
			f.args = f.args[:base]
			return nil, err
		}
		f.args = append(f.args, s)
	}
	args := f.args[base:]
	r, err := e.ExtFunc()(f.ctx, f.env.Doc, args)
	f.args = f.args[:base]
	if err != nil {
		var xe *xdm.Error
		if errors.As(err, &xe) {
			return nil, xe
		}
		return nil, &xdm.Error{Code: xdm.ErrExternal, Msg: e.FuncName() + ": " + err.Error()}
	}
	return r, nil
}

// maxRange bounds the length of a "to" range (FOAR0002 beyond), so a
// hostile expression cannot allocate without limit.
const maxRange = 1 << 20
