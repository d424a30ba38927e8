package vm

import (
	"hash/maphash"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Direct evaluation of the simplest boolean tests, without a frame.
//
// Most of the checks a validation evaluates are tests such as
//
//	exists(cac:Price/cbc:PriceAmount)
//	count(cac:Item/cac:ClassifiedTaxCategory) = 1
//	(cbc:Percent) > 0
//	normalize-space(cac:Item/cbc:Name) != ''
//	string-length(substring-after(cbc:LineExtensionAmount,'.'))<=2
//	contains(' AED AFN ... ', concat(' ', normalize-space(@currencyID), ' '))
//	not(ram:TaxPointDate) or (ancestor::ram:ApplicableHeaderTradeSettlement)
//	(ram:ApplicableTradeTax[upper-case(ram:TypeCode) = 'VAT']/ram:CategoryCode)
//
// whose operands are paths from the context node: leading parent steps
// (..) or a filter of the context node (.[…]), then named child steps, the
// last of which may be an attribute step, each with predicates of the
// same kind; counts of such paths; string functions (normalize-space,
// upper-case, lower-case, string-length) of their node, also as a path's
// last step (cac:TaxScheme/normalize-space(cbc:ID)). Absolute paths with
// predicates are read from what the interpreter keeps of them per
// document (fastmemo.go), never walked again. Such
// tests cost little next to the interpreter's fixed costs: a frame taken
// and handed back, a sequence per operand, an item per node. When a
// program's whole test is of that kind, NewProgramIn compiles it into a
// tree of closures (fastBool) that read the document directly, and
// EvalBool runs it before the interpreter.
//
// The closures decide only what cannot raise an error: a comparison whose
// cast fails (FORG0001), a function given more than one node (XPTY0004),
// a path past fastMaxNodes nodes, a document other than the Env's own,
// return ok=false and the interpreter evaluates the program from the
// start, so errors are raised, and reported, exactly as before. Where they
// decide, the answer is the interpreter's:
//   - the paths select the same nodes in document order (parent steps
//     from one node reach one node; a depth-first walk of child steps
//     from one node cannot repeat a node; the nodes of a descendant step
//     come from the name index in document order, and where the steps
//     after it reach nodes out of that order or twice, the path gives
//     up), and a predicate, always a boolean, keeps a node when it holds,
//     as filtering does;
//   - a path with predicates is evaluated whole even where one node
//     would do (exists, the effective boolean value), so that an error
//     the interpreter would meet in a later predicate makes the closure
//     give up instead of answering;
//   - "and" and "or" evaluate their left operand first and stop as the
//     interpreter does;
//   - a general comparison is true when a pair of its operands' items
//     compares true; the closures compare every pair, and decide only
//     when none raises an error, so the order in which the interpreter
//     compares them (Expr.Card) cannot change the answer;
//   - comparisons and casts are xdm's own (CompareGeneral,
//     CompareValues); nodes atomize to xs:untypedAtomic.
//
// TestFastPaths checks each construct, refusals included;
// TestFastAgreesWithInterpreter (engine) compares the two on every node of
// the EN 16931 examples, FuzzValidateEN16931 on its inputs, and the oracle
// runs of the conformance suite on a sample of their mutants.

// descPredMax bounds the nodes of a descendant step with predicates that a
// fast path tests one by one (fastPathOf): past it the interpreter, whose
// step indexes find them by key, evaluates the test.
const descPredMax = 8

// fastMaxNodes bounds the nodes a fast path collects: past it the
// interpreter evaluates the test, with its budgets and cancellation.
const fastMaxNodes = 1 << 12

// fastEnv is what a fastBool reads: the Env's document, its catalog's ids
// and the scratch buffers of the paths being walked, one per nesting
// level (a predicate walks its own paths while its step's are collected).
type fastEnv struct {
	// fr is the frame the fastEnv belongs to (newFrame), whose memo
	// table (fastmemo.go) it reads.
	fr    *frame
	doc   *xmltree.Document
	ids   []xmltree.NameID
	bufs  [][]xmltree.NodeID
	depth int
	kids  childCache
	// vars are the Env's variable values (Program.FastVarTest).
	vars []xdm.Sequence
	// extArgs, extItems: the arguments of an extension function call
	// (compileFastExt), without an allocation per call.
	extArgs  [maxExtArgs]xdm.Sequence
	extItems [maxExtArgs]xdm.Item
	// strs: the parts string-join joins (compileFastJoinParts), cleared
	// after each join; joined: their bytes, when a filter tests them
	// before a string is made (compileFastStrFilter).
	strs   []string
	joined []byte
	// nums holds the values of the shared subexpressions (numShares)
	// of the test being evaluated, valid while their gen is numGen.
	nums           []numEntry
	numGen, numSeq uint64
	// locGen is the generation of the current binding of the frame-free
	// quantified expressions' variables (compileFastQuantified): the
	// shared values that read them (numShares.local) hold for it only.
	locGen uint64
	// locals: the variables of the quantified expressions being
	// evaluated without a frame, by local slot (compileFastQuantified);
	// qitems holds their binding sequences, one run per nesting level.
	locals []fastLocal
	qitems []xdm.Item
	// keyIxs[:keyN]: the step indexes of keyDoc (fastkey.go), reused
	// by the next document; keyUses: which step uses which from which
	// node; keyCands: scratch for a step's nodes.
	keyDoc   *xmltree.Document
	keyN     int
	keyIxs   []*fastKeyIndex
	keyUses  []keyUse
	keyCands []xmltree.NodeID
	// memoItems: scratch for the nodes memoKeep stores.
	memoItems []xdm.Item
	// extMemo: the answers of the extension functions of one argument
	// that may be kept (Functions.MemoScalar) for extMemoDoc, by
	// function and argument (compileFastExt): an open-addressing table
	// of extMemoN entries, at most half full (a Go map hashed the
	// four-field key field by field: ~194 instructions a lookup).
	extMemoDoc  *xmltree.Document
	extMemo     []extEntry
	extMemoN    int
	extMemoSeed maphash.Seed
}

// extMemoKey is an extension function's argument in fastEnv.extMemo: the
// function (MemoScalar's token), and the argument atomized (empty: none);
// h hashes the string.
type extMemoKey struct {
	fn    *scalarMemo
	empty bool
	t     xdm.Type
	s     string
	h     uint64
}

// extEntry is a slot of fastEnv.extMemo (fn nil: free).
type extEntry struct {
	k extMemoKey
	v bool
}

// maxExtMemo bounds the answers a document's extMemo keeps; a table grown
// past extMemoKept slots for one document is dropped, not cleared, for
// the next (so that one document with thousands of distinct arguments
// does not make every later one clear a table of that size).
const (
	maxExtMemo  = 1 << 12
	extMemoKept = 256
)

// extKey returns the extMemo key of a call of the function m with one
// argument, arg; ok=false when arg is not one string, xs:untypedAtomic or
// node of the document, or none. It empties the memo when it holds
// another document's answers.
func (fe *fastEnv) extKey(m *scalarMemo, arg xdm.Sequence) (k extMemoKey, ok bool) {
	if fe.extMemoDoc != fe.doc {
		if fe.extMemoN > 0 {
			if len(fe.extMemo) > extMemoKept {
				fe.extMemo = nil
			} else {
				clear(fe.extMemo)
			}
			fe.extMemoN = 0
		}
		fe.extMemoDoc = fe.doc
	}
	k.fn = m
	switch {
	case len(arg) == 0:
		k.empty = true
		return k, true
	case len(arg) > 1:
		return k, false
	}
	switch it := arg[0]; it.T {
	case xdm.TNode:
		if it.Doc != 0 {
			return k, false
		}
		k.t, k.s = xdm.TUntyped, fe.doc.StringValue(xmltree.NodeID(it.Node))
	case xdm.TString, xdm.TUntyped:
		k.t, k.s = it.T, it.S
	default:
		return k, false
	}
	if fe.extMemo == nil {
		fe.extMemoSeed = maphash.MakeSeed()
		fe.extMemo = make([]extEntry, 64)
	}
	k.h = maphash.String(fe.extMemoSeed, k.s)
	return k, true
}

// extSlot returns the slot of key k in extMemo: its entry, or the free
// slot where it goes.
func (fe *fastEnv) extSlot(k *extMemoKey) *extEntry {
	mask := uint64(len(fe.extMemo) - 1)
	for i := k.h & mask; ; i = (i + 1) & mask {
		e := &fe.extMemo[i]
		if e.k.fn == nil || (e.k.h == k.h && e.k.fn == k.fn && e.k.empty == k.empty && e.k.t == k.t && e.k.s == k.s) {
			return e
		}
	}
}

// extAnswer returns the kept answer of the call k, if any.
func (fe *fastEnv) extAnswer(k *extMemoKey) (v, ok bool) {
	e := fe.extSlot(k)
	return e.v, e.k.fn != nil
}

// keepExt keeps answer v of the call k for the document.
func (fe *fastEnv) keepExt(k extMemoKey, v bool) {
	if fe.extMemoN >= maxExtMemo {
		return
	}
	if 2*(fe.extMemoN+1) > len(fe.extMemo) {
		old := fe.extMemo
		fe.extMemo = make([]extEntry, 2*len(old))
		for i := range old {
			if old[i].k.fn != nil {
				*fe.extSlot(&old[i].k) = old[i]
			}
		}
	}
	if e := fe.extSlot(&k); e.k.fn == nil {
		*e = extEntry{k: k, v: v}
		fe.extMemoN++
	}
}

// fastLocal is a local variable's value in a frame-free evaluation: one
// item, while bound is true.
type fastLocal struct {
	it    xdm.Item
	bound bool
}

// local returns local slot's item; ok=false when no frame-free quantified
// expression binds it now (the interpreter's own quantifier, whose test
// ran a predicate's closure: the interpreter decides).
func (fe *fastEnv) local(slot int) (xdm.Item, bool) {
	if slot >= len(fe.locals) || !fe.locals[slot].bound {
		return xdm.Item{}, false
	}
	return fe.locals[slot].it, true
}

// childCache answers, for one document, "the first two children of node n
// named id": the rule sets read the same child of the same node from many
// tests (cac:Item of a line, for its name, its tax category, its
// classification...), and names that a node lacks as often. On the first
// question about n, n's element children are all entered at once, one walk
// of them (text nodes skipped): after it every question about n, whatever
// the name, is one probe, and a name n lacks is known absent. Open
// addressing keyed by (n, id); the document is held, so its address cannot
// be reused while entries name it.
type childCache struct {
	doc     *xmltree.Document
	entries []childEntry // a power of two long; parent 0: empty
	used    int
	filled  []uint64 // a bit per node: its children are entered
}

type childEntry struct {
	parent        xmltree.NodeID // +1; 0: empty
	id            xmltree.NameID
	first, second xmltree.NodeID
}

const (
	childCacheMin = 256     // entries of a new table
	childCacheMax = 1 << 14 // a table larger than this is not kept for the next document
)

// children returns the first and second element children of n named id
// (None when there are fewer).
func (k *childCache) children(d *xmltree.Document, n xmltree.NodeID, id xmltree.NameID) (first, second xmltree.NodeID) {
	if k.doc != d {
		k.reset(d)
	}
	for {
		mask := uint32(len(k.entries) - 1)
		for i := childHash(n, id) & mask; ; i = (i + 1) & mask {
			e := &k.entries[i]
			if e.parent == n+1 && e.id == id {
				return e.first, e.second
			}
			if e.parent == 0 {
				break
			}
		}
		if k.filled[n>>6]&(1<<(n&63)) != 0 {
			return xmltree.None, xmltree.None
		}
		k.fill(d, n)
	}
}

func childHash(n xmltree.NodeID, id xmltree.NameID) uint32 {
	return (uint32(n)*0x9E3779B1 ^ uint32(id)*0x85EBCA77) >> 7
}

// reset empties the cache for document d.
func (k *childCache) reset(d *xmltree.Document) {
	if len(k.entries) > childCacheMax {
		k.entries = nil
	}
	if k.entries == nil {
		k.entries = make([]childEntry, childCacheMin)
	} else {
		clear(k.entries)
	}
	words := (d.Len() + 63) / 64
	if cap(k.filled) < words {
		k.filled = make([]uint64, words)
	}
	k.filled = k.filled[:words]
	clear(k.filled)
	k.doc, k.used = d, 0
}

// fill enters the element children of n.
func (k *childCache) fill(d *xmltree.Document, n xmltree.NodeID) {
	k.filled[n>>6] |= 1 << (n & 63)
	for c := d.FirstChildElement(n); c != xmltree.None; c = d.NextSiblingElement(c) {
		if 2*(k.used+1) > len(k.entries) {
			k.grow()
		}
		id := d.Name(c)
		mask := uint32(len(k.entries) - 1)
		for i := childHash(n, id) & mask; ; i = (i + 1) & mask {
			e := &k.entries[i]
			if e.parent == 0 {
				*e = childEntry{parent: n + 1, id: id, first: c, second: xmltree.None}
				k.used++
				break
			}
			if e.parent == n+1 && e.id == id {
				if e.second == xmltree.None {
					e.second = c
				}
				break
			}
		}
	}
}

// grow doubles the table.
func (k *childCache) grow() {
	old := k.entries
	k.entries = make([]childEntry, 2*len(old))
	mask := uint32(len(k.entries) - 1)
	for _, e := range old {
		if e.parent == 0 {
			continue
		}
		i := childHash(e.parent-1, e.id) & mask
		for k.entries[i].parent != 0 {
			i = (i + 1) & mask
		}
		k.entries[i] = e
	}
}

// firstTwoNamed returns the first and second element children of n named
// id (None when there are fewer).
func firstTwoNamed(d *xmltree.Document, n xmltree.NodeID, id xmltree.NameID) (first, second xmltree.NodeID) {
	first, second = d.FirstChildNamed(n, id), xmltree.None
	if first != xmltree.None {
		second = d.NextSiblingNamed(first, id)
	}
	return first, second
}

// nextNamed returns the sibling after c named id, c being first or a
// later one, second the one after first (childCache.children).
func nextNamed(d *xmltree.Document, c, first, second xmltree.NodeID, id xmltree.NameID) xmltree.NodeID {
	if c == first {
		return second
	}
	return d.NextSiblingNamed(c, id)
}

// fastFor returns the frame's fastEnv set for doc (the Env's document,
// the catalog's ids resolved for it).
func (f *frame) fastFor(doc *xmltree.Document) *fastEnv {
	fe := &f.fast
	fe.doc, fe.ids = doc, f.catIDs
	return fe
}

// fastFrame returns the Env's fastEnv for an evaluation outside a frame,
// or nil when its catalog is not resolved for the document (or the frame
// is in use, or noFast).
func (env *Env) fastFrame(cat *Catalog) *fastEnv {
	f := env.fr
	if env.noFast || f == nil || f.busy || !f.catResolved(cat, env.Doc) {
		return nil
	}
	fe := f.fastFor(env.Doc)
	fe.vars = env.Vars
	return fe
}

// fastBool decides a boolean test on node n; ok=false when it cannot
// (see above).
type fastBool func(fe *fastEnv, n xmltree.NodeID) (v, ok bool)

// fastStepKind is the axis of a fastStep.
type fastStepKind uint8

const (
	fsChild     fastStepKind = iota // child::name
	fsAnyChild                      // child::* (every element child)
	fsAttr                          // attribute::name (last step only)
	fsParent                        // .. (leading steps only)
	fsSelf                          // .[predicates] (first step only)
	fsText                          // child::text() (last step only)
	fsChildAlt                      // (a|b|...): child::a, child::b... in document order
	fsRoot                          // / (first step only): the document node
	fsFirst                         // child::name[1] (ram:ActualAmount[1]): the first child with the name (walk only: no shortcut takes it)
	fsDesc                          // descendant::name (//cac:TaxCategory): the document's name index below the node (with predicates only when they read a quantified variable, up to descPredMax nodes)
	fsDescAlt                       // (descendant::a|descendant::b|...) (//(cac:InvoiceLine|cac:CreditNoteLine)): fsDesc of each name, merged in document order
	fsMemo                          // an absolute path's nodes read from the memo (fastmemo.go): the path's only step
	fsFirstOf                       // (P)[1]: the first node of the steps after it, P's (first step only)
	fsAncestor                      // ancestor::name, without predicates (first step only): nearest first, so the path is unordered
	fsFollowing                     // following-sibling::name (first step only)
	fsPreceding                     // preceding-sibling::name (first step only): in document order, as a path gives them
	fsDescAttr                      // //@name, the internal descendant-attribute axis (last step only, no predicates): the document's name index below the node
)

// fastStep is one step of a fastPath.
type fastStep struct {
	kind fastStepKind
	// whole: an fsFirstOf whose path is collected whole, since a later
	// node could raise an error (a predicate) or come first (a
	// descendant step), as the interpreter evaluates it.
	whole bool
	slot  int32   // catalog slot of the name (child, attribute, first child)
	alts  []int32 // catalog slots of the names (fsChildAlt)
	preds []fastBool
	// key: the predicate comparing a key of the node with a quantified
	// variable or a string literal, through which the step may be
	// indexed (fastkey.go); fsChild and fsDesc only, nil when none.
	key *fastKey
}

// fastPath is a relative path from the context node (see above); no
// steps: the context node itself.
type fastPath struct {
	steps []fastStep
	preds bool // some step has predicates
	// up: whether any, count and single can walk up from the nodes of
	// the last step's name below the context node (fastEnv.up): no
	// predicates, two or more steps, all of them child steps but the
	// last, which may be an attribute step, and the last of one name
	// (an absolute path's root counts as a step: its nodes are then
	// walked up to the document node).
	up bool
	// chain: two or more named child steps without predicates (or the
	// root and one or more), which are followed down while each step has
	// one node (fastEnv.chainEnd).
	chain bool
	// abs: the first step is fsRoot (chainEnd and up start from the
	// document node).
	abs bool
	// memo: an absolute path read from the interpreter's memo table
	// (fastmemo.go), its one step fsMemo.
	memo *fastMemo
	// chainKey, when > 0, is the step with a key of an absolute path
	// that keyChainWalk walks (its steps before are named child steps
	// without predicates).
	chainKey int
	// desc: some step is fsDesc. Its nodes, each the root of a subtree,
	// may nest (an element named T inside another), so the steps after
	// it can reach a node twice or out of document order: collect gives
	// up unless what it collected is in strictly ascending order.
	desc bool
	// unordered: the first step is fsAncestor, whose nodes come nearest
	// first: collect gives up as for desc unless what it collected is in
	// strictly ascending order (one ancestor, or none).
	unordered bool
	// kept: the walk's nodes are kept for the document (a memo value, a
	// key index: fastMemo.walk and keyBuild.prefix), so a descendant
	// step with predicates tests up to fastMaxNodes nodes of its name,
	// not only descPredMax (past it the interpreter, with its budgets and
	// cancellation, evaluates the test).
	kept bool
}

// fastPathOf returns e as a fastPath when it is one.
func fastPathOf(e *Expr) (fastPath, bool) { return fastPathOfIn(nil, e) }

// fastPathOfIn is fastPathOf whose step predicates may read variables when
// ns allows them (ns.vars: a let's value, evaluated only when none of the
// lets it reads failed, or under the failed lets' probe), as in BR-FR's
// normalize-space(../ram:IncludedSupplyChainTradeLineItem[
// ram:AssociatedDocumentLineDocument/ram:LineID = $parentlineID]/…).
// Such a path is never a memo's or a key index's: their predicates are
// closed.
func fastPathOfIn(ns *numShares, e *Expr) (fastPath, bool) {
	var p fastPath
	var parts []*Expr
	switch e.Op {
	case OpContext:
		return p, true
	case OpFilter:
		if len(e.Args) == 1 && e.Args[0].Op != OpContext && len(e.Preds) == 1 && e.Preds[0].ConstPos() == 1 {
			// (/rsm:…/ram:GrandTotalAmount)[1] (CII's BR-CO-15): the
			// first node of a path (firstOf).
			p, ok := fastPathOfIn(ns, e.Args[0])
			if !ok || p.memo != nil || len(p.steps) == 0 {
				return fastPath{}, false
			}
			// preds set: no shortcut of the walk applies (oneChildStep,
			// chainEnd, up), so every reading goes through walk.
			first := fastStep{kind: fsFirstOf, whole: p.preds || p.desc || p.unordered}
			return fastPath{steps: append([]fastStep{first}, p.steps...), preds: true}, true
		}
		parts = []*Expr{e}
	case OpStep, OpUnion:
		parts = []*Expr{e}
	case OpPath:
		parts = e.Args
	default:
		return p, false
	}
	if len(parts) == 0 || len(parts) > 8 {
		return p, false
	}
	for i, a := range parts {
		if i == 0 && a.Op == OpContext && len(parts) > 1 {
			continue // ./x, .//x: the steps from the context node
		}
		st, ok := fastStepOfIn(ns, a)
		if i == 0 && a.Op == OpRoot && len(parts) > 1 {
			// An absolute path: its steps walk from the document node
			// (fast paths read the Env's document only, whose document
			// node is 0), whatever the context node.
			st, ok = fastStep{kind: fsRoot}, true
		}
		if i == 0 && a.Op == OpUnion {
			if alts := rootAlts(a, nil); alts != nil {
				// (/ubl:Invoice | /cn:CreditNote): the document node's
				// children of those names, in document order.
				p.steps = make([]fastStep, 0, len(parts)+1)
				p.steps = append(p.steps, fastStep{kind: fsRoot})
				p.abs = true
				st, ok = fastStep{kind: fsChildAlt, alts: alts}, true
			}
		}
		if !ok && e.Op == OpPath {
			return memoPath(e) // a step the walk cannot take
		}
		k := len(p.steps)
		switch {
		case !ok,
			(st.kind == fsAttr || st.kind == fsText || st.kind == fsDescAttr) && i != len(parts)-1,
			st.kind == fsSelf && k != 0,
			st.kind == fsParent && k > 0 && p.steps[k-1].kind != fsParent,
			(st.kind == fsAncestor || st.kind == fsFollowing || st.kind == fsPreceding) && k != 0,
			st.kind == fsRoot && k != 0:
			return fastPath{}, false
		}
		if p.steps == nil {
			// At most one step a part, in storage of its own: the
			// doublings of append would leave garbage beside the steps
			// that stay for as long as the rule set.
			p.steps = make([]fastStep, 0, len(parts)-i)
		}
		p.steps = append(p.steps, st)
		p.preds = p.preds || len(st.preds) > 0
		p.abs = p.abs || st.kind == fsRoot
		p.desc = p.desc || st.kind == fsDesc || st.kind == fsDescAlt || st.kind == fsDescAttr
		p.unordered = p.unordered || st.kind == fsAncestor
	}
	if p.abs {
		// A step below the document element from the root: no index
		// from its context node (keyContext) could serve it; after
		// named child steps without predicates, one index of its nodes
		// from all of theirs (keyChainWalk).
		plain := len(p.steps) > 1 && p.steps[1].kind == fsChild && len(p.steps[1].preds) == 0
		for i := 3; i < len(p.steps); i++ {
			prev := &p.steps[i-1]
			plain = plain && prev.kind == fsChild && len(prev.preds) == 0
			if plain && p.steps[i].kind == fsChild && p.steps[i].key != nil && p.chainKey == 0 {
				p.chainKey = i
				continue
			}
			p.steps[i].key = nil
		}
	}
	p.up = !p.preds && len(p.steps) >= 2
	p.chain = p.up
	for i, st := range p.steps {
		last := i == len(p.steps)-1
		switch {
		case st.kind == fsChild, st.kind == fsRoot, st.kind == fsAttr && last, (st.kind == fsChildAlt || st.kind == fsAnyChild) && !last:
		default:
			p.up = false
		}
		p.chain = p.chain && (st.kind == fsChild || st.kind == fsRoot)
	}
	if p.desc && p.preds {
		// //cac:TaxCategory[…VAT…]/cbc:ID[normalize-space(.) = 'AE'] and
		// its kind are shared by many tests through the interpreter's
		// memo points and key indexes, which are cheaper than walking
		// them again for each: the fast path reads what they hold, and
		// when they hold nothing yet builds the key index from p's
		// steps or, when no other path shares that index, walks p
		// (memoCollect); what it makes is kept for the document.
		if m, ok := memoPath(e); ok || !(readsLocal(e) || ns != nil && ns.vars && len(collectVars(nil, e)) > 0) {
			if ok {
				w := p
				w.kept = true
				m.memo.walk = &w
				m.memo.setKeyBuild(e, &w)
			}
			return m, ok
		}
		// Unless a predicate reads a quantified variable (BR-S-08:
		// every $rate in … satisfies exists(//cac:InvoiceLine[…'S']
		// [… xs:decimal(cbc:Percent) = $rate])) or, in a let's value, a
		// let (BR-FR's count(//ram:IncludedSupplyChainTradeLineItem[…
		// = $sellerID])): no memo holds such a path, and the walk tests
		// each node of the name by the step's predicates, up to
		// descPredMax of them (walk).
	}
	return p, true
}

// maxDescAlts bounds the names of an fsDescAlt step (the rule sets have
// two: lines of invoices and of credit notes).
const maxDescAlts = 4

// fastStepOf returns the fastStep of one part of a path.
func fastStepOf(e *Expr) (fastStep, bool) { return fastStepOfIn(nil, e) }

// fastStepOfIn is fastStepOf whose predicates may read variables when ns
// allows them (fastPathOfIn).
func fastStepOfIn(ns *numShares, e *Expr) (fastStep, bool) {
	preds := e.Preds
	var st fastStep
	switch {
	case e.Op == OpFilter && len(e.Args) == 1 && e.Args[0].Op == OpContext:
		st.kind = fsSelf
	case e.Op == OpUnion:
		// (cac:InvoiceLine|cac:CreditNoteLine): named child steps only,
		// or named descendant steps only.
		st.kind = fsChildAlt
		if st.alts = unionSlots(e, AxisChild, nil); st.alts == nil {
			// Without predicates (the parser puts a union's on a
			// filter): the merged walk tests none.
			st.kind = fsDescAlt
			if st.alts = unionSlots(e, AxisDescendant, nil); st.alts == nil || len(st.alts) > maxDescAlts || len(preds) > 0 {
				return st, false
			}
		}
	case e.Op != OpStep:
		return st, false
	case e.Axis == AxisParent && e.Test.Kind == TestNode && len(preds) == 0:
		st.kind = fsParent
	case (e.Axis == AxisChild || e.Axis == AxisAttribute) && e.Test.Kind == TestName && e.Test.Slot > 0:
		st.kind, st.slot = fsChild, e.Test.Slot
		if e.Axis == AxisAttribute {
			st.kind = fsAttr
		}
	case e.Axis == AxisChild && e.Test.Kind == TestAnyName:
		st.kind = fsAnyChild
	case e.Axis == AxisDescendant && e.Test.Kind == TestName && e.Test.Slot > 0:
		st.kind, st.slot = fsDesc, e.Test.Slot
	case e.Axis == AxisDescendantAttribute && e.Test.Kind == TestName && e.Test.Slot > 0 && len(preds) == 0:
		// UBL-DT-18: count(//@name) - count(//cbc:PaymentMeansCode/@name)
		st.kind, st.slot = fsDescAttr, e.Test.Slot
	case e.Axis == AxisAncestor && e.Test.Kind == TestName && e.Test.Slot > 0 && len(preds) == 0:
		// ancestor::cac:AllowanceCharge/cbc:ChargeIndicator (XRechnung's
		// $BT-95-UBL-Inv, RO_CIUS's BR-RO-065)
		st.kind, st.slot = fsAncestor, e.Test.Slot
	case (e.Axis == AxisFollowingSibling || e.Axis == AxisPrecedingSibling) && e.Test.Kind == TestName && e.Test.Slot > 0:
		// following-sibling::cac:TaxScheme/cbc:ID (the same lets)
		st.kind, st.slot = fsFollowing, e.Test.Slot
		if e.Axis == AxisPrecedingSibling {
			st.kind = fsPreceding
		}
	case e.Axis == AxisChild && e.Test.Kind == TestText:
		// cbc:ChargeIndicator/text() (PEPPOL-EN16931-R043): the text
		// children, each its own string value.
		st.kind = fsText
	default:
		return st, false
	}
	for i, pr := range preds {
		if i == 0 && pr.ConstPos() == 1 && st.kind == fsChild && e.Axis == AxisChild {
			st.kind = fsFirst
			continue
		}
		// Only boolean tests compile, so no other predicate is positional.
		var fn fastBool
		if ns != nil && ns.vars {
			// Its own shares: the predicate's context is the step's node.
			fn = compileFastIn(&numShares{vars: true, fns: ns.fns}, pr)
		} else {
			fn = compileFast(pr)
		}
		if fn == nil || pr.ConstPos() != 0 {
			return st, false
		}
		st.preds = append(st.preds, fn)
	}
	if st.kind == fsChild || st.kind == fsDesc {
		st.key = compileFastKey(e, st.preds)
	}
	return st, true
}

// rootAlts appends to slots the catalog slots of a union of absolute
// paths of one named, predicate-free child step each ((/ubl:Invoice |
// /cn:CreditNote)); nil when e is not one.
func rootAlts(e *Expr, slots []int32) []int32 {
	switch {
	case e.Op == OpUnion && len(e.Preds) == 0:
		for _, a := range e.Args {
			if slots = rootAlts(a, slots); slots == nil {
				return nil
			}
		}
		return slots
	case e.Op == OpPath && len(e.Args) == 2 && e.Args[0].Op == OpRoot && len(e.Preds) == 0:
		return unionSlots(e.Args[1], AxisChild, slots)
	}
	return nil
}

// unionSlots appends to slots the catalog slots of a union of named,
// predicate-free steps of axis ax; nil when e is not one.
func unionSlots(e *Expr, ax Axis, slots []int32) []int32 {
	switch {
	case e.Op == OpUnion && len(e.Preds) == 0:
		for _, a := range e.Args {
			if slots = unionSlots(a, ax, slots); slots == nil {
				return nil
			}
		}
		return slots
	case e.Op == OpStep && e.Axis == ax && e.Test.Kind == TestName && e.Test.Slot > 0 && len(e.Preds) == 0:
		return append(slots, e.Test.Slot)
	}
	return nil
}

// named reports whether element c has one of the names of step st
// (fsChild, fsChildAlt) or, for fsAnyChild, whether it is an element.
func (fe *fastEnv) named(st *fastStep, c xmltree.NodeID) bool {
	d := fe.doc
	if d.Kind(c) != xmltree.KindElement {
		return false
	}
	switch st.kind {
	case fsAnyChild:
		return true
	case fsChild:
		return d.Name(c) == fe.ids[st.slot-1]
	}
	id := d.Name(c)
	for _, s := range st.alts {
		if fe.ids[s-1] == id {
			return true
		}
	}
	return false
}

// pass applies predicates to n in order: keep tells whether n stays,
// ok=false when a predicate could not decide.
func (fe *fastEnv) pass(preds []fastBool, n xmltree.NodeID) (keep, ok bool) {
	for _, pr := range preds {
		v, ok := pr(fe, n)
		if !ok || !v {
			return false, ok
		}
	}
	return true, true
}

// nodes returns the nodes of p from n in document order, in a buffer of
// fe valid until the next call at the same level; ok=false when a
// predicate could not decide or past fastMaxNodes.
func (fe *fastEnv) nodes(p *fastPath, n xmltree.NodeID) ([]xmltree.NodeID, bool) {
	ns, ok := fe.collect(p, n, fastMaxNodes+1)
	return ns, ok && len(ns) <= fastMaxNodes
}

// collect is nodes up to the first limit nodes.
func (fe *fastEnv) collect(p *fastPath, n xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	for fe.depth >= len(fe.bufs) {
		fe.bufs = append(fe.bufs, nil)
	}
	d := fe.depth
	if p.chain {
		if c, one := fe.chainEnd(p, n); one {
			buf := fe.bufs[d][:0]
			if c != xmltree.None && limit > 0 {
				buf = append(buf, c)
			}
			fe.bufs[d] = buf
			return buf, true
		}
	}
	fe.depth++
	buf, ok := fe.walk(p, 0, n, fe.bufs[d][:0], limit)
	fe.depth--
	fe.bufs[d] = buf
	if ok && (p.desc || p.unordered) {
		for i := 1; i < len(buf); i++ {
			if buf[i] <= buf[i-1] {
				return buf, false // nested subtrees (see fastPath.desc)
			}
		}
	}
	return buf, ok
}

// chainEnd follows chain path p down from n while each step has at most
// one node, and returns the node it ends on (None: the path is empty);
// one=false when a step has two nodes or more, and walk must collect them.
func (fe *fastEnv) chainEnd(p *fastPath, n xmltree.NodeID) (c xmltree.NodeID, one bool) {
	steps := p.steps
	if p.abs {
		n, steps = 0, steps[1:]
	}
	for i := range steps {
		id := fe.ids[steps[i].slot-1]
		if id < 0 {
			return xmltree.None, true
		}
		first, second := fe.kids.children(fe.doc, n, id)
		switch {
		case second != xmltree.None:
			return xmltree.None, false
		case first == xmltree.None:
			return xmltree.None, true
		}
		n = first
	}
	return n, true
}

// walk appends to buf the nodes of the steps of p from i on, from n, until
// buf holds limit nodes.
func (fe *fastEnv) walk(p *fastPath, i int, n xmltree.NodeID, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	if i == len(p.steps) {
		return append(buf, n), true
	}
	st := &p.steps[i]
	d := fe.doc
	switch st.kind {
	case fsRoot:
		if p.chainKey > 0 {
			if buf, ok, handled := fe.keyChainWalk(p, buf, limit); handled {
				return buf, ok
			}
		}
		return fe.walk(p, i+1, 0, buf, limit)
	case fsMemo:
		return fe.memoCollect(p.memo, buf, limit)
	case fsFirstOf:
		return fe.firstOf(p, i, n, buf, limit)
	case fsFirst:
		id := fe.ids[st.slot-1]
		if id < 0 {
			return buf, true
		}
		if c, _ := fe.kids.children(d, n, id); c != xmltree.None {
			return fe.into(st, p, i, c, buf, limit)
		}
		return buf, true
	case fsParent:
		if n = d.Parent(n); n == xmltree.None {
			return buf, true
		}
		return fe.walk(p, i+1, n, buf, limit)
	case fsAncestor:
		id := fe.ids[st.slot-1]
		if id < 0 {
			return buf, true
		}
		for m := d.Parent(n); m != xmltree.None && len(buf) < limit; m = d.Parent(m) {
			if d.Kind(m) != xmltree.KindElement || d.Name(m) != id {
				continue
			}
			var ok bool
			if buf, ok = fe.walk(p, i+1, m, buf, limit); !ok {
				return buf, false
			}
		}
		return buf, true
	case fsDescAttr:
		// As the interpreter: the attributes of the name in n's subtree.
		if id := fe.ids[st.slot-1]; id >= 0 {
			for _, c := range d.NamedIn(n, id, true) {
				if len(buf) >= limit {
					break
				}
				buf = append(buf, c)
			}
		}
		return buf, true
	case fsFollowing, fsPreceding:
		// An attribute or the document node has no siblings.
		id := fe.ids[st.slot-1]
		if k := d.Kind(n); id < 0 || k == xmltree.KindAttribute || k == xmltree.KindDocument {
			return buf, true
		}
		// Siblings are numbered in document order: the preceding ones
		// are those of the parent's children below n.
		c, end := d.NextSiblingNamed(n, id), xmltree.NodeID(math.MaxInt32)
		if st.kind == fsPreceding {
			c, end = d.FirstChildNamed(d.Parent(n), id), n
		}
		for ; c != xmltree.None && c < end && len(buf) < limit; c = d.NextSiblingNamed(c, id) {
			var ok bool
			if buf, ok = fe.into(st, p, i, c, buf, limit); !ok {
				return buf, false
			}
		}
		return buf, true
	case fsDesc:
		id := fe.ids[st.slot-1]
		if id < 0 || (n != 0 && d.Kind(n) != xmltree.KindElement) {
			return buf, true // an attribute or text node has no descendants
		}
		l := d.NamedIn(n, id, false)
		if len(st.preds) > 0 {
			if st.key != nil && keyContext(d, n) {
				if buf, ok, handled := fe.keyWalk(p, i, n, id, buf, limit); handled {
					return buf, ok
				}
			}
			if len(l) > descPredMax && (!p.kept || len(l) > fastMaxNodes) {
				return buf, false
			}
		}
		for _, c := range l {
			if len(buf) >= limit {
				break
			}
			var ok bool
			if len(st.preds) == 0 {
				buf, ok = fe.walk(p, i+1, c, buf, limit)
			} else {
				buf, ok = fe.into(st, p, i, c, buf, limit)
			}
			if !ok {
				return buf, false
			}
		}
		return buf, true
	case fsDescAlt:
		if n != 0 && d.Kind(n) != xmltree.KindElement {
			return buf, true
		}
		// The names' nodes below n, merged: each list is in document
		// order and the names differ, so no node is in two lists.
		var lists [maxDescAlts][]xmltree.NodeID
		k := 0
		for _, s := range st.alts {
			if id := fe.ids[s-1]; id >= 0 {
				if l := d.NamedIn(n, id, false); len(l) > 0 {
					lists[k] = l
					k++
				}
			}
		}
		for len(buf) < limit {
			m := -1
			for j := 0; j < k; j++ {
				if len(lists[j]) > 0 && (m < 0 || lists[j][0] < lists[m][0]) {
					m = j
				}
			}
			if m < 0 {
				break
			}
			c := lists[m][0]
			lists[m] = lists[m][1:]
			var ok bool
			if buf, ok = fe.walk(p, i+1, c, buf, limit); !ok {
				return buf, false
			}
		}
		return buf, true
	case fsSelf:
		if keep, ok := fe.pass(st.preds, n); !keep {
			return buf, ok
		}
		return fe.walk(p, i+1, n, buf, limit)
	case fsAnyChild, fsChildAlt, fsText:
		text := st.kind == fsText
		for c := d.FirstChild(n); c != xmltree.None && len(buf) < limit; c = d.NextSibling(c) {
			if text {
				if d.Kind(c) != xmltree.KindText {
					continue
				}
			} else if !fe.named(st, c) {
				continue
			}
			var ok bool
			if buf, ok = fe.into(st, p, i, c, buf, limit); !ok {
				return buf, false
			}
		}
		return buf, true
	}
	id := fe.ids[st.slot-1]
	if id < 0 {
		return buf, true
	}
	if st.kind == fsAttr {
		a, cnt := d.Attrs(n)
		for k := 0; k < cnt && len(buf) < limit; k++ {
			c := a + xmltree.NodeID(k)
			if d.Name(c) != id {
				continue
			}
			keep, ok := fe.pass(st.preds, c)
			if !ok {
				return buf, false
			}
			if keep {
				buf = append(buf, c)
			}
		}
		return buf, true
	}
	if st.key != nil && keyContext(d, n) {
		if buf, ok, handled := fe.keyWalk(p, i, n, id, buf, limit); handled {
			return buf, ok
		}
	}
	first, second := fe.kids.children(d, n, id)
	if i == len(p.steps)-1 && len(st.preds) == 0 {
		// The last step, without predicates: its nodes are the result.
		for c := first; c != xmltree.None && len(buf) < limit; c = nextNamed(d, c, first, second, id) {
			buf = append(buf, c)
		}
		return buf, true
	}
	for c := first; c != xmltree.None && len(buf) < limit; c = nextNamed(d, c, first, second, id) {
		var ok bool
		if len(st.preds) == 0 {
			buf, ok = fe.walk(p, i+1, c, buf, limit)
		} else {
			buf, ok = fe.into(st, p, i, c, buf, limit)
		}
		if !ok {
			return buf, false
		}
	}
	return buf, true
}

// firstOf appends to buf the first node of the steps of p after i, an
// fsFirstOf, from n: walked into a buffer of the next level, up to that
// node, or whole (fastStep.whole).
func (fe *fastEnv) firstOf(p *fastPath, i int, n xmltree.NodeID, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	all := 1
	if p.steps[i].whole {
		all = fastMaxNodes + 1
	}
	d := fe.depth
	for d >= len(fe.bufs) {
		fe.bufs = append(fe.bufs, nil)
	}
	fe.depth++
	tmp, ok := fe.walk(p, i+1, n, fe.bufs[d][:0], all)
	fe.depth--
	fe.bufs[d] = tmp
	if !ok || len(tmp) > fastMaxNodes {
		return buf, false
	}
	for k := 1; k < len(tmp); k++ {
		if tmp[k] <= tmp[k-1] {
			return buf, false // nested subtrees (see fastPath.desc)
		}
	}
	if len(tmp) > 0 && len(buf) < limit {
		buf = append(buf, tmp[0])
	}
	return buf, true
}

// into applies the predicates of st, step i of p, to c, a node the step
// selects, and walks the steps after it from c when they keep it.
func (fe *fastEnv) into(st *fastStep, p *fastPath, i int, c xmltree.NodeID, buf []xmltree.NodeID, limit int) ([]xmltree.NodeID, bool) {
	if keep, ok := fe.pass(st.preds, c); !ok || !keep {
		return buf, ok
	}
	return fe.walk(p, i+1, c, buf, limit)
}

// oneChildStep answers for the most common path, one predicate-free
// child step (cbc:Percent): its first two nodes from n, straight from the
// child cache; one=false for any other path.
func (fe *fastEnv) oneChildStep(p *fastPath, n xmltree.NodeID) (first, second xmltree.NodeID, one bool) {
	if len(p.steps) != 1 || p.steps[0].kind != fsChild || p.preds {
		return xmltree.None, xmltree.None, false
	}
	id := fe.ids[p.steps[0].slot-1]
	if id < 0 {
		return xmltree.None, xmltree.None, true
	}
	first, second = fe.kids.children(fe.doc, n, id)
	return first, second, true
}

// any reports whether p selects a node from n; ok=false when it could not
// decide. A path without predicates stops at its first node; one with
// predicates is walked whole (see above).
func (fe *fastEnv) any(p *fastPath, n xmltree.NodeID) (found, ok bool) {
	if c, _, one := fe.oneChildStep(p, n); one {
		return c != xmltree.None, true
	}
	if len(p.steps) == 1 && p.steps[0].kind == fsAnyChild && !p.preds {
		// *: an element child (the empty-element rules' not(*))
		d := fe.doc
		for c := d.FirstChild(n); c != xmltree.None; c = d.NextSibling(c) {
			if d.Kind(c) == xmltree.KindElement {
				return true, true
			}
		}
		return false, true
	}
	if p.preds {
		ns, ok := fe.nodes(p, n)
		return len(ns) > 0, ok
	}
	if p.chain {
		if c, one := fe.chainEnd(p, n); one {
			return c != xmltree.None, true
		}
	}
	if p.up {
		if _, c, ok := fe.up(p, n, 1); ok {
			return c > 0, true
		}
	}
	ns, ok := fe.collect(p, n, 1)
	return len(ns) > 0, ok
}

// upMax is the largest number of nodes of a path's last name below the
// context node for which up walks up from them: most fail at their
// parent, so this is cheaper than walking down a path that is absent
// (callgrind, EN 16931 UBL step: 16 -> 64 saves 2.5 %, 128 saves less).
const upMax = 64

// up walks up from the nodes of p's last step's name below n (the
// document's name index) to n, through ancestors of the steps' names,
// and returns the first of those it reaches n from and their number, up
// to stop: for any, count and single of a path with up set, so that
// not(cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:Name), whose
// cbc:Name occurs a few times in the invoice, does not walk every line's
// item. ok=false when there are more than upMax such nodes.
func (fe *fastEnv) up(p *fastPath, n xmltree.NodeID, stop int) (first xmltree.NodeID, count int, ok bool) {
	first = xmltree.None
	last := &p.steps[len(p.steps)-1]
	id := fe.ids[last.slot-1]
	if id < 0 {
		return first, 0, true
	}
	d := fe.doc
	lo := 0
	if p.abs {
		n, lo = 0, 1
	}
	below := d.NamedIn(n, id, last.kind == fsAttr)
	if len(below) > upMax {
		return first, 0, false
	}
next:
	for _, m := range below {
		c := m
		for i := len(p.steps) - 2; i >= lo; i-- {
			if c = d.Parent(c); !fe.named(&p.steps[i], c) {
				continue next
			}
		}
		if d.Parent(c) == n {
			if count == 0 {
				first = m
			}
			if count++; count == stop {
				break
			}
		}
	}
	return first, count, true
}

// single returns the string value of the one node of p from n ("" when
// there is none); ok=false when there are several (a function of one
// string raises XPTY0004) or the path could not be decided.
func (fe *fastEnv) single(p *fastPath, n xmltree.NodeID) (string, bool) {
	if len(p.steps) == 0 {
		return fe.doc.StringValue(n), true // the context node
	}
	c, ok := fe.atMostOne(p, n)
	if !ok || c == xmltree.None {
		return "", ok
	}
	return fe.doc.StringValue(c), true
}

// atMostOne returns the one node of p from n (None when there is none);
// ok=false when there are several or the path could not be decided.
func (fe *fastEnv) atMostOne(p *fastPath, n xmltree.NodeID) (xmltree.NodeID, bool) {
	if c, second, one := fe.oneChildStep(p, n); one {
		return c, second == xmltree.None
	}
	if p.chain {
		if c, one := fe.chainEnd(p, n); one {
			return c, true
		}
	}
	if p.up {
		if c, cnt, ok := fe.up(p, n, 2); ok {
			return c, cnt < 2
		}
	}
	ns, ok := fe.collect(p, n, 2) // a second node is enough to give up
	switch {
	case !ok || len(ns) > 1:
		return xmltree.None, false
	case len(ns) == 0:
		return xmltree.None, true
	}
	return ns[0], true
}

// prepareFastPred gives predicate p its frame-free evaluation when it has
// one (Expr.fastIdx): filters, the memoised paths and the key and step
// indexes (memo.go, keyindex.go, stepindex.go) evaluate predicates on
// every node they index, such as cac:TaxScheme/normalize-space(
// upper-case(cbc:ID)) = 'VAT' on every tax category of the document.
func (c *Catalog) prepareFastPred(p *Expr) {
	if c == nil || p.fastIdx != 0 || len(c.fastPreds) >= 1<<16-1 || readsLocal(p) {
		// A predicate that reads a quantified variable decides only
		// within a frame-free quantified expression (fastEnv.local),
		// never for the interpreter.
		return
	}
	if fn := compileFast(p); fn != nil {
		c.fastPreds = append(c.fastPreds, fn)
		p.fastIdx = uint16(len(c.fastPreds))
	}
}

// readsLocal reports whether e reads a local variable (a for, some or
// every binding).
func readsLocal(e *Expr) bool {
	if e.Op == OpLocal {
		return true
	}
	found := false
	eachChild(e, func(c *Expr) { found = found || readsLocal(c) })
	return found
}

// fastPred returns predicate p's closure: the one prepareFastPred made,
// or, for a predicate it leaves out (a bare step), a new one.
func (c *Catalog) fastPred(p *Expr) fastBool {
	if p.fastIdx == 0 {
		return compileFast(p)
	}
	return c.fastPreds[p.fastIdx-1]
}

// prepareFastKey gives the key of a key or step index its frame-free
// evaluation when it has one (Expr.fastIdx). A predicate-free step, which
// programs share (Catalog.shareStep), is left to the interpreter, and so is
// an operand that reads a quantified variable (sum(../../../cac:InvoiceLine[…
// = $rate]/…) in BR-S-08: see prepareFastPred).
func (c *Catalog) prepareFastKey(k *Expr) {
	if c == nil || k.fastIdx != 0 || len(c.fastOps) >= 1<<16-1 || (k.Op == OpStep && len(k.Preds) == 0) || readsLocal(k) {
		return
	}
	if o, ok := fastOperandOf(k); ok && !o.count {
		c.fastOps = append(c.fastOps, o)
		k.fastIdx = uint16(len(c.fastOps))
	}
}

// preparePathOperand gives a path's step a after the first, a cast or a
// string function of the node's children (../xs:decimal(cbc:Amount),
// cac:InvoiceLine/xs:decimal(cbc:LineExtensionAmount)), a frame-free
// evaluation on each node (pathStep): its items are atomic values, one
// per node at most, as the interpreter's are.
func (c *Catalog) preparePathOperand(a *Expr) {
	if a.Op != OpCast && a.Op != OpCall {
		return
	}
	if o, ok := fastOperandOf(a); ok && (o.cast || o.fn != nil) && len(o.path.steps) == 0 {
		c.prepareFastKey(a)
	}
}

// fastKeyAppend appends the items of k (a fastOps operand) on node n to
// dst; ok=false, with dst as it was, when it cannot decide.
func (f *frame) fastKeyAppend(k *Expr, n xmltree.NodeID, dst []xdm.Item) ([]xdm.Item, bool) {
	o := f.fastOp(k)
	if o == nil {
		return dst, false
	}
	return o.appendTo(f.fastFor(f.doc), n, dst)
}

// fastOp returns k's frame-free operand when it has one and the focus is
// in the Env's document, its catalog resolved; nil otherwise.
func (f *frame) fastOp(k *Expr) *fastOperand {
	if k.fastIdx == 0 || f.docIdx != 0 || !f.catReady || f.noFast {
		return nil
	}
	return &f.prog.cat.fastOps[k.fastIdx-1]
}

// fastKey calls each with the items of index key k on node n of the
// focus's document, without a frame, and reports whether it could; when
// it could not, each may have been called for some of the items (the
// callers' indexes ignore a repeated key) and the interpreter evaluates k.
func (f *frame) fastKey(k *Expr, n xmltree.NodeID, each func(xdm.Item) bool) bool {
	o := f.fastOp(k)
	return o != nil && o.items(f.fastFor(f.doc), n, each)
}

// tryFastPred runs p's frame-free evaluation when the focus is a node of
// the Env's document and the program's catalog is resolved for it.
func (f *frame) tryFastPred(p *Expr, fc focus) (v, ok bool) {
	if f.docIdx != 0 || !f.catReady || f.noFast || fc.undefined || fc.item.T != xdm.TNode {
		return false, false
	}
	return f.prog.cat.fastPreds[p.fastIdx-1](f.fastFor(f.doc), xmltree.NodeID(fc.item.Node))
}

// predBool is evalBool for a predicate, frame-free when it can be.
func (f *frame) predBool(p *Expr, fc focus) (bool, error) {
	if p.fastIdx != 0 {
		if v, ok := f.tryFastPred(p, fc); ok {
			return v, nil
		}
	}
	return f.evalBool(p, fc)
}

// compileFast returns the closure of a boolean test, or nil when the test
// (or a part of it) is not of the kind described above.
func compileFast(e *Expr) fastBool { return compileFastIn(nil, e) }

// compileFastIn is compileFast sharing the repeated subexpressions of ns
// (fastnum.go) within the test.
func compileFastIn(ns *numShares, e *Expr) fastBool {
	fn := compileFastOne(ns, e)
	if slot, local, ok := ns.slot(e, fn != nil); ok {
		return shareBool(slot, local, fn)
	}
	return fn
}

// compileFastOne is compileFastIn without the sharing of e itself.
func compileFastOne(ns *numShares, e *Expr) fastBool {
	switch e.Op {
	case OpAnd, OpOr:
		if isEmptyElementTest(e) {
			return emptyElement
		}
		a, b := compileFastIn(ns, e.Args[0]), compileFastIn(ns, e.Args[1])
		if a == nil || b == nil {
			return nil
		}
		stop := e.Op == OpOr // the value of the left operand that decides
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			v, ok := a(fe, n)
			if !ok || v == stop {
				return v, ok
			}
			return b(fe, n)
		}
	case OpNot:
		a := compileFastIn(ns, e.Args[0])
		if a == nil {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			v, ok := a(fe, n)
			return !v, ok
		}
	case OpExists, OpEmpty:
		want := e.Op == OpExists
		if slot, _, ok := fastVarOperand(ns, e.Args[0]); ok {
			// exists($fiscalRep) (BR-FR-CO-15), exists($v[1]): whether
			// the let holds an item.
			return func(fe *fastEnv, _ xmltree.NodeID) (bool, bool) {
				v, ok := fe.varValue(slot)
				return (len(v) > 0) == want, ok
			}
		}
		if vf, ok := varFilterOf(ns, e.Args[0]); ok {
			return func(fe *fastEnv, _ xmltree.NodeID) (bool, bool) {
				k, ok := vf.count(fe)
				return (k > 0) == want, ok
			}
		}
		p, ok := fastPathOf(e.Args[0])
		if o, isOp := fastOperandOf(e.Args[0]); !ok && isOp && o.cast {
			// exists(cac:TaxCategory[...]/xs:decimal(cbc:Percent)): every
			// cast is made, and one that fails gives up.
			return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
				found := false
				decided := o.items(fe, n, func(xdm.Item) bool {
					found = true
					return true
				})
				return found == want, decided
			}
		}
		if !ok {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			found, ok := fe.any(&p, n)
			return found == want, ok
		}
	case OpStep, OpPath, OpFilter:
		if fn := compileFastLastExpr(e); fn != nil {
			return fn
		}
		if fn := compileFastAncestorPath(e); fn != nil {
			return fn
		}
		if e.Op == OpStep && len(e.Preds) == 0 && (e.Axis == AxisAncestor || e.Axis == AxisSelf) &&
			e.Test.Kind == TestName && e.Test.Slot > 0 {
			return fastAxisName(e.Axis, e.Test.Slot)
		}
		// The effective boolean value of a node sequence: not empty.
		p, ok := fastPathOf(e)
		if !ok || len(p.steps) == 0 {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) { return fe.any(&p, n) }
	case OpChildEq:
		if (e.Axis != AxisChild && e.Axis != AxisAttribute) || e.Test.Kind != TestName || e.Test.Slot <= 0 {
			return nil
		}
		st := fastStep{kind: fsChild, slot: e.Test.Slot}
		if e.Axis == AxisAttribute {
			st.kind = fsAttr
		}
		p := fastPath{steps: []fastStep{st}}
		want := e.Str
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			ns, ok := fe.nodes(&p, n)
			if !ok {
				return false, false
			}
			for _, c := range ns {
				if fe.doc.StringValue(c) == want {
					return true, true
				}
			}
			return false, true
		}
	case OpExtCall:
		if fn := compileFastMemoCall(e); fn != nil {
			return fn
		}
		return compileFastExt(ns, e)
	case OpConst:
		if len(e.Seq) != 1 || e.Seq[0].T != xdm.TBoolean {
			return nil
		}
		// A test the compiler folded to true() or false() (BR-FR's
		// copy of BR-CO-05).
		v := e.Seq[0].B
		return func(*fastEnv, xmltree.NodeID) (bool, bool) { return v, true }
	case OpVar:
		if ns == nil || !ns.vars {
			return nil
		}
		// A let's effective boolean value (Peppol's
		// $supplierCountryIsDE and $customerCountryIsDE), in a test
		// reading variables (Program.FastVarTest).
		slot := e.Slot
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			v, ok := fe.varValue(slot)
			if !ok {
				return false, false
			}
			b, err := seqEBV(v)
			return b, err == nil
		}
	case OpGenCmp, OpValCmp:
		if fn := compileFastCmp(e); fn != nil {
			return fn
		}
		if fn := compileFastPairCmp(e); fn != nil {
			return fn
		}
		if ns != nil && ns.vars {
			if fn := compileFastVarCmp(e); fn != nil {
				return fn
			}
			if fn := compileFastVarStrCmp(ns, e); fn != nil {
				return fn
			}
		}
		return compileFastNumCmp(ns, e)
	case OpBlankCmp:
		p, ok := fastPathOf(e.Args[0])
		if !ok {
			return nil
		}
		want := e.Cmp == xdm.OpEq
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			return ok && xmltree.Blank(s) == want, ok
		}
	case OpLenAfter:
		p, ok := fastPathOf(e.Args[0])
		if !ok || e.Args[1].Op != OpConst || len(e.Args[1].Seq) != 1 {
			return nil
		}
		sep, cmp, lim := e.Str, e.Cmp, e.Args[1].Seq[0]
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			if !ok {
				return false, false
			}
			after := ""
			if i := strings.Index(s, sep); i >= 0 {
				after = s[i+len(sep):]
			}
			v, err := xdm.CompareGeneral(cmp, xdm.Integer(int64(utf8.RuneCountInString(after))), lim)
			return v, err == nil
		}
	case OpCodeSet, OpCodeToken:
		token, set, list := e.Op == OpCodeToken, newCodeSet(e.Set), e.Str
		p, ok := fastPathOf(e.Args[0])
		if !ok {
			// A string function of one (BR-CL-22's concat(' ',
			// normalize-space(upper-case(.)), ' ')): compileFastStr's
			// string, "" for no item; several items or another type
			// than a string give up, as normalize-space's argument.
			str := compileFastStr(ns, e.Args[0])
			if str == nil {
				return nil
			}
			return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
				s, ok := str(fe, n)
				return ok && codeListIn(NormalizeSpace(s), token, set, list), ok
			}
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			if !ok {
				return false, false
			}
			return codeListIn(NormalizeSpace(s), token, set, list), true
		}
	case OpSeq:
		return compileFastSeqEBV(e)
	case OpCastable:
		return compileFastCastable(e)
	case OpSome, OpEvery:
		return compileFastQuantified(ns, e)
	case OpCall:
		if c, ok := fastConsts(e); ok && c[0].T == xdm.TBoolean {
			v := c[0].B // true(), false()
			return func(*fastEnv, xmltree.NodeID) (bool, bool) { return v, true }
		}
		if fn := compileFastNameTest(e); fn != nil {
			return fn
		}
		if e.Builtin != nil && e.Builtin.Name == "boolean" && len(e.Args) == 1 {
			// XRechnung's, Peppol's and RO_CIUS's cbc:X[boolean(normalize-space(.))]:
			// the effective boolean value of the argument, which is
			// what the closure of the argument as a test decides.
			return compileFastIn(ns, e.Args[0])
		}
		if e.Builtin != nil && e.Builtin.Name == "matches" && e.Regex() != nil {
			return compileFastMatches(ns, e)
		}
		if e.Builtin != nil && strPairTests[e.Builtin.Name] != nil {
			return compileFastStrPair(ns, e)
		}
		if fn := compileFastStrEBV(ns, e); fn != nil {
			return fn
		}
		if e.Builtin == nil || e.Builtin.Name != "normalize-space" || len(e.Args) > 1 {
			return nil
		}
		// Its effective boolean value: has a non-whitespace character.
		// Without an argument, of the context node's string value.
		var p fastPath
		if len(e.Args) == 1 {
			var ok bool
			if p, ok = fastPathOf(e.Args[0]); !ok {
				return nil
			}
		}
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			s, ok := fe.single(&p, n)
			return ok && !xmltree.Blank(s), ok
		}
	}
	return nil
}

