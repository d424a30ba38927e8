package xmltree

import "testing"

// checkInvariants verifies the structural contract of a parsed document:
// ids in document order, attributes contiguous after their element, parent,
// sibling and subtree links consistent.
func checkInvariants(t testing.TB, d *Document) {
	t.Helper()
	if d.Len() < 2 || d.Kind(0) != KindDocument || d.Parent(0) != None {
		t.Fatalf("bad document node: len=%d kind=%v parent=%d", d.Len(), d.Kind(0), d.Parent(0))
	}
	if d.SubtreeEnd(0) != NodeID(d.Len()) {
		t.Fatalf("SubtreeEnd(0)=%d, Len=%d", d.SubtreeEnd(0), d.Len())
	}
	roots := 0
	for n := NodeID(1); n < NodeID(d.Len()); n++ {
		p := d.Parent(n)
		if p < 0 || p >= n {
			t.Fatalf("node %d: parent %d not before it", n, p)
		}
		if n >= d.SubtreeEnd(p) {
			t.Fatalf("node %d outside its parent's subtree [%d,%d)", n, p, d.SubtreeEnd(p))
		}
		if d.Line(n) < d.Line(p) {
			t.Fatalf("node %d: line %d before parent's line %d", n, d.Line(n), d.Line(p))
		}
		switch d.Kind(n) {
		case KindAttribute:
			first, count := d.Attrs(p)
			if n < first || n >= first+NodeID(count) {
				t.Fatalf("attribute %d not in its element's range", n)
			}
			if d.NextSibling(n) != None || d.PrevSibling(n) != None {
				t.Fatalf("attribute %d has siblings", n)
			}
			continue
		case KindElement:
			if p == 0 {
				roots++
			}
			first, count := d.Attrs(n)
			if first != n+1 {
				t.Fatalf("element %d: attributes start at %d", n, first)
			}
			for a := first; a < first+NodeID(count); a++ {
				if d.Kind(a) != KindAttribute || d.Parent(a) != n {
					t.Fatalf("element %d: id %d is not its attribute", n, a)
				}
			}
			if c := d.FirstChild(n); c != None && c != first+NodeID(count) {
				t.Fatalf("element %d: first child %d, want %d", n, c, first+NodeID(count))
			}
			if d.Name(n) < 0 || int(d.Name(n)) >= d.NameCount() {
				t.Fatalf("element %d: bad name %d", n, d.Name(n))
			}
		case KindText:
			if d.Value(n) == "" {
				t.Fatalf("empty text node %d", n)
			}
			if s := d.NextSibling(n); s != None && d.Kind(s) == KindText {
				t.Fatalf("adjacent text nodes %d and %d", n, s)
			}
			if p == 0 {
				t.Fatalf("text node %d at document level", n)
			}
		}
		if s := d.NextSibling(n); s != None {
			if s != d.SubtreeEnd(n) || d.PrevSibling(s) != n || d.Parent(s) != p {
				t.Fatalf("node %d: next sibling %d inconsistent (subtree end %d)", n, s, d.SubtreeEnd(n))
			}
		} else if d.LastChild(p) != n {
			t.Fatalf("node %d has no next sibling but is not the last child of %d", n, p)
		}
		if d.PrevSibling(n) == None && d.FirstChild(p) != n {
			t.Fatalf("node %d has no previous sibling but is not the first child of %d", n, p)
		}
		if d.Kind(n) == KindElement {
			// nextEl: the next sibling that is an element.
			want := d.NextSibling(n)
			for want != None && d.Kind(want) != KindElement {
				want = d.NextSibling(want)
			}
			if got := d.nodes[n].nextEl; got != want {
				t.Fatalf("element %d: next element sibling %d, want %d", n, got, want)
			}
		}
	}
	if roots != 1 {
		t.Fatalf("%d root elements", roots)
	}
}
