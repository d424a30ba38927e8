package vm

import (
	"context"
	"slices"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Pattern is a compiled XSLT 2.0 match pattern (a Schematron rule context).
// A node N matches when it is in the result of root(N)//(P) (or /P for an
// absolute pattern); Matches decides this by walking upwards from N.
// Patterns are immutable and safe for concurrent use.
type Pattern struct {
	src  string
	alts []PathPattern
	prog *Program // evaluation shell for the predicates (no root expression)
	// gates[i] is the name-only condition of alternative i (nameGate), or
	// nil; nameFiltered is set when no alternative is "/".
	gates        []*Expr
	nameFiltered bool
	// pastGate, for a pattern of one alternative with a gate, is what its
	// last step's predicates still have to decide once the gate holds
	// (MatchesGated): the conjuncts of the first predicate after the gate,
	// in the order "and" evaluates them; nil otherwise.
	pastGate []*Expr
	// dispatch is the key of the pattern's first predicate (DispatchKey),
	// or nil.
	dispatch *dispatchKey
	// fast is the pattern's frame-free match (fast.go), or nil.
	fast *fastPattern
	// guards[a] are the document guards of alternative a (guard.go); nil
	// when some alternative has none.
	guards [][]*Expr
}

// dispatchKey is the K = 'literal' form of a pattern's first predicate:
// expr is K (for the child-equals fast path, the child step), key its
// fingerprint and lit the literal.
type dispatchKey struct {
	expr     *Expr
	key, lit string
	// fast is expr's frame-free evaluation (normalize-space(cbc:ID) of
	// each cac:ClassifiedTaxCategory), nil when it has none.
	fast *fastOperand
}

// PathPattern is one branch of a union pattern.
type PathPattern struct {
	Absolute bool          // starts with "/" or "//"
	Steps    []PatternStep // in source order; empty for the pattern "/"
}

// PatternStep is one step of a path pattern.
type PatternStep struct {
	Desc  bool // separated from the previous step (or the root) by "//"
	Attr  bool // attribute axis
	Test  NodeTest
	Preds []*Expr
	// Positional is set by the compiler when a predicate may depend on the
	// position (numeric value, position(), last()): only then are the
	// node's siblings collected; otherwise the predicates are tested on the
	// node alone.
	Positional bool

	// safePreds is set by NewPattern when no predicate can raise an error
	// (predicate-free steps and paths, e.g. [@schemeID]): the parent step is
	// then tested first, since skipping the predicates changes nothing.
	safePreds bool
}

// NewPattern wraps compiled path patterns; they must not be modified later.
func NewPattern(src string, alts []PathPattern, nLocals int) *Pattern {
	return NewPatternFuncs(src, alts, nLocals, nil)
}

// NewPatternFuncs is NewPattern for predicates compiled against fns.
func NewPatternFuncs(src string, alts []PathPattern, nLocals int, fns *Functions) *Pattern {
	return NewPatternIn(src, alts, nLocals, fns, nil)
}

// NewPatternIn is NewPatternFuncs with the names numbered in cat (see
// NewProgramIn); cat may be nil.
func NewPatternIn(src string, alts []PathPattern, nLocals int, fns *Functions, cat *Catalog) *Pattern {
	pt := &Pattern{src: src, alts: alts, prog: NewProgramIn(src, nil, nLocals, fns, cat), nameFiltered: true}
	pt.gates = make([]*Expr, len(alts))
	for i := range alts {
		if len(alts[i].Steps) == 0 {
			pt.nameFiltered = false
			continue
		}
		pt.gates[i] = nameGate(&alts[i].Steps[len(alts[i].Steps)-1])
	}
	if len(alts) == 1 && pt.gates[0] != nil {
		pt.pastGate = gateRest(alts[0].Steps[len(alts[0].Steps)-1].Preds[0], pt.gates[0])
	}
	for i := range alts {
		for j := range alts[i].Steps {
			st := &alts[i].Steps[j]
			if cat != nil && namedTest(&st.Test) {
				st.Test.Slot = cat.slot(st.Test.Space, st.Test.Local)
			}
			st.safePreds = true
			for _, pr := range st.Preds {
				st.safePreds = st.safePreds && safeNodeExpr(pr)
				cat.prepare(pr)
				cat.preparePred(pr)
				markCmpCard(pr)
				cat.prepareFastPred(pr)
				pt.prog.vars = collectVars(pt.prog.vars, pr)
			}
		}
	}
	pt.dispatch = newDispatchKey(alts)
	if cat != nil {
		pt.fast = compileFastPattern(pt)
		if d := pt.dispatch; d != nil {
			if o, ok := fastOperandOf(d.expr); ok && !o.count && !o.cast {
				d.fast = &o
			}
		}
	}
	pt.prepareGuards()
	return pt
}

// newDispatchKey recognises a pattern whose branches all have, as the
// first predicate of a non-positional last step, the same K = 'literal': a
// general comparison of one string literal with an expression K that reads
// no variable and not the focus position (normalize-space(cbc:ID) = 'S', or
// the child-equals fast path ram:CategoryCode = 'S'). Matching such a
// branch tests the last step's name, then that predicate, before anything
// else that can fail or raise an error (matchStep: the predicates of a step
// whose predicates can raise come before its parent step).
func newDispatchKey(alts []PathPattern) *dispatchKey {
	var d *dispatchKey
	for i := range alts {
		b := branchDispatchKey(&alts[i])
		if b == nil || (d != nil && (b.key != d.key || b.lit != d.lit)) {
			return nil
		}
		if d == nil {
			d = b
		}
	}
	return d
}

func branchDispatchKey(a *PathPattern) *dispatchKey {
	if len(a.Steps) == 0 {
		return nil
	}
	st := &a.Steps[len(a.Steps)-1]
	if st.Positional || len(st.Preds) == 0 || st.safePreds {
		// (safe predicates are tested after the parent step: the order
		// DispatchValues relies on does not hold, and they are cheap.)
		return nil
	}
	p := st.Preds[0]
	var k *Expr
	var lit string
	switch {
	case p.Op == OpChildEq:
		// The child-equals fast path also stands for @a = 'literal'.
		k, lit = &Expr{Op: OpStep, Axis: p.Axis, Test: p.Test}, p.Str
	case p.Op == OpGenCmp && p.Cmp == xdm.OpEq && p.Set == nil && len(p.Args) == 2:
		for i, c := range p.Args {
			if c.Op == OpConst && len(c.Seq) == 1 && c.Seq[0].T == xdm.TString {
				k, lit = p.Args[1-i], c.Seq[0].S
				break
			}
		}
	}
	if k == nil || k.Op == OpConst || !closedExpr(k) || usesFocusPosition(k) {
		return nil
	}
	return &dispatchKey{expr: k, key: string(fingerprint(nil, k)), lit: lit}
}

// DispatchKey reports whether the pattern's first predicate has the form
// K = 'literal' (see newDispatchKey): a node whose K has no value equal to
// lit does not match the pattern, whatever else the pattern says. Patterns
// with the same key share K, so DispatchValues of one of them, once per
// node, rules out all those whose literal is not among its values (the nine
// VAT-category rules on each cac:ClassifiedTaxCategory of EN 16931).
func (pt *Pattern) DispatchKey() (key, lit string, ok bool) {
	if pt.dispatch == nil {
		return "", "", false
	}
	return pt.dispatch.key, pt.dispatch.lit, true
}

// DispatchValues evaluates K of a pattern with a DispatchKey for node, with
// the focus the first predicate has (the node, position 1 of 1), and appends
// its values to out. ok is false when K raised an error or gave a value that
// is neither xs:string nor untypedAtomic: only the predicate itself decides
// then (an error is the pattern's to raise, or to recover from).
func (pt *Pattern) DispatchValues(ctx context.Context, env *Env, node xmltree.NodeID, out []string) (_ []string, ok bool) {
	d := pt.dispatch
	if d == nil {
		return out, false
	}
	if d.fast != nil {
		if fe := env.fastFrame(pt.prog.cat); fe != nil {
			// Where the operand cannot decide, or gives a value of
			// another type, the interpreter answers below.
			start, strs := len(out), true
			if d.fast.items(fe, node, func(a xdm.Item) bool {
				if strs = a.T == xdm.TString || a.T == xdm.TUntyped; strs {
					out = append(out, a.S)
				}
				return strs
			}) {
				return out, true
			}
			out = out[:start]
		}
	}
	f := env.acquire(ctx, pt.prog)
	defer f.release()
	s, err := f.eval(d.expr, focus{item: f.node(node), pos: 1, size: 1})
	if err != nil {
		return out, false
	}
	for _, it := range s {
		a := f.atom(it)
		if a.T != xdm.TString && a.T != xdm.TUntyped {
			return out, false
		}
		out = append(out, a.S)
	}
	return out, true
}

// VarSlots returns the Env.Vars slots the pattern's predicates read.
func (pt *Pattern) VarSlots() []int { return pt.prog.vars }

// EmptyLeafOnly reports whether every node the pattern matches is an
// empty leaf (EmptyLeaf): a predicate of the last step of each alternative
// has not(*) and not(normalize-space()) among its conjuncts, as the rule
// sets' checks for empty elements have: //*[not(*) and
// not(normalize-space())], and in XRechnung CII //*[not(name() =
// 'ram:ApplicableHeaderTradeDelivery') and not(*) and not(normalize-space())].
func (pt *Pattern) EmptyLeafOnly() bool {
	if len(pt.alts) == 0 {
		return false
	}
	for _, a := range pt.alts {
		if len(a.Steps) == 0 || !slices.ContainsFunc(a.Steps[len(a.Steps)-1].Preds, impliesEmptyLeaf) {
			return false
		}
	}
	return true
}

// RootChildOnly reports whether every node the pattern matches is a child
// of the document node: each alternative is one child step from the root
// ("/*", "/ubl:Invoice[...]"), as the scenario matches of the validator
// configurations are (rulesets/scenarios.go).
func (pt *Pattern) RootChildOnly() bool {
	if len(pt.alts) == 0 {
		return false
	}
	for _, a := range pt.alts {
		if !a.Absolute || len(a.Steps) != 1 || a.Steps[0].Desc || a.Steps[0].Attr {
			return false
		}
	}
	return true
}

// impliesEmptyLeaf reports whether predicate p, a conjunction, has the
// conjuncts not(*) and not(normalize-space()).
func impliesEmptyLeaf(p *Expr) bool {
	var noChild, blankText bool
	var walk func(e *Expr)
	walk = func(e *Expr) {
		switch {
		case e.Op == OpAnd && len(e.Args) == 2:
			walk(e.Args[0])
			walk(e.Args[1])
		case isNoChildTest(e):
			noChild = true
		case isBlankTest(e):
			blankText = true
		}
	}
	walk(p)
	return noChild && blankText
}

// Source returns the pattern text.
func (pt *Pattern) Source() string { return pt.src }

// Alternatives returns the branches (read-only).
func (pt *Pattern) Alternatives() []PathPattern { return pt.alts }

// ElementNames returns the expanded element names the final step of the
// pattern can match; any is true when some branch can match other nodes
// (wildcards, attributes, kind tests, "/").
func (pt *Pattern) ElementNames() (names []xdm.QName, any bool) {
	for _, a := range pt.alts {
		if len(a.Steps) == 0 {
			any = true
			continue
		}
		last := a.Steps[len(a.Steps)-1]
		if last.Attr || last.Test.Kind != TestName {
			any = true
			continue
		}
		names = append(names, xdm.QName{Space: last.Test.Space, Local: last.Test.Local})
	}
	return names, any
}

// Matches reports whether node matches the pattern.
func (pt *Pattern) Matches(ctx context.Context, env *Env, node xmltree.NodeID) (bool, error) {
	if v, ok := pt.MatchFast(env, node, false); ok {
		return v, nil
	}
	f := env.acquire(ctx, pt.prog)
	defer f.release()
	for i := range pt.alts {
		a := &pt.alts[i]
		if len(a.Steps) == 0 {
			if f.doc.Kind(node) == xmltree.KindDocument {
				return true, nil
			}
			continue
		}
		ok, err := f.matchStep(a, len(a.Steps)-1, node, nil)
		if err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// MatchesGated is Matches for a node whose spelling and kind MatchesName
// found NameGated: the gate is known to hold, so the last step's first
// predicate is decided by the conjuncts after the gate alone (the gate
// depends on the spelling only, and "and" evaluates it first, so skipping
// it changes neither the answer nor the errors).
func (pt *Pattern) MatchesGated(ctx context.Context, env *Env, node xmltree.NodeID) (bool, error) {
	if pt.pastGate == nil {
		return pt.Matches(ctx, env, node)
	}
	if v, ok := pt.MatchFast(env, node, true); ok {
		return v, nil
	}
	f := env.acquire(ctx, pt.prog)
	defer f.release()
	a := &pt.alts[0]
	return f.matchStep(a, len(a.Steps)-1, node, pt.pastGate)
}

// matchStep matches node n against step i of a and the steps before it;
// pastGate, when not nil, replaces the first predicate of step i (see
// MatchesGated).
func (f *frame) matchStep(a *PathPattern, i int, n xmltree.NodeID, pastGate []*Expr) (bool, error) {
	for {
		st := &a.Steps[i]
		if !f.stepTest(st, n) {
			return false, nil
		}
		p := f.doc.Parent(n)
		if p == xmltree.None {
			return false, nil
		}
		if len(st.Preds) > 0 && st.safePreds && i > 0 && !st.Desc && !f.stepTest(&a.Steps[i-1], p) {
			return false, nil
		}
		if len(st.Preds) > 0 {
			ok, err := f.patternPreds(st, st.axis(), p, n, pastGate)
			if err != nil || !ok {
				return false, err
			}
		}
		if i == 0 {
			if !a.Absolute || st.Desc {
				return true, nil
			}
			return f.doc.Kind(p) == xmltree.KindDocument, nil
		}
		if st.Desc {
			break
		}
		// "/": the parent matches step i-1 (a loop, not a call: the long
		// absolute contexts of CII are tested step by step on every node).
		i, n, pastGate = i-1, p, nil
	}
	for anc := f.doc.Parent(n); anc != xmltree.None; anc = f.doc.Parent(anc) {
		if err := f.tick(); err != nil {
			return false, err
		}
		ok, err := f.matchStep(a, i-1, anc, nil)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// stepTest reports whether node n passes the node test of pattern step st
// (its kind and name), predicates aside. A catalogued name of the
// validated document is compared by id.
func (f *frame) stepTest(st *PatternStep, n xmltree.NodeID) bool {
	if st.Test.Kind == TestName && st.Test.Slot > 0 && f.docIdx == 0 && f.catReady {
		want := xmltree.KindElement
		if st.Attr {
			want = xmltree.KindAttribute
		}
		id := f.catIDs[st.Test.Slot-1]
		return id >= 0 && f.doc.Kind(n) == want && f.doc.Name(n) == id
	}
	m := f.matcher(&st.Test, st.axis())
	return !m.never && f.matches(&m, n) && st.Attr == (f.doc.Kind(n) == xmltree.KindAttribute)
}

// axis is the axis the step selects its nodes on from their parent.
func (st *PatternStep) axis() Axis {
	if st.Attr {
		return AxisAttribute
	}
	return AxisChild
}

// patternPreds evaluates the predicates of a step for n among the nodes the
// step selects from its parent p.
func (f *frame) patternPreds(st *PatternStep, axis Axis, p, n xmltree.NodeID, pastGate []*Expr) (bool, error) {
	if !st.Positional {
		fc := focus{item: f.node(n), pos: 1, size: 1}
		preds := st.Preds
		if pastGate != nil {
			// Operands of "and": effective boolean values, not predicates.
			for _, c := range pastGate {
				ok, err := f.evalBool(c, fc)
				if err != nil || !ok {
					return false, err
				}
			}
			preds = preds[1:]
		}
		for _, pr := range preds {
			ok, err := f.predicate(pr, fc)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
	tmp := f.buf()
	tmp, err := f.axis(axis, &st.Test, p, tmp, false)
	if err != nil {
		return false, err
	}
	s := f.done(tmp)
	s, err = f.filter(s, st.Preds)
	if err != nil {
		return false, err
	}
	return containsNode(s, f.node(n)), nil
}

// nameGate returns the part of a step's predicates that depends only on the
// node's name as written and that is evaluated first: the first predicate,
// or the leftmost conjuncts of it ("ends-with(name(), 'Amount') and
// not(ends-with(name(), 'PriceAmount'))" of "[... and not(ancestor::x)]"),
// when the step is not positional. nil when there is none.
func nameGate(st *PatternStep) *Expr {
	if st.Positional || len(st.Preds) == 0 {
		return nil
	}
	p := st.Preds[0]
	for {
		if nameOnly(p) {
			return p
		}
		if p.Op != OpAnd {
			return nil
		}
		p = p.Args[0]
	}
}

// gateRest returns the conjuncts of p0 that follow its leftmost part g
// (nameGate), in evaluation order: for ((g and b) and c), [b c]. The
// result is never nil, so that a gate that is the whole predicate leaves
// an empty, non-nil list.
func gateRest(p0, g *Expr) []*Expr {
	rest := []*Expr{}
	for p := p0; p != g; p = p.Args[0] {
		rest = append(rest, p.Args[1])
	}
	slices.Reverse(rest)
	return rest
}

// nameOnlyFuncs are the built-ins that are pure functions of their
// arguments (when called with at least one).
var nameOnlyFuncs = map[string]bool{"ends-with": true, "starts-with": true, "contains": true,
	"concat": true, "substring": true, "substring-before": true, "substring-after": true,
	"string-length": true, "upper-case": true, "lower-case": true, "normalize-space": true,
	"not": true, "boolean": true, "matches": true, "string": true}

// nameOnly reports whether e, for a node focus, depends on nothing but the
// node's name as written (fn:name() / fn:local-name() without argument)
// and constants.
func nameOnly(e *Expr) bool {
	switch e.Op {
	case OpConst:
		return true
	case OpAnd, OpOr, OpNot, OpGenCmp, OpValCmp, OpCodeSet, OpCodeToken:
	case OpCall:
		if e.Builtin == nil {
			return false
		}
		if e.Builtin.Name == "name" || e.Builtin.Name == "local-name" {
			return len(e.Args) == 0
		}
		if !nameOnlyFuncs[e.Builtin.Name] || len(e.Args) == 0 {
			return false
		}
	default:
		return false
	}
	if len(e.Preds) > 0 {
		return false
	}
	for _, a := range e.Args {
		if !nameOnly(a) {
			return false
		}
	}
	return true
}

// NameFiltered reports whether MatchesName applies (no alternative is "/").
func (pt *Pattern) NameFiltered() bool { return pt.nameFiltered }

// MatchesName is a necessary condition for Matches on an element or
// attribute that depends only on the node's kind and name as written
// (the spelling, not the namespace it is bound to)
// (xmltree.Document.QualifiedNameID), so a caller may compute it once per
// distinct name: false means node cannot match. It checks the final step's
// node test and its name-only leading predicate (nameGate). A gate that
// raises an error counts as "may match", so that Matches raises it where
// the reference would.
func (pt *Pattern) MatchesName(ctx context.Context, env *Env, node xmltree.NodeID) bool {
	return pt.NameVerdict(ctx, env, node) != NameCannot
}

// NameVerdict is what MatchesName found, in more detail.
type NameVerdict uint8

const (
	// NameCannot: the node cannot match.
	NameCannot NameVerdict = iota
	// NameMay: the node may match (Matches decides).
	NameMay
	// NameGated: the node may match, and the gate of the pattern's only
	// alternative holds without error: MatchesGated decides.
	NameGated
)

// NameVerdict is MatchesName with NameGated told apart: like it, it
// depends only on the node's kind and spelling.
func (pt *Pattern) NameVerdict(ctx context.Context, env *Env, node xmltree.NodeID) NameVerdict {
	f := env.acquire(ctx, pt.prog)
	defer f.release()
	isAttr := f.doc.Kind(node) == xmltree.KindAttribute
	for i := range pt.alts {
		a := &pt.alts[i]
		if len(a.Steps) == 0 {
			return NameMay
		}
		st := &a.Steps[len(a.Steps)-1]
		axis := st.axis()
		if st.Attr != isAttr {
			continue
		}
		switch st.Test.Kind {
		case TestAnyName, TestLocal, TestNode, TestText, TestComment, TestPI, TestDocument:
			// Tests that depend on the kind and the spelling only. (A
			// QName test depends on the namespace binding of the prefix,
			// which one spelling may not share: left to Matches.)
			m := f.matcher(&st.Test, axis)
			if !f.matches(&m, node) {
				continue
			}
		}
		g := pt.gates[i]
		if g == nil {
			return NameMay
		}
		ok, err := f.evalBool(g, focus{item: f.node(node), pos: 1, size: 1})
		switch {
		case err != nil:
			return NameMay
		case ok && pt.pastGate != nil:
			return NameGated
		case ok:
			return NameMay
		}
	}
	return NameCannot
}

// MatchesEveryElement reports whether every element named q that has a
// parent matches the pattern, whatever its ancestors and content: some
// alternative is the single predicate-free step q (or //q), as the rule
// contexts "cac:Delivery" or "cbc:InvoiceTypeCode | cbc:CreditNoteTypeCode".
// A caller that found the node through q (a name index) then need not call
// Matches. Decided from the pattern alone, so it may be cached at load.
func (pt *Pattern) MatchesEveryElement(q xdm.QName) bool {
	for i := range pt.alts {
		a := &pt.alts[i]
		if len(a.Steps) != 1 {
			continue
		}
		st := &a.Steps[0]
		if st.Attr || len(st.Preds) > 0 || st.Test.Kind != TestName {
			continue
		}
		if a.Absolute && !st.Desc {
			continue // "/q": only the document element
		}
		if st.Test.Space == q.Space && st.Test.Local == q.Local {
			return true
		}
	}
	return false
}

// ParentNames is a necessary condition on the parent of an element or
// attribute for Matches: the node can match only when its parent is an
// element named one of names, or (root) the document node. ok is false when
// some branch constrains nothing (a single relative step "x", "//x",
// "a//x", a wildcard or kind test before the final step), and the caller
// must then evaluate Matches. Branches that can match no element or
// attribute ("/", a step below an attribute) add nothing.
//
// A caller that skips Matches when the condition fails gets the verdict
// Matches would give, including for a predicate that would raise an error
// (the recovery of the reference treats such a node as not matching).
func (pt *Pattern) ParentNames() (names []xdm.QName, root, ok bool) {
	for i := range pt.alts {
		a := &pt.alts[i]
		n := len(a.Steps)
		if n == 0 {
			continue // "/": the document node, which has no parent
		}
		last := &a.Steps[n-1]
		if last.Desc {
			return nil, false, false
		}
		if n == 1 {
			if !a.Absolute {
				return nil, false, false
			}
			root = true // "/x": x's parent is the document node
			continue
		}
		prev := &a.Steps[n-2]
		switch {
		case prev.Attr:
			continue // an attribute has no children
		case prev.Test.Kind == TestName:
			q := xdm.QName{Space: prev.Test.Space, Local: prev.Test.Local}
			if !slices.Contains(names, q) {
				names = append(names, q)
			}
		default:
			return nil, false, false
		}
	}
	return names, root, true
}