// compileFastMatches compiles matches(X, 'pattern'[, 'flags']) with a
// literal pattern (compiled once, Expr.Regex) and X a string
// compileFastStr makes (a fastOperand; in a test reading variables also a
// string of lets, BR-FR-10's matches(normalize-space($siren), '^\d{9}$')):
// X is the empty sequence (the empty string) or one xs:string or
// untypedAtomic; several items or another type (XPTY0004) give up.
func compileFastMatches(ns *numShares, e *Expr) fastBool {
	re := e.Regex()
	str := compileFastStr(ns, e.Args[0])
	if str == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		s, ok := str(fe, n)
		return ok && re.MatchString(s), ok
	}
}

// isEmptyElementTest recognises not(*) and not(normalize-space()), the
// empty-element rule contexts of Peppol, XRechnung and Factur-X
// (//*[not(*) and not(normalize-space())]), tried on every element.
func isEmptyElementTest(e *Expr) bool {
	return e.Op == OpAnd && isNoChildTest(e.Args[0]) && isBlankTest(e.Args[1])
}

// isNoChildTest: not(*).
func isNoChildTest(e *Expr) bool {
	if e.Op != OpNot || len(e.Args) != 1 {
		return false
	}
	a := e.Args[0]
	return a.Op == OpStep && a.Axis == AxisChild && a.Test.Kind == TestAnyName && len(a.Preds) == 0
}

