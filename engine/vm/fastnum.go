package vm

import (
	"errors"
	"math"
	"math/bits"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Frame-free arithmetic.
//
// The amount checks compare arithmetic of the context node's amounts:
// abs(xs:decimal(../cbc:TaxAmount)) - 1 < round((abs(xs:decimal(
// ../cbc:TaxableAmount)) * (xs:decimal(cbc:Percent) div 100)) * 10 * 10)
// div 100 (BR-S-09), round(cac:TaxCategory[...]/xs:decimal(cbc:Percent)) = 0
// (BR-CO-17). A fastNum computes such an operand without a frame: numeric
// literals, fastOperands of at most one item, casts, the arithmetic
// operators, unary minus, abs, round, floor and ceiling, if-then-else, and
// in a test that reads variables (Program.FastVarTest) the lets' values
// (Peppol's R120: $quantity * ($priceAmount div $baseQuantity) + ...),
// with xdm's own operations as the interpreter applies them. Where the
// interpreter would raise an error (several items, a failed cast, a
// division by zero, a non-numeric operand) the closure gives up and the
// interpreter evaluates the test; both operands of an operator are always
// computed, as the interpreter computes them.

// fastNum returns the value of an expression on node n: one atomic item, or
// none (empty); ok=false when it cannot decide.
type fastNum func(fe *fastEnv, n xmltree.NodeID) (it xdm.Item, empty, ok bool)

// compileFastNumIn returns e's fastNum, or nil when e is not of the kinds
// above; the subexpressions ns shares are computed once per evaluation of
// the test.
func compileFastNumIn(ns *numShares, e *Expr) fastNum {
	fn := compileFastNumOne(ns, e)
	if slot, local, ok := ns.slot(e, fn != nil); ok {
		return shareNum(slot, local, fn)
	}
	return fn
}

// compileFastNumOne is compileFastNumIn without the sharing of e itself.
func compileFastNumOne(ns *numShares, e *Expr) fastNum {
	if c, ok := fastConsts(e); ok {
		if len(c) != 1 || !c[0].T.IsNumeric() {
			return nil
		}
		it := c[0]
		return func(*fastEnv, xmltree.NodeID) (xdm.Item, bool, bool) { return it, false, true }
	}
	if fn := compileFastCountTokens(ns, e); fn != nil {
		return fn
	}
	if e.Op == OpCount {
		if vf, ok := varFilterOf(ns, e.Args[0]); ok {
			// count($notes[ram:SubjectCode = 'PMT']): one xs:integer.
			return func(fe *fastEnv, _ xmltree.NodeID) (xdm.Item, bool, bool) {
				k, ok := vf.count(fe)
				return xdm.Integer(k), false, ok
			}
		}
	}
	// The closures below capture their own copy of the operand (o := o):
	// captured here, every call would leave one on the heap, used or not.
	o, isOp := fastOperandOfIn(ns, e)
	if isOp && o.count {
		// count(P), one xs:integer, in arithmetic (BR-AF-01:
		// count(//cac:AllowanceCharge/…) + count(//cac:ClassifiedTaxCategory…) > 0).
		o := o
		return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
			var it xdm.Item
			decided := o.items(fe, n, func(a xdm.Item) bool {
				it = a
				return true
			})
			return it, false, decided
		}
	}
	if isOp && o.fn == nil {
		// The items of a path (untypedAtomic) or of a cast of a path.
		o := o
		return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
			var it xdm.Item
			k := 0
			decided := o.items(fe, n, func(a xdm.Item) bool {
				it = a
				k++
				return k == 1 // a second item: XPTY0004
			})
			return it, k == 0, decided
		}
	}
	if fn := compileFastNumStep(ns, e); fn != nil {
		return fn
	}
	switch e.Op {
	case OpLocal:
		// The variable of a frame-free quantified expression
		// (compileFastQuantified): one atomic item while it runs.
		slot := e.Slot
		return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
			it, ok := fe.local(slot)
			return it, false, ok
		}
	case OpVar:
		if ns == nil || !ns.vars {
			return nil
		}
		// A let's value (Program.FastVarTest): one item, a node of the
		// validated document atomized as the interpreter atomizes it,
		// or none; two or more: XPTY0004, the interpreter's.
		slot := e.Slot
		return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
			v, ok := fe.varValue(slot)
			switch {
			case !ok || len(v) > 1:
				return xdm.Item{}, false, false
			case len(v) == 0:
				return xdm.Item{}, true, true
			case v[0].T == xdm.TNode:
				return xdm.Untyped(fe.doc.StringValue(xmltree.NodeID(v[0].Node))), false, true
			}
			return v[0], false, true
		}
	case OpIf:
		// if (C) then A else B (Peppol's R040: if (cbc:Amount) then
		// cbc:Amount else 0): C's effective boolean value picks the
		// branch, the other is not computed, as in the interpreter.
		c := compileFastIn(ns, e.Args[0])
		a, b := compileFastNumIn(ns, e.Args[1]), compileFastNumIn(ns, e.Args[2])
		if c == nil || a == nil || b == nil {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
			v, ok := c(fe, n)
			switch {
			case !ok:
				return xdm.Item{}, false, false
			case v:
				return a(fe, n)
			}
			return b(fe, n)
		}
	case OpArith:
		a, b := compileFastNumIn(ns, e.Args[0]), compileFastNumIn(ns, e.Args[1])
		if a == nil || b == nil {
			return nil
		}
		op := e.Arith
		return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
			x, ex, ok := a(fe, n)
			if !ok {
				return x, false, false
			}
			y, ey, ok := b(fe, n)
			if !ok || ex || ey {
				return x, ok, ok // an empty operand: the empty sequence
			}
			r, err := xdm.Arith(op, x, y)
			return r, false, err == nil
		}
	case OpNeg:
		if a := compileFastNumIn(ns, e.Args[0]); a != nil {
			return fastUnary(a, true, xdm.Negate)
		}
	case OpCast:
		if a := compileFastNumIn(ns, e.Args[0]); a != nil && len(e.Args) == 1 {
			to := e.Type
			// The empty sequence: empty when optional, else XPTY0004.
			return fastUnary(a, e.Optional, func(x xdm.Item) (xdm.Item, error) { return xdm.Cast(x, to) })
		}
	case OpCall:
		if e.Builtin == nil || len(e.Args) != 1 {
			return nil
		}
		if e.Builtin.Name == "sum" {
			return compileFastSum(e.Args[0])
		}
		if e.Builtin.Name == "number" {
			// number($paidAmount) (BR-FR-CO-09): numberOf the one item
			// or none, as the interpreter; several give up (XPTY0004).
			a := compileFastNumIn(ns, e.Args[0])
			if a == nil {
				return nil
			}
			return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
				x, empty, ok := a(fe, n)
				if !ok {
					return x, false, false
				}
				return xdm.Double(numberOf(x, !empty)), false, true
			}
		}
		if fn := compileFastStrLen(ns, e); fn != nil {
			return fn
		}
		dec, dbl := fastNumFn(e.Builtin.Name)
		if a := compileFastNumIn(ns, e.Args[0]); a != nil && dec != nil {
			return fastUnary(a, true, func(x xdm.Item) (xdm.Item, error) {
				if x.T == xdm.TUntyped { // as numArg
					var err error
					if x, err = xdm.Cast(x, xdm.TDouble); err != nil {
						return x, err
					}
				}
				switch {
				case x.T == xdm.TDouble:
					return xdm.Double(dbl(x.Float())), nil
				case x.T.IsNumeric():
					return x.WithDecimal(dec(x.Decimal())), nil
				}
				return x, errNotNumeric
			})
		}
	}
	return nil
}

