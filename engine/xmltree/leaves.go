package xmltree

import "slices"

// EmptyLeaves returns, in document order, the elements and attributes on
// which not(*) and not(normalize-space()) holds: the elements without an
// element child whose text children, if any, are all XML whitespace
// (comments and processing instructions do not count), and the attributes
// whose value is. The empty-element rules of the rule sets
// (//*[not(*) and not(normalize-space())]) fire on these nodes only, and
// most documents have none. Found on first use, by one pass over the
// nodes, and kept with the document (safe for concurrent use); the slice
// must not be modified.
func (d *Document) EmptyLeaves() []NodeID {
	d.leafOnce.Do(func() { d.leaves = emptyLeaves(d) })
	return d.leaves
}

// emptyLeaves walks the nodes from the last: a node's children follow it,
// so when the walk reaches an element, whether it has an element child is
// known, and only then are its text children read (a value decides at its
// first character; the indentation between elements is never read).
func emptyLeaves(d *Document) []NodeID {
	nodes := d.nodes
	parent := make([]bool, len(nodes)) // has an element child
	var out []NodeID
	for i := len(nodes) - 1; i > 0; i-- {
		nd := &nodes[i]
		switch nd.kind {
		case KindElement:
			if !parent[i] && d.blankText(NodeID(i)) {
				out = append(out, NodeID(i))
			}
			parent[nd.parent] = true
		case KindAttribute:
			if Blank(d.Value(NodeID(i))) {
				out = append(out, NodeID(i))
			}
		}
	}
	slices.Reverse(out)
	return out
}

// blankText reports whether the text children of n are all blank.
func (d *Document) blankText(n NodeID) bool {
	for c := d.nodes[n].first; c != None; c = d.nodes[c].next {
		if d.nodes[c].kind == KindText && !Blank(d.Value(c)) {
			return false
		}
	}
	return true
}

// Blank reports whether s is empty or XML whitespace only (space, tab,
// carriage return, line feed): normalize-space(s) is then "".
func Blank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}
