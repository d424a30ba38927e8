package vm

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Test hooks comparing the frame-free evaluations (fast.go) with the
// interpreter.

// HasFast reports whether the program's test, or one of its predicates,
// has a frame-free evaluation.
func (p *Program) HasFast() bool { return p.fast != nil || p.fastVars != nil || hasFastPred(p.root) }

func hasFastPred(e *Expr) bool {
	if e == nil {
		return false
	}
	if e.fastIdx != 0 {
		return true
	}
	found := false
	eachChild(e, func(c *Expr) { found = found || hasFastPred(c) })
	return found
}

// FastAgrees evaluates a boolean program on node as EvalBool does and by
// the interpreter alone (Env.noFast), and returns an error when the
// answers differ: another value, or an error in one of them only (a
// frame-free evaluation decides only where the interpreter raises no
// error, so the rest of the evaluation is the same). decided tells
// whether the whole test was decided without a frame. The Env's catalog
// must be resolved (CatalogIDs), and its Vars set for a program that
// reads them. A test hook.
func (p *Program) FastAgrees(ctx context.Context, env *Env, node xmltree.NodeID) (decided bool, err error) {
	fe := env.fastFrame(p.cat)
	if fe == nil {
		return false, errors.New("FastAgrees: the Env's catalog is not resolved for its document")
	}
	// The frame-free answer as the engine would get it now: reading the
	// memo the evaluations before this one left (fastmemo.go); compared
	// with the interpreter's below, as bothWays starts afresh.
	var early bool
	if p.fast != nil {
		early, decided = p.fast(fe, node)
	}
	if p.fastVars != nil {
		// FastVarTest, which EvalBool does not run: its answer against
		// the interpreter's alone.
		v, ok := p.fastVars(fe, node)
		if ok {
			want, err := alone(env, func() (bool, error) { return p.EvalBool(ctx, env, node) })
			if err != nil || want != v {
				return true, fmt.Errorf("%s on node %d: %v without a frame (reading variables); the interpreter alone: %v, %v", p.src, node, v, want, err)
			}
			decided = true
		}
	}
	if err := bothWays(env, p.src, node, func() (bool, error) { return p.EvalBool(ctx, env, node) }); err != nil {
		return decided, err
	}
	if p.fast != nil && decided {
		want, err := alone(env, func() (bool, error) { return p.EvalBool(ctx, env, node) })
		if err != nil || want != early {
			return true, fmt.Errorf("%s on node %d: %v without a frame after earlier evaluations; the interpreter alone: %v, %v", p.src, node, early, want, err)
		}
	}
	return decided, nil
}

// FastValueAgrees evaluates the program's value on node as Eval does and
// by the interpreter alone, and returns an error when they differ: other
// items, or an error in one of them only. decided tells whether the value
// was computed without a frame (a let's, compileFastValue). A test hook.
func (p *Program) FastValueAgrees(ctx context.Context, env *Env, node xmltree.NodeID) (decided bool, err error) {
	fe := env.fastFrame(p.cat)
	if fe == nil {
		return false, errors.New("FastValueAgrees: the Env's catalog is not resolved for its document")
	}
	var early xdm.Sequence
	if p.fastVal != nil {
		early, decided = p.fastVal(fe, node, nil)
		early = slices.Clone(early)
	}
	eval := func() (xdm.Sequence, error) { return p.Eval(ctx, env, node) }
	if err := bothWaysBy(env, p.src, node, eval, sameItems); err != nil {
		return decided, err
	}
	if decided {
		// As FastAgrees: the value read after earlier evaluations.
		want, err := alone(env, eval)
		if err != nil || !sameItems(early, want) {
			return true, fmt.Errorf("%s on node %d: %v without a frame after earlier evaluations; the interpreter alone: %v, %v", p.src, node, early, want, err)
		}
	}
	return decided, nil
}

// sameItems reports whether two sequences hold the same items: the same
// nodes, in the same order, and atomic values of the same types and
// values (decimals by value and scale, as their canonical strings and Java
// scales show).
func sameItems(a, b xdm.Sequence) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.T == xdm.TNode || y.T == xdm.TNode {
			if x != y {
				return false
			}
			continue
		}
		if x.T != y.T || x.StringValue() != y.StringValue() {
			return false
		}
		if (x.T == xdm.TDecimal || x.T == xdm.TInteger) && x.Decimal().JavaScale() != y.Decimal().JavaScale() {
			return false
		}
	}
	return true
}