// isBlankTest: not(normalize-space()).
func isBlankTest(e *Expr) bool {
	if e.Op != OpNot || len(e.Args) != 1 {
		return false
	}
	a := e.Args[0]
	return a.Op == OpCall && a.Builtin != nil && a.Builtin.Name == "normalize-space" && len(a.Args) == 0
}

// emptyElement is not(*) and not(normalize-space()) in one walk of n's
// children: no element child, and then its string value is that of its
// text children, which must all be whitespace.
func emptyElement(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
	return EmptyLeaf(fe.doc, n), true
}

// EmptyLeaf is not(*) and not(normalize-space()) with node n of d as the
// context item.
func EmptyLeaf(d *xmltree.Document, n xmltree.NodeID) bool {
	if d.Kind(n) != xmltree.KindElement {
		// An attribute, a text node: no child, its own value.
		return d.Kind(n) != xmltree.KindDocument && xmltree.Blank(d.StringValue(n))
	}
	for c := d.FirstChild(n); c != xmltree.None; c = d.NextSibling(c) {
		switch d.Kind(c) {
		case xmltree.KindElement:
			return false
		case xmltree.KindText:
			if !xmltree.Blank(d.Value(c)) {
				return false
			}
		}
	}
	return true
}

// fastAxisName is the effective boolean value of ancestor::name or
// self::name (an element of that name is there).
func fastAxisName(axis Axis, slot int32) fastBool {
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		id := fe.ids[slot-1]
		if id < 0 {
			return false, true
		}
		d := fe.doc
		if axis == AxisAncestor {
			n = d.Parent(n)
		}
		for ; n != xmltree.None; n = d.Parent(n) {
			if d.Kind(n) == xmltree.KindElement && d.Name(n) == id {
				return true, true
			}
			if axis == AxisSelf {
				break
			}
		}
		return false, true
	}
}

