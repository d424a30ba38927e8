package vm

import (
	"errors"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Scalar closures: expressions over variables that each hold at most one
// atomic item, run without a frame or a sequence per operand.
//
// Two kinds of code are of that shape. A for-expression over atomic values
// whose body reads its own variable, XRechnung's IBAN check (BR-DE-19,
// BR-DE-20)
//
//	for $cp in string-to-codepoints(...) return
//	  (if ($cp > 64) then string($cp - 55) else string($cp - 48))
//
// runs its body once per item. And the bodies of BR-FR's xsl:functions
// (rulesets/xslfunc), whose parameters are one xs:string or none:
//
//	matches($amount, '^[-]?\d{1,19}(\.\d{1,2})?$') and string-length(replace($amount, '\.', '')) le 19
//	if ($month = (1, 3, 5, 7, 8, 10, 12)) then 31 else ...
//
// The closures call what the interpreter calls (xdm.Arith,
// xdm.CompareGeneral, xdm.CompareValues, xdm.EBVAtomic, the string
// functions' own code), in its order, so values and errors are the same.
// Where the interpreter's answer would need more than that (an argument of
// another type than the function takes, a date's effective boolean value)
// a closure returns errScalarRefused and the caller evaluates the
// expression in the interpreter instead.

// ScalarEnv holds the variables a scalar closure reads: register i is one
// item (Has[i]) or the empty sequence.
type ScalarEnv struct {
	Val [maxScalarRegs]xdm.Item
	Has [maxScalarRegs]bool
}

// maxScalarRegs bounds the variables of a scalar program.
const maxScalarRegs = 16

// Set puts the value s in register i when it is at most one atomic item;
// a longer value (a literal list, which the expressions read inlined)
// leaves the register as it was.
func (r *ScalarEnv) Set(i int, s xdm.Sequence) {
	if len(s) > 1 || (len(s) == 1 && s[0].T == xdm.TNode) {
		return
	}
	r.Has[i] = len(s) == 1
	if r.Has[i] {
		r.Val[i] = s[0]
	}
}

// ScalarFunc is an expression compiled to a scalar closure: its value in
// r, one item (ok) or none (Program.Scalar; the for-expressions' bodies).
type ScalarFunc func(r *ScalarEnv) (it xdm.Item, ok bool, err error)

// errScalarRefused: the closure cannot give the interpreter's answer.
var errScalarRefused = errors.New("vm: scalar closure refused")

// Scalar compiles the program to a closure reading variable slot i from
// register i, or returns nil when an expression of it is of another kind
// than those below, reads a slot not below nslots or one of skip (a
// variable the registers do not hold), or reads the focus.
func (p *Program) Scalar(nslots int, skip func(slot int) bool) ScalarFunc {
	if p.nCSE > 0 || nslots > maxScalarRegs {
		return nil
	}
	return compileScalar(p.root, func(e *Expr) int {
		if e.Op != OpVar || e.Slot >= nslots || (skip != nil && skip(e.Slot)) {
			return -1
		}
		return e.Slot
	})
}

// compileScalarFors returns the scalar bodies of the single-binding
// for-expressions under e (their variable in register 0), nil when there
// is none.
func compileScalarFors(e *Expr, acc map[*Expr]ScalarFunc) map[*Expr]ScalarFunc {
	if e == nil {
		return acc
	}
	if binds := e.Bindings(); e.Op == OpFor && len(binds) == 1 {
		slot := binds[0].Slot
		fn := compileScalar(e.Args[0], func(v *Expr) int {
			if v.Op == OpLocal && v.Slot == slot {
				return 0
			}
			return -1
		})
		if fn != nil {
			if acc == nil {
				acc = map[*Expr]ScalarFunc{}
			}
			acc[e] = fn
		}
	}
	eachChild(e, func(c *Expr) { acc = compileScalarFors(c, acc) })
	return acc
}

// compileScalar compiles e, reading the variables reg maps to a register
// (-1: not one), or returns nil when e is anything else than those
// variables, a literal item, arithmetic, comparisons (against a literal
// list too), and, or, not, if-then-else and the string functions below.
func compileScalar(e *Expr, reg func(*Expr) int) ScalarFunc {
	switch e.Op {
	case OpVar, OpLocal:
		i := reg(e)
		if i < 0 {
			return nil
		}
		return func(r *ScalarEnv) (xdm.Item, bool, error) { return r.Val[i], r.Has[i], nil }
	case OpConst:
		if len(e.Seq) > 1 || e.ConstPos() != 0 || (len(e.Seq) == 1 && e.Seq[0].T == xdm.TNode) {
			return nil
		}
		var c xdm.Item
		ok := len(e.Seq) == 1
		if ok {
			c = e.Seq[0]
		}
		return func(*ScalarEnv) (xdm.Item, bool, error) { return c, ok, nil }
	case OpSeq:
		if len(e.Args) != 1 {
			return nil
		}
		return compileScalar(e.Args[0], reg)
	case OpArith, OpValCmp:
		a, b := compileScalar(e.Args[0], reg), compileScalar(e.Args[1], reg)
		if a == nil || b == nil {
			return nil
		}
		arith, cmp := e.Arith, e.Cmp
		valCmp := e.Op == OpValCmp
		if yf, ok := scalarConstInt(e.Args[1]); ok && !valCmp {
			// A double and an integer literal ($year mod 4 in BR-FR's
			// date check): Arith's double branch without its tests.
			y := e.Args[1].Seq[0]
			return func(r *ScalarEnv) (xdm.Item, bool, error) {
				x, ok, err := a(r)
				if !ok || err != nil {
					return x, false, err // an empty operand: the empty sequence
				}
				if x.T == xdm.TDouble {
					v, err := xdm.DoubleArith(arith, x.Float(), yf)
					return v, err == nil, err
				}
				v, err := xdm.Arith(arith, x, y)
				return v, err == nil, err
			}
		}
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			x, y, ok, err := both(a, b, r)
			if !ok || err != nil {
				return x, false, err // an empty operand: the empty sequence
			}
			if valCmp {
				v, err := xdm.CompareValues(cmp, x, y)
				return xdm.Bool(v), err == nil, err
			}
			v, err := xdm.Arith(arith, x, y)
			return v, err == nil, err
		}
	case OpIf:
		c := compileScalarBool(e.Args[0], reg)
		t, f := compileScalar(e.Args[1], reg), compileScalar(e.Args[2], reg)
		if c == nil || t == nil || f == nil {
			return nil
		}
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			ok, err := c(r)
			switch {
			case err != nil:
				return xdm.Item{}, false, err
			case ok:
				return t(r)
			}
			return f(r)
		}
	case OpAnd, OpOr, OpNot, OpGenCmp:
		if b := compileScalarBool(e, reg); b != nil {
			return func(r *ScalarEnv) (xdm.Item, bool, error) {
				v, err := b(r)
				return xdm.Bool(v), err == nil, err
			}
		}
	case OpCall:
		return compileScalarCall(e, reg)
	}
	return nil
}

