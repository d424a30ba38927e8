package engine

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// ctxCheckEvery is how many visited nodes pass between ctx.Err() checks.
const ctxCheckEvery = 256

// state is the pooled per-document state of one Validate call.
type state struct {
	env  vm.Env
	vars []xdm.Sequence
	// found collects a validation's findings, which Validate returns
	// as a copy of their number (one allocation, not one per doubling).
	found []Finding
	// letBuf[i] is the storage of let i's value, reused by its next
	// evaluation (a rule's lets are evaluated on every firing; nothing
	// keeps a let's value past the next evaluation of that let).
	letBuf  []xdm.Sequence
	nameMap []int32 // document NameID -> index into Ruleset.names, or -1
	sb      strings.Builder
	// letErr holds the deferred error of each failed let (see lazy.go).
	letErr    []error
	anyLetErr bool
	// gates caches vm.Pattern.NameVerdict per gated rule (Ruleset.gate)
	// and per (qualified name as written, kind): 0 unknown, else the
	// verdict + 1.
	gates [][]uint8
	// Gate verdicts depend on the spelling and kind only, so they are also
	// kept across documents: spellings numbers the (kind, name as written)
	// pairs met so far (at most maxSpelled), docSpell[k] is the number of
	// the document's pair k (2*QualifiedNameID + attribute) plus one (0:
	// not looked up yet; -1: not numbered, spellings being full), and
	// verdicts[g][i] is gate g's verdict + 1 on pair i (0: unknown). A new
	// document pays one map lookup per distinct name, whatever the number
	// of gates.
	// spellings is keyed by the name as written, [0] for elements and
	// [1] for attributes (a string key: the map's fast string path).
	spellings [2]map[string]int32
	nSpelled  int
	docSpell  []int32
	verdicts  [][]uint8
	// absIDs[i] is the document's NameID of Ruleset.absNames[i], or -1.
	absIDs []xmltree.NameID
	// qID[q] is the document's NameID of Ruleset.names[q], or -1.
	qID []xmltree.NameID
	// order (patternNodes' answer), lists and marks are scratch space of
	// the patterns' node lists.
	order []xmltree.NodeID
	lists [][]xmltree.NodeID
	marks []uint64 // a bitset over the document's nodes
	// anyPass[p] caches validation.anyMay for a pattern of
	// Ruleset.gatedAny, by (qualified name as written, kind) as gates: 0
	// unknown, 1 no, 2 yes.
	anyPass [][]uint8
	// anyKept[p] keeps anyPass's answers across documents, by the number
	// of the (kind, name as written) pair (spellings): anyKept[p][i] is
	// the answer + 1 on pair i (0: unknown).
	anyKept [][]uint8
	// constRes[ci] is the value of check ci's document-constant test
	// (compiledCheck.docConst) in the current document: 0 not evaluated,
	// 1 false, 2 true.
	constRes []uint8
	// guard[g] is the document guard verdict (vm.Pattern.GuardsFail) of
	// guard group g (Ruleset.guardGroup) for the current document: 0 not
	// evaluated, 1 holds, 2 fails.
	guard []uint8
	// plans[ri] is rule ri's plan for the document (validation.plan), nil
	// until it fires; planned lists the rules that have one.
	plans   [][]int32
	planned []int32
	// planKept[ri] keeps rule ri's plans across documents, by the presence
	// bits of Ruleset.planNames[ri] and of the parent-child pairs they
	// leave to decide (at most maxKeptPlans each); planMask and edgeMask
	// are the scratch space of those bits.
	planKept [][]keptPlan
	planMask []uint64
	edgeMask []uint64
	// dvals holds the values of a dispatch key for the node being visited
	// (visitNode).
	dvals []string
}

// keptPlan is a rule's plan for the documents where its names' presence
// bits are mask and the presence bits of edges, the parent-child pairs
// (Ruleset.absEdges) of the checks those names leave undecided
// (validation.liveEdges: the same for every plan of that mask), are emask.
type keptPlan struct {
	mask  []uint64
	edges []int32
	emask []uint64
	plan  []int32
}

// maxKeptPlans bounds the plans kept per rule.
const maxKeptPlans = 4

// maxSpelled bounds state.spellings (a document with many distinct names
// must not grow it, nor the verdicts, without limit).
const maxSpelled = 1 << 12

// maxKeptOrder bounds the node lists a pooled state keeps between
// documents.
const maxKeptOrder = 1 << 16

// EvalError is a dynamic error that aborted a validation.
type EvalError struct {
	Ruleset  string // e.g. "EN16931 1.3.16"
	Pattern  string
	RuleID   string // assert/report id, or the rule context / let name
	Location string // path of the node being evaluated
	Line     int    // line of that node in the document (0: none)
	Err      error  // *xdm.Error for an XPath dynamic error, or the context's error
}

func (e *EvalError) Error() string {
	return fmt.Sprintf("%s: pattern %s: %s at %s: %v", e.Ruleset, e.Pattern, e.RuleID, e.Location, e.Err)
}

func (e *EvalError) Unwrap() error { return e.Err }

