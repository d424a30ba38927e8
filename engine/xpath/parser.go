package xpath

import (
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Well-known namespace URIs.
const (
	NSXS = "http://www.w3.org/2001/XMLSchema"
	NSFn = "http://www.w3.org/2005/xpath-functions"
)

// StaticContext is the static context of a compilation.
type StaticContext struct {
	Namespaces map[string]string // prefix -> URI (the Schematron <ns> declarations)
	Variables  map[string]int    // in-scope variable name as written without '$' -> slot in Env.Vars
	Functions  *vm.Functions     // extension functions; may be nil
	// Catalog, when set, numbers the name tests of everything compiled
	// with it (one per rule set): see vm.Catalog. Compilations that share
	// a catalog must not run concurrently.
	Catalog *vm.Catalog
	// Cache, when set, shares the parsed and rewritten form of identical
	// expressions between compilations (see Cache).
	Cache *Cache
	// Constants holds, by slot, the values of variables known at compile
	// time (a let whose expression folded to a constant, e.g. a code list
	// tokenize('AED AFN ...', '\s')). A reference to such a variable
	// compiles to the value itself, so the rewrites that need a constant
	// operand (a general comparison against a list as a set lookup) apply.
	// The sequences are shared and read-only.
	Constants map[int]xdm.Sequence
	// Test marks the expression as a test, read by EvalBool only (a
	// check's): the program is compiled with vm.TestUse.
	Test bool
}

// use is how the program compiled with sc will be read.
func (sc *StaticContext) use() vm.Use {
	if sc.Test {
		return vm.TestUse
	}
	return vm.ValueUse
}

type scopeVar struct {
	name string
	slot int
}

type parser struct {
	src     string
	toks    []token
	p       int
	sc      *StaticContext
	scope   []scopeVar
	nLocals int
	depth   int
	usesFns bool // a function of sc.Functions was resolved
	// track: record in deps what the parse reads from sc (for Cache).
	track bool
	deps  []scopeDep
}

const maxDepth = 200

func newParser(src string, sc *StaticContext) (*parser, error) {
	if sc == nil {
		sc = &StaticContext{}
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	return &parser{src: src, toks: toks, sc: sc}, nil
}

// Compile compiles an XPath expression.
func Compile(src string, sc *StaticContext) (*vm.Program, error) {
	return compile(src, sc, true)
}

// compile compiles with or without the fast-path rewrites (tests compare both).
func compile(src string, sc *StaticContext, opt bool) (*vm.Program, error) {
	if opt && sc != nil && sc.Cache != nil {
		return sc.Cache.compile(src, sc)
	}
	if !opt {
		ps, e, err := parse(src, sc, false)
		if err != nil {
			return nil, err
		}
		return vm.NewProgramIn(src, e, ps.nLocals, ps.sc.Functions, ps.sc.Catalog), nil
	}
	ps, e, err := parseOptimized(src, sc, false)
	if err != nil {
		return nil, err
	}
	return vm.NewProgramShared(src, e, ps.nLocals, ps.sc.Functions, ps.sc.Catalog, ps.sc.use()), nil
}

// parse parses and checks src; the tree is not yet wrapped in a program.
// With track, the parser records what it read from sc (parser.deps).
func parse(src string, sc *StaticContext, track bool) (*parser, *vm.Expr, error) {
	ps, err := newParser(src, sc)
	if err != nil {
		return nil, nil, err
	}
	ps.track = track
	e, err := ps.parseExpr()
	if err != nil {
		return nil, nil, err
	}
	if t := ps.peek(); t.kind != tEOF {
		return nil, nil, ps.errAt(t, "unexpected token after the end of the expression")
	}
	return ps, e, nil
}

// parseOptimized is parse followed by the fast-path rewrites.
func parseOptimized(src string, sc *StaticContext, track bool) (*parser, *vm.Expr, error) {
	ps, e, err := parse(src, sc, track)
	if err != nil {
		return nil, nil, err
	}
	return ps, optimize(e), nil
}

func (ps *parser) peek() token { return ps.toks[ps.p] }
func (ps *parser) peekN(n int) token {
	if ps.p+n < len(ps.toks) {
		return ps.toks[ps.p+n]
	}
	return ps.toks[len(ps.toks)-1]
}
func (ps *parser) next() token {
	t := ps.toks[ps.p]
	if t.kind != tEOF {
		ps.p++
	}
	return t
}

func (t token) is(sym string) bool   { return t.kind == tSymbol && t.text == sym }
func (t token) isName(n string) bool { return t.kind == tName && t.text == n }

func (t token) show() string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tString:
		return "'" + t.text + "'"
	case tPrefixStar:
		return t.text + ":*"
	case tStarLocal:
		return "*:" + t.text
	}
	return t.text
}