// scalarBool is the effective boolean value of an expression in r.
type scalarBool func(r *ScalarEnv) (bool, error)

// compileScalarBool compiles the effective boolean value of e: and, or,
// not, a general comparison of one item with one item or a literal list,
// or any scalar (EBVAtomic; a date's refused, FORG0006 being the
// interpreter's).
func compileScalarBool(e *Expr, reg func(*Expr) int) scalarBool {
	switch e.Op {
	case OpSeq:
		if len(e.Args) == 1 {
			return compileScalarBool(e.Args[0], reg)
		}
		return nil
	case OpAnd, OpOr:
		a, b := compileScalarBool(e.Args[0], reg), compileScalarBool(e.Args[1], reg)
		if a == nil || b == nil {
			return nil
		}
		stop := e.Op == OpOr // the left value that decides, as evalBool stops
		return func(r *ScalarEnv) (bool, error) {
			v, err := a(r)
			if err != nil || v == stop {
				return v, err
			}
			return b(r)
		}
	case OpNot:
		a := compileScalarBool(e.Args[0], reg)
		if a == nil {
			return nil
		}
		return func(r *ScalarEnv) (bool, error) {
			v, err := a(r)
			return !v, err
		}
	case OpGenCmp:
		return compileScalarGenCmp(e, reg)
	}
	a := compileScalar(e, reg)
	if a == nil {
		return nil
	}
	return func(r *ScalarEnv) (bool, error) {
		x, ok, err := a(r)
		if err != nil || !ok {
			return false, err
		}
		if x.T == xdm.TDate {
			return false, errScalarRefused
		}
		return xdm.EBVAtomic(x)
	}
}

