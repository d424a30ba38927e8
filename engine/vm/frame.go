package vm

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// focus is the XPath focus: context item, position and size (1-based).
type focus struct {
	item      xdm.Item
	pos, size int
	undefined bool
}

func focusNode(n xmltree.NodeID) focus {
	return focus{item: xdm.NodeItem(int32(n)), pos: 1, size: 1}
}

// frame holds the scratch state of one evaluation.
type frame struct {
	env    *Env
	doc    *xmltree.Document // the document of the focus node
	docIdx uint16            // its index (0: env.Doc; k: the k-th document of the Functions)
	ctx    context.Context
	prog   *Program
	busy   bool
	steps  int
	// fast is the state of the tests and predicates evaluated without a
	// frame (fast.go); noFast: none is (Env.noFast).
	fast   fastEnv
	noFast bool

	arena  []xdm.Item   // append-only per evaluation; results are sub-slices
	bufs   [][]xdm.Item // scratch buffers by nesting depth
	depth  int
	locals []xdm.Sequence
	args   []xdm.Sequence
	cse    []cseEntry // shared subexpression values of this evaluation (cse.go)
	cseIn  *Expr      // the shared subexpression evalShared is evaluating itself
	// cseUsed: some entry of cse holds values since the last release.
	cseUsed bool

	// names caches name tests resolved against a document (tests are owned
	// by immutable programs, so their addresses are stable keys).
	names    map[nameKey]resolvedName
	nameDoc  *xmltree.Document // document of the env the cache was filled for
	lastKey  nameKey
	lastName resolvedName

	// catIDs resolves the slots of catalog cat against catDoc (see
	// Catalog.resolve).
	cat    *Catalog
	catDoc *xmltree.Document
	catIDs []xmltree.NameID
	// catReady: catIDs resolve the current program's catalog against the
	// Env's document (set by acquire and matcherSlow).
	catReady bool

	// Memoised absolute paths of memoDoc (see memo.go), by memo slot.
	memoDoc *xmltree.Document
	memoCat *Catalog
	memo    []xdm.Sequence
	memoSet []bool
	// memoMiss[s]: a frame-free walk or index build for memo slot s
	// gave up in this document (fastmemo.go): not tried again there.
	memoMiss  []bool
	memoArena []xdm.Item
	// ixArena and posArena hold memoDoc's key and step indexes and their
	// positions (newKeyIndex, posInts), reused like memoArena.
	ixArena  []keyIndex
	posArena []int32
	// strs is string-join's scratch list of parts.
	strs []string
	// usedMaps are the maps of memoDoc's key and step indexes, spareMaps
	// cleared ones for the next document (indexMap).
	usedMaps, spareMaps []map[string][]int32
	// kps holds the (key, position) pairs of the indexes being built
	// (posAdd), a stack: an index built while another is (a key that
	// evaluates a keyed path) takes the pairs after the other's.
	kps       []keyPos
	memoItems int
	// keyIdx: the indexes of keyed memo points for memoDoc, by key slot
	// (keyindex.go).
	keyIdx []*keyIndex
	// stepIdx: the step indexes of stepIdxDoc (stepindex.go).
	stepIdxDoc *xmltree.Document
	stepIdx    map[stepIndexKey]*keyIndex
	// shared: the step indexes built for memoDoc, by class (stepindex.go).
	shared     []sharedIndex
	stepBuilds int

	// Memoised predicate values and relative path values of predDoc
	// (predmemo.go); path values are copies in nodeArena.
	predDoc   *xmltree.Document
	predCat   *Catalog
	predMemo  memoTable[bool]
	nodeMemo  memoTable[xdm.Sequence]
	nodeArena []xdm.Item
	nodeItems int

	// valIdx holds the value indexes of steps over registered documents
	// (valueindex.go); they stay valid as long as those documents do.
	valIdx map[valueIndexKey]*keyIndex
	// scalar: the registers of the for-expressions run as closures
	// (scalar.go), made on first use.
	scalar *ScalarEnv
	// forMemo: the values of scalar for-bodies for the small integers
	// their variable took (evalFor).
	forMemo map[*Expr]*forMemoTab
}

type nameKey struct {
	t *NodeTest
	d *xmltree.Document
}

// docAt returns the document of a node item's Doc index.
func (f *frame) docAt(i uint16) *xmltree.Document {
	if i == 0 {
		return f.env.Doc
	}
	if fs := f.prog.fns; fs != nil && int(i) <= len(fs.docs) {
		return fs.docs[i-1]
	}
	return f.env.Doc
}

// docOf returns the document a node item belongs to.
func (f *frame) docOf(it xdm.Item) *xmltree.Document {
	if it.Doc == f.docIdx {
		return f.doc
	}
	return f.docAt(it.Doc)
}

// enter makes the document of item it current (for a new focus) and
// returns what to restore afterwards.
func (f *frame) enter(it xdm.Item) (prev *xmltree.Document, prevIdx uint16) {
	prev, prevIdx = f.doc, f.docIdx
	if it.T == xdm.TNode && it.Doc != f.docIdx {
		f.doc, f.docIdx = f.docAt(it.Doc), it.Doc
	}
	return prev, prevIdx
}