// Code returns the XPath error code (e.g. "FORG0001"), or "" when the error is
// not an XPath dynamic error (e.g. a cancelled context).
func (e *EvalError) Code() string {
	var xe *xdm.Error
	if errors.As(e.Err, &xe) {
		return xe.Code
	}
	return ""
}

// Validate applies the rule set to doc and returns the fired asserts and
// reports in the reference's order (pattern, then document order, then
// check order within the rule). On a dynamic error or cancellation it
// returns the findings so far and an *EvalError: the stage did not complete.
func (r *Ruleset) Validate(ctx context.Context, doc *xmltree.Document) ([]Finding, error) {
	if doc == nil {
		return nil, errors.New("engine.Validate: nil document")
	}
	st := r.pool.Get().(*state)
	defer r.release(st)
	st.reset(r, doc)
	v := validation{r: r, st: st, doc: doc, fast: st.env.Fast(r.cat), findings: st.found[:0]}
	v.fastOK = v.fast.For(r.cat)
	err := v.run(ctx)
	var out []Finding
	if len(v.findings) > 0 {
		out = slices.Clone(v.findings)
		clear(v.findings) // the document's strings
	}
	st.found = v.findings[:0]
	if cap(st.found) > maxKeptFindings {
		st.found = nil
	}
	return out, err
}

// maxKeptFindings bounds the findings storage a pooled state keeps.
const maxKeptFindings = 1 << 10

func (r *Ruleset) release(st *state) {
	st.env.Doc = nil
	if cap(st.order) > maxKeptOrder || cap(st.marks) > maxKeptOrder/64 {
		st.order, st.marks = nil, nil // one huge document does not pin its lists
	}
	clear(st.lists[:cap(st.lists)]) // slices of the document's name index
	for i := range st.vars {
		st.vars[i] = nil
	}
	clear(st.dvals) // strings of the document
	st.dvals = st.dvals[:0]
	r.pool.Put(st)
}

func (st *state) reset(r *Ruleset, doc *xmltree.Document) {
	if cap(st.vars) < len(r.lets) {
		st.vars = make([]xdm.Sequence, len(r.lets))
	}
	st.vars = st.vars[:len(r.lets)]
	if len(st.letBuf) < len(r.lets) {
		st.letBuf = make([]xdm.Sequence, len(r.lets))
	}
	if cap(st.letErr) < len(r.lets) {
		st.letErr = make([]error, len(r.lets))
	}
	st.letErr = st.letErr[:len(r.lets)]
	clear(st.letErr)
	st.anyLetErr = false
	if cap(st.constRes) < len(r.checks) {
		st.constRes = make([]uint8, len(r.checks))
	}
	st.constRes = st.constRes[:len(r.checks)]
	clear(st.constRes)
	if cap(st.guard) < r.nGuardGroups {
		st.guard = make([]uint8, r.nGuardGroups)
	}
	st.guard = st.guard[:r.nGuardGroups]
	clear(st.guard)
	st.env.Doc = doc
	st.env.Vars = st.vars
	if cap(st.absIDs) < len(r.absNames) {
		st.absIDs = make([]xmltree.NameID, len(r.absNames))
	}
	st.absIDs = st.absIDs[:len(r.absNames)]
	// One resolution of the rule set's names against the document (the
	// programs' evaluations use it too).
	ids := st.env.CatalogIDs(r.cat)
	for i, s := range r.absSlots {
		st.absIDs[i] = ids[s-1]
	}
	if len(st.gates) < r.nGates {
		st.gates = make([][]uint8, r.nGates)
		st.verdicts = make([][]uint8, r.nGates)
	}
	if n := 2 * doc.QualifiedNameCount(); cap(st.docSpell) < n {
		st.docSpell = make([]int32, n)
	} else {
		st.docSpell = st.docSpell[:n]
		clear(st.docSpell)
	}
	for i := range st.gates {
		n := 2 * doc.QualifiedNameCount()
		if cap(st.gates[i]) < n {
			st.gates[i] = make([]uint8, n)
		}
		st.gates[i] = st.gates[i][:n]
		clear(st.gates[i])
	}
	if len(st.plans) < len(r.rules) {
		st.plans = make([][]int32, len(r.rules))
		st.planKept = make([][]keptPlan, len(r.rules))
	}
	for _, ri := range st.planned {
		st.plans[ri] = nil
	}
	st.planned = st.planned[:0]
	if len(st.anyPass) < len(r.gatedAny) {
		st.anyPass = make([][]uint8, len(r.gatedAny))
		st.anyKept = make([][]uint8, len(r.gatedAny))
	}
	for pi, named := range r.gatedAny {
		if named == nil {
			continue
		}
		n := 2 * doc.QualifiedNameCount()
		if cap(st.anyPass[pi]) < n {
			st.anyPass[pi] = make([]uint8, n)
		}
		st.anyPass[pi] = st.anyPass[pi][:n]
		clear(st.anyPass[pi])
	}
	if n := doc.NameCount(); cap(st.nameMap) < n {
		st.nameMap = make([]int32, n)
	} else {
		st.nameMap = st.nameMap[:n]
	}
	for i := range st.nameMap {
		st.nameMap[i] = -1
	}
	if cap(st.qID) < len(r.nameSlots) {
		st.qID = make([]xmltree.NameID, len(r.nameSlots))
	}
	st.qID = st.qID[:len(r.nameSlots)]
	for qi, s := range r.nameSlots {
		id := ids[s-1]
		st.qID[qi] = id
		if id >= 0 {
			st.nameMap[id] = int32(qi)
		}
	}
}

