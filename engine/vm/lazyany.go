package vm

import (
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Whether a path selects a node, the way the reference finds out.
//
// (retryLazily also serves a general comparison of a path with constants,
// A = 'S' or A = ('a', 'b'): the reference's compares the path's nodes one
// by one as it pulls them and stops at the first match.)
//
// Saxon evaluates a path through nested iterators: an expression that only
// needs to know whether the path selects a node (its effective boolean
// value, exists, empty, a predicate that is a path) pulls the first node
// and stops. The predicates of the nodes after it are never evaluated, so
// their dynamic errors are never raised. XPath allows both that and
// evaluating everything (§2.3.4, errors and optimization); the reference's
// choice is the one a verdict must match. The oracle fuzz found it on
// BR-CO-04, (cac:Item/cac:ClassifiedTaxCategory[cac:TaxScheme/
// (normalize-space(upper-case(cbc:ID))='VAT')]/cbc:ID), on a line with two
// tax categories whose second has two tax schemes: its predicate is a
// sequence of two booleans, an error (FORG0006) the reference never meets
// because the first category already has a cbc:ID.
//
// The engine evaluates paths whole (memos, indexes, shared values: much
// faster). Only when that raises an error is the path evaluated again node
// by node (retryLazily), and that answer stands: a node found before any error,
// the first error met on the way, or no node.

// maxLazyPreds bounds the predicates per step retryLazily handles (it counts
// positions per predicate on the stack).
const maxLazyPreds = 8

// retryLazily answers, after the whole evaluation of e raised err,
// whether e selects a node that satisfies where (nil: any node), evaluated
// as the reference's iterators do: the steps' nodes in axis order, each
// node's predicates one after the other, each surviving node's
// continuation (and where) before the next node. It applies to a path of
// forward axis steps (from the context, the root or a first step) or a
// single such step; for anything else (reverse axes, expression steps,
// predicates that read last() or a constant position) err stands.
func (f *frame) retryLazily(e *Expr, fc focus, where func(xdm.Item) (bool, error), err error) (bool, error) {
	found, lerr, ok := f.anyNodeWhere(e, fc, where)
	if !ok {
		return false, err
	}
	return found, lerr
}

// anyNodeWhere is retryLazily's walk; ok is false when e is not of the
// form it handles.
func (f *frame) anyNodeWhere(e *Expr, fc focus, where func(xdm.Item) (bool, error)) (found bool, err error, ok bool) {
	var one [1]*Expr
	steps := one[:]
	switch e.Op {
	case OpStep:
		one[0] = e
	case OpPath:
		steps = e.Args
	default:
		return false, nil, false
	}
	root := false
	switch steps[0].Op {
	case OpRoot:
		root, steps = true, steps[1:]
	case OpContext:
		steps = steps[1:]
	case OpStep:
	default:
		return false, nil, false
	}
	for _, st := range steps {
		if st.Op != OpStep || st.Axis.Reverse() || !lazyPreds(st.Preds) {
			return false, nil, false
		}
	}
	n, err := f.contextNode(fc)
	if err != nil {
		return false, err, true
	}
	if root {
		for f.doc.Parent(n) != xmltree.None {
			n = f.doc.Parent(n)
		}
	}
	found, err = f.chainAny(steps, n, where)
	return found, err, true
}

// lazyPreds reports whether predicates can be evaluated node by node
// without knowing how many nodes the step selects.
func lazyPreds(preds []*Expr) bool {
	if len(preds) > maxLazyPreds {
		return false
	}
	for _, p := range preds {
		if p.ConstPos() != 0 || usesFocusPosition(p) {
			return false
		}
	}
	return true
}

// chainAny reports whether steps select a node from n that satisfies
// where (see retryLazily).
func (f *frame) chainAny(steps []*Expr, n xmltree.NodeID, where func(xdm.Item) (bool, error)) (bool, error) {
	if len(steps) == 0 {
		if where == nil {
			return true, nil
		}
		return where(f.node(n))
	}
	st := steps[0]
	m := f.matcher(&st.Test, st.Axis)
	b, err := f.axisWith(&m, st.Axis, n, f.buf(), false)
	cand := f.done(b) // in the arena: the continuation uses the buffers
	if err != nil {
		return false, err
	}
	var pos [maxLazyPreds]int // position of the node among those reaching predicate k
	for _, c := range cand {
		if err := f.tick(); err != nil {
			return false, err
		}
		keep := true
		for k, p := range st.Preds {
			pos[k]++
			ok, err := f.predicate(p, focus{item: c, pos: pos[k], size: pos[k]})
			if err != nil {
				return false, err
			}
			if !ok {
				keep = false
				break
			}
		}
		if !keep {
			continue
		}
		if found, err := f.chainAny(steps[1:], xmltree.NodeID(c.Node), where); err != nil || found {
			return found, err
		}
	}
	return false, nil
}

// ebvOrAny is the effective boolean value of e after its whole evaluation
// gave s and err: on an error, retryLazily's answer.
func (f *frame) ebvOrAny(e *Expr, fc focus, s xdm.Sequence, err error) (bool, error) {
	if err != nil {
		return f.retryLazily(e, fc, nil, err)
	}
	return f.ebv(s)
}