func (ps *parser) errAt(t token, msg string) *Error {
	return &Error{Offset: t.pos, Construct: t.show(), Msg: msg}
}

func (ps *parser) expect(sym string) (token, error) {
	t := ps.next()
	if !t.is(sym) {
		return t, ps.errAt(t, "expected '"+sym+"'")
	}
	return t, nil
}

func (ps *parser) expectName(n string) error {
	t := ps.next()
	if !t.isName(n) {
		return ps.errAt(t, "expected '"+n+"'")
	}
	return nil
}

func (ps *parser) enter(t token) error {
	ps.depth++
	if ps.depth > maxDepth {
		return ps.errAt(t, "expression nested too deeply")
	}
	return nil
}

// Expr ::= ExprSingle ("," ExprSingle)*
func (ps *parser) parseExpr() (*vm.Expr, error) {
	if err := ps.enter(ps.peek()); err != nil {
		return nil, err
	}
	defer func() { ps.depth-- }()
	e, err := ps.parseSingle()
	if err != nil {
		return nil, err
	}
	if !ps.peek().is(",") {
		return e, nil
	}
	seq := &vm.Expr{Op: vm.OpSeq, Args: []*vm.Expr{e}}
	for ps.peek().is(",") {
		ps.next()
		e, err := ps.parseSingle()
		if err != nil {
			return nil, err
		}
		seq.Args = append(seq.Args, e)
	}
	return seq, nil
}

func (ps *parser) parseSingle() (*vm.Expr, error) {
	t := ps.peek()
	if err := ps.enter(t); err != nil {
		return nil, err
	}
	defer func() { ps.depth-- }()
	if t.kind == tName && ps.peekN(1).is("$") {
		switch t.text {
		case "for", "some", "every":
			return ps.parseBinding()
		}
	}
	if t.isName("if") && ps.peekN(1).is("(") {
		return ps.parseIf()
	}
	return ps.parseOr()
}

func (ps *parser) parseBinding() (*vm.Expr, error) {
	kw := ps.next()
	op := map[string]vm.Op{"for": vm.OpFor, "some": vm.OpSome, "every": vm.OpEvery}[kw.text]
	e := &vm.Expr{Op: op}
	mark := len(ps.scope)
	for {
		if _, err := ps.expect("$"); err != nil {
			return nil, err
		}
		nt := ps.next()
		if nt.kind != tName {
			return nil, ps.errAt(nt, "expected a variable name")
		}
		if err := ps.expectName("in"); err != nil {
			return nil, err
		}
		in, err := ps.parseSingle()
		if err != nil {
			return nil, err
		}
		slot := ps.nLocals
		ps.nLocals++
		ps.scope = append(ps.scope, scopeVar{name: nt.text, slot: slot})
		a := e.AuxOf()
		a.Binds = append(a.Binds, vm.Binding{Slot: slot, In: in})
		if !ps.peek().is(",") {
			break
		}
		ps.next()
	}
	want := "satisfies"
	if op == vm.OpFor {
		want = "return"
	}
	if err := ps.expectName(want); err != nil {
		return nil, err
	}
	body, err := ps.parseSingle()
	if err != nil {
		return nil, err
	}
	ps.scope = ps.scope[:mark]
	e.Args = []*vm.Expr{body}
	return e, nil
}

func (ps *parser) parseIf() (*vm.Expr, error) {
	ps.next()
	if _, err := ps.expect("("); err != nil {
		return nil, err
	}
	c, err := ps.parseExpr()
	if err != nil {
		return nil, err
	}
	if _, err := ps.expect(")"); err != nil {
		return nil, err
	}
	if err := ps.expectName("then"); err != nil {
		return nil, err
	}
	a, err := ps.parseSingle()
	if err != nil {
		return nil, err
	}
	if err := ps.expectName("else"); err != nil {
		return nil, err
	}
	b, err := ps.parseSingle()
	if err != nil {
		return nil, err
	}
	return &vm.Expr{Op: vm.OpIf, Args: []*vm.Expr{c, a, b}}, nil
}