type validation struct {
	r        *Ruleset
	st       *state
	doc      *xmltree.Document
	findings []Finding
	pattern  int
	// fast is the Env's frame-free context, taken once for the document:
	// reset resolved the rule set's catalog for it, and every test,
	// pattern and let of the rule set is of that catalog; fastOK tells
	// whether it can run them (vm.FastEnv.For).
	fast   vm.FastEnv
	fastOK bool
}

func (v *validation) fail(what string, node xmltree.NodeID, err error) error {
	loc, line := "", 0
	if node >= 0 {
		loc, line = location(v.r.locForm, v.doc, node), v.doc.Line(node)
	}
	return &EvalError{Ruleset: v.r.Label(), Pattern: v.r.tables.Patterns[v.pattern].ID, RuleID: what, Location: loc, Line: line, Err: err}
}

func (v *validation) run(ctx context.Context) error {
	r, t, doc := v.r, v.r.tables, v.doc
	for i := 0; i < r.nSchemaLets; i++ {
		v.evalLet(ctx, i, 0)
	}
	// Pattern lets are global variables (see Tables.VarScope): all of them
	// are bound once per document, context = the document node.
	for pi := range t.Patterns {
		p := &t.Patterns[pi]
		for i := p.FirstLet; i < p.FirstLet+p.NumLets; i++ {
			v.evalLet(ctx, int(i), 0)
		}
	}
	for pi := range t.Patterns {
		v.pattern = pi
		if r.rootOnly[pi] {
			for n := doc.FirstChild(0); n != xmltree.None; n = doc.NextSibling(n) {
				if vn, ok := v.visitOf(n); ok {
					if err := v.visitNode(ctx, pi, &vn); err != nil {
						return err
					}
				}
			}
			continue
		}
		if len(r.anyRules[pi]) > 0 {
			// A rule that can match any node: every node is a candidate,
			// unless the rules' gates rule it out.
			if r.leafOnly[pi] {
				// Only the empty leaves (the document's list of them, in
				// document order).
				for k, n := range doc.EmptyLeaves() {
					if k%ctxCheckEvery == ctxCheckEvery-1 {
						if err := ctx.Err(); err != nil {
							return v.fail("cancelled", -1, err)
						}
					}
					if vn, ok := v.visitOf(n); ok {
						if err := v.visitAny(ctx, pi, &vn); err != nil {
							return err
						}
					}
				}
				continue
			}
			if r.gatedAny[pi] != nil {
				if err := v.visitGated(ctx, pi); err != nil {
					return err
				}
				continue
			}
			for n := xmltree.NodeID(0); int(n) < doc.Len(); n++ {
				if n%ctxCheckEvery == 0 {
					if err := ctx.Err(); err != nil {
						return v.fail("cancelled", -1, err)
					}
				}
				if vn, ok := v.visitOf(n); ok {
					if err := v.visitNode(ctx, pi, &vn); err != nil {
						return err
					}
				}
			}
			continue
		}
		// Only the nodes of the pattern's names can fire one of its rules;
		// visited in document order, as above.
		if err := ctx.Err(); err != nil {
			return v.fail("cancelled", -1, err)
		}
		for k, n := range v.patternNodes(r.patNames[pi]) {
			if k%ctxCheckEvery == ctxCheckEvery-1 {
				if err := ctx.Err(); err != nil {
					return v.fail("cancelled", -1, err)
				}
			}
			vn, _ := v.visitOf(n)
			if err := v.visitNode(ctx, pi, &vn); err != nil {
				return err
			}
		}
	}
	return nil
}

// visitAny is visitNode for pattern pi, which has rules that can match
// any node, unless their gates rule the node out.
func (v *validation) visitAny(ctx context.Context, pi int, vn *visitNode) error {
	if named := v.r.gatedAny[pi]; named != nil && !(vn.q >= 0 && named[vn.q]) && !v.anyMay(ctx, pi, vn.node) {
		return nil
	}
	return v.visitNode(ctx, pi, vn)
}

