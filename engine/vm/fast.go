package vm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Direct evaluation of the simplest boolean tests, without a frame.
//
// Half of the checks a validation evaluates are tests such as
//
//	exists(cac:Price/cbc:PriceAmount)
//	count(cac:Item/cac:ClassifiedTaxCategory) = 1
//	(cbc:Percent) > 0
//	normalize-space(cac:Item/cbc:Name) != ''
//	string-length(substring-after(cbc:LineExtensionAmount,'.'))<=2
//	contains(' AED AFN ... ', concat(' ', normalize-space(@currencyID), ' '))
//
// whose operands are relative paths of named child steps (the last one may
// be an attribute step) from the context node. Their evaluation costs
// little next to the interpreter's fixed costs: a frame taken and handed
// back, a sequence per operand, an item per node. When a program's whole
// test is of that kind, NewProgramIn compiles it into a tree of closures
// (fastBool) that read the document directly, and EvalBool runs it
// before the interpreter.
//
// The closures decide only what cannot raise an error: a comparison whose
// cast fails (FORG0001), a function given more than one node (XPTY0004),
// a path past fastMaxNodes nodes, a document other than the Env's own,
// return ok=false and the interpreter evaluates the program from the
// start, so errors are raised, and reported, exactly as before. Where they
// decide, the answer is the interpreter's:
//   - the paths select the same nodes in document order (a depth-first
//     walk of child steps from one node cannot repeat a node);
//   - "and" and "or" evaluate their left operand first and stop as the
//     interpreter does;
//   - a general comparison is true when a pair of its operands' items
//     compares true; the closures compare every pair, and decide only
//     when none raises an error, so the order in which the interpreter
//     compares them (Expr.Card) cannot change the answer;
//   - comparisons and casts are xdm's own (CompareGeneral,
//     CompareValues); nodes atomize to xs:untypedAtomic.
//
// TestFastAgreesWithInterpreter compares the two on every node of the
// corpus documents, errors included.

// fastMaxNodes bounds the nodes a fast path collects: past it the
// interpreter evaluates the test, with its budgets and cancellation.
const fastMaxNodes = 1 << 12

// fastEnv is what a fastBool reads: the Env's document, its catalog's ids
// and a scratch buffer.
type fastEnv struct {
	doc *xmltree.Document
	ids []xmltree.NameID
	buf []xmltree.NodeID
}

// fastBool decides a boolean test on node n; ok=false when it cannot
// (see above).
type fastBool func(fe *fastEnv, n xmltree.NodeID) (v, ok bool)

// fastPath is a relative path of named child steps from the context node,
// the last of which may be an attribute step; no steps: the context node.
type fastPath struct {
	slots []int32 // catalog slots of the steps' names
	attr  bool    // the last step is on the attribute axis
}

// fastPathOf returns e as a fastPath when it is one.
func fastPathOf(e *Expr) (fastPath, bool) {
	switch e.Op {
	case OpContext:
		return fastPath{}, true
	case OpStep:
		if !fastStep(e) {
			return fastPath{}, false
		}
		return fastPath{slots: []int32{e.Test.Slot}, attr: e.Axis == AxisAttribute}, true
	case OpPath:
		if len(e.Args) == 0 || len(e.Args) > 8 {
			return fastPath{}, false
		}
		p := fastPath{slots: make([]int32, 0, len(e.Args))}
		for i, a := range e.Args {
			if a.Op != OpStep || !fastStep(a) || (a.Axis == AxisAttribute && i != len(e.Args)-1) {
				return fastPath{}, false
			}
			p.slots = append(p.slots, a.Test.Slot)
		}
		p.attr = e.Args[len(e.Args)-1].Axis == AxisAttribute
		return p, true
	}
	return fastPath{}, false
}

// fastStep reports whether step e is a predicate-free child or attribute
// step with a catalogued name.
func fastStep(e *Expr) bool {
	return (e.Axis == AxisChild || e.Axis == AxisAttribute) && len(e.Preds) == 0 && e.PosConst == 0 &&
		e.Test.Kind == TestName && e.Test.Slot > 0
}

// nodes collects the nodes of p from n into fe.buf (reset first), in
// document order; ok=false past fastMaxNodes.
func (fe *fastEnv) nodes(p *fastPath, n xmltree.NodeID) ([]xmltree.NodeID, bool) {
	fe.buf = fe.buf[:0]
	ok := fe.walk(p, 0, n)
	return fe.buf, ok
}