func (ps *parser) parseOr() (*vm.Expr, error) {
	l, err := ps.parseAnd()
	if err != nil {
		return nil, err
	}
	for ps.peek().isName("or") {
		ps.next()
		r, err := ps.parseAnd()
		if err != nil {
			return nil, err
		}
		l = &vm.Expr{Op: vm.OpOr, Args: []*vm.Expr{l, r}}
	}
	return l, nil
}

func (ps *parser) parseAnd() (*vm.Expr, error) {
	l, err := ps.parseComparison()
	if err != nil {
		return nil, err
	}
	for ps.peek().isName("and") {
		ps.next()
		r, err := ps.parseComparison()
		if err != nil {
			return nil, err
		}
		l = &vm.Expr{Op: vm.OpAnd, Args: []*vm.Expr{l, r}}
	}
	return l, nil
}

var generalOps = map[string]xdm.CmpOp{"=": xdm.OpEq, "!=": xdm.OpNe, "<": xdm.OpLt, "<=": xdm.OpLe, ">": xdm.OpGt, ">=": xdm.OpGe}
var valueOps = map[string]xdm.CmpOp{"eq": xdm.OpEq, "ne": xdm.OpNe, "lt": xdm.OpLt, "le": xdm.OpLe, "gt": xdm.OpGt, "ge": xdm.OpGe}

func (ps *parser) parseComparison() (*vm.Expr, error) {
	l, err := ps.parseRange()
	if err != nil {
		return nil, err
	}
	t := ps.peek()
	var e *vm.Expr
	switch {
	case t.kind == tSymbol && generalOps[t.text] != 0 || t.is("="):
		e = &vm.Expr{Op: vm.OpGenCmp, Cmp: generalOps[t.text]}
	case t.kind == tName && valueOpsHas(t.text):
		e = &vm.Expr{Op: vm.OpValCmp, Cmp: valueOps[t.text]}
	case t.isName("is"):
		e = &vm.Expr{Op: vm.OpNodeCmp, Cmp: xdm.OpEq}
	case t.is("<<"):
		e = &vm.Expr{Op: vm.OpNodeCmp, Cmp: xdm.OpLt}
	case t.is(">>"):
		e = &vm.Expr{Op: vm.OpNodeCmp, Cmp: xdm.OpGt}
	default:
		return l, nil
	}
	ps.next()
	r, err := ps.parseRange()
	if err != nil {
		return nil, err
	}
	e.Args = []*vm.Expr{l, r}
	return e, nil
}

func valueOpsHas(s string) bool { _, ok := valueOps[s]; return ok }

func (ps *parser) parseRange() (*vm.Expr, error) {
	l, err := ps.parseAdditive()
	if err != nil {
		return nil, err
	}
	if ps.peek().isName("to") {
		ps.next()
		r, err := ps.parseAdditive()
		if err != nil {
			return nil, err
		}
		return &vm.Expr{Op: vm.OpRange, Args: []*vm.Expr{l, r}}, nil
	}
	return l, nil
}

func (ps *parser) parseAdditive() (*vm.Expr, error) {
	l, err := ps.parseMultiplicative()
	if err != nil {
		return nil, err
	}
	for {
		t := ps.peek()
		var op xdm.ArithOp
		switch {
		case t.is("+"):
			op = xdm.OpAdd
		case t.is("-"):
			op = xdm.OpSub
		default:
			return l, nil
		}
		ps.next()
		r, err := ps.parseMultiplicative()
		if err != nil {
			return nil, err
		}
		l = &vm.Expr{Op: vm.OpArith, Arith: op, Args: []*vm.Expr{l, r}}
	}
}

func (ps *parser) parseMultiplicative() (*vm.Expr, error) {
	l, err := ps.parseUnion()
	if err != nil {
		return nil, err
	}
	for {
		t := ps.peek()
		var op xdm.ArithOp
		switch {
		case t.kind == tStar:
			op = xdm.OpMul
		case t.isName("div"):
			op = xdm.OpDiv
		case t.isName("idiv"):
			op = xdm.OpIDiv
		case t.isName("mod"):
			op = xdm.OpMod
		default:
			return l, nil
		}
		ps.next()
		r, err := ps.parseUnion()
		if err != nil {
			return nil, err
		}
		l = &vm.Expr{Op: vm.OpArith, Arith: op, Args: []*vm.Expr{l, r}}
	}
}

func (ps *parser) parseUnion() (*vm.Expr, error) {
	l, err := ps.parseIntersect()
	if err != nil {
		return nil, err
	}
	for ps.peek().is("|") || ps.peek().isName("union") {
		ps.next()
		r, err := ps.parseIntersect()
		if err != nil {
			return nil, err
		}
		l = &vm.Expr{Op: vm.OpUnion, Args: []*vm.Expr{l, r}}
	}
	return l, nil
}