// visitGated is visitAny on every element and attribute and the document
// node for pattern pi, whose rules that can match any node all have a gate
// (Ruleset.gatedAny): the nodes it does not skip are found by name, from
// the document's name index, instead of one by one, marked in a bitset
// over the document and visited in document order, as visitAny visits
// them. A name with rules of its own in the pattern keeps all its nodes;
// for any other name, anyMay is asked once per run of nodes with the same
// name as written (its verdict depends on that and the kind only). The
// nodes that no gate allows (380 of the 440 of EN 16931 UBL example 1 for
// //*[ends-with(name(), 'Amount') …]) are not looked at one by one.
func (v *validation) visitGated(ctx context.Context, pi int) error {
	doc, st, named := v.doc, v.st, v.r.gatedAny[pi]
	m := st.nodeMarks(doc.Len())
	// The document node: no name, anyMay decides.
	if v.anyMay(ctx, pi, 0) {
		m[0] |= 1
	}
	for id := range doc.NameCount() {
		q := st.nameMap[id]
		all := q >= 0 && named[q]
		elems, attrs := doc.NamedKinds(xmltree.NameID(id))
		for _, l := range [2][]xmltree.NodeID{elems, attrs} {
			raw, pass := int32(-2), false
			for _, n := range l {
				if !all {
					if q := doc.QualifiedNameID(n); q != raw {
						raw, pass = q, v.anyMay(ctx, pi, n)
					}
					if !pass {
						continue
					}
				}
				m[n>>6] |= 1 << (n & 63)
			}
		}
	}
	for w, word := range m {
		if w%(ctxCheckEvery/64) == ctxCheckEvery/64-1 {
			if err := ctx.Err(); err != nil {
				return v.fail("cancelled", -1, err)
			}
		}
		for ; word != 0; word &= word - 1 {
			vn, _ := v.visitOf(xmltree.NodeID(w<<6 + bits.TrailingZeros64(word)))
			if err := v.visitNode(ctx, pi, &vn); err != nil {
				return err
			}
		}
	}
	return nil
}

// visitNode fires the first rule of pattern pi whose context matches the
// node vn, if any.
func (v *validation) visitNode(ctx context.Context, pi int, vn *visitNode) error {
	r, t := v.r, v.r.tables
	node := vn.node
	cands := r.anyRules[pi]
	var sure []bool // see Ruleset.sure; nil: none is sure
	split := false  // cands holds only rules whose parent gate allows vn's parent
	if vn.q >= 0 {
		if pc := r.byParent[vn.q][pi]; pc != nil {
			cands, sure = pc.lookup(vn.parent)
			split = true
		} else {
			cands, sure = r.byName[vn.q][pi], r.sure[vn.q][pi]
		}
		if !vn.sureOK {
			sure = nil
		}
	}
	ds := dispatchState{key: -1}
	gk := -2 // the node's gate key (gateKey), once a gate asks for it
	for k := 0; k < len(cands); k++ {
		ri := cands[k]
		if sure != nil && sure[k] {
			return v.fire(ctx, ri, node)
		}
		rc := &r.ctx[ri]
		if pg := rc.parents; !split && pg != nil && !pg.allows(vn.parent) {
			continue
		}
		if rc.plain && v.fastOK {
			// Names up the parent chain decide: no predicate, so no
			// gate, dispatch key, guard, variable or error.
			if rc.pat.MatchPlainIn(v.fast, node) {
				return v.fire(ctx, ri, node)
			}
			continue
		}
		gated := false
		if g := rc.gate; g >= 0 {
			if gk == -2 {
				gk = v.gateKey(node)
			}
			verdict := vm.NameMay
			if gk >= 0 {
				// The verdict of this gate on the node's spelling, when
				// known for the document; mayMatch finds it otherwise.
				if c := v.st.gates[g][gk]; c != 0 {
					verdict = vm.NameVerdict(c - 1)
				} else {
					verdict = v.mayMatchAt(ctx, ri, g, node, gk)
				}
			}
			switch verdict {
			case vm.NameCannot:
				continue
			case vm.NameGated:
				gated = true
			}
		}
		dispatched := false
		if d := rc.dispatch; d >= 0 {
			if v.dispatchSkips(ctx, &ds, ri, node) {
				// The rules after it with the same key whose literals
				// are not among its values either (Peppol's sixteen
				// @schemeID rules, EN 16931's VAT categories) are
				// skipped here, whatever their other gates say.
				for k+1 < len(cands) && r.ctx[cands[k+1]].dispatch == d && r.ctx[cands[k+1]].dispatchBit&ds.bits == 0 {
					k++
				}
				continue
			}
			dispatched = ds.ok
		}
		if rc.guarded && v.guardFails(ctx, ri) {
			continue
		}
		if gated && rc.gateDecides && v.fastOK {
			if rc.pat.MatchGatedIn(v.fast, node) {
				return v.fire(ctx, ri, node)
			}
			continue
		}
		if dispatched && !gated {
			// K = 'literal' holds: the rest of the context, frame-free
			// (it reads no variable, so failed lets do not matter).
			if m, ok := rc.pat.MatchFastDispatched(v.fast, node); ok {
				if m {
					return v.fire(ctx, ri, node)
				}
				continue
			}
		}
		ok, err := v.matches(ctx, rc.pat, r.ruleRefs[ri], node, gated)
		if err != nil {
			// XSLT 2.0 (§6.2): a dynamic error while matching a
			// pattern is recoverable, and the recovery the reference
			// (Saxon) takes is to treat the pattern as not matching
			// this node (it logs a warning and goes on). Anything
			// that is not an XPath dynamic error still aborts.
			var xe *xdm.Error
			if ctx.Err() != nil || !errors.As(err, &xe) {
				return v.fail("rule context "+t.Rules[ri].Context, node, err)
			}
			ok = false
		}
		if ok {
			return v.fire(ctx, ri, node)
		}
	}
	return nil
}

// dispatchState is what visitNode knows of the dispatch keys on its node:
// the key whose values it holds, whether they decide, and the bits of the
// literals among them (Ruleset.dispatchLits).
type dispatchState struct {
	key  int32
	ok   bool
	bits uint64
}