// compileFastNumStep compiles P/E, a path whose last part E is
// arithmetic, a cast or a call that compileFastNumIn computes (UBL's BR-S-08
// and its siblings: ../xs:decimal(cbc:TaxableAmount - 1)): E on P's node
// when P selects one, the empty sequence when it selects none; with two
// or more the path's value is a sequence of items, which a fastNum does
// not hold, and it gives up. nil when e is not of that form.
func compileFastNumStep(ns *numShares, e *Expr) fastNum {
	if e.Op != OpPath || len(e.Args) < 2 {
		return nil
	}
	last := e.Args[len(e.Args)-1]
	switch last.Op {
	case OpStep, OpPath, OpUnion, OpFilter, OpContext, OpRoot:
		return nil // a step: the path selects nodes (fastOperandOf's)
	}
	prefix := e.Args[0]
	if len(e.Args) > 2 {
		prefix = &Expr{Op: OpPath, Args: e.Args[:len(e.Args)-1]}
	}
	p, ok := fastPathOf(prefix)
	tail := compileFastNumIn(ns, last)
	if !ok || tail == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
		nodes, ok := fe.collect(&p, n, 2)
		switch {
		case !ok || len(nodes) > 1:
			return xdm.Item{}, false, false
		case len(nodes) == 0:
			return xdm.Item{}, true, true
		}
		return tail(fe, nodes[0])
	}
}