// compileFastAncestorPath compiles the effective boolean value of
// ancestor::N/P, P a path of child steps (not(ancestor::cac:Price/
// cac:AllowanceCharge), in the rule context of UBL-DT-01): whether P
// selects a node from an ancestor named N. The nodes' order does not
// matter to it, so the ancestors are tried from the nearest; where P has
// predicates, every ancestor is tried, so that an error the interpreter
// would meet makes the closure give up.
func compileFastAncestorPath(e *Expr) fastBool {
	if e.Op != OpPath || len(e.Args) < 2 {
		return nil
	}
	a := e.Args[0]
	if a.Op != OpStep || a.Axis != AxisAncestor || a.Test.Kind != TestName || a.Test.Slot <= 0 || len(a.Preds) > 0 {
		return nil
	}
	rest, ok := fastPathOf(&Expr{Op: OpPath, Args: e.Args[1:]})
	if !ok || len(rest.steps) == 0 || rest.steps[0].kind == fsParent || rest.steps[0].kind == fsSelf {
		return nil
	}
	slot := a.Test.Slot
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		id := fe.ids[slot-1]
		if id < 0 {
			return false, true
		}
		d, found := fe.doc, false
		for m := d.Parent(n); m != xmltree.None; m = d.Parent(m) {
			if d.Kind(m) != xmltree.KindElement || d.Name(m) != id {
				continue
			}
			v, ok := fe.any(&rest, m)
			if !ok {
				return false, false
			}
			if found = found || v; found && !rest.preds {
				break
			}
		}
		return found, true
	}
}