func (ps *parser) parseIntersect() (*vm.Expr, error) {
	l, err := ps.parseInstanceOf()
	if err != nil {
		return nil, err
	}
	for ps.peek().isName("intersect") || ps.peek().isName("except") {
		op := vm.OpIntersect
		if ps.next().text == "except" {
			op = vm.OpExcept
		}
		r, err := ps.parseInstanceOf()
		if err != nil {
			return nil, err
		}
		l = &vm.Expr{Op: op, Args: []*vm.Expr{l, r}}
	}
	return l, nil
}

func (ps *parser) parseInstanceOf() (*vm.Expr, error) {
	l, err := ps.parseTreat()
	if err != nil {
		return nil, err
	}
	if ps.peek().isName("instance") && ps.peekN(1).isName("of") {
		ps.next()
		ps.next()
		st, err := ps.parseSequenceType()
		if err != nil {
			return nil, err
		}
		return &vm.Expr{Op: vm.OpInstanceOf, Args: []*vm.Expr{l}, Aux: &vm.ExprAux{SeqType: &st}}, nil
	}
	return l, nil
}

func (ps *parser) parseTreat() (*vm.Expr, error) {
	l, err := ps.parseCastable()
	if err != nil {
		return nil, err
	}
	if ps.peek().isName("treat") && ps.peekN(1).isName("as") {
		return nil, ps.errAt(ps.peek(), "'treat as' is not supported")
	}
	return l, nil
}

func (ps *parser) parseCastable() (*vm.Expr, error) {
	l, err := ps.parseCast()
	if err != nil {
		return nil, err
	}
	if ps.peek().isName("castable") && ps.peekN(1).isName("as") {
		ps.next()
		ps.next()
		typ, opt, err := ps.parseSingleType()
		if err != nil {
			return nil, err
		}
		return &vm.Expr{Op: vm.OpCastable, Args: []*vm.Expr{l}, Type: typ, Optional: opt}, nil
	}
	return l, nil
}

func (ps *parser) parseCast() (*vm.Expr, error) {
	l, err := ps.parseUnary()
	if err != nil {
		return nil, err
	}
	if ps.peek().isName("cast") && ps.peekN(1).isName("as") {
		ps.next()
		ps.next()
		typ, opt, err := ps.parseSingleType()
		if err != nil {
			return nil, err
		}
		return &vm.Expr{Op: vm.OpCast, Args: []*vm.Expr{l}, Type: typ, Optional: opt}, nil
	}
	return l, nil
}

// atomicType resolves a QName token to a supported atomic type.
func (ps *parser) atomicType(t token) (xdm.Type, error) {
	if t.kind != tName {
		return 0, ps.errAt(t, "expected an atomic type name")
	}
	uri, local, err := ps.resolve(t, "")
	if err != nil {
		return 0, err
	}
	if uri == NSXS {
		if typ, ok := xdm.TypeByName(local); ok {
			return typ, nil
		}
	}
	return 0, ps.errAt(t, "unsupported atomic type")
}

func (ps *parser) parseSingleType() (xdm.Type, bool, error) {
	typ, err := ps.atomicType(ps.next())
	if err != nil {
		return 0, false, err
	}
	if ps.peek().is("?") {
		ps.next()
		return typ, true, nil
	}
	return typ, false, nil
}

func (ps *parser) parseSequenceType() (vm.SeqType, error) {
	t := ps.peek()
	var st vm.SeqType
	if t.kind != tName {
		return st, ps.errAt(t, "expected a sequence type")
	}
	if ps.peekN(1).is("(") {
		switch t.text {
		case "empty-sequence":
			ps.next()
			ps.next()
			if _, err := ps.expect(")"); err != nil {
				return st, err
			}
			st.Empty = true
			return st, nil
		case "item":
			ps.next()
			ps.next()
			if _, err := ps.expect(")"); err != nil {
				return st, err
			}
			st.Item = true
		default:
			test, ok, err := ps.parseKindTest()
			if err != nil {
				return st, err
			}
			if !ok {
				return st, ps.errAt(t, "unsupported sequence type")
			}
			st.Test = test
		}
	} else {
		ps.next()
		if t.text == "xs:anyAtomicType" {
			return st, ps.errAt(t, "xs:anyAtomicType is not supported in instance of")
		}
		typ, err := ps.atomicType(t)
		if err != nil {
			return st, err
		}
		st.Atomic, st.Type = true, typ
	}
	switch n := ps.peek(); {
	case n.is("?"):
		ps.next()
		st.Occ = vm.OccOptional
	case n.kind == tStar:
		ps.next()
		st.Occ = vm.OccMany
	case n.is("+"):
		ps.next()
		st.Occ = vm.OccPlus
	}
	return st, nil
}