// fastNumFnName reports whether e calls one of the numeric functions of
// one argument compileFastNumIn compiles (abs, round, floor, ceiling).
func fastNumFnName(e *Expr) bool {
	if e.Op != OpCall || e.Builtin == nil || len(e.Args) != 1 {
		return false
	}
	dec, _ := fastNumFn(e.Builtin.Name)
	return dec != nil
}

// compileFastSum is fn:sum of a frame-free operand (CII's BR-CO-10,
// sum(../../ram:IncludedSupplyChainTradeLineItem/.../ram:LineTotalAmount)):
// the interpreter's steps, each item made numeric (untypedAtomic cast to
// xs:double) and added to the first with xdm.Arith; 0 for no item. An item
// that is not numeric, a failed cast or addition gives up.
func compileFastSum(arg *Expr) fastNum {
	o, ok := fastOperandOf(arg)
	if !ok || o.count || o.fn != nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
		var acc xdm.Item
		k := 0
		decided := o.items(fe, n, func(x xdm.Item) bool {
			var err error
			switch {
			case x.T == xdm.TUntyped:
				if x, err = xdm.Cast(x, xdm.TDouble); err != nil {
					return false
				}
			case !x.T.IsNumeric():
				return false
			}
			if k++; k == 1 {
				acc = x
				return true
			}
			acc, err = xdm.Arith(xdm.OpAdd, acc, x)
			return err == nil
		})
		if k == 0 {
			acc = xdm.Integer(0)
		}
		return acc, false, decided
	}
}

// errNotNumeric is fastUnary's refusal of a non-numeric argument (the
// interpreter raises XPTY0004 there).
var errNotNumeric = errors.New("not numeric")

// fastUnary applies f to a's item; the empty sequence stays empty, or
// gives up when keepEmpty is false (a non-optional cast), as an error of f
// does.
func fastUnary(a fastNum, keepEmpty bool, f func(xdm.Item) (xdm.Item, error)) fastNum {
	return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
		x, empty, ok := a(fe, n)
		if !ok || empty {
			return x, empty, ok && keepEmpty
		}
		r, err := f(x)
		return r, false, err == nil
	}
}

// fastNumFn returns the decimal and double forms of the one-argument
// numeric function name (as defineBuiltins' numFn defines them), or nils.
func fastNumFn(name string) (func(xdm.Decimal) xdm.Decimal, func(float64) float64) {
	switch name {
	case "abs":
		return xdm.Decimal.Abs, math.Abs
	case "floor":
		return xdm.Decimal.Floor, math.Floor
	case "ceiling":
		return xdm.Decimal.Ceil, math.Ceil
	case "round":
		return xdm.Decimal.Round, xpathRound
	}
	return nil, nil
}

// compileFastNumCmp compiles a comparison of two fastNums (where neither
// side is a constant list compileFastCmp takes): false when a side is
// empty (a general comparison of the empty sequence; a value comparison's
// empty result), else xdm's comparison of the two items.
func compileFastNumCmp(ns *numShares, e *Expr) fastBool {
	if len(e.Args) != 2 {
		return nil
	}
	a, b := compileFastNumIn(ns, e.Args[0]), compileFastNumIn(ns, e.Args[1])
	if a == nil || b == nil {
		return nil
	}
	op, compare := e.Cmp, comparison(e.Op == OpGenCmp)
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		x, ex, ok := a(fe, n)
		if !ok {
			return false, false
		}
		y, ey, ok := b(fe, n)
		if !ok || ex || ey {
			return false, ok
		}
		v, err := compare(op, x, y)
		return v, err == nil
	}
}

// Shared subexpressions.
//
// BR-S-09 computes abs(xs:decimal(../cbc:TaxAmount)) and round((abs(
// xs:decimal(../cbc:TaxableAmount)) * (xs:decimal(cbc:Percent) div 100)) *
// 10 * 10) div 100 twice, once for each bound; BR-CO-17 its rounded rate
// four times; BR-B-02 a disjunction of three paths twice. A test's
// fastNum and fastBool subexpressions (calls, casts, operators,
// comparisons, and, or, not, exists, empty) that occur more than once
// with the same structure (fingerprint) share a slot (numShares): the
// first evaluation on the node computes the value, decided or not, and
// the others read it. The closures read no variable and only their node,
// so equal structures on one node have equal values (and equal refusals).
// The slots are the test's own: its top closure (shareTest) takes a new
// generation for each evaluation, and an entry counts only for its
// generation and node, so nothing is read across tests, nodes or
// documents, and a test evaluated inside another (a predicate's closure)
// only makes the outer one compute again.

