package vm

import "github.com/einvoice-dev/einvoice/engine/xdm"

// A for-expression over atomic values whose body reads nothing but its own
// variable, XRechnung's IBAN check (BR-DE-19, BR-DE-20)
//
//	for $cp in string-to-codepoints(...) return
//	  (if ($cp > 64) then string($cp - 55) else string($cp - 48))
//
// runs its body once per item as a closure over the item: no sequence is
// built for the variable, the operands or the result of each step. The
// closures call what the interpreter calls (xdm.Arith, xdm.CompareGeneral,
// the string value), in its order, so values and errors are the same.

// scalarFn is a body's value for the bound item v: always one item (no
// construct it compiles gives the empty sequence).
type scalarFn func(v xdm.Item) (xdm.Item, error)

// scalarBool is the effective boolean value of a condition in such a body.
type scalarBool func(v xdm.Item) (bool, error)

// compileScalarFors returns the scalar bodies of the single-binding
// for-expressions under e, nil when there is none.
func compileScalarFors(e *Expr, acc map[*Expr]scalarFn) map[*Expr]scalarFn {
	if e == nil {
		return acc
	}
	if e.Op == OpFor && len(e.Binds) == 1 {
		if fn := compileScalar(e.Args[0], e.Binds[0].Slot); fn != nil {
			if acc == nil {
				acc = map[*Expr]scalarFn{}
			}
			acc[e] = fn
		}
	}
	eachChild(e, func(c *Expr) { acc = compileScalarFors(c, acc) })
	return acc
}

// compileScalar compiles e, read with the variable of slot bound to one
// atomic item, or returns nil when e is anything else than that variable,
// a literal item, arithmetic, string() and if-then-else of those (each of
// which is one item).
func compileScalar(e *Expr, slot int) scalarFn {
	switch e.Op {
	case OpLocal:
		if e.Slot != slot {
			return nil
		}
		return func(v xdm.Item) (xdm.Item, error) { return v, nil }
	case OpConst:
		if len(e.Seq) != 1 || e.Seq[0].T == xdm.TNode || e.PosConst != 0 {
			return nil
		}
		c := e.Seq[0]
		return func(xdm.Item) (xdm.Item, error) { return c, nil }
	case OpSeq:
		if len(e.Args) != 1 {
			return nil
		}
		return compileScalar(e.Args[0], slot)
	case OpArith:
		a, b := compileScalar(e.Args[0], slot), compileScalar(e.Args[1], slot)
		if a == nil || b == nil {
			return nil
		}
		op := e.Arith
		return func(v xdm.Item) (xdm.Item, error) {
			x, y, err := both(a, b, v)
			if err != nil {
				return x, err
			}
			return xdm.Arith(op, x, y)
		}
	case OpIf:
		c := compileScalarBool(e.Args[0], slot)
		t, f := compileScalar(e.Args[1], slot), compileScalar(e.Args[2], slot)
		if c == nil || t == nil || f == nil {
			return nil
		}
		return func(v xdm.Item) (xdm.Item, error) {
			ok, err := c(v)
			switch {
			case err != nil:
				return xdm.Item{}, err
			case ok:
				return t(v)
			}
			return f(v)
		}
	case OpCall:
		if e.Builtin == nil || e.Builtin.Name != "string" || len(e.Args) != 1 {
			return nil
		}
		a := compileScalar(e.Args[0], slot)
		if a == nil {
			return nil
		}
		return func(v xdm.Item) (xdm.Item, error) {
			x, err := a(v)
			if err != nil {
				return x, err
			}
			return xdm.String(x.StringValue()), nil
		}
	}
	return nil
}

// compileScalarBool compiles a general comparison of two scalars (the
// interpreter's generalCmp: both operands are single, so the left is
// evaluated first).
func compileScalarBool(e *Expr, slot int) scalarBool {
	if e.Op == OpSeq && len(e.Args) == 1 {
		return compileScalarBool(e.Args[0], slot)
	}
	if e.Op != OpGenCmp || e.Set != nil || e.Card != cmpLeftFirst {
		return nil
	}
	l, r := compileScalar(e.Args[0], slot), compileScalar(e.Args[1], slot)
	if l == nil || r == nil {
		return nil
	}
	op := e.Cmp
	return func(v xdm.Item) (bool, error) {
		x, y, err := both(l, r, v)
		if err != nil {
			return false, err
		}
		return xdm.CompareGeneral(op, x, y)
	}
}

// both evaluates a, then b, on v: the interpreter's order of operands.
func both(a, b scalarFn, v xdm.Item) (x, y xdm.Item, err error) {
	if x, err = a(v); err == nil {
		y, err = b(v)
	}
	return x, y, err
}
