package vm

// The order in which the reference evaluates a general comparison's
// operands.
//
// Saxon classifies A = B by its operands' static cardinalities. When one
// side can hold at most one item and the other more (MANY_TO_ONE, with the
// sides swapped when the single one is on the left), it evaluates the
// single side first: if that is empty the comparison is false and the other
// side is never evaluated; otherwise it pulls the other side item by item
// and stops at the first match. BR-S-08 of EN 16931 CII compares
// ../ram:BasisAmount (a path: many) with a sum over the lines (one): on a
// document without ram:BasisAmount the reference still evaluates the sums,
// and raises what they raise (two ram:RateApplicablePercent in one line:
// XPTY0004), where evaluating the left side first found it empty. Only
// documents whose evaluation raises an error can tell the orders apart.

// Expr.Card values of an OpGenCmp.
const (
	cmpLeftFirst uint8 = iota // both single, both many, or not known
	cmpManyOne                // left many, right single: the right first
	cmpOneMany                // left single, right many: the left first, the right pulled
)

// cardinality is what is known statically of how many items an
// expression yields.
type cardinality uint8

const (
	cardUnknown cardinality = iota
	cardOne                 // at most one
	cardMany
)

// manyBuiltins yield sequences; the other built-ins yield at most one item.
var manyBuiltins = map[string]bool{"tokenize": true, "distinct-values": true, "reverse": true,
	"string-to-codepoints": true, "subsequence": true, "remove": true, "insert-before": true,
	"index-of": true, "tail": true, "data": true}

// cardOf classifies e. Variables of the rule set (their select expression
// is another program) and extension functions are not known.
func cardOf(e *Expr) cardinality {
	switch e.Op {
	case OpConst:
		if len(e.Seq) <= 1 {
			return cardOne
		}
		return cardMany
	case OpLocal, OpContext, OpRoot, OpArith, OpNeg, OpValCmp, OpGenCmp, OpNodeCmp, OpAnd, OpOr,
		OpNot, OpExists, OpEmpty, OpCount, OpCodeSet, OpCodeToken, OpChildEq, OpLenAfter, OpBlankCmp,
		OpCast, OpCastable, OpInstanceOf, OpSome, OpEvery:
		return cardOne
	case OpIf:
		if a, b := cardOf(e.Args[1]), cardOf(e.Args[2]); a == b {
			return a
		}
		return cardUnknown
	case OpCall:
		if e.Builtin == nil || manyBuiltins[e.Builtin.Name] {
			return cardMany
		}
		return cardOne
	case OpVar, OpExtCall:
		return cardUnknown
	}
	return cardMany // paths, steps, filters, unions, sequences, ranges, for
}

// markCmpCard sets Card on the general comparisons of a tree.
func markCmpCard(e *Expr) {
	if e == nil {
		return
	}
	if e.Op == OpGenCmp && len(e.Args) == 2 {
		switch l, r := cardOf(e.Args[0]), cardOf(e.Args[1]); {
		case l == cardMany && r == cardOne:
			e.Card = cmpManyOne
		case l == cardOne && r == cardMany:
			e.Card = cmpOneMany
		}
	}
	eachChild(e, markCmpCard)
}
