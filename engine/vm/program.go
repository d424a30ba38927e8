package vm

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Program is a compiled XPath expression. It is immutable and safe for
// concurrent use.
type Program struct {
	src     string
	root    *Expr
	nLocals int
	re      *sync.Map // regex cache for non-literal patterns: key pattern+"\x00"+flags
	reCount *atomic.Int32
	fns     *Functions // extension functions and documents of the static context (may be nil)
	vars    []int      // Env.Vars slots read by the program
	cat     *Catalog   // names of the rule set (may be nil)
	nCSE    int        // shared subexpression slots (cse.go)
	// fastShares: the fast test's shared slots (FastShares).
	fastShares int
	cseLocals  [][]int32 // per shared slot, the local variable slots it reads
	fast       fastBool  // the test evaluated without a frame (fast.go), or nil
	fastVal    fastValue // the value evaluated without a frame (a let's), or nil
	// fastVars is the test evaluated without a frame reading the values
	// of variables (Env.Vars), when fast is nil: only the caller knows
	// whether those values are bound and sound (FastVarTest).
	fastVars fastBool
	// scalarFors: the for-expressions whose body is a closure over the
	// bound item (scalar.go); nil when none.
	scalarFors map[*Expr]ScalarFunc
}

// NewProgram wraps a compiled expression tree. nLocals is the number of
// local variable slots the tree uses. The tree must not be modified later.
func NewProgram(src string, root *Expr, nLocals int) *Program {
	return NewProgramFuncs(src, root, nLocals, nil)
}

// NewProgramFuncs is NewProgram for a tree compiled against fns, whose
// registered documents (fn:document) the program can reach. Programs whose
// results are passed to each other (lets) must share the same fns.
func NewProgramFuncs(src string, root *Expr, nLocals int, fns *Functions) *Program {
	return NewProgramIn(src, root, nLocals, fns, nil)
}

// NewProgramIn is NewProgramFuncs for a program whose name tests are
// numbered in cat (shared by the programs of one rule set, so an Env
// resolves names once per document for all of them); cat may be nil.
func NewProgramIn(src string, root *Expr, nLocals int, fns *Functions, cat *Catalog) *Program {
	return newProgram(src, root, nLocals, fns, cat, ValueUse, nil)
}

// Use tells a program's constructor how its result will be read.
type Use uint8

const (
	// ValueUse: by Eval and EvalBool (a let, a message part).
	ValueUse Use = iota
	// TestUse: by EvalBool only (a check's test). No frame-free form of
	// the value is compiled: a rule set's tests are most of its programs,
	// and that form cost 6 % of a server start's instructions and 20 MB
	// of its garbage. Eval still works, through the interpreter.
	TestUse
)

// newProgram builds the program of root; plan is root's PlanShared, or
// nil to plan the frame-free test's shares here.
func newProgram(src string, root *Expr, nLocals int, fns *Functions, cat *Catalog, use Use, plan *CSEPlan) *Program {
	p := &Program{src: src, root: root, nLocals: nLocals, re: new(sync.Map), reCount: new(atomic.Int32), fns: fns, cat: cat}
	var numLocal []bool
	if plan != nil {
		numLocal = plan.numLocal
	} else if cat != nil && root != nil {
		numLocal = planNumShares(root, &cat.cse)
	}
	cat.prepare(root)
	markCmpCard(root)
	p.vars = collectVars(nil, root)
	p.scalarFors = compileScalarFors(root, nil)
	if cat != nil && root != nil {
		var ns *numShares
		if numLocal != nil {
			ns = &numShares{local: numLocal}
		}
		p.fast = shareTest(ns, compileFastIn(ns, root))
		if ns != nil && p.fast != nil {
			p.fastShares = ns.nUsed()
		}
		if use == ValueUse {
			p.fastVal = compileFastValueIn(&numShares{vars: true, fns: fns}, root)
		}
		if p.fast == nil && (len(p.vars) > 0 || fns.callsScalar(root)) {
			p.fastVars = compileFastVars(ns, root, fns)
		}
	}
	return p
}

// NewProgramShared is NewProgramIn with common-subexpression elimination:
// costly subexpressions repeated in the tree share their value within one
// evaluation (cse.go). The compiler's optimised path uses it.
func NewProgramShared(src string, root *Expr, nLocals int, fns *Functions, cat *Catalog, use Use) *Program {
	p := newProgram(src, root, nLocals, fns, cat, use, nil)
	var hc *hashCons
	if cat != nil {
		hc = &cat.cse
	}
	p.cseLocals = prepareCSE(root, hc)
	p.nCSE = len(p.cseLocals)
	return p
}