// dispatchSkips reports whether rule ri, which has a dispatch key
// (Ruleset.buildDispatch), cannot match node: its literal is not among the
// values of the key's K. When K cannot decide (an error, a value of another
// type) the rule is matched as usual. K is evaluated once per node and key.
func (v *validation) dispatchSkips(ctx context.Context, ds *dispatchState, ri int32, node xmltree.NodeID) bool {
	r := v.r
	if d := r.ctx[ri].dispatch; d != ds.key {
		ds.key, ds.bits = d, 0
		v.st.dvals, ds.ok = r.dispatchers[d].DispatchValues(ctx, &v.st.env, node, v.st.dvals[:0])
		if ds.ok {
			for _, s := range v.st.dvals {
				ds.bits |= r.dispatchLits[d][s]
			}
		}
	}
	return ds.ok && ds.bits&r.ctx[ri].dispatchBit == 0
}

// patternNodes returns, in document order, the elements and attributes
// named any of names (Ruleset.names indexes), from the document's name
// index (one list per name and kind, each in document order, no node in
// two): one list as it is; a few nodes sorted; many marked in a bitset
// over the document and read back in order, cheaper than sorting them.
// The answer is valid until the next call.
func (v *validation) patternNodes(names []int32) []xmltree.NodeID {
	doc, st := v.doc, v.st
	if len(names) == 1 {
		// One name (most of Factur-X's patterns): its elements, or its
		// attributes, as they are.
		id := st.qID[names[0]]
		if id < 0 {
			return nil
		}
		elems, attrs := doc.NamedKinds(id)
		switch {
		case len(attrs) == 0:
			return elems
		case len(elems) == 0:
			return attrs
		}
	}
	lists := st.lists[:0]
	total := 0
	for _, q := range names {
		id := st.qID[q]
		if id < 0 {
			continue
		}
		elems, attrs := doc.NamedKinds(id)
		if len(elems) > 0 {
			lists = append(lists, elems)
			total += len(elems)
		}
		if len(attrs) > 0 {
			lists = append(lists, attrs)
			total += len(attrs)
		}
	}
	st.lists = lists
	switch {
	case len(lists) == 0:
		return nil
	case len(lists) == 1:
		return lists[0]
	}
	order := st.order[:0]
	if words := (doc.Len() + 63) / 64; total*8 < words {
		for _, l := range lists {
			order = append(order, l...)
		}
		slices.Sort(order)
	} else {
		m := st.nodeMarks(doc.Len())
		for _, l := range lists {
			for _, n := range l {
				m[n>>6] |= 1 << (n & 63)
			}
		}
		for w, word := range m {
			for ; word != 0; word &= word - 1 {
				order = append(order, xmltree.NodeID(w<<6+bits.TrailingZeros64(word)))
			}
		}
	}
	st.order = order
	return order
}

// nodeMarks returns the state's bitset for a document of n nodes, cleared.
func (st *state) nodeMarks(n int) []uint64 {
	words := (n + 63) / 64
	if cap(st.marks) < words {
		st.marks = make([]uint64, words)
	}
	m := st.marks[:words]
	clear(m)
	return m
}

// visitNode is a node the rule contexts are tried on (element, attribute
// or the document node) with what the context index needs of it.
type visitNode struct {
	node xmltree.NodeID
	// q is the node's index into Ruleset.names, or -1 (not a name any
	// rule context mentions, or the document node).
	q int32
	// parent is the parent's index into Ruleset.names, parentRoot for the
	// document node, parentNone for none (the document node) and
	// parentOther for an element no rule context mentions.
	parent int32
	// sureOK: an element with a parent (Ruleset.sure applies).
	sureOK bool
}

const (
	parentNone  = -1
	parentOther = -2
	parentRoot  = -3
)

// visitOf returns what visitNode needs of node n (nameMap must be
// ready); ok=false when n is not visited (not an element, an attribute or
// the document node).
func (v *validation) visitOf(n xmltree.NodeID) (vn visitNode, ok bool) {
	doc := v.doc
	vn = visitNode{node: n, q: -1, parent: parentNone}
	switch kind := doc.Kind(n); kind {
	case xmltree.KindElement, xmltree.KindAttribute:
		vn.q = v.st.nameIndex(doc.Name(n))
		if p := doc.Parent(n); p != xmltree.None {
			vn.sureOK = kind == xmltree.KindElement
			if p == 0 {
				vn.parent = parentRoot
			} else if vn.parent = v.st.nameIndex(doc.Name(p)); vn.parent < 0 {
				vn.parent = parentOther
			}
		}
	case xmltree.KindDocument:
	default:
		return vn, false
	}
	return vn, true
}

// nameIndex returns the Ruleset.names index of the document's name id, or
// -1.
func (st *state) nameIndex(id xmltree.NameID) int32 {
	if id < 0 {
		return -1
	}
	return st.nameMap[id]
}