func (ps *parser) parseUnary() (*vm.Expr, error) {
	neg := false
	any := false
	for ps.peek().is("-") || ps.peek().is("+") {
		any = true
		if ps.next().text == "-" {
			neg = !neg
		}
	}
	e, err := ps.parsePath()
	if err != nil {
		return nil, err
	}
	if neg {
		return &vm.Expr{Op: vm.OpNeg, Args: []*vm.Expr{e}}, nil
	}
	if any {
		// unary plus still atomizes and requires a number: 0 + e keeps the type.
		return &vm.Expr{Op: vm.OpNeg, Args: []*vm.Expr{{Op: vm.OpNeg, Args: []*vm.Expr{e}}}}, nil
	}
	return e, nil
}

// resolve maps a QName token to (namespace URI, local). def is the
// namespace of unprefixed names.
func (ps *parser) resolve(t token, def string) (string, string, error) {
	prefix, local, ok := strings.Cut(t.text, ":")
	if !ok {
		return def, t.text, nil
	}
	uri, err := ps.prefixURI(prefix, t)
	return uri, local, err
}

func (ps *parser) prefixURI(prefix string, t token) (string, error) {
	uri, ok := ps.sc.Namespaces[prefix]
	if ps.track {
		ps.addDep(scopeDep{name: prefix, uri: uri, ok: ok})
	}
	if ok {
		return uri, nil
	}
	switch prefix {
	case "xs":
		return NSXS, nil
	case "fn":
		return NSFn, nil
	case "xml":
		return "http://www.w3.org/XML/1998/namespace", nil
	}
	return "", &Error{Offset: t.pos, Construct: prefix, Msg: "undeclared namespace prefix"}
}

// addDep records what the parse read from the static context, once per
// prefix or variable name: within one parse a name always resolves the
// same way, and every dependency is checked on each cache hit.
func (ps *parser) addDep(d scopeDep) {
	for _, o := range ps.deps {
		if o.isVar == d.isVar && o.name == d.name {
			return
		}
	}
	ps.deps = append(ps.deps, d)
}

func (ps *parser) lookupVar(name string) (*vm.Expr, bool) {
	for i := len(ps.scope) - 1; i >= 0; i-- {
		if ps.scope[i].name == name {
			return &vm.Expr{Op: vm.OpLocal, Slot: ps.scope[i].slot, Str: name}, true
		}
	}
	slot, ok := ps.sc.Variables[name]
	c, isConst := ps.sc.Constants[slot]
	isConst = isConst && ok
	if ps.track {
		ps.addDep(scopeDep{isVar: true, name: name, slot: slot, ok: ok, isConst: isConst, val: c})
	}
	if isConst {
		return &vm.Expr{Op: vm.OpConst, Seq: c}, true
	}
	if ok {
		return &vm.Expr{Op: vm.OpVar, Slot: slot, Str: name}, true
	}
	return nil, false
}

func intLiteral(text string) (*vm.Expr, error) {
	d, ok := xdm.ParseInteger(text)
	if !ok {
		return nil, &Error{Construct: text, Msg: "invalid integer literal"}
	}
	return constItem(xdm.IntegerD(d)), nil
}

func constItem(it xdm.Item) *vm.Expr {
	return &vm.Expr{Op: vm.OpConst, Seq: xdm.Sequence{it}}
}

func numLiteral(t token) (*vm.Expr, error) {
	switch t.kind {
	case tInteger:
		e, err := intLiteral(t.text)
		if err != nil {
			return nil, &Error{Offset: t.pos, Construct: t.text, Msg: "invalid integer literal"}
		}
		return e, nil
	case tDecimal:
		d, ok := xdm.ParseDecimal(t.text)
		if !ok {
			return nil, &Error{Offset: t.pos, Construct: t.text, Msg: "invalid decimal literal"}
		}
		return constItem(xdm.Dec(d)), nil
	}
	f, err := strconv.ParseFloat(t.text, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return nil, &Error{Offset: t.pos, Construct: t.text, Msg: "invalid double literal"}
	}
	return constItem(xdm.Double(f)), nil
}