// CSEPlan is the common-subexpression plan of a tree (cse.go): which
// subexpressions share a slot (Expr.CSE) and the local variables each
// slot's value depends on; and the same for the frame-free test's shares
// (Expr.NumShare, planNumShares). It depends only on the tree's
// structure, not on the catalog the tree is wrapped with.
type CSEPlan struct {
	locals   [][]int32
	numLocal []bool
}

// PlanShared computes the plan of a tree that has not been wrapped yet and
// records it in the tree (Expr.CSE, Expr.NumShare). Copies made by
// CloneExpr carry the annotations, so a tree wrapped many times (the
// compile cache: the EN 16931 base in several rule sets) is planned once
// and each copy is wrapped with NewProgramPlanned.
func PlanShared(root *Expr) CSEPlan {
	hc := hashConsPool.Get().(*hashCons)
	defer hashConsPool.Put(hc)
	locals := prepareCSE(root, hc)
	return CSEPlan{locals: locals, numLocal: planNumShares(root, hc)}
}

var hashConsPool = sync.Pool{New: func() any { return new(hashCons) }}

// NewProgramPlanned is NewProgramShared for a copy of a tree planned by
// PlanShared: the same program, without planning again.
func NewProgramPlanned(src string, root *Expr, nLocals int, fns *Functions, cat *Catalog, plan CSEPlan, use Use) *Program {
	p := newProgram(src, root, nLocals, fns, cat, use, &plan)
	p.cseLocals = plan.locals
	p.nCSE = len(plan.locals)
	return p
}

// FastShares returns how many repeated subexpressions (numeric and
// boolean) the program's frame-free test computes once per evaluation
// (fastnum.go).
func (p *Program) FastShares() int { return p.fastShares }

// SharedSubexpressions returns how many groups of repeated subexpressions
// share their value within an evaluation (see NewProgramShared).
func (p *Program) SharedSubexpressions() int { return p.nCSE }

// VarSlots returns the Env.Vars slots the program reads, sorted, without
// duplicates (for example to evaluate only the lets a check needs, lazily,
// as XSLT does). The slice must not be modified.
func (p *Program) VarSlots() []int { return p.vars }

func collectVars(acc []int, e *Expr) []int {
	if e == nil {
		return acc
	}
	if e.Op == OpVar && !slices.Contains(acc, e.Slot) {
		acc = append(acc, e.Slot)
		slices.Sort(acc)
	}
	eachChild(e, func(c *Expr) { acc = collectVars(acc, c) })
	return acc
}

// Source returns the expression text the program was compiled from.
func (p *Program) Source() string { return p.src }

// Root returns the compiled tree (read-only; for debugging and tests).
func (p *Program) Root() *Expr { return p.root }

// Constant returns the program's value when it is a constant (folded at
// compile time, e.g. a code list tokenize('AED AFN ...', '\s')), whatever
// the document and focus. The sequence is shared: read-only.
func (p *Program) Constant() (xdm.Sequence, bool) {
	if p.root == nil || p.root.Op != OpConst || p.root.ConstPos() != 0 {
		return nil, false
	}
	return p.root.Seq, true
}

// Env is the dynamic context of evaluations against one document: the
// document, the values of the external variables (indexed by the slots of
// the StaticContext) and private pooled scratch space. An Env must not be
// used by several goroutines at once.
type Env struct {
	Doc  *xmltree.Document
	Vars []xdm.Sequence

	fr *frame
	// noFast makes every evaluation run by the interpreter alone, nothing
	// without a frame (fast.go; FastAgrees compares the two).
	noFast bool
}

func (env *Env) acquire(ctx context.Context, p *Program) *frame {
	f := env.fr
	if f == nil || f.busy {
		f = newFrame()
		if env.fr == nil {
			env.fr = f
		}
	}
	f.busy = true
	f.noFast = env.noFast
	f.env = env
	f.doc, f.docIdx = env.Doc, 0
	f.ctx = ctx
	f.prog = p
	f.catReady = f.catResolved(p.cat, env.Doc)
	f.arena = f.arena[:0]
	f.depth = 0
	f.args = f.args[:0]
	if p.nLocals > 0 {
		if cap(f.locals) < p.nLocals {
			f.locals = make([]xdm.Sequence, p.nLocals)
		}
		f.locals = f.locals[:p.nLocals]
	} else {
		f.locals = f.locals[:0]
	}
	f.cseIn = nil
	if p.nCSE > 0 {
		if cap(f.cse) < p.nCSE {
			f.cse = make([]cseEntry, p.nCSE)
		}
		f.cse = f.cse[:p.nCSE]
		for i := range f.cse {
			f.cse[i].set = false
		}
	} else {
		f.cse = f.cse[:0]
	}
	return f
}

