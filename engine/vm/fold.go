package vm

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// FoldConstant evaluates an expression whose operands are all constants at
// compile time. It reports false when the expression is not foldable
// (extension calls, current-date, anything needing the focus or a document)
// or when evaluating it raises a dynamic error: such errors must surface at
// run time, when (and only if) the expression is evaluated.
func FoldConstant(e *Expr) (xdm.Sequence, bool) {
	if !foldable(e) {
		return nil, false
	}
	f := &frame{ctx: context.Background(), prog: NewProgram("", e, 0), env: &Env{}}
	res, err := f.eval(e, focus{undefined: true})
	if err != nil {
		return nil, false
	}
	out := make(xdm.Sequence, len(res))
	copy(out, res)
	return out, true
}

func foldable(e *Expr) bool {
	switch e.Op {
	case OpConst:
		return true
	case OpArith, OpNeg, OpGenCmp, OpValCmp, OpSeq, OpCast, OpCastable, OpAnd, OpOr, OpNot,
		OpIf, OpInstanceOf, OpExists, OpEmpty, OpCount:
	case OpCall:
		if e.Builtin == nil || len(e.Args) == 0 || e.FuncName() == "current-date" {
			return false
		}
	default:
		return false
	}
	for _, a := range e.Args {
		if a.Op != OpConst {
			return false
		}
	}
	return len(e.Preds) == 0 && len(e.Bindings()) == 0
}