// FastAgrees is Program.FastAgrees for the pattern's Matches, and for
// MatchesGated when the pattern has a gate (what it evaluates past the
// gate must agree on any node).
func (pt *Pattern) FastAgrees(ctx context.Context, env *Env, node xmltree.NodeID) error {
	if err := bothWays(env, pt.src, node, func() (bool, error) { return pt.Matches(ctx, env, node) }); err != nil {
		return err
	}
	if err := pt.shortcutsAgree(ctx, env, node); err != nil {
		return err
	}
	if pt.pastGate == nil {
		return nil
	}
	return bothWays(env, "gated "+pt.src, node, func() (bool, error) { return pt.MatchesGated(ctx, env, node) })
}

// shortcutsAgree checks the engine's shortcuts past Matches on node
// (PlainContext's MatchPlainIn; GateDecides' MatchGatedIn where the gate
// holds) against the interpreter alone.
func (pt *Pattern) shortcutsAgree(ctx context.Context, env *Env, node xmltree.NodeID) error {
	plain, gate := pt.PlainContext(), pt.GateDecides()
	fx := env.Fast(pt.prog.cat)
	if !plain && !gate || !fx.For(pt.prog.cat) {
		return nil
	}
	want, err := alone(env, func() (bool, error) { return pt.Matches(ctx, env, node) })
	if err != nil {
		return nil // neither shortcut applies where matching raises
	}
	if plain {
		if got := pt.MatchPlainIn(fx, node); got != want {
			return fmt.Errorf("plain %s on node %d: %v; the interpreter alone: %v", pt.src, node, got, want)
		}
	}
	if gate && pt.NameVerdict(ctx, env, node) == NameGated {
		if got := pt.MatchGatedIn(fx, node); got != want {
			return fmt.Errorf("gate-decided %s on node %d: %v; the interpreter alone: %v", pt.src, node, got, want)
		}
	}
	return nil
}

// HasFast reports whether the pattern, or a predicate of it, has a
// frame-free evaluation.
func (pt *Pattern) HasFast() bool {
	if pt.fast != nil {
		return true
	}
	for _, a := range pt.alts {
		for _, st := range a.Steps {
			for _, pr := range st.Preds {
				if hasFastPred(pr) {
					return true
				}
			}
		}
	}
	return false
}

// bothWays runs eval as it is and by the interpreter alone and compares.
// Each run starts without the per-document memos and indexes, so that the
// second does not read what the first built its own way.
func bothWays(env *Env, src string, node xmltree.NodeID, eval func() (bool, error)) error {
	return bothWaysBy(env, src, node, eval, func(a, b bool) bool { return a == b })
}

// bothWaysBy is bothWays for answers of any type, compared by same.
func bothWaysBy[T any](env *Env, src string, node xmltree.NodeID, eval func() (T, error), same func(a, b T) bool) error {
	env.forgetDocument()
	got, gerr := eval()
	want, werr := alone(env, eval)
	switch {
	case (gerr != nil) != (werr != nil):
		return fmt.Errorf("%s on node %d: %v, %v; the interpreter alone: %v, %v", src, node, got, gerr, want, werr)
	case gerr == nil && !same(got, want):
		return fmt.Errorf("%s on node %d: %v; the interpreter alone: %v", src, node, got, want)
	}
	return nil
}

// alone runs eval by the interpreter alone (Env.noFast), from an empty
// memo.
func alone[T any](env *Env, eval func() (T, error)) (T, error) {
	env.noFast = true
	env.forgetDocument()
	defer func() { env.noFast = false }()
	return eval()
}

// forgetDocument drops the frame's memos and indexes of the current
// document (they are built again on use).
func (env *Env) forgetDocument() {
	if f := env.fr; f != nil {
		f.memoDoc, f.stepIdxDoc, f.predDoc, f.fast.kids.doc, f.fast.keyDoc, f.fast.extMemoDoc = nil, nil, nil, nil, nil, nil
	}
}