// maxKeptItems bounds the scratch space an Env keeps between evaluations,
// so one huge evaluation (a hostile document) does not pin its memory.
const maxKeptItems = 1 << 16

func (f *frame) release() {
	f.busy = false
	if len(f.locals) > 0 {
		clear(f.locals)
	}
	f.ctx = nil
	if cap(f.arena) > maxKeptItems {
		f.arena = nil
	}
	// (Oversized scratch buffers are dropped as they are handed back: done,
	// drop.)
	// Shared-subexpression values: drop the items (their strings point
	// into the document) and oversized buffers, keep the rest for reuse.
	// Only the current program's slots were written (acquire resliced
	// f.cse to them; the entries beyond were cleared by earlier releases).
	all := f.cse
	if !f.cseUsed {
		all = nil
	}
	f.cseUsed = false
	for i := range all {
		e := &all[i]
		clear(e.val[:e.hwVal])
		clear(e.locals[:e.hwLocals])
		e.val, e.locals, e.err, e.set = e.val[:0], e.locals[:0], nil, false
		e.hwVal, e.hwLocals = 0, 0
		if cap(e.val) > maxKeptItems {
			e.val = nil
		}
	}
}

func (p *Program) wrap(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*xdm.Error); ok {
		return err
	}
	return fmt.Errorf("xpath %q: %w", p.src, err)
}

// Eval evaluates the program with node as the context item and returns a
// sequence owned by the caller.
func (p *Program) Eval(ctx context.Context, env *Env, node xmltree.NodeID) (xdm.Sequence, error) {
	return p.EvalAppend(ctx, env, node, nil)
}

// EvalAppend is Eval appending the result to dst, in its spare capacity
// when there is room: a caller that keeps a slot per variable (the
// xsl:functions) evaluates without allocating. With dst nil it is Eval:
// the result in a slice of its own, never nil.
func (p *Program) EvalAppend(ctx context.Context, env *Env, node xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, error) {
	if p.fastVal != nil {
		if fe := env.fastFrame(p.cat); fe != nil {
			if out, ok := p.fastVal(fe, node, dst); ok {
				if out == nil {
					out = xdm.Sequence{}
				}
				return out, nil
			}
		}
	}
	f := env.acquire(ctx, p)
	defer f.release()
	res, err := f.eval(p.root, focusNode(node))
	if err != nil {
		return nil, p.wrap(err)
	}
	if dst == nil {
		dst = make(xdm.Sequence, 0, len(res))
	}
	return append(dst, res...), nil
}

// EvalBool evaluates the program and returns its effective boolean value.
func (p *Program) EvalBool(ctx context.Context, env *Env, node xmltree.NodeID) (bool, error) {
	if v, ok := p.TryFast(env, node); ok {
		return v, nil
	}
	f := env.acquire(ctx, p)
	defer f.release()
	b, err := f.evalBool(p.root, focusNode(node))
	return b, p.wrap(err)
}

// TryFast is EvalBool's frame-free evaluation alone (fast.go): ok=false
// when the program has none, or it cannot decide on node, and EvalBool
// must be called. The engine's loop over a rule's checks calls it first,
// so that the tests decided without a frame (most of them) skip a call.
func (p *Program) TryFast(env *Env, node xmltree.NodeID) (v, ok bool) {
	if p.fast == nil {
		return false, false
	}
	return p.TryFastIn(env.Fast(p.cat), node)
}

// TryFastIn is TryFast through fx, the Env's FastEnv for p's catalog: the
// engine takes it once per document for all its tests instead of once per
// test.
func (p *Program) TryFastIn(fx FastEnv, node xmltree.NodeID) (v, ok bool) {
	if p.fast == nil || !fx.For(p.cat) {
		return false, false
	}
	return p.fast(fx.fe, node)
}

// FastTest is a program's frame-free test (Program.FastTest), run through
// FastEnv.Test: the engine keeps it beside each check, so that a test
// decided without a frame costs one indirect call.
type FastTest struct {
	fn fastBool
}

