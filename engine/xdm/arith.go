package xdm

import "math"

// ArithOp is an arithmetic operator.
type ArithOp uint8

// Arithmetic operators.
const (
	OpAdd ArithOp = iota
	OpSub
	OpMul
	OpDiv
	OpIDiv
	OpMod
)

var arithNames = [...]string{"+", "-", "*", "div", "idiv", "mod"}

func (o ArithOp) String() string { return arithNames[o] }

// Arith applies an arithmetic operator to two atomized operands.
// xs:untypedAtomic operands are cast to xs:double (FORG0001 on failure).
// integer op integer is integer (div gives decimal), decimal is exact,
// double when either side is a double. Non-numeric operands are XPTY0004.
func Arith(op ArithOp, a, b Item) (Item, error) {
	if a.T == TInteger && b.T == TInteger && a.big == nil && b.big == nil {
		// Two int64-sized integers (counts, codepoints: XRechnung's
		// IBAN check computes $cp - 55 per character): + - × without
		// the Decimals, unless the result overflows.
		if r, ok := arithInt(op, int64(a.n), int64(b.n)); ok {
			return Integer(r), nil
		}
	}
	var err error
	if a.T == TUntyped {
		if a, err = Cast(a, TDouble); err != nil {
			return Item{}, err
		}
	}
	if b.T == TUntyped {
		if b, err = Cast(b, TDouble); err != nil {
			return Item{}, err
		}
	}
	if !a.T.IsNumeric() || !b.T.IsNumeric() {
		return Item{}, Errorf(ErrType, "arithmetic %s on %s and %s", op, a.T, b.T)
	}
	if a.T == TDouble || b.T == TDouble {
		return DoubleArith(op, a.AsFloat(), b.AsFloat())
	}
	resT := TDecimal
	if a.T == TInteger && b.T == TInteger {
		resT = TInteger
	}
	var d Decimal
	switch op {
	case OpAdd:
		d = a.Decimal().Add(b.Decimal())
	case OpSub:
		d = a.Decimal().Sub(b.Decimal())
	case OpMul:
		d = a.Decimal().Mul(b.Decimal())
	case OpDiv:
		d, err = a.Decimal().DivScaled(b.Decimal(), javaScale(a), javaScale(b))
		resT = TDecimal
	case OpIDiv:
		d, err = a.Decimal().IDiv(b.Decimal())
		resT = TInteger
	case OpMod:
		d, err = a.Decimal().Mod(b.Decimal())
	}
	if err != nil {
		return Item{}, err
	}
	return decItem(resT, d), nil
}

// arithInt is x op y for +, - and ×; ok=false for another operator or
// when the result does not fit in an int64.
func arithInt(op ArithOp, x, y int64) (int64, bool) {
	switch op {
	case OpAdd:
		r := x + y
		return r, (x >= 0) != (y >= 0) || (r >= 0) == (x >= 0)
	case OpSub:
		r := x - y
		return r, (x >= 0) == (y >= 0) || (r >= 0) == (x >= 0)
	case OpMul:
		return mul64(x, y)
	}
	return 0, false
}

// Negate returns -a for a numeric (or untypedAtomic, cast to double) item.
func Negate(a Item) (Item, error) {
	var err error
	if a.T == TUntyped {
		if a, err = Cast(a, TDouble); err != nil {
			return Item{}, err
		}
	}
	switch a.T {
	case TDouble:
		return Double(-a.Float()), nil
	case TDecimal, TInteger:
		a = a.WithDecimal(a.Decimal().Neg())
		return a, nil
	}
	return Item{}, Errorf(ErrType, "unary minus on %s", a.T)
}

// EBVAtomic returns the effective boolean value of a singleton atomic
// sequence (FORG0006 for types without one).
func EBVAtomic(a Item) (bool, error) {
	switch a.T {
	case TBoolean:
		return a.B, nil
	case TString, TUntyped:
		return a.S != "", nil
	case TDecimal, TInteger:
		return a.Decimal().Sign() != 0, nil
	case TDouble:
		return a.Float() != 0 && !math.IsNaN(a.Float()), nil
	}
	return false, Errorf(ErrEBV, "no effective boolean value for %s", a.T)
}

// javaScale is the operand scale Saxon uses in decimal division.
func javaScale(it Item) int32 {
	if it.T == TInteger {
		return 0
	}
	return it.Decimal().JavaScale()
}

// DoubleArith is Arith on two xs:double operands (or one and a number
// promoted to xs:double).
func DoubleArith(op ArithOp, x, y float64) (Item, error) {
	switch op {
	case OpAdd:
		return Double(x + y), nil
	case OpSub:
		return Double(x - y), nil
	case OpMul:
		return Double(x * y), nil
	case OpDiv:
		return Double(x / y), nil
	case OpMod:
		return Double(floatMod(x, y)), nil
	case OpIDiv:
		if y == 0 {
			return Item{}, &Error{Code: ErrDivZero, Msg: "integer division by zero"}
		}
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) {
			return Item{}, &Error{Code: "FOAR0002", Msg: "idiv of NaN or infinity"}
		}
		d, err := DecimalFromFloat(math.Trunc(x / y))
		if err != nil {
			return Item{}, err
		}
		return IntegerD(d), nil
	}
	return Item{}, Errorf(ErrType, "arithmetic %s on xs:double", op)
}

// floatMod is math.Mod(x, y), by integer division when both are integers
// of at most 53 bits (a year mod 4 in BR-FR's date check): math.Mod
// reduces x by shifted copies of y, a loop of ~log2(x/y) rounds. The
// remainder has the sign of x, a zero one too (math.Mod(-4, 2) is -0).
func floatMod(x, y float64) float64 {
	const exact = 1 << 53
	if y != 0 && x > -exact && x < exact && y > -exact && y < exact && x == math.Trunc(x) && y == math.Trunc(y) {
		r := float64(int64(x) % int64(y))
		if r == 0 {
			return math.Copysign(0, x)
		}
		return r
	}
	return math.Mod(x, y)
}