// mayMatch is rule ri's name-only condition (vm.Pattern.NameVerdict) on
// node, computed once per document and distinct (kind, name as written):
// the "any" contexts //*[ends-with(name(), 'Amount') ...] are then not
// evaluated on every element, and where the gate holds, Matches does not
// evaluate it again (vm.NameGated).
func (v *validation) mayMatch(ctx context.Context, ri, g int32, node xmltree.NodeID) vm.NameVerdict {
	k := v.gateKey(node)
	if k < 0 {
		return vm.NameMay
	}
	return v.mayMatchAt(ctx, ri, g, node, k)
}

// gateKey returns the index of node's (kind, name as written) pair into
// state.gates' tables, or -1 when it has no name.
func (v *validation) gateKey(node xmltree.NodeID) int {
	q := v.doc.QualifiedNameID(node)
	if q < 0 {
		return -1
	}
	k := 2 * int(q)
	if v.doc.Kind(node) == xmltree.KindAttribute {
		k++
	}
	return k
}

// mayMatchAt is mayMatch for the node's gate key k (gateKey).
func (v *validation) mayMatchAt(ctx context.Context, ri, g int32, node xmltree.NodeID, k int) vm.NameVerdict {
	c := v.st.gates[g]
	if c[k] == 0 {
		si := v.spelling(k, node)
		kept := v.st.verdicts[g]
		if si >= 0 && int(si) < len(kept) && kept[si] != 0 {
			c[k] = kept[si]
		} else {
			c[k] = uint8(v.r.rules[ri].NameVerdict(ctx, &v.st.env, node)) + 1
			if si >= 0 {
				if int(si) >= len(kept) {
					kept = append(kept, make([]uint8, int(si)+1-len(kept))...)
					v.st.verdicts[g] = kept
				}
				kept[si] = c[k]
			}
		}
	}
	return vm.NameVerdict(c[k] - 1)
}

// spelling returns the number of the document's (kind, name as written)
// pair k of node (state.spellings), numbering it when it is new; -1 when
// it has none (spellings is full).
func (v *validation) spelling(k int, node xmltree.NodeID) int32 {
	st := v.st
	switch si := st.docSpell[k]; {
	case si > 0:
		return si - 1
	case si < 0:
		return -1
	}
	m := &st.spellings[k&1]
	name := v.doc.QualifiedName(node)
	si, ok := (*m)[name]
	if !ok {
		if *m == nil {
			*m = make(map[string]int32)
		}
		if st.nSpelled >= maxSpelled {
			st.docSpell[k] = -1
			return -1
		}
		si = int32(st.nSpelled)
		st.nSpelled++
		// A copy: the name as written points into the document, which
		// the state must not keep alive.
		(*m)[strings.Clone(name)] = si
	}
	st.docSpell[k] = si + 1
	return si
}

// anyMay reports whether some gate of the rules of pattern pi that can
// match any node allows node (all of them have one: Ruleset.gatedAny).
// The answer depends on the name as written and the kind only, so it is
// kept per document and pattern for each of them, and across documents
// by the pair's number (state.anyKept).
func (v *validation) anyMay(ctx context.Context, pi int, node xmltree.NodeID) bool {
	q := v.doc.QualifiedNameID(node)
	if q < 0 {
		return true
	}
	k := 2 * int(q)
	if v.doc.Kind(node) == xmltree.KindAttribute {
		k++
	}
	c := v.st.anyPass[pi]
	if c[k] == 0 {
		si := v.spelling(k, node)
		if kept := v.st.anyKept[pi]; si >= 0 && int(si) < len(kept) && kept[si] != 0 {
			c[k] = kept[si]
			return c[k] == 2
		}
		c[k] = 1
		for _, ri := range v.r.anyRules[pi] {
			if v.mayMatch(ctx, ri, v.r.ctx[ri].gate, node) != vm.NameCannot {
				c[k] = 2
				break
			}
		}
		if si >= 0 {
			kept := v.st.anyKept[pi]
			if int(si) >= len(kept) {
				kept = append(kept, make([]uint8, int(si)+1-len(kept))...)
				v.st.anyKept[pi] = kept
			}
			kept[si] = c[k]
		}
	}
	return c[k] == 2
}

// guardFails reports whether rule ri's context cannot match any node of
// the document by its guards (vm.Pattern.GuardsFail), evaluated once per
// document for all the rules of its guard group (Ruleset.guardGroup). A
// guard that reads a let that failed is not used: matching then meets
// that let's error as it would without guards (probe). The lets a context
// can read are global, bound before any rule is matched, so that answer
// too holds for the whole document.
func (v *validation) guardFails(ctx context.Context, ri int32) bool {
	if v.failedRef(v.r.ruleRefs[ri]) != nil {
		return false
	}
	g := v.r.guardGroup[ri]
	switch v.st.guard[g] {
	case 1:
		return false
	case 2:
		return true
	}
	fails := v.r.rules[ri].GuardsFail(ctx, &v.st.env)
	v.st.guard[g] = 1
	if fails {
		v.st.guard[g] = 2
	}
	return fails
}

// absent reports whether one of the names (Ruleset.absNames indexes) does
// not occur in the document.
func (v *validation) absent(names []int32) bool {
	for _, i := range names {
		if v.st.absIDs[i] < 0 {
			return true
		}
	}
	return false
}