// FastTest returns p's frame-free test; ok=false when it has none.
func (p *Program) FastTest() (t FastTest, ok bool) { return FastTest{fn: p.fast}, p.fast != nil }

// FastVarTest returns p's frame-free test that reads variables
// ($documentCurrencyCode); ok=false when it has none. It reads the Env's
// Vars as they are when it runs: the caller runs it only when every
// variable the program reads (VarSlots) holds its value, none of them a
// failed let's.
func (p *Program) FastVarTest() (t FastTest, ok bool) {
	return FastTest{fn: p.fastVars}, p.fastVars != nil
}

// Test runs t, the FastTest of a program of fx's catalog (the caller
// checks that: FastEnv.For), on node: TryFastIn without its checks.
func (fx FastEnv) Test(t FastTest, node xmltree.NodeID) (v, ok bool) { return t.fn(fx.fe, node) }

// For reports whether fx can run the frame-free tests and patterns of
// cat's programs.
func (fx FastEnv) For(cat *Catalog) bool { return fx.fe != nil && fx.cat == cat }

// FastEnv is an Env's frame-free context for the programs and patterns of
// one catalog on the Env's document (Env.Fast). It stays valid while the
// Env's document stays and the Env evaluates only programs of that catalog
// (the engine's validation of one document by one rule set); the zero
// FastEnv decides nothing.
type FastEnv struct {
	fe  *fastEnv
	cat *Catalog
}

// Fast returns env's FastEnv for cat: the zero FastEnv when the Env's
// frame is not resolved for cat and its document (Env.CatalogIDs resolves
// it), or is in use, or the Env evaluates without fast paths.
func (env *Env) Fast(cat *Catalog) FastEnv {
	fe := env.fastFrame(cat)
	if fe == nil {
		return FastEnv{}
	}
	return FastEnv{fe: fe, cat: cat}
}

// EvalString evaluates the program and joins the string values of the
// result with single spaces (xsl:value-of semantics).
func (p *Program) EvalString(ctx context.Context, env *Env, node xmltree.NodeID) (string, error) {
	f := env.acquire(ctx, p)
	defer f.release()
	res, err := f.eval(p.root, focusNode(node))
	if err != nil {
		return "", p.wrap(err)
	}
	switch len(res) {
	case 0:
		return "", nil
	case 1:
		return f.itemString(res[0]), nil
	}
	n := 0
	for _, it := range res {
		n += len(f.itemString(it)) + 1
	}
	b := make([]byte, 0, n)
	for i, it := range res {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, f.itemString(it)...)
	}
	return string(b), nil
}

// Func is an extension function. It receives its arguments already
// evaluated (node items with Doc 0 are nodes of doc; others belong to
// documents registered with RegisterDocument; the argument slices are only
// valid during the call) and returns a sequence it owns. Errors should be
// *xdm.Error; others are wrapped as FOER0000.
type Func func(ctx context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error)

type funcKey struct {
	name  xdm.QName
	arity int
}

// Functions is a registry of extension functions by expanded name and
// arity. Register everything before compiling; a registry must not be
// modified while programs compiled against it are evaluated.
type Functions struct {
	m      map[funcKey]Func
	pure   map[funcKey]bool
	scalar map[funcKey]ExtScalar
	memo   map[funcKey]*scalarMemo
	docs   []*xmltree.Document
	docIdx map[string]int
}

// scalarMemo stands for an ExtScalar of one argument whose answers a
// validation keeps for its document (Functions.MemoScalar): the memo's
// keys point to it, so two registrations never share answers.
type scalarMemo struct{ _ byte }

// NewFunctions returns an empty registry.
func NewFunctions() *Functions { return &Functions{m: map[funcKey]Func{}, docIdx: map[string]int{}} }

// RegisterDocument makes a parsed, read-only document available to
// fn:document(uri) / fn:doc(uri) (e.g. the Factur-X code list databases).
// Its nodes are ordinary node items (xdm.Item.Doc = its 1-based index), so
// paths, predicates and atomization work on them. At most 65535 documents.
func (fs *Functions) RegisterDocument(uri string, doc *xmltree.Document) {
	if i, ok := fs.docIdx[uri]; ok {
		fs.docs[i] = doc
		return
	}
	if len(fs.docs) >= 1<<16-1 {
		return
	}
	fs.docIdx[uri] = len(fs.docs)
	fs.docs = append(fs.docs, doc)
}

// Register adds (or replaces) the function space:local with the given arity.
func (fs *Functions) Register(space, local string, arity int, fn Func) {
	fs.m[funcKey{xdm.QName{Space: space, Local: local}, arity}] = fn
}

