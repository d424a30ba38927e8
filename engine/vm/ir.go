package vm

import (
	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Op is the operation of an Expr node.
type Op uint8

// Operations. Operand conventions are given per op.
const (
	OpConst      Op = iota // Seq
	OpContext              // the context item
	OpRoot                 // root of the tree containing the context node
	OpVar                  // Env.Vars[Slot]
	OpLocal                // local variable Slot (for/some/every binding)
	OpSeq                  // concatenation of Args
	OpPath                 // Args[0], then each Args[i] evaluated with every item of the previous result as focus
	OpStep                 // axis step from the context node: Axis, Test, Preds
	OpFilter               // Args[0] filtered by Preds
	OpAnd                  // Args[0] and Args[1]
	OpOr                   // Args[0] or Args[1]
	OpGenCmp               // general comparison Cmp of Args[0], Args[1]
	OpValCmp               // value comparison Cmp of Args[0], Args[1]
	OpNodeCmp              // node comparison: Cmp = OpEq ("is"), OpLt ("<<"), OpGt (">>")
	OpArith                // Arith on Args[0], Args[1]
	OpNeg                  // unary minus of Args[0]
	OpRange                // Args[0] to Args[1]
	OpUnion                // Args[0] | Args[1]
	OpIntersect            // Args[0] intersect Args[1]
	OpExcept               // Args[0] except Args[1]
	OpIf                   // if (Args[0]) then Args[1] else Args[2]
	OpFor                  // for Aux.Binds return Args[0]
	OpSome                 // some Aux.Binds satisfies Args[0]
	OpEvery                // every Aux.Binds satisfies Args[0]
	OpInstanceOf           // Args[0] instance of SeqType
	OpCastable             // Args[0] castable as Type (Optional: '?')
	OpCast                 // Args[0] cast as Type (Optional: '?')
	OpCall                 // built-in function Builtin with Args
	OpExtCall              // extension function Ext with Args
	OpCodeSet              // fast path: is normalize-space(string(Args[0])) in Set (the code-list contains(' A B ', concat(' ', normalize-space(X), ' ')) idiom)
	OpExists               // fast path: exists(Args[0]) without materialising more than one item
	OpEmpty                // fast path: empty(Args[0])
	OpNot                  // not(Args[0])
	OpCount                // count(Args[0])
	OpChildEq              // fast path: some child::Test of the context has string value Str (general = against a string literal)
	OpCodeToken            // fast path: normalize-space(string(Args[0])) is one token of Set (the code-list idiom guarded by not(contains(normalize-space(X), ' ')))
	OpBlankCmp             // fast path: normalize-space(Args[0]) Cmp '' with Cmp = or != (is the value blank)
	OpLenAfter             // fast path: string-length(substring-after(Args[0], Str)) Cmp Args[1] (an integer literal; the decimals idiom of BR-DEC)
)

// Axis is an XPath axis.
type Axis uint8

// Axes.
const (
	AxisChild Axis = iota
	AxisDescendant
	AxisDescendantOrSelf
	AxisSelf
	AxisParent
	AxisAncestor
	AxisAncestorOrSelf
	AxisFollowing
	AxisFollowingSibling
	AxisPreceding
	AxisPrecedingSibling
	AxisAttribute
	// AxisDescendantAttribute is not an XPath axis: it is what the
	// compiler makes of descendant-or-self::node()/attribute::T ("//@T"),
	// the attributes of the context node and of all its descendants, in
	// document order, found through the document's name index.
	AxisDescendantAttribute
)

var axisNames = [...]string{"child", "descendant", "descendant-or-self", "self", "parent",
	"ancestor", "ancestor-or-self", "following", "following-sibling", "preceding",
	"preceding-sibling", "attribute", "descendant-or-self::node()/attribute"}

func (a Axis) String() string { return axisNames[a] }

// Reverse reports whether positions on the axis count backwards.
func (a Axis) Reverse() bool {
	switch a {
	case AxisParent, AxisAncestor, AxisAncestorOrSelf, AxisPreceding, AxisPrecedingSibling:
		return true
	}
	return false
}

// attributes reports whether the axis's principal node kind is attribute.
func (a Axis) attributes() bool { return a == AxisAttribute || a == AxisDescendantAttribute }

// TestKind is the kind of a node test.
type TestKind uint8

// Node tests.
const (
	TestName      TestKind = iota // QName: Space + Local, principal node kind
	TestAnyName                   // *
	TestSpace                     // prefix:* (Space)
	TestLocal                     // *:local (Local)
	TestNode                      // node()
	TestText                      // text()
	TestComment                   // comment()
	TestPI                        // processing-instruction(Local?)
	TestElement                   // element() or element(Name) (Named: Space+Local)
	TestAttribute                 // attribute() or attribute(Name)
	TestDocument                  // document-node()
)

// NodeTest is a node test of an axis step or a sequence type.
type NodeTest struct {
	Kind  TestKind
	Named bool // element(N), attribute(N), processing-instruction(N)
	// Slot is the name's 1-based slot in the program's Catalog (0: none),
	// set when the program is built.
	Slot  int32
	Space string
	Local string
}

// Binding is one "$v in expr" clause of for/some/every.
type Binding struct {
	Slot int
	In   *Expr
}

// Occurrence of a sequence type.
type Occurrence uint8

// Occurrence indicators.
const (
	OccOne      Occurrence = iota // exactly one
	OccOptional                   // ?
	OccMany                       // *
	OccPlus                       // +
)

// SeqType is a sequence type (instance of).
type SeqType struct {
	Empty  bool     // empty-sequence()
	Item   bool     // item()
	Atomic bool     // an atomic type Type
	Type   xdm.Type // when Atomic
	Test   NodeTest // otherwise a kind test
	Occ    Occurrence
}

// Expr is one node of a compiled expression. It is built by engine/xpath and
// never modified once wrapped in a Program. Fields are ordered to keep the
// node small (a rule set has ~10^4-10^5 of them, all live for the process):
// the one-byte fields share a word, rare data sits behind pointers.
type Expr struct {
	Op       Op
	Axis     Axis      // OpStep
	Cmp      xdm.CmpOp // OpGenCmp, OpValCmp, OpNodeCmp
	Arith    xdm.ArithOp
	Type     xdm.Type // OpCast, OpCastable
	Optional bool     // OpCast, OpCastable: "?"
	Pure     bool     // OpExtCall: the function was registered with Functions.RegisterPure
	// KeyPred (OpStep, set when the program is built with a Catalog): 1 +
	// the index of the predicate "Q = $v" a step index keys on
	// (stepindex.go); 0 when none.
	KeyPred uint8
	// Card (OpGenCmp, set when the program is built): which operand the
	// reference evaluates first (cmpManyOne, cmpOneMany; cardinality.go);
	// 0: the left, whole, then the right.
	Card uint8
	// NumShare (set when the program is built, or planned: PlanShared):
	// 1 + the slot of a repeated subexpression the program's frame-free
	// test computes once per evaluation (planNumShares); 0 when none.
	// (The byte of padding after Card.)
	NumShare uint8
	// fastIdx (set when the program is built with a Catalog): 1 + the
	// index of the node's frame-free evaluation in its catalog (fast.go):
	// in Catalog.fastPreds for a predicate or the closed conjunct of a
	// step index's key predicate, in Catalog.fastOps for the key of a key
	// or step index and the argument of sum() (Builtin.fastArg); 0 when
	// it has none. No node is both: prepareFastPred and prepareFastKey
	// number a node only while its fastIdx is 0. (Two bytes of the word's padding:
	// Expr stays at 192 bytes.)
	fastIdx uint16
	// PredSlot (a predicate, set when the program is built with a
	// Catalog): its slot in the per-node predicate memo (predmemo.go); 0
	// when it is not memoisable.
	PredSlot int32
	// NodeSlot (a relative OpPath, set with a Catalog): its slot in the
	// per-node path memo (predmemo.go); 0 when not memoisable.
	NodeSlot int32
	// CSE (set when the program is built): the 1-based slot of a costly
	// subexpression that occurs more than once in the program, shared
	// within one evaluation (cse.go).
	CSE     int32
	Args    []*Expr
	Seq     xdm.Sequence // OpConst
	Slot    int          // OpVar, OpLocal
	Test    NodeTest     // OpStep, OpChildEq
	Preds   []*Expr      // OpStep, OpFilter
	Builtin *Builtin
	Set     map[string]struct{} // OpCodeSet, OpCodeToken
	Str     string              // OpChildEq; OpExtCall: the function's expanded name
	// Path (OpPath only, nil when empty): the path killers and memo points.
	Path *PathInfo
	// Aux holds the fields few nodes have (nil when none): inline, they
	// cost every node 72 bytes, 9 MB of the idle server's live heap
	// (the compiled rule sets hold some 130,000 nodes). Read them
	// through the methods below, which answer for a nil Aux; write them
	// through AuxOf.
	Aux *ExprAux
}

// ExprAux is the part of an Expr that few nodes have. Copies of a tree
// (CloneExpr) share an ExprAux that holds no bindings and no sequence
// type: the other fields are not written once the tree is parsed and
// rewritten, while those two are (the copy's own operands, the catalog
// slot of the type's name).
type ExprAux struct {
	Binds    []Binding // OpFor, OpSome, OpEvery: the "$v in expr" clauses
	SeqType  *SeqType  // OpInstanceOf
	Ext      Func      // OpExtCall
	Name     string    // OpExtCall: the function's name as written, for messages (FuncName)
	Re       *Regex    // OpCall matches/replace/tokenize with a literal pattern
	PosConst int       // predicate: > 0 when it is a constant integer position
}

// AuxOf returns e's ExprAux for writing, made when e has none. Only for a
// tree being built: a copy may share its original's (see ExprAux).
func (e *Expr) AuxOf() *ExprAux {
	if e.Aux == nil {
		e.Aux = &ExprAux{}
	}
	return e.Aux
}

// Bindings returns the clauses of a for, some or every (Aux.Binds).
func (e *Expr) Bindings() []Binding {
	if e.Aux == nil {
		return nil
	}
	return e.Aux.Binds
}

// InstanceType returns the sequence type of an instance of (Aux.SeqType).
func (e *Expr) InstanceType() *SeqType {
	if e.Aux == nil {
		return nil
	}
	return e.Aux.SeqType
}

// ExtFunc returns the extension function an OpExtCall calls (Aux.Ext).
func (e *Expr) ExtFunc() Func {
	if e.Aux == nil {
		return nil
	}
	return e.Aux.Ext
}

// FuncName returns the name of a called function: an extension
// function's as written (Aux.Name), a built-in's local name.
func (e *Expr) FuncName() string {
	if e.Aux != nil && e.Aux.Name != "" {
		return e.Aux.Name
	}
	if e.Builtin != nil {
		return e.Builtin.Name
	}
	return ""
}

// Regex returns the compiled literal pattern of a regular-expression
// function (Aux.Re).
func (e *Expr) Regex() *Regex {
	if e.Aux == nil {
		return nil
	}
	return e.Aux.Re
}

// ConstPos returns a predicate's constant integer position, 0 when it is
// not one (Aux.PosConst).
func (e *Expr) ConstPos() int {
	if e.Aux == nil {
		return 0
	}
	return e.Aux.PosConst
}

// PathInfo is the optimisation data of an OpPath.
type PathInfo struct {
	// Kill (set by the optimizer): name tests that, when their name does
	// not occur in the focus's document, make the path empty without
	// evaluating it (see PathKillers).
	Kill []*NodeTest
	// Memo (set when the program is built with a Catalog): the prefixes
	// of an absolute path memoised per document (memo.go).
	Memo []MemoPoint
	// VarKey (set with a Catalog): the step right after the longest
	// memoised prefix, when its predicate compares a key with a variable,
	// and the key slot of its per-document index (stepindex.go); Arg 0
	// when none.
	VarKey MemoPoint
}

// Kills returns the path killers of e (nil when none).
func (e *Expr) Kills() []*NodeTest {
	if e.Path == nil {
		return nil
	}
	return e.Path.Kill
}

// SetKills records the path killers of an OpPath.
func (e *Expr) SetKills(k []*NodeTest) {
	if len(k) == 0 && e.Path == nil {
		return
	}
	if e.Path == nil {
		e.Path = &PathInfo{}
	}
	e.Path.Kill = k
}

func (e *Expr) memoPoints() []MemoPoint {
	if e.Path == nil {
		return nil
	}
	return e.Path.Memo
}

func (e *Expr) varKey() MemoPoint {
	if e.Path == nil {
		return MemoPoint{}
	}
	return e.Path.VarKey
}

func (e *Expr) setMemo(m []MemoPoint) {
	if len(m) == 0 && e.Path == nil {
		return
	}
	if e.Path == nil {
		e.Path = &PathInfo{}
	}
	e.Path.Memo = m
}
