package xmltree

import (
	"strings"
	"sync"
)

// NodeID identifies a node of one Document. Ids are in document order: 0 is the
// document node, an element's attributes are the ids right after it, then its
// children, so document order is id order.
type NodeID int32

// None is the NodeID of a missing node (the parent of the document node, the
// first child of a leaf, ...).
const None NodeID = -1

// Kind is the kind of a node.
type Kind uint8

// Node kinds.
const (
	KindDocument Kind = iota
	KindElement
	KindAttribute
	KindText
	KindComment
	KindPI
)

var kindNames = [...]string{"document", "element", "attribute", "text", "comment", "processing-instruction"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// NameID is an interned expanded name (namespace URI + local name), valid
// within one Document.
type NameID int32

// inBuf marks a value stored in Document.buf instead of Document.src.
const inBuf = 1 << 31

// node is one entry of the arena. For elements and the document node, off is
// the subtree end (first id after the last descendant) and n the number of
// attributes; for other kinds off/n locate the value.
type node struct {
	parent, first, last, next, prev NodeID
	// nextEl: for an element, its next sibling that is an element
	// (nextNamed skips the text between them).
	nextEl NodeID
	name   NameID
	raw    int32 // index into Document.raws (prefix as written); -1 if none
	off, n uint32
	line   int32
	kind   Kind
}

type qname struct {
	space, local string
	h            uint64 // NameHash(space, local)
}

// Document is an immutable parsed XML document. All methods are safe for
// concurrent use. Methods taking a NodeID panic on ids outside [0, Len()).
type Document struct {
	src    string // the input, decoded to UTF-8, BOM removed
	buf    string // values that needed expansion or normalisation
	nodes  []node
	names  []qname
	nameIx []int32 // open-addressing index into names (index+1; 0 = empty)
	raws   []rawName

	// postings is the name index (see index.go), built on first use.
	postOnce sync.Once
	post     *postings

	// leaves are the empty leaves (see leaves.go), found on first use.
	leafOnce sync.Once
	leaves   []NodeID
}

// Len returns the number of nodes, the document node included.
func (d *Document) Len() int { return len(d.nodes) }

// Kind returns the kind of n.
func (d *Document) Kind(n NodeID) Kind { return d.nodes[n].kind }

// Parent returns the parent of n (for an attribute, its element); None for the
// document node.
func (d *Document) Parent(n NodeID) NodeID { return d.nodes[n].parent }

// FirstChild returns the first child of n (elements, text, comments, PIs; never
// attributes), or None.
func (d *Document) FirstChild(n NodeID) NodeID { return d.nodes[n].first }

// LastChild returns the last child of n, or None.
func (d *Document) LastChild(n NodeID) NodeID { return d.nodes[n].last }

// NextSibling returns the next sibling of n, or None. Attributes have no
// siblings.
func (d *Document) NextSibling(n NodeID) NodeID { return d.nodes[n].next }

// FirstChildNamed returns the first element child of n with the expanded
// name id, or None.
func (d *Document) FirstChildNamed(n NodeID, id NameID) NodeID {
	nodes := d.nodes
	return nextNamed(nodes, nodes[n].first, id)
}

// NextSiblingNamed returns the next element sibling of c with the expanded
// name id, or None.
func (d *Document) NextSiblingNamed(c NodeID, id NameID) NodeID {
	nodes := d.nodes
	if nd := &nodes[c]; nd.kind == KindElement {
		return nextNamedEl(nodes, nd.nextEl, id)
	}
	return nextNamed(nodes, nodes[c].next, id)
}

// FirstChildElement returns the first element child of n, or None.
func (d *Document) FirstChildElement(n NodeID) NodeID {
	nodes := d.nodes
	c := nodes[n].first
	for c != None && nodes[c].kind != KindElement {
		c = nodes[c].next
	}
	return c
}

// NextSiblingElement returns the next element sibling of the element c, or
// None.
func (d *Document) NextSiblingElement(c NodeID) NodeID { return d.nodes[c].nextEl }

// nextNamed returns c or the first of its following siblings that is an
// element named id, or None: the loop of a named child step, with the
// siblings read from one slice.
func nextNamed(nodes []node, c NodeID, id NameID) NodeID {
	for c != None && nodes[c].kind != KindElement {
		c = nodes[c].next
	}
	return nextNamedEl(nodes, c, id)
}

// nextNamedEl is nextNamed from c, an element or None, along the element
// siblings alone (node.nextEl).
func nextNamedEl(nodes []node, c NodeID, id NameID) NodeID {
	for c != None {
		nd := &nodes[c]
		if nd.name == id {
			return c
		}
		c = nd.nextEl
	}
	return None
}

// PrevSibling returns the previous sibling of n, or None.
func (d *Document) PrevSibling(n NodeID) NodeID { return d.nodes[n].prev }

// Attrs returns the attributes of n as a contiguous id range. count is 0 for
// nodes that are not elements. Namespace declarations are not attributes.
func (d *Document) Attrs(n NodeID) (first NodeID, count int) {
	nd := &d.nodes[n]
	if nd.kind != KindElement {
		return n + 1, 0
	}
	return n + 1, int(nd.n)
}

// SubtreeEnd returns the first id after the last descendant of n (n+1 for
// nodes without descendants). The ids in (n, SubtreeEnd(n)) are n's attributes
// and descendants, in document order.
func (d *Document) SubtreeEnd(n NodeID) NodeID {
	nd := &d.nodes[n]
	if nd.kind == KindElement || nd.kind == KindDocument {
		return NodeID(nd.off)
	}
	return n + 1
}

// Name returns the expanded name of an element or attribute, or the target of
// a processing instruction (no namespace); -1 for other kinds.
func (d *Document) Name(n NodeID) NameID { return d.nodes[n].name }

// NameSpace returns the namespace URI of a name ("" for no namespace).
func (d *Document) NameSpace(id NameID) string { return d.names[id].space }

// NameLocal returns the local part of a name.
func (d *Document) NameLocal(id NameID) string { return d.names[id].local }

// NameHash returns the hash of name id: NameHash of its namespace and
// local part, computed once when the document was parsed.
func (d *Document) NameHash(id NameID) uint64 { return d.names[id].h }

// NameCount returns the number of interned names; valid NameIDs are
// [0, NameCount()).
func (d *Document) NameCount() int { return len(d.names) }

// Prefix returns the namespace prefix of an element or attribute as written
// ("" if none), for fn:name.
func (d *Document) Prefix(n NodeID) string {
	r := d.nodes[n].raw
	if r < 0 {
		return ""
	}
	rn := &d.raws[r]
	if rn.colon < 0 {
		return ""
	}
	return rn.s[:rn.colon]
}

// QualifiedName returns the name of an element or attribute as written
// ("cbc:ID"), the target of a PI, or "" for other kinds.
func (d *Document) QualifiedName(n NodeID) string {
	r := d.nodes[n].raw
	if r < 0 {
		return ""
	}
	return d.raws[r].s
}

// QualifiedNameID returns the index of the name of n as written (one index
// per distinct spelling, e.g. "cbc:ID", in [0, QualifiedNameCount())), or -1
// for nodes without a name. Equal indexes mean equal QualifiedName (and so
// equal fn:name and fn:local-name), not equal expanded names.
func (d *Document) QualifiedNameID(n NodeID) int32 { return d.nodes[n].raw }

// QualifiedNameCount returns the number of distinct qualified names.
func (d *Document) QualifiedNameCount() int { return len(d.raws) }

// LookupName returns the id of the expanded name {space}local if it occurs in
// the document. Names that do not occur cannot match any node.
func (d *Document) LookupName(space, local string) (NameID, bool) {
	if len(d.nameIx) == 0 {
		return -1, false
	}
	mask := uint64(len(d.nameIx) - 1)
	for i := NameHash(space, local) & mask; ; i = (i + 1) & mask {
		e := d.nameIx[i]
		if e == 0 {
			return -1, false
		}
		q := &d.names[e-1]
		if q.local == local && q.space == space {
			return NameID(e - 1), true
		}
	}
}

// Value returns the content of a text, attribute, comment or PI node ("" for
// elements and the document node). It never allocates.
func (d *Document) Value(n NodeID) string {
	nd := &d.nodes[n]
	switch nd.kind {
	case KindElement, KindDocument:
		return ""
	}
	if nd.n&inBuf != 0 {
		return d.buf[nd.off : nd.off+nd.n&^inBuf]
	}
	return d.src[nd.off : nd.off+nd.n]
}

// StringValue returns the XPath string value of n: Value for leaves, the
// concatenation of all descendant text nodes for elements and the document
// node. It does not allocate when at most one descendant is a text node.
func (d *Document) StringValue(n NodeID) string {
	nd := &d.nodes[n]
	if nd.kind != KindElement && nd.kind != KindDocument {
		return d.Value(n)
	}
	// Fast path: a single text child and nothing else.
	if f := nd.first; f != None && f == nd.last && d.nodes[f].kind == KindText {
		return d.Value(f)
	}
	end := NodeID(nd.off)
	one := None
	count := 0
	size := 0
	for i := n + 1; i < end; i++ {
		if d.nodes[i].kind == KindText {
			if count == 0 {
				one = i
			}
			count++
			size += int(d.nodes[i].n &^ inBuf)
		}
	}
	switch count {
	case 0:
		return ""
	case 1:
		return d.Value(one)
	}
	var b strings.Builder
	b.Grow(size)
	for i := one; i < end; i++ {
		if d.nodes[i].kind == KindText {
			b.WriteString(d.Value(i))
		}
	}
	return b.String()
}

// Line returns the 1-based line where n starts (for the document node, 1).
func (d *Document) Line(n NodeID) int { return int(d.nodes[n].line) }

// Root returns the document element.
func (d *Document) Root() NodeID {
	for c := d.nodes[0].first; c != None; c = d.nodes[c].next {
		if d.nodes[c].kind == KindElement {
			return c
		}
	}
	return None // unreachable for a parsed document
}

// Attr returns the attribute of element n with the given name, or None.
func (d *Document) Attr(n NodeID, name NameID) NodeID {
	first, count := d.Attrs(n)
	for i := first; i < first+NodeID(count); i++ {
		if d.nodes[i].name == name {
			return i
		}
	}
	return None
}