func (fe *fastEnv) walk(p *fastPath, i int, n xmltree.NodeID) bool {
	if i == len(p.slots) {
		fe.buf = append(fe.buf, n)
		return len(fe.buf) <= fastMaxNodes
	}
	id := fe.ids[p.slots[i]-1]
	if id < 0 {
		return true
	}
	d := fe.doc
	if p.attr && i == len(p.slots)-1 {
		a, cnt := d.Attrs(n)
		for k := 0; k < cnt; k++ {
			if c := a + xmltree.NodeID(k); d.Name(c) == id {
				fe.buf = append(fe.buf, c)
			}
		}
		return len(fe.buf) <= fastMaxNodes
	}
	for c := d.FirstChildNamed(n, id); c != xmltree.None; c = d.NextSiblingNamed(c, id) {
		if !fe.walk(p, i+1, c) {
			return false
		}
	}
	return true
}

// any reports whether p selects a node from n (without collecting them).
func (fe *fastEnv) any(p *fastPath, i int, n xmltree.NodeID) bool {
	if i == len(p.slots) {
		return true
	}
	id := fe.ids[p.slots[i]-1]
	if id < 0 {
		return false
	}
	d := fe.doc
	if p.attr && i == len(p.slots)-1 {
		a, cnt := d.Attrs(n)
		for k := 0; k < cnt; k++ {
			if d.Name(a+xmltree.NodeID(k)) == id {
				return true
			}
		}
		return false
	}
	for c := d.FirstChildNamed(n, id); c != xmltree.None; c = d.NextSiblingNamed(c, id) {
		if fe.any(p, i+1, c) {
			return true
		}
	}
	return false
}

// single returns the string value of the one node of p from n ("" when
// there is none); ok=false when there are several (the function raises
// XPTY0004) or too many to collect.
func (fe *fastEnv) single(p *fastPath, n xmltree.NodeID) (string, bool) {
	ns, ok := fe.nodes(p, n)
	switch {
	case !ok || len(ns) > 1:
		return "", false
	case len(ns) == 0:
		return "", true
	}
	return fe.doc.StringValue(ns[0]), true
}

// compileFast returns the closure of a boolean test, or nil when the test
// (or a part of it) is not of the kind described above.
func compileFast(e *Expr) fastBool {
	switch e.Op {
	case OpAnd, OpOr:
		a, b := compileFast(e.Args[0]), compileFast(e.Args[1])
		if a == nil || b == nil {
			return nil
		}
		stop := e.Op == OpOr // the value of the left operand that decides
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			v, ok := a(fe, n)
			if !ok || v == stop {
				return v, ok
			}
			return b(fe, n)
		}
	case OpNot:
		a := compileFast(e.Args[0])
		if a == nil {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			v, ok := a(fe, n)
			return !v, ok
		}
	case OpExists, OpEmpty:
		p, ok := fastPathOf(e.Args[0])
		if !ok {
			return nil
		}
		want := e.Op == OpExists
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) { return fe.any(&p, 0, n) == want, true }
	case OpStep, OpPath:
		// The effective boolean value of a node sequence: not empty.
		p, ok := fastPathOf(e)
		if !ok || len(p.slots) == 0 {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) { return fe.any(&p, 0, n), true }
	case OpChildEq:
		if (e.Axis != AxisChild && e.Axis != AxisAttribute) || e.Test.Kind != TestName || e.Test.Slot <= 0 {
			return nil
		}
		p := fastPath{slots: []int32{e.Test.Slot}, attr: e.Axis == AxisAttribute}
		want := e.Str
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			ns, ok := fe.nodes(&p, n)
			if !ok {
				return false, false
			}
			for _, c := range ns {
				if fe.doc.StringValue(c) == want {
					return true, true
				}
			}
			return false, true
		}
	case OpGenCmp, OpValCmp:
		return compileFastCmp(e)
	case OpBlankCmp:
		p, ok := fastPathOf(e.Args[0])
		if !ok {
			return nil
		}
		want := e.Cmp == xdm.OpEq
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			return ok && blank(s) == want, ok
		}
	case OpLenAfter:
		p, ok := fastPathOf(e.Args[0])
		if !ok || e.Args[1].Op != OpConst || len(e.Args[1].Seq) != 1 {
			return nil
		}
		sep, cmp, lim := e.Str, e.Cmp, e.Args[1].Seq[0]
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			if !ok {
				return false, false
			}
			after := ""
			if i := strings.Index(s, sep); i >= 0 {
				after = s[i+len(sep):]
			}
			v, err := xdm.CompareGeneral(cmp, xdm.Integer(int64(utf8.RuneCountInString(after))), lim)
			return v, err == nil
		}
	case OpCodeSet, OpCodeToken:
		p, ok := fastPathOf(e.Args[0])
		if !ok {
			return nil
		}
		token, set, list := e.Op == OpCodeToken, e.Set, e.Str
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			if !ok {
				return false, false
			}
			return codeListHas(normalizeSpace(s), token, set, list), true
		}
	case OpCall:
		if e.Builtin == nil || e.Builtin.Name != "normalize-space" || len(e.Args) != 1 {
			return nil
		}
		// Its effective boolean value: has a non-whitespace character.
		p, ok := fastPathOf(e.Args[0])
		if !ok {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			return ok && !blank(s), ok
		}
	}
	return nil
}

