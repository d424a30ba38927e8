package vm

import "github.com/einvoice-dev/einvoice/engine/xmltree"

// Rule contexts matched without a frame (see fast.go).

// fastPattern is the frame-free match of a pattern whose steps all test a
// catalogued name or a wildcard and whose predicates all have a fastBool:
// preds[a][i] are the predicates of step i of alternative a, pastGate those
// of Pattern.pastGate. It gives up (ok=false) where a predicate does, and
// the pattern is matched by the interpreter, whose recovery from an
// error (the context does not match) then applies.
type fastPattern struct {
	preds    [][][]fastBool
	pastGate []fastBool
	// gatedOnly: the gate itself (the last step's first predicate, e.g.
	// ends-with(name(), 'Amount') and ...) has no fastBool (preds holds
	// nil there), so only MatchesGated, which does not evaluate it, is
	// frame-free.
	gatedOnly bool
	// plain[a], when not nil, holds the catalog slots of the steps of
	// alternative a, all named child steps without predicates
	// (/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IncludedNote),
	// the first possibly after // (//ram:ApplicableHeaderTradeSettlement/
	// ram:ApplicableTradeTax): matched by comparing names up the parent
	// chain (plainMatch); plainRoot[a] says whether the first step's node
	// must then be the document's element (an absolute alternative
	// without //).
	plain     [][]int32
	plainRoot []bool
	// pastKey, empty and not nil, is match's pastGate for
	// MatchFastDispatched: the first predicate of the last step is
	// skipped, the others evaluated.
	pastKey []fastBool
}

// compileFastPattern returns pt's frame-free match, or nil.
func compileFastPattern(pt *Pattern) *fastPattern {
	fp := &fastPattern{preds: make([][][]fastBool, len(pt.alts)), plain: make([][]int32, len(pt.alts)),
		plainRoot: make([]bool, len(pt.alts)), pastKey: []fastBool{}}
	for a := range pt.alts {
		steps := pt.alts[a].Steps
		fp.preds[a] = make([][]fastBool, len(steps))
		if fp.plain[a] = plainSlots(steps); fp.plain[a] != nil {
			fp.plainRoot[a] = pt.alts[a].Absolute && !steps[0].Desc
		}
		for i := range steps {
			st := &steps[i]
			switch {
			case st.Positional:
				return nil
			case st.Test.Kind == TestName && st.Test.Slot > 0,
				st.Test.Kind == TestAnyName, st.Test.Kind == TestSpace, st.Test.Kind == TestLocal:
			default:
				return nil
			}
			for k, pr := range st.Preds {
				fn := pt.prog.cat.fastPred(pr)
				if fn == nil {
					if k > 0 || i != len(steps)-1 || pt.pastGate == nil {
						return nil
					}
					fp.gatedOnly = true
				}
				fp.preds[a][i] = append(fp.preds[a][i], fn)
			}
		}
	}
	if pt.pastGate != nil {
		// Not nil even when empty: the gate was the whole predicate.
		fp.pastGate = make([]fastBool, 0, len(pt.pastGate))
	}
	for _, c := range pt.pastGate {
		fn := compileFast(c)
		if fn == nil {
			return nil
		}
		fp.pastGate = append(fp.pastGate, fn)
	}
	return fp
}

// MatchFast is Matches (MatchesGated when gated) without a frame; ok=false
// when it cannot decide (Matches then tries it again before the
// interpreter: callers that match many nodes call it first, as the engine
// does, to skip a call).
func (pt *Pattern) MatchFast(env *Env, node xmltree.NodeID, gated bool) (v, ok bool) {
	if pt.fast == nil {
		return false, false
	}
	return pt.MatchFastIn(env.Fast(pt.prog.cat), node, gated)
}

// MatchFastIn is MatchFast through fx, the Env's FastEnv for the pattern's
// catalog (Program.TryFastIn).
func (pt *Pattern) MatchFastIn(fx FastEnv, node xmltree.NodeID, gated bool) (v, ok bool) {
	fp := pt.fast
	if fp == nil || (fp.gatedOnly && !gated) || !fx.For(pt.prog.cat) {
		return false, false
	}
	fe := fx.fe
	if gated {
		return fp.match(fe, &pt.alts[0], fp.preds[0], len(pt.alts[0].Steps)-1, node, fp.pastGate)
	}
	for a := range pt.alts {
		alt := &pt.alts[a]
		if len(alt.Steps) == 0 {
			if fe.doc.Kind(node) == xmltree.KindDocument {
				return true, true
			}
			continue
		}
		if slots := fp.plain[a]; slots != nil {
			if fe.plainMatch(slots, fp.plainRoot[a], node) {
				return true, true
			}
			continue
		}
		m, ok := fp.match(fe, alt, fp.preds[a], len(alt.Steps)-1, node, nil)
		if !ok || m {
			return m, ok
		}
	}
	return false, true
}

// MatchFastDispatched is MatchFast for a node on which the pattern's
// dispatch key K (DispatchKey) gave, without an error, values among which
// is the pattern's literal: the first predicate of each alternative's last
// step, K = 'literal', holds there and is not evaluated again (K reads
// neither the focus position nor a variable). ok=false when the pattern
// has no frame-free match; Matches then decides.
func (pt *Pattern) MatchFastDispatched(fx FastEnv, node xmltree.NodeID) (v, ok bool) {
	fp := pt.fast
	if fp == nil || fp.gatedOnly || pt.dispatch == nil || !fx.For(pt.prog.cat) {
		return false, false
	}
	fe := fx.fe
	for a := range pt.alts {
		alt := &pt.alts[a]
		m, ok := fp.match(fe, alt, fp.preds[a], len(alt.Steps)-1, node, fp.pastKey)
		if !ok || m {
			return m, ok
		}
	}
	return false, true
}