// compileFastSeqEBV compiles the effective boolean value of a sequence of
// paths, (P1, P2, ...): whether one of them selects a node (RO_CIUS's
// BR-RO-065: (cac:TaxRepresentativeParty/…/cbc:CompanyID,
// cac:AccountingSupplierParty/…/cbc:CompanyID[boolean(normalize-space(.))])).
// Every path is walked, so one that could not decide (or where the
// interpreter might raise an error) gives up, even after a node.
func compileFastSeqEBV(e *Expr) fastBool {
	if len(e.Args) == 0 || len(e.Args) > 8 {
		return nil
	}
	ps := make([]fastPath, len(e.Args))
	for i, a := range e.Args {
		p, ok := fastPathOf(a)
		if !ok {
			return nil
		}
		ps[i] = p
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		found := false
		for i := range ps {
			f, ok := fe.any(&ps[i], n)
			if !ok {
				return false, false
			}
			found = found || f
		}
		return found, true
	}
}

// compileFastNameTest compiles ends-with, starts-with and contains of the
// context node's name() or local-name() and a string literal (the
// amounts' rule context of UBL-DT-01: not(ends-with(name(),
// 'PriceAmount'))), compared by codepoints as the interpreter does.
func compileFastNameTest(e *Expr) fastBool {
	if e.Builtin == nil || len(e.Args) != 2 {
		return nil
	}
	test := strPairTests[e.Builtin.Name]
	if test == nil {
		return nil
	}
	nm, c := e.Args[0], e.Args[1]
	if nm.Op != OpCall || nm.Builtin == nil || len(nm.Args) != 0 || (nm.Builtin.Name != "name" && nm.Builtin.Name != "local-name") ||
		c.Op != OpConst || len(c.Seq) != 1 || c.Seq[0].T != xdm.TString {
		return nil
	}
	local, lit := nm.Builtin.Name == "local-name", c.Seq[0].S
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		d, s := fe.doc, ""
		if id := d.Name(n); id >= 0 {
			if local {
				s = d.NameLocal(id)
			} else {
				s = d.QualifiedName(n)
			}
		}
		return test(s, lit), true
	}
}

// fastValue appends the value of an expression on node n to dst; ok=false
// when it cannot decide (dst is then as it was).
type fastValue func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool)