// compileFastCmp compiles a comparison of a path's nodes, or of the count
// of a path's nodes, with a constant.
func compileFastCmp(e *Expr) fastBool {
	if len(e.Args) != 2 {
		return nil
	}
	x, c, swap := e.Args[0], e.Args[1], false
	if x.Op == OpConst {
		x, c, swap = c, x, true
	}
	if c.Op != OpConst || len(c.Seq) == 0 || c.PosConst != 0 {
		return nil
	}
	for _, it := range c.Seq {
		if !it.T.IsNumeric() && it.T != xdm.TString && it.T != xdm.TUntyped {
			return nil
		}
	}
	consts, op, general := c.Seq, e.Cmp, e.Op == OpGenCmp
	compare := func(a, b xdm.Item) (bool, error) {
		if swap {
			a, b = b, a
		}
		if general {
			return xdm.CompareGeneral(op, a, b)
		}
		return xdm.CompareValues(op, a, b)
	}
	if x.Op == OpCount {
		p, ok := fastPathOf(x.Args[0])
		if !ok || (!general && len(consts) != 1) {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			ns, ok := fe.nodes(&p, n)
			if !ok {
				return false, false
			}
			cnt := xdm.Integer(int64(len(ns)))
			v := false
			for _, b := range consts {
				r, err := compare(cnt, b)
				if err != nil {
					return false, false
				}
				v = v || r
			}
			return v, true
		}
	}
	if !general {
		return nil // a value comparison of nodes: the cardinality rules, left to the interpreter
	}
	p, ok := fastPathOf(x)
	if !ok {
		return nil
	}
	set := e.Set
	if set != nil && (op != xdm.OpEq || swap) {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		ns, ok := fe.nodes(&p, n)
		if !ok {
			return false, false
		}
		v := false
		for _, m := range ns {
			s := fe.doc.StringValue(m)
			if set != nil {
				// The constants are strings: untypedAtomic compares as a
				// string, by set lookup (as generalCmp does).
				if _, in := set[s]; in {
					return true, true
				}
				continue
			}
			a := xdm.Untyped(s)
			for _, b := range consts {
				r, err := compare(a, b)
				if err != nil {
					return false, false
				}
				v = v || r
			}
		}
		return v, true
	}
}

// codeListHas is the code-list idiom's answer for the normalized value v
// (OpCodeSet, OpCodeToken; see evalBool).
func codeListHas(v string, token bool, set map[string]struct{}, list string) bool {
	if token && strings.IndexByte(v, ' ') >= 0 {
		return false // not(contains(normalize-space(X), ' ')) failed
	}
	if v == "" || strings.IndexByte(v, ' ') >= 0 {
		// Not a single token: the original contains().
		return strings.Contains(list, " "+v+" ")
	}
	_, in := set[v]
	return in
}

// HasFast reports whether the program has a frame-free evaluation.
func (p *Program) HasFast() bool { return p.fast != nil }

// FastAgrees evaluates the program on node both ways, without a frame and
// with the interpreter, and returns an error when the first decides what
// the second does not answer (another value, or an error where the fast
// path decided); decided tells whether the fast path decided. The Env's
// catalog must be resolved (CatalogIDs). A test hook.
func (p *Program) FastAgrees(ctx context.Context, env *Env, node xmltree.NodeID) (decided bool, err error) {
	if p.fast == nil {
		return false, nil
	}
	f := env.fr
	if f == nil || f.busy || !f.catResolved(p.cat, env.Doc) {
		return false, errors.New("FastAgrees: the Env's catalog is not resolved for its document")
	}
	fe := &f.fast
	fe.doc, fe.ids = env.Doc, f.catIDs
	v, ok := p.fast(fe, node)
	if !ok {
		return false, nil
	}
	g := env.acquire(ctx, p)
	want, werr := g.evalBool(p.root, focusNode(node))
	g.release()
	switch {
	case werr != nil:
		return true, fmt.Errorf("%s on node %d: fast path %v, interpreter error: %v", p.src, node, v, werr)
	case v != want:
		return true, fmt.Errorf("%s on node %d: fast path %v, interpreter %v", p.src, node, v, want)
	}
	return true, nil
}