// plainSlots returns the catalog slots of steps when they are all named
// child steps without predicates, the first possibly a // step, else nil.
// (//A/B matches what A/B does: an element A always has a parent, and
// every node of the document descends from its root.)
func plainSlots(steps []PatternStep) []int32 {
	if len(steps) == 0 {
		return nil
	}
	slots := make([]int32, len(steps))
	for i := range steps {
		st := &steps[i]
		if (st.Desc && i > 0) || st.Attr || st.Positional || len(st.Preds) > 0 || st.Test.Kind != TestName || st.Test.Slot <= 0 {
			return nil
		}
		slots[i] = st.Test.Slot
	}
	return slots
}

// PlainContext reports whether the pattern is one alternative of named
// child steps without predicates (fastPattern.plain): MatchPlainIn then
// decides it, without an error and reading no variable.
func (pt *Pattern) PlainContext() bool {
	return pt.fast != nil && len(pt.alts) == 1 && pt.fast.plain[0] != nil
}

// MatchPlainIn is MatchFastIn for a PlainContext pattern, through fx, the
// Env's FastEnv for the pattern's catalog (the caller checked
// fx.For(cat)).
func (pt *Pattern) MatchPlainIn(fx FastEnv, node xmltree.NodeID) bool {
	return fx.fe.plainMatch(pt.fast.plain[0], pt.fast.plainRoot[0], node)
}

// GateDecides reports whether, on a node for which NameVerdict found
// NameGated, the pattern's gate is all that the node has to pass besides
// its node test and having a parent: one alternative of one step, // or
// relative, whose only predicate is the gate (//ram:*[ends-with(name(),
// 'ID')]). MatchGatedIn then decides it, without an error and reading no
// variable; the gate itself need have no frame-free form (gatedOnly), as
// NameVerdict evaluated it.
func (pt *Pattern) GateDecides() bool {
	if pt.fast == nil || len(pt.alts) != 1 || pt.pastGate == nil || len(pt.pastGate) > 0 {
		return false
	}
	a := &pt.alts[0]
	if len(a.Steps) != 1 {
		return false
	}
	st := &a.Steps[0]
	return len(st.Preds) == 1 && !st.Positional && (st.Desc || !a.Absolute)
}

// MatchGatedIn is MatchFastIn(fx, node, true) for a GateDecides pattern
// (the caller checked fx.For(cat)).
func (pt *Pattern) MatchGatedIn(fx FastEnv, node xmltree.NodeID) bool {
	return fx.fe.stepTest(&pt.alts[0].Steps[0], node) && fx.fe.doc.Parent(node) != xmltree.None
}

// plainMatch is match for an alternative of plainSlots: n and its
// ancestors bear the steps' names, last step first, and when root is set
// the first step's node is the document's element.
func (fe *fastEnv) plainMatch(slots []int32, root bool, n xmltree.NodeID) bool {
	d := fe.doc
	for i := len(slots) - 1; i >= 0; i-- {
		id := fe.ids[slots[i]-1]
		if id < 0 || d.Name(n) != id || d.Kind(n) != xmltree.KindElement {
			return false
		}
		if n = d.Parent(n); n == xmltree.None {
			return false
		}
	}
	return !root || d.Kind(n) == xmltree.KindDocument
}

// match is frame.matchStep without a frame: node n against step i of alt
// and the steps before it; pastGate, when not nil, replaces the first
// predicate of step i.
func (fp *fastPattern) match(fe *fastEnv, alt *PathPattern, preds [][]fastBool, i int, n xmltree.NodeID, pastGate []fastBool) (v, ok bool) {
	d := fe.doc
	for {
		st := &alt.Steps[i]
		if !fe.stepTest(st, n) {
			return false, true
		}
		p := d.Parent(n)
		if p == xmltree.None {
			return false, true
		}
		if len(st.Preds) > 0 && st.safePreds && i > 0 && !st.Desc && !fe.stepTest(&alt.Steps[i-1], p) {
			return false, true
		}
		ps := preds[i]
		if pastGate != nil {
			if keep, ok := fe.pass(pastGate, n); !keep {
				return false, ok
			}
			ps = ps[1:]
		}
		if keep, ok := fe.pass(ps, n); !keep {
			return false, ok
		}
		if i == 0 {
			if !alt.Absolute || st.Desc {
				return true, true
			}
			return d.Kind(p) == xmltree.KindDocument, true
		}
		if st.Desc {
			break
		}
		i, n, pastGate = i-1, p, nil
	}
	for anc := d.Parent(n); anc != xmltree.None; anc = d.Parent(anc) {
		if v, ok := fp.match(fe, alt, preds, i-1, anc, nil); !ok || v {
			return v, ok
		}
	}
	return false, true
}

// stepTest is frame.stepTest for a catalogued name or a wildcard (*,
// prefix:*, *:local).
func (fe *fastEnv) stepTest(st *PatternStep, n xmltree.NodeID) bool {
	want := xmltree.KindElement
	if st.Attr {
		want = xmltree.KindAttribute
	}
	d := fe.doc
	if d.Kind(n) != want {
		return false
	}
	switch st.Test.Kind {
	case TestName:
		id := fe.ids[st.Test.Slot-1]
		return id >= 0 && d.Name(n) == id
	case TestSpace:
		return d.NameSpace(d.Name(n)) == st.Test.Space
	case TestLocal:
		return d.NameLocal(d.Name(n)) == st.Test.Local
	}
	return true // TestAnyName
}