// compileFastValueIn compiles the value of a let such as Peppol's line
// amounts, if (cac:Price/cbc:PriceAmount) then
// xs:decimal(cac:Price/cbc:PriceAmount) else 0: a conditional whose test
// has a fastBool and whose branches are constants, casts or string
// functions of the node's children (fastOperand), or conditionals of the
// same kind. A branch of another kind gives up only when it is taken
// (round(sum(...)) in allowancesTotal, where a line has allowances).
// The items are the interpreter's: the same casts and functions, and a
// cast of several nodes, or one that fails, gives up.
//
// In a program that may read variables (ns.vars, a let's: BR-FR's
// $allBarNotes, $barTreatment), a variable's value is copied, and the
// tests, counts and string functions (compileFastStr) read variables as
// FastVarTest's do.
func compileFastValueIn(ns *numShares, e *Expr) fastValue {
	if c, ok := fastConsts(e); ok {
		return func(_ *fastEnv, _ xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
			return append(dst, c...), true
		}
	}
	switch e.Op {
	case OpGenCmp, OpAnd, OpOr, OpNot, OpExists, OpEmpty:
		// Always one boolean (Peppol's $supplierCountryIsDE:
		// upper-case(normalize-space(/*/…/cbc:IdentificationCode)) = 'DE');
		// not a value comparison, whose value may be empty.
		b := compileFastIn(ns, e)
		if b == nil {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
			v, ok := b(fe, n)
			if !ok {
				return dst, false
			}
			return append(dst, xdm.Bool(v)), true
		}
	case OpVar:
		if ns == nil || !ns.vars {
			return nil
		}
		slot := e.Slot
		return func(fe *fastEnv, _ xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
			v, ok := fe.varValue(slot)
			if !ok {
				return dst, false
			}
			return append(dst, v...), true
		}
	case OpCount:
		return fastNumValue(compileFastNumIn(ns, e))
	case OpIf:
		cond := compileFastIn(ns, e.Args[0])
		if cond == nil {
			return nil
		}
		th, el := compileFastValueIn(ns, e.Args[1]), compileFastValueIn(ns, e.Args[2])
		if th == nil && el == nil {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
			v, ok := cond(fe, n)
			if !ok {
				return dst, false
			}
			br := el
			if v {
				br = th
			}
			if br == nil {
				return dst, false
			}
			return br(fe, n, dst)
		}
	case OpArith, OpNeg:
		return fastNumValue(compileFastNumIn(ns, e))
	case OpCall:
		if e.Builtin != nil && (e.Builtin.Name == "sum" || e.Builtin.Name == "string-length") || fastNumFnName(e) {
			return fastNumValue(compileFastNumIn(ns, e))
		}
		if e.Builtin != nil && e.Builtin.Name == "concat" {
			if fn := compileFastConcat(e); fn != nil {
				return fn
			}
		}
		if fn := compileFastOperandValue(ns, e); fn != nil {
			return fn
		}
		if e.Builtin == nil {
			return nil
		}
		return fastStrValue(compileFastStr(ns, e), nil)
	case OpCast:
		return compileFastOperandValue(ns, e)
	case OpStep, OpPath, OpFilter, OpUnion:
		if fn := compileFastStrFilter(ns, e); fn != nil {
			return fn
		}
		// The nodes of a path (XRechnung's BT-151, BT-102...): walk
		// collects them in document order, each once.
		p, ok := fastPathOfIn(ns, e)
		if !ok || len(p.steps) == 0 {
			return nil
		}
		return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
			nodes, ok := fe.collect(&p, n, fastMaxNodes)
			if !ok || len(nodes) == fastMaxNodes {
				return dst, false
			}
			for _, c := range nodes {
				dst = append(dst, xdm.NodeItem(int32(c)))
			}
			return dst, true
		}
	}
	return nil
}

// compileFastOperandValue is the value of a cast or a string function of
// a fastOperand applied once (not along a path), or nil.
func compileFastOperandValue(ns *numShares, e *Expr) fastValue {
	o, ok := fastOperandOfIn(ns, e)
	if !ok || !(o.cast || o.fn != nil) || len(o.path.steps) != 0 {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
		return o.appendTo(fe, n, dst)
	}
}

// fastNumValue is the value of a frame-free numeric expression (fastnum.go:
// Peppol's and XRechnung's $allowancesTotal, round(sum(…/xs:decimal(.)) *
// 10 * 10) div 100): its one item, or none; nil for nil.
func fastNumValue(fn fastNum) fastValue {
	if fn == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
		it, empty, ok := fn(fe, n)
		if !ok || empty {
			return dst, ok
		}
		return append(dst, it), true
	}
}

// compileFastConcat compiles concat(A, B, ...) of frame-free operands
// (Peppol's $DKSupplierCountry: concat(ubl-creditnote:CreditNote/…,
// ubl-invoice:Invoice/…)): each argument the empty string when empty, the
// string value of its one item, several items giving up (XPTY0004).
func compileFastConcat(e *Expr) fastValue {
	type concatArg struct {
		lit *string // a literal's string value, or nil for op
		op  fastOperand
	}
	args := make([]concatArg, len(e.Args))
	for i, a := range e.Args {
		if c, ok := fastConsts(a); ok && len(c) <= 1 {
			s := ""
			if len(c) == 1 {
				s = c[0].StringValue()
			}
			args[i].lit = &s
			continue
		}
		var ok bool
		if args[i].op, ok = fastOperandOf(a); !ok {
			return nil
		}
	}
	return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
		var sb strings.Builder
		for i := range args {
			if args[i].lit != nil {
				sb.WriteString(*args[i].lit)
				continue
			}
			k := 0
			if !args[i].op.items(fe, n, func(a xdm.Item) bool {
				k++
				sb.WriteString(a.StringValue())
				return k == 1
			}) {
				return dst, false
			}
		}
		return append(dst, xdm.String(sb.String())), true
	}
}

// compileFastLastExpr compiles the effective boolean value of a path
// whose last part is a boolean test evaluated on each node of the rest
// (cac:TaxScheme/(normalize-space(upper-case(cbc:ID))='VAT')): false for
// no node, the test's value for one; several booleans are an error
// (FORG0006), so the closure gives up.
func compileFastLastExpr(e *Expr) fastBool {
	if e.Op != OpPath || len(e.Args) < 2 {
		return nil
	}
	last := e.Args[len(e.Args)-1]
	if last.Op == OpStep || last.Op == OpFilter {
		return nil
	}
	test := compileFast(last)
	if test == nil {
		return nil
	}
	p, ok := fastPathOf(&Expr{Op: OpPath, Args: e.Args[:len(e.Args)-1]})
	if !ok {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		ns, ok := fe.nodes(&p, n)
		switch {
		case !ok || len(ns) > 1:
			return false, false
		case len(ns) == 0:
			return false, true
		}
		return test(fe, ns[0])
	}
}

// fastOperand is one side of a comparison: the nodes of a path (each an
// xs:untypedAtomic), their count, or, for each node of a path, a string
// function (or several nested) of the one node of a path from it
// (normalize-space(X), cac:TaxScheme/normalize-space(upper-case(cbc:ID))).
type fastOperand struct {
	path  fastPath
	count bool
	// countOf: count() of the items of a cast or function of a path
	// (BR-CO-15's count(cac:TaxTotal/xs:decimal(cbc:TaxAmount[…]))),
	// rather than of path's nodes.
	countOf *fastOperand
	// distinct: countOf counts distinct-values() of its items (strings
	// and untypedAtomic, compared as strings: BR-FR-CO-10's
	// count(distinct-values(cac:PartyIdentification/cbc:ID/@schemeID))).
	distinct bool
	fn       func(string) xdm.Item
	arg      fastPath // the argument of fn or of the cast, from each node of path
	// cast: xs:decimal(X) and the like, of the one node of arg (none:
	// no item when the cast is optional, else an error).
	cast    bool
	castTo  xdm.Type
	castOpt bool
	// argChild: the catalog slot of arg when arg is one named child
	// step without predicates (cbc:ID, cbc:Percent): argNode reads it
	// from the child cache at once.
	argChild int32
}

// argNode is fastEnv.atMostOne of o.arg from m.
func (o *fastOperand) argNode(fe *fastEnv, m xmltree.NodeID) (xmltree.NodeID, bool) {
	if o.argChild == 0 {
		return fe.atMostOne(&o.arg, m)
	}
	id := fe.ids[o.argChild-1]
	if id < 0 {
		return xmltree.None, true
	}
	c, second := fe.kids.children(fe.doc, m, id)
	return c, second == xmltree.None
}

// argString is fastEnv.single of o.arg from m: the string value of its
// one node, "" for none; ok=false for several.
func (o *fastOperand) argString(fe *fastEnv, m xmltree.NodeID) (string, bool) {
	if len(o.arg.steps) == 0 {
		return fe.doc.StringValue(m), true // a function of the node itself
	}
	a, ok := o.argNode(fe, m)
	if !ok || a == xmltree.None {
		return "", ok
	}
	return fe.doc.StringValue(a), true
}

// childSlot returns the catalog slot of p when p is one named child step
// without predicates, or 0.
func childSlot(p *fastPath) int32 {
	if len(p.steps) == 1 && p.steps[0].kind == fsChild && !p.preds {
		return p.steps[0].slot
	}
	return 0
}

// fastStringFn returns the one-argument string function name as a Go
// function, or nil.
func fastStringFn(name string) func(string) string {
	switch name {
	case "string":
		// of one node or none: its string value, or "" (single)
		return func(s string) string { return s }
	case "normalize-space":
		return NormalizeSpace
	case "upper-case":
		return upperCase
	case "lower-case":
		return strings.ToLower
	}
	return nil
}

// fastStringFnArgs reports whether name is a string function of more
// than one argument that an operand's chain may hold: concat (fastConcat,
// which also picks the argument the chain continues with) or one that
// fastStringFnOf compiles.
func fastStringFnArgs(name string) bool {
	return name == "substring" || name == "substring-before" || name == "substring-after" || name == "concat"
}

// fastConcat splits concat's arguments into the one that is not a string
// literal, the argument the chain continues with, and the literals before
// and after it joined: concat(' ', substring(., 1, 2), ' ') (CII's
// BR-CO-09) is " " + X + " "; ok=false unless exactly one argument is not
// a string literal.
func fastConcat(args []*Expr) (x *Expr, fn func(string) string, ok bool) {
	var pre, post strings.Builder
	for _, a := range args {
		c, lit := fastConsts(a)
		switch {
		case lit && len(c) == 1 && c[0].T == xdm.TString && x == nil:
			pre.WriteString(c[0].S)
		case lit && len(c) == 1 && c[0].T == xdm.TString:
			post.WriteString(c[0].S)
		case lit || x != nil:
			return nil, nil, false
		default:
			x = a
		}
	}
	if x == nil {
		return nil, nil, false
	}
	p, q := pre.String(), post.String()
	return x, func(s string) string { return p + s + q }, true
}

// fastStringFnOf returns the function of its first argument that the
// string function name computes with the literals args after it, or
// ok=false.
func fastStringFnOf(name string, args []*Expr) (func(string) string, bool) {
	if name == "substring" {
		return fastSubstring(args)
	}
	if len(args) != 1 {
		return nil, false
	}
	c, ok := fastConsts(args[0])
	if !ok || len(c) != 1 || c[0].T != xdm.TString {
		return nil, false
	}
	lit := c[0].S
	if name == "substring-before" {
		return func(s string) string { return substringBefore(s, lit) }, true
	}
	return func(s string) string { return substringAfter(s, lit) }, true
}

// fastSubstring returns fn:substring's function of its first argument for
// the literal numbers args (start, and length if given), rounded as the
// interpreter rounds them; ok=false for any other arguments.
func fastSubstring(args []*Expr) (func(string) string, bool) {
	if len(args) < 1 || len(args) > 2 {
		return nil, false
	}
	var nums [2]float64
	for i, a := range args {
		c, ok := fastConsts(a)
		if !ok || len(c) != 1 || !c[0].T.IsNumeric() {
			return nil, false
		}
		nums[i] = c[0].AsFloat()
	}
	start, end := xpathRound(nums[0]), math.Inf(1)
	if len(args) == 2 {
		end = start + xpathRound(nums[1])
	}
	return func(s string) string { return substring(s, start, end) }, true
}

// strPairTests are the tests of two strings compileFastStrPair compiles.
var strPairTests = map[string]func(a, b string) bool{
	"contains": strings.Contains, "starts-with": strings.HasPrefix, "ends-with": strings.HasSuffix,
}

// compileFastStrPair compiles contains, starts-with and ends-with of two
// compileFastStr arguments (Peppol's R004:
// starts-with(normalize-space(cbc:CustomizationID/text()), 'urn:...'),
// EN 16931's BR-CO-09: contains(' 1A AD ... ', substring(cbc:CompanyID, 1,
// 2)), BR-FR's contains($afterBar, '#')): an operand of no item is "", of
// one string or untypedAtomic item that string; one of two or more items,
// or of an item of another type (XPTY0004), is left to the interpreter.
func compileFastStrPair(ns *numShares, e *Expr) fastBool {
	test := strPairTests[e.Builtin.Name]
	if test == nil || len(e.Args) != 2 {
		return nil
	}
	a, b := compileFastStr(ns, e.Args[0]), compileFastStr(ns, e.Args[1])
	if a == nil || b == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		x, ok := a(fe, n)
		if !ok {
			return false, false
		}
		y, ok := b(fe, n)
		return ok && test(x, y), ok
	}
}

// compileFastCastable compiles X castable as T (Peppol's F001: string(.)
// castable as xs:date on every date) for a fastOperand X, as the
// interpreter decides it: more than one item is not castable, none is
// when T is optional ('?'); one item is cast (xdm.CastableErr). Where X
// cannot be decided (an item raising an error included) or the cast
// raises an error of its own (a decimal beyond MaxDecimalDigits), the
// interpreter answers.
func compileFastCastable(e *Expr) fastBool {
	o, ok := fastOperandOf(e.Args[0])
	if !ok {
		return nil
	}
	to, opt := e.Type, e.Optional
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		var first xdm.Item
		items := 0
		if !o.items(fe, n, func(a xdm.Item) bool {
			if items++; items == 1 {
				first = a
			}
			return true // every item: one that errs makes the interpreter answer
		}) {
			return false, false
		}
		switch items {
		case 0:
			return opt, true
		case 1:
			v, err := xdm.CastableErr(first, to)
			return v, err == nil
		}
		return false, true
	}
}

// fastOperandOf returns e as a fastOperand when it is one.
func fastOperandOf(e *Expr) (fastOperand, bool) { return fastOperandOfIn(nil, e) }

