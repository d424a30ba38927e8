package xpath

import (
	"strings"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// optimize rewrites a freshly parsed tree bottom-up into the evaluator's
// fast paths. Every rewrite preserves XPath semantics exactly:
//   - "//T" (descendant-or-self::node()/child::T without predicates) becomes
//     descendant::T (same nodes, one walk instead of one per node);
//   - a constant positive integer predicate [n] becomes a direct index;
//   - exists/empty/not/count become ops that stop early / avoid calls;
//   - contains(' A B C ', concat(' ', normalize-space(X), ' ')) with a
//     normalised, space-framed literal becomes a set lookup;
//   - child::T = 'literal' (or @a = 'literal') becomes a direct scan;
//   - a path records the name tests that make it empty when their name does
//     not occur in the document (vm.PathKillers).
func optimize(e *vm.Expr) *vm.Expr {
	if e == nil {
		return nil
	}
	for i, a := range e.Args {
		e.Args[i] = optimize(a)
	}
	for i, p := range e.Preds {
		p = optimize(p)
		if p.Op == vm.OpConst && len(p.Seq) == 1 && p.Seq[0].T == xdm.TInteger {
			if v, ok := p.Seq[0].Decimal().Int64(); ok && v > 0 && v < 1<<30 {
				p = &vm.Expr{Op: vm.OpConst, Seq: p.Seq, Aux: &vm.ExprAux{PosConst: int(v)}}
			}
		}
		e.Preds[i] = p
	}
	binds := e.Bindings()
	for i := range binds {
		binds[i].In = optimize(binds[i].In)
	}
	switch e.Op {
	case vm.OpPath:
		return optimizePath(e)
	case vm.OpCall:
		e = optimizeCall(e)
	case vm.OpGenCmp:
		e = optimizeGenCmp(e)
	case vm.OpAnd:
		e = optimizeCodeToken(e)
	case vm.OpSome:
		if r := optimizeSomeEq(e); r != e {
			e = optimizeGenCmp(r) // S may be a constant list: a set lookup
		}
	}
	if e.Op != vm.OpConst {
		if seq, ok := vm.FoldConstant(e); ok {
			return &vm.Expr{Op: vm.OpConst, Seq: seq}
		}
	}
	return e
}

// optimizeGenCmp picks the child-equals-literal scan, or a set lookup when
// one side is a constant list of strings (normalize-space(.) = ('AD', 'AE', ...)).
func optimizeGenCmp(e *vm.Expr) *vm.Expr {
	if r := optimizeChildEq(e); r != e {
		return r
	}
	if r := optimizeLenAfter(e); r != e {
		return r
	}
	if r := optimizeBlankCmp(e); r != e {
		return r
	}
	if e.Cmp != xdm.OpEq {
		return e
	}
	if isStringList(e.Args[0]) && !isStringList(e.Args[1]) {
		e.Args[0], e.Args[1] = e.Args[1], e.Args[0] // = is symmetric
	}
	if !isStringList(e.Args[1]) || len(e.Args[1].Seq) < 4 {
		return e
	}
	set := make(map[string]struct{}, len(e.Args[1].Seq))
	for _, it := range e.Args[1].Seq {
		set[it.S] = struct{}{}
	}
	e.Set = set
	return e
}

func isStringList(e *vm.Expr) bool {
	if e.Op != vm.OpConst || len(e.Seq) == 0 {
		return false
	}
	for _, it := range e.Seq {
		if it.T != xdm.TString {
			return false
		}
	}
	return true
}

func isPlainStep(e *vm.Expr, ax vm.Axis) bool {
	return e.Op == vm.OpStep && e.Axis == ax && len(e.Preds) == 0
}

func optimizePath(e *vm.Expr) *vm.Expr {
	out := e.Args[:0:0]
	for i := 0; i < len(e.Args); i++ {
		a := e.Args[i]
		if i > 0 && isPlainStep(a, vm.AxisDescendantOrSelf) && a.Test.Kind == vm.TestNode && i+1 < len(e.Args) {
			if d, ok := descendantForm(e.Args[i+1]); ok {
				out = append(out, d)
				i++
				continue
			}
		}
		out = append(out, a)
	}
	if len(out) == 1 {
		return out[0]
	}
	e.Args = out
	e.SetKills(vm.PathKillers(e))
	return e
}

// descendantForm rewrites the step that follows descendant-or-self::node()
// into one expression over the whole subtree, when the predicates are
// non-positional (so filtering per parent or over the whole subtree keeps the
// same nodes):
//   - child::T[p] becomes descendant::T[p];
//   - attribute::T[p] becomes the internal descendant-attribute axis
//     (attributes of the node and of its descendants, "//@T");
//   - a union of such steps ("//(a|b)") becomes the union of their forms
//     (the path sorts and deduplicates either way).
func descendantForm(e *vm.Expr) (*vm.Expr, bool) {
	switch e.Op {
	case vm.OpStep:
		if !nonPositional(e.Preds) {
			return nil, false
		}
		switch e.Axis {
		case vm.AxisChild:
			return &vm.Expr{Op: vm.OpStep, Axis: vm.AxisDescendant, Test: e.Test, Preds: e.Preds}, true
		case vm.AxisAttribute:
			return &vm.Expr{Op: vm.OpStep, Axis: vm.AxisDescendantAttribute, Test: e.Test, Preds: e.Preds}, true
		}
	case vm.OpUnion:
		l, ok := descendantForm(e.Args[0])
		if !ok {
			return nil, false
		}
		r, ok := descendantForm(e.Args[1])
		if !ok {
			return nil, false
		}
		return &vm.Expr{Op: vm.OpUnion, Args: []*vm.Expr{l, r}}, true
	}
	return nil, false
}

func optimizeCall(e *vm.Expr) *vm.Expr {
	switch e.FuncName() {
	case "exists":
		return &vm.Expr{Op: vm.OpExists, Args: e.Args}
	case "empty":
		return &vm.Expr{Op: vm.OpEmpty, Args: e.Args}
	case "not":
		return &vm.Expr{Op: vm.OpNot, Args: e.Args}
	case "count":
		return &vm.Expr{Op: vm.OpCount, Args: e.Args}
	case "contains":
		if len(e.Args) != 2 {
			return e
		}
		list, ok := constString(e.Args[0])
		if !ok || len(list) < 2 || list != " "+normalizeSpace(list)+" " {
			return e
		}
		c := e.Args[1]
		if c.Op != vm.OpCall || c.FuncName() != "concat" || len(c.Args) != 3 {
			return e
		}
		if l, ok := constString(c.Args[0]); !ok || l != " " {
			return e
		}
		if r, ok := constString(c.Args[2]); !ok || r != " " {
			return e
		}
		ns := c.Args[1]
		if ns.Op != vm.OpCall || ns.FuncName() != "normalize-space" || len(ns.Args) != 1 {
			return e
		}
		set := map[string]struct{}{}
		for _, tok := range strings.Fields(list) {
			set[tok] = struct{}{}
		}
		return &vm.Expr{Op: vm.OpCodeSet, Args: ns.Args, Set: set, Str: list}
	}
	return e
}

// optimizeCodeToken fuses the guarded code-list idiom of the official rule
// sets, not(contains(normalize-space(X), ' ')) and <code set of X>, into
// one op that evaluates X once: the guard is false exactly when the
// normalized value has a space, and X's errors are raised by the first
// evaluation either way.
func optimizeCodeToken(e *vm.Expr) *vm.Expr {
	guard, set := e.Args[0], e.Args[1]
	if guard.Op != vm.OpNot || len(guard.Args) != 1 || set.Op != vm.OpCodeSet {
		return e
	}
	c := guard.Args[0]
	if c.Op != vm.OpCall || c.FuncName() != "contains" || len(c.Args) != 2 {
		return e
	}
	if sp, ok := constString(c.Args[1]); !ok || sp != " " {
		return e
	}
	ns := c.Args[0]
	if ns.Op != vm.OpCall || ns.FuncName() != "normalize-space" || len(ns.Args) != 1 || !sameExpr(ns.Args[0], set.Args[0]) {
		return e
	}
	return &vm.Expr{Op: vm.OpCodeToken, Args: set.Args, Set: set.Set, Str: set.Str}
}

// sameExpr reports whether a and b are the same simple expression: paths,
// steps, the context, constants and built-in calls (anything else: false).
func sameExpr(a, b *vm.Expr) bool {
	if a.Op != b.Op || a.Axis != b.Axis || a.Test != b.Test || a.FuncName() != b.FuncName() || a.Builtin != b.Builtin ||
		a.Str != b.Str || a.ConstPos() != b.ConstPos() || len(a.Args) != len(b.Args) || len(a.Preds) != len(b.Preds) {
		return false
	}
	switch a.Op {
	case vm.OpPath, vm.OpStep, vm.OpContext, vm.OpRoot, vm.OpCall:
	case vm.OpConst:
		if len(a.Seq) != len(b.Seq) {
			return false
		}
		for i := range a.Seq {
			if a.Seq[i] != b.Seq[i] {
				return false
			}
		}
	default:
		return false
	}
	for i := range a.Args {
		if !sameExpr(a.Args[i], b.Args[i]) {
			return false
		}
	}
	for i := range a.Preds {
		if !sameExpr(a.Preds[i], b.Preds[i]) {
			return false
		}
	}
	return true
}

// optimizeLenAfter rewrites string-length(substring-after(X, 'sep')) Cmp n
// (n an integer literal) into one op: X is evaluated and checked as
// substring-after checks it (same errors), the rest is string arithmetic.
func optimizeLenAfter(e *vm.Expr) *vm.Expr {
	sl, n := e.Args[0], e.Args[1]
	if sl.Op != vm.OpCall || sl.FuncName() != "string-length" || len(sl.Args) != 1 ||
		n.Op != vm.OpConst || len(n.Seq) != 1 || n.Seq[0].T != xdm.TInteger {
		return e
	}
	sa := sl.Args[0]
	if sa.Op != vm.OpCall || sa.FuncName() != "substring-after" || len(sa.Args) != 2 {
		return e
	}
	sep, ok := constString(sa.Args[1])
	if !ok {
		return e
	}
	return &vm.Expr{Op: vm.OpLenAfter, Cmp: e.Cmp, Args: []*vm.Expr{sa.Args[0], n}, Str: sep}
}

// optimizeBlankCmp rewrites normalize-space(X) != ” (and = ”) into a
// scan of X's string for a non-whitespace character, with normalize-space's
// checks of X.
func optimizeBlankCmp(e *vm.Expr) *vm.Expr {
	if e.Cmp != xdm.OpEq && e.Cmp != xdm.OpNe {
		return e
	}
	ns, lit := e.Args[0], e.Args[1]
	if s, ok := constString(ns); ok && s == "" {
		ns, lit = lit, ns // = and != are symmetric
	}
	if s, ok := constString(lit); !ok || s != "" {
		return e
	}
	if ns.Op != vm.OpCall || ns.FuncName() != "normalize-space" || len(ns.Args) != 1 {
		return e
	}
	return &vm.Expr{Op: vm.OpBlankCmp, Cmp: e.Cmp, Args: ns.Args}
}

func optimizeChildEq(e *vm.Expr) *vm.Expr {
	if e.Cmp != xdm.OpEq {
		return e
	}
	step, lit := e.Args[0], e.Args[1]
	if _, ok := constString(step); ok {
		step, lit = lit, step
	}
	s, ok := constString(lit)
	if !ok || step.Op != vm.OpStep || len(step.Preds) != 0 || step.Test.Kind != vm.TestName ||
		(step.Axis != vm.AxisChild && step.Axis != vm.AxisAttribute) {
		return e
	}
	return &vm.Expr{Op: vm.OpChildEq, Axis: step.Axis, Test: step.Test, Str: s}
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// booleanFunctions are the built-ins whose result is a single xs:boolean.
var booleanFunctions = map[string]bool{"matches": true, "contains": true, "starts-with": true,
	"ends-with": true, "true": true, "false": true, "boolean": true, "not": true,
	"exists": true, "empty": true}

// nonPositional reports whether every predicate is statically known never
// to yield a number, so it filters by effective boolean value only and
// "//x[p]" may become descendant::x[p].
func nonPositional(preds []*vm.Expr) bool {
	for _, p := range preds {
		if !staticBoolean(p) {
			return false
		}
	}
	return true
}

func staticBoolean(p *vm.Expr) bool {
	switch p.Op {
	case vm.OpGenCmp, vm.OpValCmp, vm.OpNodeCmp, vm.OpAnd, vm.OpOr, vm.OpNot, vm.OpExists,
		vm.OpEmpty, vm.OpCodeSet, vm.OpCodeToken, vm.OpChildEq, vm.OpLenAfter, vm.OpBlankCmp, vm.OpSome, vm.OpEvery, vm.OpCastable, vm.OpInstanceOf:
		return true
	case vm.OpCall:
		return booleanFunctions[p.FuncName()]
	case vm.OpStep:
		return true // a node sequence
	case vm.OpPath:
		return p.Args[len(p.Args)-1].Op == vm.OpStep
	}
	return false
}

// optimizeSomeEq turns `some $x in S satisfies A = $x` (or `$x = A`) into
// the general comparison `A = S`: a general comparison is existential over
// both operands, so the verdict is the same, and A is evaluated once
// instead of once per item of S (PEPPOL-EN16931-CL007: `some $code in
// $ISO4217 satisfies @currencyID = $code`, 180 codes, on every amount
// element). Only where nothing else can differ: A is a predicate-free
// attribute step (at most one item, never an error, so the pairs are
// compared in the same order) and S a variable or a constant (read without
// error, whether or not A is empty).
func optimizeSomeEq(e *vm.Expr) *vm.Expr {
	if len(e.Bindings()) != 1 || len(e.Args) != 1 {
		return e
	}
	body, bind := e.Args[0], e.Bindings()[0]
	slot := bind.Slot
	if body.Op != vm.OpGenCmp || body.Cmp != xdm.OpEq || len(body.Args) != 2 || body.Set != nil {
		return e
	}
	isX := func(a *vm.Expr) bool { return a.Op == vm.OpLocal && a.Slot == slot }
	a, x := body.Args[0], body.Args[1]
	if isX(a) {
		a, x = x, a
	}
	if !isX(x) || usesLocal(a, slot) || usesLocal(bind.In, slot) {
		return e
	}
	if a.Op != vm.OpStep || a.Axis != vm.AxisAttribute || len(a.Preds) != 0 || a.Test.Kind != vm.TestName {
		return e
	}
	if bind.In.Op != vm.OpVar && bind.In.Op != vm.OpConst {
		return e
	}
	return &vm.Expr{Op: vm.OpGenCmp, Cmp: xdm.OpEq, Args: []*vm.Expr{a, bind.In}}
}

// usesLocal says whether e reads the local variable slot.
func usesLocal(e *vm.Expr, slot int) bool {
	if e == nil {
		return false
	}
	if e.Op == vm.OpLocal && e.Slot == slot {
		return true
	}
	for _, c := range e.Args {
		if usesLocal(c, slot) {
			return true
		}
	}
	for _, c := range e.Preds {
		if usesLocal(c, slot) {
			return true
		}
	}
	for _, b := range e.Bindings() {
		if usesLocal(b.In, slot) {
			return true
		}
	}
	return false
}