// compileScalarGenCmp compiles a general comparison of a scalar with a
// scalar or a literal list (a set of strings: Expr.Set). Every pair is
// compared, and an error of any refuses, so that the interpreter's order
// of the pairs (Expr.Card) cannot matter; a double against a list of
// integers, whose pairs cannot fail, stops at the first match.
func compileScalarGenCmp(e *Expr, reg func(*Expr) int) scalarBool {
	if len(e.Args) != 2 {
		return nil
	}
	a := compileScalar(e.Args[0], reg)
	if a == nil {
		return nil
	}
	op, set := e.Cmp, e.Set
	if c := e.Args[1]; c.Op == OpConst && len(c.Seq) > 1 {
		list := c.Seq
		for _, it := range list {
			if it.T == xdm.TNode {
				return nil
			}
		}
		// A list of integer literals ($month = (1, 3, 5, 7, 8, 10, 12))
		// against a double: CompareGeneral compares the two as doubles,
		// which cannot fail, so the first match answers.
		var floats []float64
		for _, it := range c.Seq {
			f, ok := constInt(it)
			if !ok {
				floats = nil
				break
			}
			floats = append(floats, f)
		}
		return func(r *ScalarEnv) (bool, error) {
			x, ok, err := a(r)
			if err != nil || !ok {
				return false, err
			}
			if floats != nil && x.T == xdm.TDouble && set == nil {
				xf := x.Float()
				for _, y := range floats {
					if xdm.CompareDoubles(op, xf, y) {
						return true, nil
					}
				}
				return false, nil
			}
			if set != nil {
				if x.T != xdm.TString && x.T != xdm.TUntyped {
					return false, errScalarRefused
				}
				_, in := set[x.S]
				return in, nil
			}
			v := false
			for _, y := range list {
				res, err := xdm.CompareGeneral(op, x, y)
				if err != nil {
					return false, errScalarRefused
				}
				v = v || res
			}
			return v, nil
		}
	}
	b := compileScalar(e.Args[1], reg)
	if b == nil {
		return nil
	}
	return func(r *ScalarEnv) (bool, error) {
		x, y, ok, err := both(a, b, r)
		if err != nil || !ok {
			return false, err
		}
		v, err := xdm.CompareGeneral(op, x, y)
		if err != nil {
			return false, errScalarRefused
		}
		return v, nil
	}
}

// compileScalarCall compiles the built-in functions of one or two string
// arguments the xsl:functions use, string(), number() and substring().
func compileScalarCall(e *Expr, reg func(*Expr) int) ScalarFunc {
	if e.Builtin == nil || len(e.Args) == 0 {
		return nil
	}
	if fn := compileScalarLenReplace(e, reg); fn != nil {
		return fn
	}
	args := make([]ScalarFunc, len(e.Args))
	for i, a := range e.Args {
		if args[i] = compileScalar(a, reg); args[i] == nil {
			return nil
		}
	}
	str := func(r *ScalarEnv, i int) (string, error) { return scalarStr(args[i], r) }
	re := e.Regex() // a literal pattern, compiled
	switch name := e.Builtin.Name; {
	case name == "string" && len(args) == 1:
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			x, ok, err := args[0](r)
			if err != nil {
				return x, false, err
			}
			if !ok {
				return xdm.String(""), true, nil // string(())
			}
			return xdm.String(x.StringValue()), true, nil
		}
	case name == "normalize-space" || name == "string-length":
		norm := name == "normalize-space"
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			s, err := str(r, 0)
			if err != nil {
				return xdm.Item{}, false, err
			}
			if norm {
				return xdm.String(NormalizeSpace(s)), true, nil
			}
			return xdm.Integer(int64(utf8.RuneCountInString(s))), true, nil
		}
	case name == "starts-with" || name == "ends-with":
		fn := stringPairFns[name]
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			s, err := str(r, 0)
			if err != nil {
				return xdm.Item{}, false, err
			}
			t, err := str(r, 1)
			if err != nil {
				return xdm.Item{}, false, err
			}
			return fn(s, t), true, nil
		}
	case name == "matches" && re != nil:
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			s, err := str(r, 0)
			return xdm.Bool(err == nil && re.MatchString(s)), err == nil, err
		}
	case name == "replace" && re != nil && len(args) == 3 && !re.empty && e.Args[2].Op == OpConst:
		rep, ok := scalarConstString(e.Args[2])
		if !ok {
			return nil
		}
		tmpl, err := TranslateReplacement(rep, re.NumSubexp())
		if err != nil {
			return nil
		}
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			s, err := str(r, 0)
			if err != nil {
				return xdm.Item{}, false, err
			}
			return xdm.String(re.ReplaceAll(s, tmpl)), true, nil
		}
	case name == "number" && len(args) == 1:
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			x, ok, err := args[0](r)
			if err != nil {
				return x, false, err
			}
			return xdm.Double(numberOf(x, ok)), true, nil
		}
	case name == "substring" && len(args) == 3 && numConst(e.Args[1]) && numConst(e.Args[2]):
		// substring($date, 6, 2): the positions rounded once.
		start := xpathRound(e.Args[1].Seq[0].AsFloat())
		end := start + xpathRound(e.Args[2].Seq[0].AsFloat())
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			s, err := str(r, 0)
			if err != nil {
				return xdm.Item{}, false, err
			}
			return xdm.String(substring(s, start, end)), true, nil
		}
	case name == "substring":
		return func(r *ScalarEnv) (xdm.Item, bool, error) {
			s, err := str(r, 0)
			if err != nil {
				return xdm.Item{}, false, err
			}
			start, err := scalarDouble(args[1], r)
			if err != nil {
				return xdm.Item{}, false, err
			}
			end := math.Inf(1)
			if len(args) == 3 {
				l, err := scalarDouble(args[2], r)
				if err != nil {
					return xdm.Item{}, false, err
				}
				end = xpathRound(start) + xpathRound(l)
			}
			return xdm.String(substring(s, xpathRound(start), end)), true, nil
		}
	}
	return nil
}