// fastOperandOfIn is fastOperandOf whose paths' step predicates may read
// variables when ns allows them (fastPathOfIn).
func fastOperandOfIn(ns *numShares, e *Expr) (fastOperand, bool) {
	var o fastOperand
	if e.Op == OpCount {
		p, ok := fastPathOfIn(ns, e.Args[0])
		o.path, o.count = p, true
		if ok {
			return o, true
		}
		a := e.Args[0]
		if a.Op == OpCall && a.Builtin != nil && a.Builtin.Name == "distinct-values" && len(a.Args) == 1 {
			in, isOp := fastOperandOfIn(ns, a.Args[0])
			return fastOperand{count: true, countOf: &in, distinct: true}, isOp && !in.count && !in.cast
		}
		in, isOp := fastOperandOfIn(ns, a)
		return fastOperand{count: true, countOf: &in}, isOp && !in.count && (in.cast || in.fn != nil)
	}
	call := e
	if last := e.Args; e.Op == OpPath && len(last) >= 2 && (last[len(last)-1].Op == OpCall || last[len(last)-1].Op == OpCast) {
		// A path whose last part is the function call, applied to each
		// node of the rest.
		p, ok := fastPathOfIn(ns, &Expr{Op: OpPath, Args: e.Args[:len(e.Args)-1]})
		if !ok {
			return o, false
		}
		o.path, call = p, e.Args[len(e.Args)-1]
	}
	if call.Op == OpCast && len(call.Args) == 1 {
		arg, ok := fastPathOfIn(ns, call.Args[0])
		o.arg, o.cast, o.castTo, o.castOpt = arg, true, call.Type, call.Optional
		o.argChild = childSlot(&arg)
		return o, ok
	}
	if call.Op != OpCall {
		p, ok := fastPathOfIn(ns, e)
		return fastOperand{path: p}, ok
	}
	var chain []func(string) string
	var names []string // beside chain: each function's name, "" for the others
	strlen := false
	for call.Op == OpCall && call.Builtin != nil && (len(call.Args) <= 1 || fastStringFnArgs(call.Builtin.Name)) {
		name := call.Builtin.Name
		if name == "concat" {
			x, fn, ok := fastConcat(call.Args)
			if !ok {
				return o, false
			}
			chain, names = append(chain, fn), append(names, "")
			call = x
			continue
		}
		if len(call.Args) > 1 {
			// substring(X, start[, length]) with literal numbers
			// (BR-CO-09: substring(cbc:CompanyID, 1, 2)),
			// substring-before/-after(X, 'literal') (BR-CL-08:
			// substring-before(substring-after(., '#'), '#')).
			fn, ok := fastStringFnOf(name, call.Args[1:])
			if !ok {
				return o, false
			}
			chain, names = append(chain, fn), append(names, "")
			call = call.Args[0]
			continue
		}
		if len(call.Args) == 0 && name != "normalize-space" && name != "string-length" {
			return o, false
		}
		fn := fastStringFn(name)
		if fn == nil {
			if name != "string-length" || len(chain) > 0 {
				return o, false
			}
			strlen = true
		} else {
			chain, names = append(chain, fn), append(names, name)
		}
		if len(call.Args) == 0 {
			// normalize-space(), string-length(): of the context node.
			call = &Expr{Op: OpContext}
			break
		}
		call = call.Args[0]
	}
	arg, ok := fastPathOfIn(ns, call)
	if !ok {
		return o, false
	}
	o.arg, o.argChild = arg, childSlot(&arg)
	if len(names) == 2 && (names[0] == "normalize-space" && names[1] == "upper-case" ||
		names[0] == "upper-case" && names[1] == "normalize-space") {
		// cac:TaxScheme/normalize-space(upper-case(cbc:ID)), the VAT
		// scheme of every EN 16931 category rule: one pass.
		chain = []func(string) string{normalizeUpper}
	}
	if len(chain) == 1 && !strlen {
		// One function (normalize-space(cbc:ID), most operands): no loop.
		fn := chain[0]
		o.fn = func(s string) xdm.Item { return xdm.String(fn(s)) }
		return o, true
	}
	o.fn = func(s string) xdm.Item {
		for i := len(chain) - 1; i >= 0; i-- {
			s = chain[i](s)
		}
		if strlen {
			return xdm.Integer(int64(utf8.RuneCountInString(s)))
		}
		return xdm.String(s)
	}
	return o, true
}

// maxDistinct bounds the distinct values a frame-free count of
// distinct-values() compares pair by pair.
const maxDistinct = 64

// items calls each with the operand's items on n; ok=false when the
// operand could not be decided or each returned false.
func (o *fastOperand) items(fe *fastEnv, n xmltree.NodeID, each func(xdm.Item) bool) bool {
	if o.countOf != nil {
		k := int64(0)
		start := len(fe.qitems) // scratch: the distinct values so far
		ok := o.countOf.items(fe, n, func(it xdm.Item) bool {
			if o.distinct {
				if it.T != xdm.TString && it.T != xdm.TUntyped {
					return false // another type: the interpreter's
				}
				for _, seen := range fe.qitems[start:] {
					if seen.S == it.S {
						return true
					}
				}
				if len(fe.qitems)-start == maxDistinct {
					return false // the interpreter's map
				}
				fe.qitems = append(fe.qitems, it)
			}
			k++
			return true
		})
		fe.qitems = fe.qitems[:start]
		if !ok {
			return false
		}
		return each(xdm.Integer(k))
	}
	if o.count && o.path.chain {
		if c, one := fe.chainEnd(&o.path, n); one {
			cnt := int64(0)
			if c != xmltree.None {
				cnt = 1
			}
			return each(xdm.Integer(cnt))
		}
	}
	if o.count && o.path.up {
		if _, c, ok := fe.up(&o.path, n, upMax+1); ok {
			return each(xdm.Integer(int64(c)))
		}
	}
	if len(o.path.steps) == 0 && !o.count && !o.path.preds {
		// A function of the context node (normalize-space(.),
		// xs:decimal(cbc:Amount)): no path to collect.
		fe.depth++
		ok := o.nodeItems(fe, n, each)
		fe.depth--
		return ok
	}
	if !o.count {
		// One named child step (cac:TaxScheme/normalize-space(…), the
		// keys of the VAT categories) with at most one node: no walk.
		if c, second, one := fe.oneChildStep(&o.path, n); one && second == xmltree.None {
			if c == xmltree.None {
				return true
			}
			fe.depth++
			ok := o.nodeItems(fe, c, each)
			fe.depth--
			return ok
		}
	}
	ns, ok := fe.nodes(&o.path, n)
	switch {
	case !ok:
		return false
	case o.count:
		return each(xdm.Integer(int64(len(ns))))
	}
	// The argument's nodes are walked one level down, so that ns stays
	// intact.
	fe.depth++
	for _, m := range ns {
		if ok = o.nodeItems(fe, m, each); !ok {
			break
		}
	}
	fe.depth--
	return ok
}

// nodeItems calls each with the operand's items on m, a node of its path:
// the cast or the function of its argument there, or m's value.
func (o *fastOperand) nodeItems(fe *fastEnv, m xmltree.NodeID, each func(xdm.Item) bool) bool {
	switch {
	case o.cast:
		a, ok := o.argNode(fe, m)
		if !ok || (a == xmltree.None && !o.castOpt) {
			return false // XPTY0004, or the path's own refusal
		}
		if a == xmltree.None {
			return true
		}
		it, err := xdm.Cast(xdm.Untyped(fe.doc.StringValue(a)), o.castTo)
		return err == nil && each(it)
	case o.fn != nil:
		s, ok := o.argString(fe, m)
		return ok && each(o.fn(s))
	}
	return each(xdm.Untyped(fe.doc.StringValue(m)))
}

// appendTo appends the operand's items on n to dst; ok=false, with dst as
// it was, when it cannot decide.
func (o *fastOperand) appendTo(fe *fastEnv, n xmltree.NodeID, dst []xdm.Item) ([]xdm.Item, bool) {
	start := len(dst)
	if o.items(fe, n, func(x xdm.Item) bool {
		dst = append(dst, x)
		return true
	}) {
		return dst, true
	}
	return dst[:start], false
}

// fastConsts returns the items of a constant operand: a literal sequence,
// true() or false().
func fastConsts(e *Expr) (xdm.Sequence, bool) {
	switch {
	case e.Op == OpConst && e.ConstPos() == 0 && len(e.Seq) > 0:
		for _, it := range e.Seq {
			if !it.T.IsNumeric() && it.T != xdm.TString && it.T != xdm.TUntyped {
				return nil, false
			}
		}
		return e.Seq, true
	case e.Op == OpCall && e.Builtin != nil && len(e.Args) == 0 && (e.Builtin.Name == "true" || e.Builtin.Name == "false"):
		return xdm.Sequence{xdm.Bool(e.Builtin.Name == "true")}, true
	}
	return nil, false
}

// compileFastCmp compiles a comparison of a fastOperand with a constant.
func compileFastCmp(e *Expr) fastBool {
	if len(e.Args) != 2 {
		return nil
	}
	x, c, swap := e.Args[0], e.Args[1], false
	if _, ok := fastConsts(x); ok {
		x, c, swap = c, x, true
	}
	consts, ok := fastConsts(c)
	if !ok {
		return nil
	}
	xo, ok := fastOperandOf(x)
	if !ok {
		return nil
	}
	op, general := e.Cmp, e.Op == OpGenCmp
	compare := comparison(general)
	if !general && len(consts) != 1 {
		return nil // a value comparison of a sequence: an error
	}
	if e.Set != nil && (!general || op != xdm.OpEq || swap || xo.count) {
		return nil
	}
	o := xo // the closures' copy, made only when one is (compileFastNumOne)
	// = and != with string literals: a string or untypedAtomic item
	// compares as a string, by codepoints (byte equality in UTF-8).
	strEq := op == xdm.OpEq || op == xdm.OpNe
	for _, b := range consts {
		strEq = strEq && b.T == xdm.TString
	}
	eq := op == xdm.OpEq
	switch {
	case e.Set != nil:
		set := newCodeSet(e.Set)
		// The constants are strings and untypedAtomic compares as a
		// string: a set lookup (as generalCmp does). An item of another
		// type (a cast's, string-length's) against a string raises
		// XPTY0004: give up.
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			v := false
			decided := o.items(fe, n, func(a xdm.Item) bool {
				if a.T != xdm.TString && a.T != xdm.TUntyped {
					return false
				}
				if !v {
					v = set.has(a.S)
				}
				return true
			})
			return v, decided
		}
	case strEq && general && len(consts) == 1:
		// X = 'S', X != '': an item of another type than string or
		// untypedAtomic against a string raises XPTY0004 (give up).
		lit := consts[0].S
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			v, other := false, false
			decided := o.items(fe, n, func(a xdm.Item) bool {
				if a.T != xdm.TString && a.T != xdm.TUntyped {
					other = true
					return false
				}
				v = v || (a.S == lit) == eq
				return true
			})
			return v, decided && !other
		}
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		// Every pair is compared, and the answer is given only when none
		// raises an error (see above).
		v, items, failed := false, 0, false
		decided := o.items(fe, n, func(a xdm.Item) bool {
			items++
			if strEq && (a.T == xdm.TString || a.T == xdm.TUntyped) {
				for _, b := range consts {
					v = v || (a.S == b.S) == eq
				}
				return true
			}
			for _, b := range consts {
				l, r := a, b
				if swap {
					l, r = b, a
				}
				res, err := compare(op, l, r)
				if err != nil {
					failed = true
					return false
				}
				v = v || res
			}
			return true
		})
		if failed || !decided || (!general && items > 1) {
			return false, false
		}
		return v, true
	}
}

// compileFastQuantified compiles some/every with one binding whose
// sequence is a frame-free operand (a cast or a string function of a
// path: EN 16931's BR-S-08, every $rate in
// ../ram:RateApplicablePercent/xs:decimal(.) satisfies ...; or a path:
// BR-CO-15's every $Currency in cbc:DocumentCurrencyCode) and whose
// test is frame-free, the variable read by comparisons and numbers
// (compileFastNumOne's OpLocal) and by nothing else. As the interpreter
// (frame.quantified), the whole sequence is made first, then the test runs
// item by item and the first item that decides ends it; a sequence or a
// test that cannot be decided leaves the whole expression to the
// interpreter, errors and all. Shared subexpressions (numShares) are
// closed, so they do not read the variable and keep their values from one
// item to the next.
func compileFastQuantified(ns *numShares, e *Expr) fastBool {
	binds := e.Bindings()
	if len(binds) != 1 {
		return nil
	}
	if fn := compileFastQuantifiedNodes(e); fn != nil {
		return fn
	}
	o, ok := fastOperandOf(binds[0].In)
	if !ok {
		return nil
	}
	// A path's nodes are bound as their atomized values (untypedAtomic,
	// o.items): the frame-free test reads the variable only as an item
	// (compileFastNumOne's OpLocal), in comparisons, arithmetic and
	// casts, which atomize a node to just that; no frame-free path starts
	// at a variable, so nothing reads it as a node.
	some := e.Op == OpSome
	test := compileFastIn(ns, e.Args[0])
	if test == nil {
		// Decided only when nothing is bound (BR-53: every
		// $taxcurrency in cbc:TaxCurrencyCode satisfies …, on an invoice
		// without one): some is false, every true, the test never runs.
		return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
			found := false
			decided := o.items(fe, n, func(xdm.Item) bool {
				found = true
				return false
			})
			return !some, decided && !found
		}
	}
	slot := binds[0].Slot
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		start := len(fe.qitems)
		if !o.items(fe, n, func(a xdm.Item) bool {
			fe.qitems = append(fe.qitems, a)
			return true
		}) {
			fe.qitems = fe.qitems[:start]
			return false, false
		}
		// The test's own quantifiers append after these items and cut
		// back to their start, so the run stays as it is.
		items := fe.qitems[start:]
		for len(fe.locals) <= slot {
			fe.locals = append(fe.locals, fastLocal{})
		}
		res, decided := !some, true
		outer := fe.locGen
		for _, it := range items {
			fe.locals[slot] = fastLocal{it: it, bound: true}
			fe.numSeq++
			fe.locGen = fe.numSeq
			v, ok := test(fe, n)
			if !ok {
				res, decided = false, false
				break
			}
			if v == some {
				res = some
				break
			}
		}
		fe.locals[slot] = fastLocal{}
		fe.locGen = outer
		fe.qitems = fe.qitems[:start]
		return res, decided
	}
}