// RegisterPure is Register for a function whose result depends only on its
// arguments (and the documents they reach): no clock, no state. A call of
// such a function whose arguments do not depend on the focus (constants,
// absolute paths) is evaluated once per validated document (memo.go).
func (fs *Functions) RegisterPure(space, local string, arity int, fn Func) {
	fs.Register(space, local, arity, fn)
	if fs.pure == nil {
		fs.pure = map[funcKey]bool{}
	}
	fs.pure[funcKey{xdm.QName{Space: space, Local: local}, arity}] = true
}

// ExtScalar is an extension function's evaluation without a context
// (no context.Context, no frame): its value, or ok=false when it cannot
// give the answer of the registered Func that way, which must then be
// called. It must be safe for concurrent use.
type ExtScalar func(doc *xmltree.Document, args []xdm.Sequence) (res xdm.Sequence, ok bool)

// RegisterScalar gives the function space:local of that arity, registered
// with Register or RegisterPure, its ExtScalar: a test calling it with
// frame-free arguments is then decided without a frame where fn answers
// (fast.go, compileFastExt).
func (fs *Functions) RegisterScalar(space, local string, arity int, fn ExtScalar) {
	if fs.scalar == nil {
		fs.scalar = map[funcKey]ExtScalar{}
	}
	fs.scalar[funcKey{xdm.QName{Space: space, Local: local}, arity}] = fn
}

// MemoScalar declares that the ExtScalar of the function space:local of
// arity 1 answers from the atomized value of its argument alone (its
// type and string: a node as its xs:untypedAtomic value), so that the
// frame-free tests keep each answer for the document they validate and
// call it once per distinct argument (compileFastExt). BR-FR's custom:*
// functions are called with the same amount, rate or code by several
// checks: 126 calls and 47 distinct arguments on the Factur-X example.
func (fs *Functions) MemoScalar(space, local string, arity int) {
	if arity != 1 {
		return
	}
	if fs.memo == nil {
		fs.memo = map[funcKey]*scalarMemo{}
	}
	fs.memo[funcKey{xdm.QName{Space: space, Local: local}, arity}] = new(scalarMemo)
}

// LookupScalar returns the ExtScalar of the function space:local of that
// arity (RegisterScalar), if it has one.
func (fs *Functions) LookupScalar(space, local string, arity int) (ExtScalar, bool) {
	fn, ok := fs.scalar[funcKey{xdm.QName{Space: space, Local: local}, arity}]
	return fn, ok
}

// scalarOf returns the ExtScalar of the function an OpExtCall calls (its
// Str is "{uri}local"), or nil; memo, when its answers may be kept
// (MemoScalar).
func (fs *Functions) scalarOf(e *Expr) (fn ExtScalar, memo *scalarMemo) {
	if fs == nil || fs.scalar == nil || !strings.HasPrefix(e.Str, "{") {
		return nil, nil
	}
	i := strings.IndexByte(e.Str, '}')
	if i < 0 {
		return nil, nil
	}
	k := funcKey{xdm.QName{Space: e.Str[1:i], Local: e.Str[i+1:]}, len(e.Args)}
	return fs.scalar[k], fs.memo[k]
}

// callsScalar reports whether e calls a function that has an ExtScalar.
func (fs *Functions) callsScalar(e *Expr) bool {
	if fs == nil || fs.scalar == nil || e == nil {
		return false
	}
	if fn, _ := fs.scalarOf(e); e.Op == OpExtCall && fn != nil {
		return true
	}
	found := false
	eachChild(e, func(c *Expr) { found = found || fs.callsScalar(c) })
	return found
}

// Pure reports whether space:local with the given arity was registered with
// RegisterPure.
func (fs *Functions) Pure(space, local string, arity int) bool {
	return fs != nil && fs.pure[funcKey{xdm.QName{Space: space, Local: local}, arity}]
}

// Lookup finds a registered function.
func (fs *Functions) Lookup(space, local string, arity int) (Func, bool) {
	if fs == nil {
		return nil, false
	}
	fn, ok := fs.m[funcKey{xdm.QName{Space: space, Local: local}, arity}]
	return fn, ok
}

// HasName reports whether any arity of space:local is registered.
func (fs *Functions) HasName(space, local string) bool {
	if fs == nil {
		return false
	}
	for k := range fs.m {
		if k.name.Space == space && k.name.Local == local {
			return true
		}
	}
	return false
}