// node returns a node item of the current document.
func (f *frame) node(n xmltree.NodeID) xdm.Item {
	return xdm.Item{T: xdm.TNode, Doc: f.docIdx, Node: int32(n)}
}

const checkEvery = 1024

// tick counts a step and checks the context every checkEvery steps
// (inlined; the check is a call).
func (f *frame) tick() error {
	f.steps++
	if f.steps&(checkEvery-1) == 0 {
		return f.cancelled()
	}
	return nil
}

// cancelled returns the error of a cancelled evaluation, or nil.
func (f *frame) cancelled() error {
	if err := f.ctx.Err(); err != nil {
		return &xdm.Error{Code: xdm.ErrCancelled, Msg: "evaluation stopped: " + err.Error()}
	}
	return nil
}

// alloc returns a fresh n-item slice from the arena.
func (f *frame) alloc(n int) xdm.Sequence {
	l := len(f.arena)
	if l+n > cap(f.arena) {
		c := max(2*cap(f.arena), n, 256)
		f.arena = make([]xdm.Item, 0, c)
		l = 0
	}
	f.arena = f.arena[:l+n]
	return f.arena[l : l+n : l+n]
}

func (f *frame) one(it xdm.Item) xdm.Sequence {
	s := f.alloc(1)
	s[0] = it
	return s
}

// buf returns an empty scratch buffer for the current depth.
func (f *frame) buf() []xdm.Item {
	if f.depth == len(f.bufs) {
		f.bufs = append(f.bufs, make([]xdm.Item, 0, 16))
	}
	b := f.bufs[f.depth][:0] // may be nil after keep dropped a huge buffer
	f.depth++
	return b
}

// done copies a scratch buffer into the arena and releases it.
func (f *frame) done(b []xdm.Item) xdm.Sequence {
	f.depth--
	f.keep(b)
	if len(b) == 0 {
		return nil
	}
	out := f.alloc(len(b))
	copy(out, b)
	return out
}

// drop releases a scratch buffer without keeping its content.
func (f *frame) drop(b []xdm.Item) {
	f.depth--
	f.keep(b)
}

// keep hands scratch buffer b back for its depth, unless it grew beyond
// maxKeptItems (one huge evaluation does not pin its memory).
func (f *frame) keep(b []xdm.Item) {
	if cap(b) > maxKeptItems {
		b = nil
	}
	f.bufs[f.depth] = b[:0]
}

var (
	itemTrue  = xdm.Bool(true)
	itemFalse = xdm.Bool(false)
)

func (f *frame) boolSeq(b bool) xdm.Sequence {
	if b {
		return f.one(itemTrue)
	}
	return f.one(itemFalse)
}

// itemString returns the string value of any item.
func (f *frame) itemString(it xdm.Item) string {
	if it.T == xdm.TNode {
		return f.docOf(it).StringValue(xmltree.NodeID(it.Node))
	}
	return it.StringValue()
}

// atom atomizes one item (inlined: atomic items, most operands of a
// comparison, are returned as they are without a call).
func (f *frame) atom(it xdm.Item) xdm.Item {
	if it.T != xdm.TNode {
		return it
	}
	return f.atomNode(it)
}

// atomNode atomizes a node item: its string value as xs:untypedAtomic.
func (f *frame) atomNode(it xdm.Item) xdm.Item {
	return xdm.Untyped(f.docOf(it).StringValue(xmltree.NodeID(it.Node)))
}

// allAtomic reports whether s holds no node.
func allAtomic(s xdm.Sequence) bool {
	for _, it := range s {
		if it.T == xdm.TNode {
			return false
		}
	}
	return true
}

// atomize atomizes a sequence (in the arena when it contains nodes).
func (f *frame) atomize(s xdm.Sequence) xdm.Sequence {
	if allAtomic(s) {
		return s
	}
	out := f.alloc(len(s))
	for i, it := range s {
		out[i] = f.atom(it)
	}
	return out
}

// single atomizes a sequence that must have at most one item; ok=false for
// the empty sequence.
func (f *frame) single(s xdm.Sequence, what string) (xdm.Item, bool, error) {
	switch len(s) {
	case 0:
		return xdm.Item{}, false, nil
	case 1:
		return f.atom(s[0]), true, nil
	}
	return xdm.Item{}, false, xdm.Errorf(xdm.ErrType, "%s: a sequence of %d items where at most one is allowed", what, len(s))
}

// ebv returns the effective boolean value of a sequence.
func (f *frame) ebv(s xdm.Sequence) (bool, error) { return seqEBV(s) }

// seqEBV returns the effective boolean value of a sequence.
func seqEBV(s xdm.Sequence) (bool, error) {
	if len(s) == 0 {
		return false, nil
	}
	if s[0].T == xdm.TNode {
		return true, nil
	}
	if len(s) > 1 {
		return false, xdm.Errorf(xdm.ErrEBV, "effective boolean value of a sequence of %d atomic values", len(s))
	}
	return xdm.EBVAtomic(s[0])
}

// newFrame returns an empty frame whose fastEnv knows it.
func newFrame() *frame {
	f := &frame{}
	f.fast.fr = f
	return f
}