// compileFastVars compiles test root, which reads variables or calls
// extension functions, with compileFastVarCmp's comparisons and
// compileFastExt's calls among its parts (Program.FastVarTest) and the
// shares ns of its repeated subexpressions; nil when some part has no
// frame-free evaluation.
func compileFastVars(ns *numShares, root *Expr, fns *Functions) fastBool {
	vs := &numShares{vars: true, fns: fns}
	if ns != nil {
		vs.local = ns.local
	}
	fn := compileFastIn(vs, root)
	if ns == nil {
		return fn
	}
	return shareTest(vs, fn)
}

// varValue returns the value of variable slot for a frame-free test;
// ok=false when the Env has no such slot or the value holds a node of
// another document than the validated one (a code list's).
func (fe *fastEnv) varValue(slot int) (xdm.Sequence, bool) {
	if slot >= len(fe.vars) {
		return nil, false
	}
	for _, it := range fe.vars[slot] {
		if it.T == xdm.TNode && it.Doc != 0 {
			return nil, false
		}
	}
	return fe.vars[slot], true
}

// maxExtArgs bounds the arguments of the calls compileFastExt compiles.
const maxExtArgs = 4

// compileFastExt compiles a call of an extension function with an
// ExtScalar (BR-FR's custom:is-valid-decimal-19-2(normalize-space(.)),
// custom:...($amount) with the rule's let, Peppol's u:slack) whose
// arguments are frame-free operands of at most one item, variables, or
// fastNums (arithmetic of lets and amounts, literals): its value when the
// ExtScalar answers with one xs:boolean, no answer otherwise (the
// interpreter calls the function then, errors and all).
func compileFastExt(ns *numShares, e *Expr) fastBool {
	if ns == nil || !ns.vars || len(e.Args) > maxExtArgs {
		return nil
	}
	call, memo := ns.fns.scalarOf(e)
	if call == nil {
		return nil
	}
	type extArg struct {
		o     fastOperand
		num   fastNum // arithmetic, a literal, if-then-else: when not nil
		slot  int     // a variable's, when >= 0
		first bool    // $v[1] (BR-FR-09's $siret[1]): its first item
	}
	args := make([]extArg, len(e.Args))
	for i, a := range e.Args {
		if slot, first, ok := fastVarOperand(ns, a); ok {
			args[i].slot, args[i].first = slot, first
			continue
		}
		args[i].slot = -1
		if o, ok := fastOperandOf(a); ok {
			args[i].o = o
			continue
		}
		if args[i].num = compileFastNumIn(ns, a); args[i].num == nil {
			return nil
		}
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		seqs := fe.extArgs[:len(args)]
		for i := range args {
			a := &args[i]
			if a.slot >= 0 {
				v, ok := fe.varValue(a.slot)
				if !ok {
					return false, false
				}
				if a.first && len(v) > 1 {
					v = v[:1]
				}
				seqs[i] = v
				continue
			}
			if a.num != nil {
				it, empty, ok := a.num(fe, n)
				if !ok {
					return false, false
				}
				fe.extItems[i] = it
				seqs[i] = fe.extItems[i : i+1 : i+1]
				if empty {
					seqs[i] = nil
				}
				continue
			}
			k := 0
			if !a.o.items(fe, n, func(it xdm.Item) bool {
				if k == 1 {
					k++
					return false
				}
				fe.extItems[i], k = it, 1
				return true
			}) {
				return false, false // undecided, or more than one item
			}
			seqs[i] = fe.extItems[i : i+k : i+k]
		}
		var k extMemoKey
		keep := false
		if memo != nil {
			if k, keep = fe.extKey(memo, seqs[0]); keep {
				if v, hit := fe.extAnswer(&k); hit {
					return v, true
				}
			}
		}
		res, ok := call(fe.doc, seqs)
		if !ok || len(res) != 1 || res[0].T != xdm.TBoolean {
			return false, false
		}
		if keep {
			fe.keepExt(k, res[0].B)
		}
		return res[0].B, true
	}
}

// compileFastQuantifiedNodes compiles some/every $x in P satisfies $x/R
// with P and R paths (BR-FR-CO-10's every $id in ram:GlobalID satisfies
// $id/@schemeID): the variable bound to P's nodes, read only as the head
// of the test's path, whose effective boolean value is whether R selects a
// node from it. As the interpreter, P's nodes are all collected first; a
// path that cannot decide gives up.
func compileFastQuantifiedNodes(e *Expr) fastBool {
	binds := e.Bindings()
	t := e.Args[0]
	if len(binds) != 1 || t.Op != OpPath || len(t.Args) < 2 || len(t.Preds) > 0 ||
		t.Args[0].Op != OpLocal || t.Args[0].Slot != binds[0].Slot {
		return nil
	}
	r := t.Args[1]
	if len(t.Args) > 2 {
		r = &Expr{Op: OpPath, Args: t.Args[1:]}
	}
	if readsLocal(r) {
		return nil
	}
	in, ok := fastPathOf(binds[0].In)
	rest, ok2 := fastPathOf(r)
	if !ok || !ok2 || len(in.steps) == 0 || len(rest.steps) == 0 {
		return nil
	}
	some := e.Op == OpSome
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		nodes, ok := fe.nodes(&in, n)
		if !ok {
			return false, false
		}
		// R is walked one level down, so that nodes stays intact.
		fe.depth++
		res, decided := !some, true
		for _, c := range nodes {
			found, ok := fe.any(&rest, c)
			if !ok {
				res, decided = false, false
				break
			}
			if found == some {
				res = some
				break
			}
		}
		fe.depth--
		return res, decided
	}
}

// varFilter is $v[P1][P2]… in a test that reads variables
// (compileFastVars; BR-FR's exists($notes[ram:SubjectCode = 'PMT']) and
// count($notes[ram:SubjectCode = 'PMT']) le 1): the items of the let,
// nodes of the validated document, that pass the predicates, each a
// closed boolean expression (no position, no variable).
type varFilter struct {
	slot  int
	preds []fastBool
}

// varFilterOf returns e as a varFilter when it is one and ns lets the
// test read variables.
func varFilterOf(ns *numShares, e *Expr) (*varFilter, bool) {
	if ns == nil || !ns.vars || e.Op != OpFilter || len(e.Args) != 1 || e.Args[0].Op != OpVar || len(e.Preds) == 0 {
		return nil, false
	}
	vf := &varFilter{slot: e.Args[0].Slot}
	for _, p := range e.Preds {
		switch p.Op {
		case OpAnd, OpOr, OpGenCmp, OpValCmp, OpNot, OpExists, OpEmpty, OpCodeSet, OpCodeToken, OpChildEq, OpBlankCmp:
		default:
			return nil, false // a number is a position; a path, its nodes' EBV: left to the interpreter
		}
		if !closedExpr(p) || usesFocusPosition(p) {
			return nil, false
		}
		fn := compileFast(p)
		if fn == nil {
			return nil, false
		}
		vf.preds = append(vf.preds, fn)
	}
	return vf, true
}

// count returns how many of the let's items pass the predicates, every
// item tested (as the interpreter's filter does); ok=false when the let
// failed, holds an item that is not a node of the validated document, or
// a predicate cannot decide.
func (vf *varFilter) count(fe *fastEnv) (int64, bool) {
	v, ok := fe.varValue(vf.slot)
	if !ok {
		return 0, false
	}
	k := int64(0)
	for _, it := range v {
		if it.T != xdm.TNode || it.Doc != 0 {
			return 0, false
		}
		keep, ok := fe.pass(vf.preds, xmltree.NodeID(it.Node))
		if !ok {
			return 0, false
		}
		if keep {
			k++
		}
	}
	return k, true
}

// maxVarItems bounds the items of a variable compileFastVarCmp compares
// with pair by pair (a code list in a let is left to the interpreter).
const maxVarItems = 8

// compileFastVarCmp compiles a general comparison of a frame-free operand
// with a variable (Peppol's @currencyID = $documentCurrencyCode on every
// amount): the variable's items are read from fe.vars, its nodes (of the
// validated document only) atomized to xs:untypedAtomic as the interpreter
// does, and every pair is compared; the answer is given only when no pair
// raises an error, as compileFastCmp does. nil for other comparisons.
func compileFastVarCmp(e *Expr) fastBool {
	if e.Op != OpGenCmp || e.Set != nil || len(e.Args) != 2 {
		return nil
	}
	x, v, swap := e.Args[0], e.Args[1], false
	if x.Op == OpVar {
		x, v, swap = v, x, true
	}
	if v.Op != OpVar || x.Op == OpVar {
		return nil
	}
	o, ok := fastOperandOf(x)
	if !ok {
		return nil
	}
	op, slot := e.Cmp, v.Slot
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		vals, ok := fe.varValue(slot)
		if !ok || len(vals) > maxVarItems { // a list: the interpreter's comparison
			return false, false
		}
		res, failed := false, false
		decided := o.items(fe, n, func(a xdm.Item) bool {
			for _, b := range vals {
				if b.T == xdm.TNode {
					b = xdm.Untyped(fe.doc.StringValue(xmltree.NodeID(b.Node)))
				}
				l, r := a, b
				if swap {
					l, r = b, a
				}
				ok, err := xdm.CompareGeneral(op, l, r)
				if err != nil {
					failed = true
					return false
				}
				res = res || ok
			}
			return true
		})
		if failed || !decided {
			return false, false
		}
		return res, true
	}
}

// compileFastPairCmp compiles a general comparison of two frame-free
// operands (Peppol's R005: normalize-space(text()) =
// normalize-space(../cbc:DocumentCurrencyCode/text()); BR-17's ram:ID =
// ../../ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:ID,
// two IDs each): every item of the left is compared with every item of
// the right (up to maxPairItems of them), and the answer is given only
// when no comparison raises an error (the order of the pairs then does
// not matter, see above). An empty right operand compares false, once the
// left one's items are all made (a cast among them may fail).
func compileFastPairCmp(e *Expr) fastBool {
	if e.Op != OpGenCmp || len(e.Args) != 2 {
		return nil
	}
	l, ok := fastOperandOf(e.Args[0])
	r, ok2 := fastOperandOf(e.Args[1])
	if !ok || !ok2 {
		return nil
	}
	a, b, op := l, r, e.Cmp // the closure's own copies (compileFastNumOne)
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		// The right operand's items, in the scratch after what the
		// callers hold there (a nested use appends after them).
		start := len(fe.qitems)
		if !b.items(fe, n, func(it xdm.Item) bool {
			if len(fe.qitems)-start == maxPairItems {
				return false
			}
			fe.qitems = append(fe.qitems, it)
			return true
		}) {
			fe.qitems = fe.qitems[:start]
			return false, false
		}
		ys := fe.qitems[start:]
		v := false
		decided := a.items(fe, n, func(x xdm.Item) bool {
			for _, y := range ys {
				r, err := xdm.CompareGeneral(op, x, y)
				if err != nil {
					return false // undecided
				}
				v = v || r
			}
			return true
		})
		fe.qitems = fe.qitems[:start]
		return v, decided
	}
}

// maxPairItems bounds the items of the right operand of a frame-free
// general comparison (compileFastPairCmp).
const maxPairItems = 64

// comparison returns xdm's comparison of two atomic items for a general
// comparison (general) or a value comparison.
func comparison(general bool) func(xdm.CmpOp, xdm.Item, xdm.Item) (bool, error) {
	if general {
		return xdm.CompareGeneral
	}
	return xdm.CompareValues
}

// codeListHas is the code-list idiom's answer for the normalized value v
// (OpCodeSet, OpCodeToken; see evalBool).
func codeListHas(v string, token bool, set map[string]struct{}, list string) bool {
	if single, ok := codeListToken(v, token, list); !single {
		return ok
	}
	_, in := set[v]
	return in
}

// codeListIn is codeListHas through a codeSet (the frame-free tests).
func codeListIn(v string, token bool, set *codeSet, list string) bool {
	if single, ok := codeListToken(v, token, list); !single {
		return ok
	}
	return set.has(v)
}

// codeListToken is the code-list idiom's answer when v is not a single
// token (single=false): the token check failed, or v is looked up in
// list as the original contains() does; single=true: v is looked up in
// the set.
func codeListToken(v string, token bool, list string) (single, ok bool) {
	if token && strings.IndexByte(v, ' ') >= 0 {
		return false, false // not(contains(normalize-space(X), ' ')) failed
	}
	if v == "" || strings.IndexByte(v, ' ') >= 0 {
		// Not a single token: the original contains().
		return false, strings.Contains(list, " "+v+" ")
	}
	return true, false
}
