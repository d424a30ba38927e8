package xmlio

import (
	"iter"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Tracker records which elements and attributes of a Document a reader
// consumed. The zero value is not usable; use NewTracker. A Tracker is not
// safe for concurrent use; the Document it reads is.
type Tracker struct {
	doc    *xmltree.Document
	marked []uint64 // bit per NodeID
}

// NewTracker returns a Tracker over doc with nothing consumed.
func NewTracker(doc *xmltree.Document) *Tracker {
	return &Tracker{doc: doc, marked: make([]uint64, (doc.Len()+63)/64)}
}

// Doc returns the tracked document.
func (t *Tracker) Doc() *xmltree.Document { return t.doc }

// Mark records n (an element or attribute) as consumed. Marking None is a
// no-op, so the result of a failed lookup can be passed directly.
func (t *Tracker) Mark(n xmltree.NodeID) {
	if n < 0 {
		return
	}
	t.marked[n>>6] |= 1 << (uint(n) & 63)
}

// Unmark withdraws a mark of n (a reader that marked a node and then
// found it cannot carry it). Unmarking None is a no-op.
func (t *Tracker) Unmark(n xmltree.NodeID) {
	if n < 0 {
		return
	}
	t.marked[n>>6] &^= 1 << (uint(n) & 63)
}

// MarkSubtree records n, its attributes and all its descendants as consumed.
func (t *Tracker) MarkSubtree(n xmltree.NodeID) {
	if n < 0 {
		return
	}
	for i := n; i < t.doc.SubtreeEnd(n); i++ {
		t.Mark(i)
	}
}

// Marked reports whether n was marked.
func (t *Tracker) Marked(n xmltree.NodeID) bool {
	return n >= 0 && t.marked[n>>6]&(1<<(uint(n)&63)) != 0
}

// Is reports whether n is an element with the expanded name {space}local.
func (t *Tracker) Is(n xmltree.NodeID, space, local string) bool {
	d := t.doc
	if n < 0 || d.Kind(n) != xmltree.KindElement {
		return false
	}
	id := d.Name(n)
	return d.NameLocal(id) == local && d.NameSpace(id) == space
}

// Children yields the child elements of parent named {space}local, in
// document order, without marking them.
func (t *Tracker) Children(parent xmltree.NodeID, space, local string) iter.Seq[xmltree.NodeID] {
	return func(yield func(xmltree.NodeID) bool) {
		if parent < 0 {
			return
		}
		d := t.doc
		name, ok := d.LookupName(space, local)
		if !ok {
			return
		}
		for c := d.FirstChild(parent); c != xmltree.None; c = d.NextSibling(c) {
			if d.Kind(c) == xmltree.KindElement && d.Name(c) == name {
				if !yield(c) {
					return
				}
			}
		}
	}
}

// Child returns the first child element of parent named {space}local, or
// None, without marking it.
func (t *Tracker) Child(parent xmltree.NodeID, space, local string) xmltree.NodeID {
	for c := range t.Children(parent, space, local) {
		return c
	}
	return xmltree.None
}

// Text marks element n and returns its string value with surrounding
// whitespace trimmed; "" for None.
func (t *Tracker) Text(n xmltree.NodeID) string {
	if n < 0 {
		return ""
	}
	t.Mark(n)
	return strings.TrimSpace(t.doc.StringValue(n))
}

// Attr marks the attribute {space}local of element n, if present, and
// returns its value with surrounding whitespace trimmed.
func (t *Tracker) Attr(n xmltree.NodeID, space, local string) (string, bool) {
	if n < 0 {
		return "", false
	}
	name, ok := t.doc.LookupName(space, local)
	if !ok {
		return "", false
	}
	a := t.doc.Attr(n, name)
	if a == xmltree.None {
		return "", false
	}
	t.Mark(a)
	return strings.TrimSpace(t.doc.Value(a)), true
}

// Unconsumed lists, in document order, every element and attribute that was
// not marked, descendants of unmarked elements included.
func (t *Tracker) Unconsumed() []xmltree.NodeID {
	return t.unconsumed(false)
}

// UnconsumedRoots lists the unmarked elements and attributes whose element
// ancestors are all marked: the topmost nodes a reader did not carry (their
// unmarked descendants are implied).
func (t *Tracker) UnconsumedRoots() []xmltree.NodeID {
	return t.unconsumed(true)
}

func (t *Tracker) unconsumed(rootsOnly bool) []xmltree.NodeID {
	var out []xmltree.NodeID
	d := t.doc
	end := xmltree.NodeID(d.Len())
	for n := xmltree.NodeID(1); n < end; n++ {
		k := d.Kind(n)
		if k != xmltree.KindElement && k != xmltree.KindAttribute {
			continue
		}
		if t.Marked(n) {
			continue
		}
		out = append(out, n)
		if rootsOnly && k == xmltree.KindElement {
			n = d.SubtreeEnd(n) - 1
		}
	}
	return out
}

// Node locates one node a reader did not consume.
type Node struct {
	// Path is the location in the reference Schematron form,
	// "/Invoice[1]/InvoiceLine[2]/Price[1]/@currencyID".
	Path string `json:"path"`
	// Line is the 1-based source line.
	Line int `json:"line"`
	// BT is the business term or group the node belongs to ("BT-146",
	// "BG-29"), or "" if it belongs to none the reader knows.
	BT string `json:"bt,omitempty"`
}

// Report turns the unconsumed roots into Nodes; bt (may be nil) names the
// business term each belongs to.
func (t *Tracker) Report(bt func(xmltree.NodeID) string) []Node {
	ids := t.UnconsumedRoots()
	if len(ids) == 0 {
		return nil
	}
	out := make([]Node, len(ids))
	for i, n := range ids {
		out[i] = Node{Path: t.doc.Path(n), Line: t.doc.Line(n)}
		if bt != nil {
			out[i].BT = bt(n)
		}
	}
	return out
}