// numShares is the sharing of one test's repeated subexpressions: the
// nodes that share slot s carry NumShare s+1 (planNumShares).
type numShares struct {
	// local[s]: slot s's subexpression reads the variable of a
	// frame-free quantified expression (closedBut(e, true), reading an
	// OpLocal), so its value holds
	// for one binding of it only (fastEnv.locGen). One entry per slot;
	// nil: no slot (the NumShare of the tree's nodes are not read).
	local []bool
	// vars: the test may compare with variables and call fns's
	// ExtScalars (compileFastVars).
	vars bool
	fns  *Functions
	// used: the slots a closure was wrapped for (slot), a bit each.
	used [4]uint64
}

// nUsed returns how many slots a closure was wrapped for.
func (ns *numShares) nUsed() int {
	n := 0
	for _, w := range ns.used {
		n += bits.OnesCount64(w)
	}
	return n
}

// numEntry is a shared slot's value (fastEnv.nums): it, empty and ok for
// a fastNum; the value in empty and ok for a fastBool (shareBool).
type numEntry struct {
	gen       uint64
	node      xmltree.NodeID
	it        xdm.Item
	empty, ok bool
}

// planNumShares numbers root's repeated subexpressions that a frame-free
// test computes once per evaluation (Expr.NumShare) and returns each
// slot's local flag (numShares.local), nil when there are none. It
// depends on the tree's structure only, so a tree wrapped many times (the
// compile cache) is planned once (PlanShared) and its copies carry the
// numbers. Structure is compared by hash-consing, in one walk over the
// tree (hc is a scratch table, as prepareCSE's), and closedBut of each
// node, with and without locals, is found on the way up.
func planNumShares(root *Expr, hc *hashCons) []bool {
	// The candidates are the nodes reached through operands (Args) only,
	// not those in predicates or bindings.
	n := 0
	var count func(e *Expr)
	count = func(e *Expr) {
		if sharedOp(e) {
			n++
		}
		for _, a := range e.Args {
			count(a)
		}
	}
	if count(root); n < 2 {
		return nil // most tests: nothing to share
	}
	hc.reset()
	type group struct {
		nodes []*Expr
		local bool
	}
	groups := map[int32]*group{}
	var order []int32
	var stack []int32
	// walk returns e's id and whether e is closedBut(e, false),
	// closedBut(e, true) and readsLocal(e); cand: e is reached through
	// operands only.
	var walk func(e *Expr, cand bool) (id int32, closed, closedL, reads bool)
	walk = func(e *Expr, cand bool) (int32, bool, bool, bool) {
		e.NumShare = 0 // a tree planned before
		closed, closedL, reads := ownClosed(e, false), ownClosed(e, true), e.Op == OpLocal
		mark := len(stack)
		kid := func(c *Expr, arg, tree bool) {
			id, cc, cl, r := walk(c, cand && arg)
			stack = append(stack, id)
			if tree { // closedBut reads Args and Preds
				closed, closedL = closed && cc, closedL && cl
			}
			reads = reads || r
		}
		for _, a := range e.Args {
			kid(a, true, true)
		}
		stack = append(stack, -1)
		for _, p := range e.Preds {
			kid(p, false, true)
		}
		stack = append(stack, -2)
		for _, bd := range e.Bindings() {
			stack = append(stack, int32(bd.Slot))
			kid(bd.In, false, false)
		}
		id := hc.id(e, stack[mark:])
		stack = stack[:mark]
		// A candidate is worth a slot (a call, a cast or an operator, not
		// a literal or a plain path) and depends on its node only
		// (closedExpr: no variable, no extension function); or it also
		// reads the variables of the frame-free quantified expressions
		// around it (BR-S-08's sums of the lines at $rate, each compared
		// twice), and its value holds for one binding of them (local).
		if local := closedL && reads; cand && sharedOp(e) && (closed || local) {
			g := groups[id]
			if g == nil {
				g = &group{}
				groups[id] = g
				order = append(order, id)
			}
			g.nodes = append(g.nodes, e)
			g.local = g.local || local
		}
		return id, closed, closedL, reads
	}
	walk(root, true)
	var local []bool
	for _, id := range order {
		g := groups[id]
		if len(g.nodes) < 2 || len(local) == maxNumShares {
			continue
		}
		local = append(local, g.local)
		for _, e := range g.nodes {
			e.NumShare = uint8(len(local))
		}
	}
	return local
}