// edgeAbsent reports whether one of the edges (Ruleset.absEdges indexes)
// does not occur in the document.
func (v *validation) edgeAbsent(edges []int32) bool {
	var buf [1]uint64
	bits := v.edgeBits(edges, buf[:0])
	for b := range edges {
		if bits[b/64]&(1<<(b%64)) == 0 {
			return true
		}
	}
	return false
}

// fire evaluates the lets and checks of rule ri on node.
func (v *validation) fire(ctx context.Context, ri int32, node xmltree.NodeID) error {
	r, t := v.r, v.r.tables
	rule := &t.Rules[ri]
	for i := rule.FirstLet; i < rule.FirstLet+rule.NumLets; i++ {
		v.evalLet(ctx, int(i), node)
	}
	for _, e := range v.plan(ri) {
		ci, ok := e, false
		if e < 0 {
			ci, ok = -e-1, true // fires by a name the document lacks
		} else if e >= planConst {
			if err := v.fireConst(ctx, e-planConst, node); err != nil {
				return err
			}
			continue
		}
		if !ok {
			// A test decided without a frame reads no variable, or only
			// lets that did not fail: a failed let (evalBool's probe)
			// cannot change its answer.
			h := &r.hot[ci]
			res, decided := false, false
			if h.hasFast && v.fastOK {
				res, decided = v.fast.Test(h.fast, node)
			} else if h.vars && v.fastOK {
				res, decided = v.varTest(ci, node)
			}
			if !decided {
				var err error
				if res, err = v.evalBool(ctx, h.test, r.checks[ci].refs, node); err != nil {
					c := &t.Checks[ci]
					return v.fail(c.Kind.String()+" "+c.ID, node, err)
				}
			}
			ok = res == h.report
		}
		if ok {
			if err := v.emit(ctx, &t.Checks[ci], &r.checks[ci], node); err != nil {
				return err
			}
		}
	}
	return nil
}

// varTest runs check ci's frame-free test that reads variables
// (hotCheck.vars) on node, unless a let it reads failed (the probe
// decides then): decided=false when it does not decide.
func (v *validation) varTest(ci int32, node xmltree.NodeID) (res, decided bool) {
	if v.failedRef(v.r.checks[ci].refs) != nil {
		return false, false
	}
	return v.fast.Test(v.r.hot[ci].fast, node)
}

// fireConst is fire for check ci, whose test is document-constant
// (compiledCheck.docConst): the test is evaluated on the check's first node
// in the document, and its value kept for the others; not when it reads a
// let that failed (evalBool's probe then decides, as for any test).
func (v *validation) fireConst(ctx context.Context, ci int32, node xmltree.NodeID) error {
	c, cc := &v.r.tables.Checks[ci], &v.r.checks[ci]
	keep := v.failedRef(cc.testRefs) == nil
	res, known := v.st.constRes[ci] == 2, v.st.constRes[ci] != 0 && keep
	if !known {
		var decided bool
		if res, decided = cc.test.TryFastIn(v.fast, node); !decided {
			var err error
			if res, err = v.evalBool(ctx, cc.test, cc.refs, node); err != nil {
				return v.fail(c.Kind.String()+" "+c.ID, node, err)
			}
		}
		if keep {
			v.st.constRes[ci] = 1
			if res {
				v.st.constRes[ci] = 2
			}
		}
	}
	if res == (c.Kind == KindReport) {
		return v.emit(ctx, c, cc, node)
	}
	return nil
}

// plan returns what fire does with the checks of rule ri in this
// document, in check order: ci to evaluate check ci, ci+planConst for a
// document-constant test (fireConst), -ci-1 to emit it (its absence
// verdict fails an assert or holds a report); the checks
// whose absence verdict passes are left out. It depends on the names the
// document has, so it is looked up on the rule's first firing in the
// document (a rule fired on every invoice line then skips those checks at
// once), among the plans of earlier documents with the same presence of
// the rule's names and of the parent-child pairs of the checks those
// leave undecided (not(cac:X/cbc:Y) where both names occur, never as
// parent and child), and made only when there is none.
func (v *validation) plan(ri int32) []int32 {
	if p := v.r.staticPlan[ri]; p != nil {
		return p
	}
	st := v.st
	if p := st.plans[ri]; p != nil {
		return p
	}
	// The same presence bits as an earlier document: its plan. The pairs
	// are looked up only for the checks the names leave undecided: of the
	// ~550 pairs of EN 16931 UBL's document-element rule (UBL-CR-*,
	// not(cac:X/cbc:Y)), an invoice's names leave a few dozen.
	names := v.r.planNames[ri]
	mask := st.planMask[:0]
	for b, i := range names {
		if b%64 == 0 {
			mask = append(mask, 0)
		}
		if st.absIDs[i] >= 0 {
			mask[b/64] |= 1 << (b % 64)
		}
	}
	st.planMask = mask
	kept := st.planKept[ri]
	var p, edges []int32
	emask, masked := st.edgeMask[:0], false
	for _, k := range kept {
		if !slices.Equal(k.mask, mask) {
			continue
		}
		if !masked {
			edges, emask, masked = k.edges, v.edgeBits(k.edges, emask), true
		}
		if slices.Equal(k.emask, emask) {
			p = k.plan
			break
		}
	}
	if p == nil {
		if !masked {
			edges = v.liveEdges(ri)
			emask = v.edgeBits(edges, emask)
		}
		if p = v.buildPlan(ri); len(p) == 0 {
			p = noChecks
		}
		if len(kept) >= maxKeptPlans {
			kept = kept[1:]
		}
		st.planKept[ri] = append(kept, keptPlan{mask: slices.Clone(mask), edges: edges, emask: slices.Clone(emask), plan: p})
	}
	st.edgeMask = emask
	st.plans[ri] = p
	st.planned = append(st.planned, ri)
	return p
}