// scalarStr is a function's xs:string? argument (strArg): the empty string for none;
// another type than string or untypedAtomic is refused (XPTY0004).
func scalarStr(a ScalarFunc, r *ScalarEnv) (string, error) {
	x, ok, err := a(r)
	switch {
	case err != nil || !ok:
		return "", err
	case x.T != xdm.TString && x.T != xdm.TUntyped:
		return "", errScalarRefused
	}
	return x.S, nil
}

// scalarDouble is a function's xs:double? argument (doubleArg): NaN for
// none; a number as a double; anything else is refused.
func scalarDouble(a ScalarFunc, r *ScalarEnv) (float64, error) {
	x, ok, err := a(r)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return math.NaN(), nil
	case !x.T.IsNumeric():
		return 0, errScalarRefused
	}
	return x.AsFloat(), nil
}

// scalarConstInt is the value of an xs:integer literal as the double
// that xdm.Arith and xdm.CompareGeneral promote it to against a double,
// for the closures of a double and an integer.
func scalarConstInt(e *Expr) (float64, bool) {
	if e.Op != OpConst || len(e.Seq) != 1 || e.ConstPos() != 0 {
		return 0, false
	}
	return constInt(e.Seq[0])
}

// constInt is scalarConstInt for one item.
func constInt(it xdm.Item) (float64, bool) {
	if it.T != xdm.TInteger {
		return 0, false
	}
	return it.AsFloat(), true
}

// numConst reports whether e is a numeric literal (one item), whose value
// scalarDouble would read.
func numConst(e *Expr) bool {
	return e.Op == OpConst && len(e.Seq) == 1 && e.ConstPos() == 0 && e.Seq[0].T.IsNumeric()
}

// scalarConstString is the string of a literal.
func scalarConstString(e *Expr) (string, bool) {
	if len(e.Seq) != 1 || e.Seq[0].T != xdm.TString {
		return "", false
	}
	return e.Seq[0].S, true
}

// both evaluates a, then b: the interpreter's order of operands; ok=false
// when either is empty (after both are evaluated, as operands are).
func both(a, b ScalarFunc, r *ScalarEnv) (x, y xdm.Item, ok bool, err error) {
	x, okx, err := a(r)
	if err != nil {
		return x, y, false, err
	}
	y, oky, err := b(r)
	return x, y, okx && oky, err
}

// compileScalarLenReplace compiles string-length(replace(X, P, R)) where P
// is a plain literal (Regex.isLit) and R a literal without group
// references (BR-FR's decimal checks: the length of an amount without its
// point, replace($amount, '\.', ""), the empty replacement): X's
// length plus, for each of P's occurrences, R's length less P's, counted
// without building the new string. nil for any other call.
func compileScalarLenReplace(e *Expr, reg func(*Expr) int) ScalarFunc {
	if e.Builtin.Name != "string-length" || len(e.Args) != 1 {
		return nil
	}
	rp := e.Args[0]
	re := rp.Regex()
	if rp.Op != OpCall || rp.Builtin == nil || rp.Builtin.Name != "replace" || len(rp.Args) != 3 ||
		re == nil || !re.isLit || rp.Args[2].Op != OpConst {
		return nil
	}
	rep, ok := scalarConstString(rp.Args[2])
	if !ok {
		return nil
	}
	tmpl, err := TranslateReplacement(rep, re.NumSubexp())
	if err != nil || strings.Contains(tmpl, "$") {
		return nil
	}
	src := compileScalar(rp.Args[0], reg)
	if src == nil {
		return nil
	}
	lit := re.lit
	grow := int64(utf8.RuneCountInString(tmpl) - utf8.RuneCountInString(lit))
	return func(r *ScalarEnv) (xdm.Item, bool, error) {
		s, err := scalarStr(src, r)
		if err != nil {
			return xdm.Item{}, false, err
		}
		n := int64(utf8.RuneCountInString(s)) + int64(strings.Count(s, lit))*grow
		return xdm.Integer(n), true, nil
	}
}
