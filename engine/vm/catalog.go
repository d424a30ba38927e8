package vm

import (
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Catalog numbers the expanded names that the name tests of a family of
// programs (one rule set) use, so that an Env resolves all of them against a
// document at once, by the document's own (few) names, instead of one hash
// lookup per test and document: a rule set's ~3,000 name tests share a few
// hundred names, most of which a given invoice never uses.
//
// Programs and patterns are attached to a catalog when they are built
// (NewProgramIn, NewPatternIn; xpath.StaticContext.Catalog). Compiling
// against a catalog adds names to it, so every compilation must be finished
// before the programs are evaluated (as with Functions); a catalog is then
// read-only and safe for concurrent use.
type Catalog struct {
	// names: name -> slot (1-based), an open-addressing table keyed by
	// xmltree.NameHash (catName): resolve looks a document's names up by
	// the hash the parser computed, without hashing them again.
	names []catName
	n     int32
	memo  map[string]int32 // fingerprint of a memoised path prefix -> memo slot (1-based)
	nMemo int32
	// keys: fingerprint of a keyed memo point's prefix, step and key ->
	// key slot (1-based, keyindex.go).
	keys  map[string]int32
	nKeys int32
	// keyFirst[k-1] is the first memo slot whose point is keyed by key
	// slot k; keyShared[k-1] is set once another memo slot is too: the
	// key index then serves several paths, and memoCollect builds it
	// (or leaves it to the interpreter) rather than walking one path.
	keyFirst  []int32
	keyShared []bool
	// preds: fingerprint of a memoisable predicate -> slot (1-based);
	// predUses[slot-1] counts its occurrences (only predicates used more
	// than once are memoised, see predmemo.go).
	preds    map[string]int32
	predUses []int32
	// nodes: fingerprint of a memoisable relative path -> slot (1-based),
	// nodeUses[slot-1] its occurrences (predmemo.go).
	nodes    map[string]int32
	nodeUses []int32
	// fp is the scratch buffer of fingerprints (memo.go); a Catalog is
	// filled by one goroutine at a time, while its programs are built.
	fp []byte
	// steps holds one node per predicate-free axis step of the rule set's
	// paths (shareStep).
	steps map[stepKey]*Expr
	// stepClass: the class of each step with a step index (KeyPred > 0):
	// steps of one class build the same index from the same nodes
	// (stepindex.go); classes numbers them by fingerprint.
	stepClass map[*Expr]int32
	classes   map[string]int32
	// cse is the scratch hash-consing table of NewProgramShared (cse.go)
	// and planNumShares, under the same one-goroutine rule.
	cse hashCons
	// fastPreds and fastOps hold the frame-free evaluations of the
	// predicates and index keys of the catalog's programs and patterns
	// (Expr.fastIdx; fast.go).
	fastPreds []fastBool
	fastOps   []fastOperand
}

type stepKey struct {
	axis  Axis
	kind  TestKind
	named bool
	space string
	local string
}

// shareStep returns the catalog's node for a predicate-free axis step used
// as an operand (of a path, a call, a comparison, ...), so the tens of thousands of cbc:ID-like steps of a rule set are
// held once (a node is 192 bytes and stays live for the process). Such a
// node is fully prepared by then (its name slot is the catalog's) and
// nothing writes to it later; other nodes are returned unchanged.
func (c *Catalog) shareStep(e *Expr) *Expr {
	if c == nil || e.Op != OpStep || len(e.Preds) > 0 || len(e.Args) > 0 || e.PredSlot != 0 || e.NodeSlot != 0 || e.CSE != 0 {
		return e
	}
	k := stepKey{e.Axis, e.Test.Kind, e.Test.Named, e.Test.Space, e.Test.Local}
	if s, ok := c.steps[k]; ok && s.Test.Slot == e.Test.Slot && s.ConstPos() == e.ConstPos() {
		return s
	}
	if c.steps == nil {
		c.steps = map[stepKey]*Expr{}
	}
	if _, ok := c.steps[k]; !ok {
		c.steps[k] = e
	}
	return e
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog {
	return &Catalog{names: make([]catName, 64), memo: map[string]int32{},
		preds: map[string]int32{}, nodes: map[string]int32{}}
}

// Slot returns the slot of name q, numbering it when the catalog does not
// have it yet (while the rule set is being loaded, like compilation).
// Slots are 1-based indexes into the ids of Env.CatalogIDs.
func (c *Catalog) Slot(q xdm.QName) int32 { return c.slot(q.Space, q.Local) }

// CatalogIDs resolves every name of cat against the Env's document (the
// resolution the Env's evaluations then use; see Catalog.resolve) and
// returns the ids by slot: ids[s-1] is the document's NameID of the name in
// slot s, or -1. The slice belongs to the Env and is valid until its
// document changes. Not during an evaluation.
func (env *Env) CatalogIDs(cat *Catalog) []xmltree.NameID {
	f := env.fr
	if f == nil {
		f = newFrame()
		env.fr = f
	}
	f.resolveCatalog(cat, env.Doc)
	return f.catIDs
}

// catResolved reports whether the frame's ids resolve every name of cat
// against doc.
func (f *frame) catResolved(cat *Catalog, doc *xmltree.Document) bool {
	return cat != nil && f.cat == cat && f.catDoc == doc && len(f.catIDs) == int(cat.n)
}

// resolveCatalog makes the frame's ids resolve every name of cat against
// doc, resolving again only when they do not already.
func (f *frame) resolveCatalog(cat *Catalog, doc *xmltree.Document) {
	if !f.catResolved(cat, doc) {
		f.cat, f.catDoc = cat, doc
		f.catIDs = cat.resolve(doc, f.catIDs)
	}
}

// MemoSlots returns the number of distinct memoised path prefixes.
func (c *Catalog) MemoSlots() int { return int(c.nMemo) }

// Len returns the number of names in the catalog.
func (c *Catalog) Len() int { return int(c.n) }

// catName is an entry of Catalog.names: an expanded name, its
// xmltree.NameHash and its slot (0: an empty entry).
type catName struct {
	h            uint64
	space, local string
	slot         int32
}

func (c *Catalog) slot(space, local string) int32 {
	h := xmltree.NameHash(space, local)
	if s := c.lookup(h, space, local); s > 0 {
		return s
	}
	c.n++
	if int(c.n)*2 > len(c.names) {
		old := c.names
		c.names = make([]catName, 2*len(old))
		for _, e := range old {
			if e.slot > 0 {
				c.insert(e)
			}
		}
	}
	c.insert(catName{h: h, space: space, local: local, slot: c.n})
	return c.n
}

// lookup returns the slot of the name {space}local, whose NameHash is h,
// or 0.
func (c *Catalog) lookup(h uint64, space, local string) int32 {
	mask := uint64(len(c.names) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &c.names[i]
		if e.slot == 0 {
			return 0
		}
		if e.h == h && e.local == local && e.space == space {
			return e.slot
		}
	}
}

// insert adds e to c.names, which has room for it.
func (c *Catalog) insert(e catName) {
	mask := uint64(len(c.names) - 1)
	i := e.h & mask
	for c.names[i].slot != 0 {
		i = (i + 1) & mask
	}
	c.names[i] = e
}

// namedTest reports whether t names one expanded name (QName, element(N),
// attribute(N)).
func namedTest(t *NodeTest) bool {
	return t.Kind == TestName || ((t.Kind == TestElement || t.Kind == TestAttribute) && t.Named)
}

// prepare fills the compile-time annotations of a tree that is being
// wrapped: the catalog slots of its name tests and the memo points of its
// absolute paths (memo.go).
func (c *Catalog) prepare(e *Expr) {
	if e == nil {
		return
	}
	if c != nil {
		if namedTest(&e.Test) {
			e.Test.Slot = c.slot(e.Test.Space, e.Test.Local)
		}
		if st := e.InstanceType(); st != nil && namedTest(&st.Test) {
			st.Test.Slot = c.slot(st.Test.Space, st.Test.Local) // the copy's own (ExprAux)
		}
	}
	for i, a := range e.Args {
		c.prepare(a)
		e.Args[i] = c.shareStep(a)
	}
	for _, p := range e.Preds {
		c.prepare(p)
		c.preparePred(p)
		c.prepareFocusCalls(p)
		c.prepareFastPred(p)
	}
	for _, b := range e.Bindings() {
		c.prepare(b.In)
	}
	if c != nil && e.Op == OpStep {
		prepareStepKey(e)
		c.prepareStepClass(e)
		if e.KeyPred > 0 {
			pre, q, _ := varKeyPred(e.Preds[e.KeyPred-1])
			c.prepareFastKey(q)
			if pre != nil {
				c.prepareFastPred(pre)
			}
		}
	}
	if c != nil && e.Op == OpPath {
		mp, vk := c.memoPoints(e)
		e.setMemo(mp)
		if vk.Arg > 0 {
			e.Path.VarKey = vk // memo points exist, so e.Path does
		}
		c.prepareNodePath(e)
		for _, a := range e.Args[1:] {
			c.preparePathOperand(a)
		}
	}
	if c != nil && e.Op == OpCall {
		c.prepareNodeCall(e)
		if e.Builtin != nil && e.Builtin.fastArg && len(e.Args) > 0 {
			c.prepareFastKey(e.Args[0])
		}
	}
	if c != nil && e.Op == OpExtCall && e.Pure && closedExpr(e) && focusFree(e) {
		// custom:isSpecialContractBD(/rsm:CrossIndustryInvoice): one value
		// per document.
		c.fp = fingerprint(c.fp[:0], e)
		e.setMemo([]MemoPoint{{Slot: c.memoSlot(c.fp)}})
	}
}

// PathKillers returns name tests of a path that, if their name does not
// occur in the document, make the path empty without any evaluation that
// could raise an error: a named step (whatever its predicates: with no node
// to test, they are never evaluated) preceded only by steps that cannot
// fail on a node focus (predicate-free axis steps, ".", "/", unions of
// those). "not(cac:Delivery/cac:DeliveryParty/cbc:X)" on an invoice without
// cbc:X is then decided without walking anything.
func PathKillers(e *Expr) []*NodeTest {
	var out []*NodeTest
	for _, a := range e.Args {
		if a.Op == OpStep && namedTest(&a.Test) {
			out = append(out, &a.Test)
		}
		if !safeNodeExpr(a) {
			break
		}
	}
	return out
}

// safeNodeExpr reports whether e, evaluated with a node as the focus,
// always returns nodes of the focus's document and never raises an error.
func safeNodeExpr(e *Expr) bool {
	switch e.Op {
	case OpContext, OpRoot:
		return true
	case OpStep:
		return len(e.Preds) == 0
	case OpUnion:
		return safeNodeExpr(e.Args[0]) && safeNodeExpr(e.Args[1])
	case OpPath:
		for _, a := range e.Args {
			if !safeNodeExpr(a) {
				return false
			}
		}
		return true
	}
	return false
}

// catalogIDs resolves every name of the catalog against doc: ids[slot-1] is
// the document's NameID, or -1 when the name does not occur. Cost: one
// probe of the catalog's table per distinct name of the document, by the
// hash the parser gave the name (xmltree.Document.NameHash).
func (c *Catalog) resolve(doc *xmltree.Document, ids []xmltree.NameID) []xmltree.NameID {
	if cap(ids) < int(c.n) {
		ids = make([]xmltree.NameID, c.n)
	}
	ids = ids[:c.n]
	for i := range ids {
		ids[i] = -1
	}
	for id := xmltree.NameID(0); int(id) < doc.NameCount(); id++ {
		if s := c.lookup(doc.NameHash(id), doc.NameSpace(id), doc.NameLocal(id)); s > 0 {
			ids[s-1] = id
		}
	}
	return ids
}

// AbsenceVerdict reports names whose absence from a document decides the
// program's effective boolean value, evaluated with a node of that document
// as context: for not(P), empty(P) (value true) and exists(P) (value false),
// where P is a named step or a path with killers (PathKillers), the value
// is known as soon as one of names does not occur in the document, without
// evaluating anything (and nothing could have raised an error); likewise
// count(P) compared with an integer literal (count(P) <= 1). ok is false
// for other programs. The Schematron engine uses it to skip the ~600
// EN 16931 checks of the form not(cac:X/cbc:Y) on documents without cbc:Y.
func (p *Program) AbsenceVerdict() (names []xdm.QName, value, ok bool) {
	a, value, ok := p.absenceOperand()
	if !ok {
		return nil, false, false
	}
	switch {
	case a.Op == OpStep && namedTest(&a.Test):
		names = append(names, xdm.QName{Space: a.Test.Space, Local: a.Test.Local})
	case a.Op == OpPath && len(a.Kills()) > 0:
		for _, t := range a.Kills() {
			names = append(names, xdm.QName{Space: t.Space, Local: t.Local})
		}
	default:
		return nil, false, false
	}
	return names, value, true
}

// NameEdge is a parent-child pair of names: elements named Child (or
// attributes, when Attr) whose parent element is named Parent, or, when
// FromContext, whose parent is the context node (Parent is then empty).
type NameEdge struct {
	Parent, Child xdm.QName
	Attr          bool
	FromContext   bool
}

// AbsenceEdges is AbsenceVerdict's complement for a program that has one:
// parent-child pairs of its path whose absence from a document decides the
// program as the absence of a name does (with the same value), though both
// names occur: "not(cac:PaymentMeans/cbc:ID)" on an invoice whose cbc:ID
// elements are all elsewhere. They are the consecutive steps of the path's
// killer prefix (PathKillers) of which the first, free of predicates,
// selects elements by name and the second is a named child or attribute
// step; and, FromContext, the path's first step when it is a named child
// or attribute step of the context node (whatever its predicates:
// "count(ram:RateApplicablePercent) <= 1" on a ram:SpecifiedTradeAllowanceCharge,
// which has none; the caller knows the context's names).
func (p *Program) AbsenceEdges() []NameEdge {
	a, _, ok := p.absenceOperand()
	if !ok {
		return nil
	}
	var out []NameEdge
	first := a
	if a.Op == OpPath {
		first = a.Args[0]
	}
	if first.Op == OpStep && namedTest(&first.Test) && (first.Axis == AxisChild || first.Axis == AxisAttribute) {
		out = append(out, NameEdge{
			Child:       xdm.QName{Space: first.Test.Space, Local: first.Test.Local},
			Attr:        first.Axis == AxisAttribute,
			FromContext: true,
		})
	}
	if a.Op != OpPath {
		return out
	}
	for i := 0; i+1 < len(a.Args); i++ {
		s, c := a.Args[i], a.Args[i+1]
		if !safeNodeExpr(s) {
			break
		}
		if s.Op != OpStep || !namedTest(&s.Test) || s.Axis == AxisAttribute ||
			c.Op != OpStep || !namedTest(&c.Test) || (c.Axis != AxisChild && c.Axis != AxisAttribute) {
			continue
		}
		out = append(out, NameEdge{
			Parent: xdm.QName{Space: s.Test.Space, Local: s.Test.Local},
			Child:  xdm.QName{Space: c.Test.Space, Local: c.Test.Local},
			Attr:   c.Axis == AxisAttribute,
		})
	}
	return out
}

// absenceOperand returns the path of a program AbsenceVerdict may decide,
// and the program's value when that path is empty.
func (p *Program) absenceOperand() (a *Expr, value, ok bool) {
	e := p.root
	if e == nil {
		return nil, false, false
	}
	switch {
	case (e.Op == OpNot || e.Op == OpEmpty) && len(e.Args) == 1:
		value, a = true, e.Args[0]
	case e.Op == OpExists && len(e.Args) == 1:
		value, a = false, e.Args[0]
	case e.Op == OpGenCmp && e.Set == nil && len(e.Args) == 2 && e.Args[0].Op == OpCount &&
		e.Args[1].Op == OpConst && len(e.Args[1].Seq) == 1 && e.Args[1].Seq[0].T == xdm.TInteger:
		// count(P) <= 1 and the like: with P empty, count is 0.
		v, err := xdm.CompareGeneral(e.Cmp, xdm.Integer(0), e.Args[1].Seq[0])
		if err != nil {
			return nil, false, false
		}
		value, a = v, e.Args[0].Args[0]
	default:
		return nil, false, false
	}
	return a, value, true
}

// KeySlots returns the number of key slots (keyindex.go).
func (c *Catalog) KeySlots() int { return int(c.nKeys) }