// edgeBits returns the presence bits of edges (Ruleset.absEdges indexes)
// in the document, appended to dst[:0].
func (v *validation) edgeBits(edges []int32, dst []uint64) []uint64 {
	dst = dst[:0]
	// An edge is present when its child's name and one parent's occur
	// and the index does not deny that pair.
	px, ids, all, parents := v.doc.ParentIndex(), v.st.absIDs, v.r.absEdges, v.r.edgeParents
	for b, j := range edges {
		if b%64 == 0 {
			dst = append(dst, 0)
		}
		e := &all[j]
		c := ids[e.child]
		if c < 0 {
			continue
		}
		set := px.Parents(c, e.attr)
		for _, pi := range parents[e.first : e.first+e.n] {
			if set.MayHave(ids[pi]) {
				dst[b/64] |= 1 << (b % 64)
				break
			}
		}
	}
	return dst
}

// liveEdges returns the edges (Ruleset.absEdges indexes, sorted) of rule
// ri's checks that the document's names leave undecided.
func (v *validation) liveEdges(ri int32) []int32 {
	var edges []int32
	rule := &v.r.tables.Rules[ri]
	for ci := rule.FirstCheck; ci < rule.FirstCheck+rule.NumChecks; ci++ {
		if cc := &v.r.checks[ci]; len(cc.absentEdges) > 0 && !v.absent(cc.absent) {
			edges = append(edges, cc.absentEdges...)
		}
	}
	slices.Sort(edges)
	return slices.Compact(edges)
}

// buildPlan returns rule ri's plan for the document.
func (v *validation) buildPlan(ri int32) []int32 {
	var dst []int32
	rule := &v.r.tables.Rules[ri]
	for ci := rule.FirstCheck; ci < rule.FirstCheck+rule.NumChecks; ci++ {
		cc := &v.r.checks[ci]
		switch {
		case !v.absent(cc.absent) && !v.edgeAbsent(cc.absentEdges):
			dst = append(dst, planEntry(ci, cc))
		case cc.absentFires:
			dst = append(dst, -ci-1)
		}
	}
	return dst
}

// noChecks is the plan of a rule none of whose checks is to be done: not
// nil, so that it is made once.
var noChecks = []int32{}

func (v *validation) emit(ctx context.Context, c *Check, cc *compiledCheck, node xmltree.NodeID) error {
	f := Finding{
		RuleID:   c.ID,
		Flag:     c.Flag,
		Kind:     c.Kind.String(),
		Location: location(v.r.locForm, v.doc, node),
		Test:     c.Test,
		Source:   v.r.Label(),
		Line:     v.doc.Line(node),
	}
	if cc.static {
		f.Message, f.Terms = cc.staticMsg, cc.staticTerms
	} else if lerr := v.failedRef(cc.refs); lerr != nil {
		return v.fail(c.Kind.String()+" "+c.ID+" message", node, lerr)
	} else {
		msg, err := v.message(ctx, cc.msg, node)
		if err != nil {
			return v.fail(c.Kind.String()+" "+c.ID+" message", node, err)
		}
		f.Message, f.Terms = msg, Terms(msg)
	}
	for _, d := range c.Diagnostics {
		msg, err := v.message(ctx, v.r.diags[d], node)
		if err != nil {
			return v.fail("diagnostic "+v.r.tables.Diagnostics[d].ID, node, err)
		}
		f.Diagnostics = append(f.Diagnostics, msg)
	}
	v.findings = append(v.findings, f)
	return nil
}

// message evaluates a message template on node.
func (v *validation) message(ctx context.Context, parts []compiledPart, node xmltree.NodeID) (string, error) {
	b := &v.st.sb
	b.Reset()
	env := &v.st.env
	for _, p := range parts {
		switch p.kind {
		case PartText:
			b.WriteString(p.text)
		case PartValueOf:
			s, err := p.prog.EvalString(ctx, env, node)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case PartName:
			target := node
			if p.prog != nil {
				seq, err := p.prog.Eval(ctx, env, node)
				if err != nil {
					return "", err
				}
				if len(seq) == 0 || !seq[0].IsNode() {
					continue
				}
				target = xmltree.NodeID(seq[0].Node)
			}
			b.WriteString(v.nodeName(target))
		}
	}
	return NormalizeSpace(b.String()), nil
}

// nodeName returns the name of a node as fn:name does (prefix as written).
func (v *validation) nodeName(n xmltree.NodeID) string {
	id := v.doc.Name(n)
	if id < 0 {
		return ""
	}
	local := v.doc.NameLocal(id)
	if pfx := v.doc.Prefix(n); pfx != "" {
		return pfx + ":" + local
	}
	return local
}