// maxNumShares bounds a test's slots (Expr.NumShare is a byte); further
// repeated subexpressions are computed at each occurrence.
const maxNumShares = 255

// sharedOp: e's operator is one a slot can hold.
func sharedOp(e *Expr) bool {
	switch e.Op {
	case OpCall, OpCast, OpArith, OpNeg, OpGenCmp, OpValCmp, OpAnd, OpOr, OpNot, OpExists, OpEmpty:
		return true
	}
	return false
}

// slot returns the slot of e, whose closure was compiled when compiled
// is true, if it has one (ns may be nil: none); local reports that the
// slot's value holds for one binding of the quantified variables only.
func (ns *numShares) slot(e *Expr, compiled bool) (slot int32, local, ok bool) {
	if ns == nil || !compiled || e.NumShare == 0 || int(e.NumShare) > len(ns.local) {
		return 0, false, false
	}
	s := int32(e.NumShare) - 1
	ns.used[s>>6] |= 1 << (s & 63)
	return s, ns.local[s], true
}

// shareNum is fn reading and filling slot.
func shareNum(slot int32, local bool, fn fastNum) fastNum {
	return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
		// The generation the value is valid in: the test's evaluation,
		// or for a local slot the binding of the quantified variables.
		e, gen := &fe.nums[slot], fe.numGen
		if local {
			gen = fe.locGen
		}
		if e.gen == gen && e.node == n {
			return e.it, e.empty, e.ok
		}
		it, empty, ok := fn(fe, n)
		fe.nums[slot] = numEntry{gen: gen, node: n, it: it, empty: empty, ok: ok}
		return it, empty, ok
	}
}

// shareBool is shareNum for a boolean subexpression (the value in empty).
func shareBool(slot int32, local bool, fn fastBool) fastBool {
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		e, gen := &fe.nums[slot], fe.numGen
		if local {
			gen = fe.locGen
		}
		if e.gen == gen && e.node == n {
			return e.empty, e.ok
		}
		v, ok := fn(fe, n)
		fe.nums[slot] = numEntry{gen: gen, node: n, empty: v, ok: ok}
		return v, ok
	}
}

// shareTest is test's top closure when ns shares slots: a new generation
// for each evaluation, the slots there, and the caller's generation back.
func shareTest(ns *numShares, test fastBool) fastBool {
	if ns == nil || test == nil {
		return test
	}
	k := len(ns.local)
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		if len(fe.nums) < k {
			fe.nums = append(fe.nums, make([]numEntry, k-len(fe.nums))...)
		}
		outer, outerLoc := fe.numGen, fe.locGen
		fe.numSeq++
		fe.numGen, fe.locGen = fe.numSeq, fe.numSeq
		v, ok := test(fe, n)
		fe.numGen, fe.locGen = outer, outerLoc
		return v, ok
	}
}

// compileFastCountTokens compiles count(tokenize(X, 'lit')) with a literal
// pattern free of regular-expression syntax (BR-FR-06's
// count(tokenize($allNotes, '#PMT#'))): X one string, untypedAtomic or
// node, or nothing (a fastNum, a let in the form reading variables); the
// tokens are the pieces between non-overlapping occurrences, leftmost
// first, as the regular expression finds them: none for "", else one more
// than the occurrences. nil for anything else.
func compileFastCountTokens(ns *numShares, e *Expr) fastNum {
	if e.Op != OpCount || len(e.Args) != 1 {
		return nil
	}
	t := e.Args[0]
	if t.Op != OpCall || t.Builtin == nil || t.Builtin.Name != "tokenize" || len(t.Args) != 2 ||
		t.Args[1].Op != OpConst || len(t.Args[1].Seq) != 1 || t.Args[1].Seq[0].T != xdm.TString {
		return nil
	}
	lit := t.Args[1].Seq[0].S
	if lit == "" || strings.ContainsAny(lit, `\.^$|?*+()[]{}`) {
		return nil
	}
	arg := compileFastNumIn(ns, t.Args[0])
	if arg == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
		it, empty, ok := arg(fe, n)
		switch {
		case !ok:
			return xdm.Item{}, false, false
		case empty || (it.T == xdm.TString || it.T == xdm.TUntyped) && it.S == "":
			return xdm.Integer(0), false, true
		case it.T != xdm.TString && it.T != xdm.TUntyped:
			return xdm.Item{}, false, false // XPTY0004: the interpreter's
		}
		return xdm.Integer(int64(strings.Count(it.S, lit) + 1)), false, true
	}
}
