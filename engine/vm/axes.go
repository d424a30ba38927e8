package vm

import (
	"slices"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// resolvedName caches a name test's NameID in the current document.
type resolvedName struct {
	id    xmltree.NameID
	found bool
}

// matcher is a node test resolved against the current document.
type matcher struct {
	t     *NodeTest
	attr  bool // principal node kind is attribute
	name  xmltree.NameID
	never bool // the name does not occur in the document
}

func (f *frame) matcher(t *NodeTest, axis Axis) matcher {
	if t.Slot > 0 && f.docIdx == 0 && f.catReady {
		// Catalogued name in the validated document, its catalog resolved
		// for it (acquire): a slice index.
		name := f.catIDs[t.Slot-1]
		return matcher{t: t, attr: axis.attributes(), name: name, never: name < 0}
	}
	return f.matcherSlow(t, axis)
}

// nameAbsent reports whether the element name of test t does not occur in
// the current document (a path killer; inlined for a catalogued name).
func (f *frame) nameAbsent(t *NodeTest) bool {
	if t.Slot > 0 && f.docIdx == 0 && f.catReady {
		return f.catIDs[t.Slot-1] < 0
	}
	return f.matcherSlow(t, AxisChild).never
}

// matcherSlow is matcher when the catalog is not resolved for the
// document yet, or for a name outside it.
func (f *frame) matcherSlow(t *NodeTest, axis Axis) matcher {
	m := matcher{t: t, attr: axis.attributes()}
	if t.Slot > 0 && f.docIdx == 0 && f.prog.cat != nil {
		// Catalogued name in the validated document: a slice index.
		f.resolveCatalog(f.prog.cat, f.env.Doc)
		f.catReady = true
		m.name = f.catIDs[t.Slot-1]
		m.never = m.name < 0
		return m
	}
	named := namedTest(t)
	if named {
		if f.nameDoc != f.env.Doc {
			// A new document for this Env: resolutions against older
			// documents may refer to freed memory; drop them all.
			clear(f.names)
			f.nameDoc = f.env.Doc
			f.lastKey = nameKey{}
		}
		k := nameKey{t, f.doc}
		if f.lastKey == k { // one-entry cache: steps repeat in loops
			m.name, m.never = f.lastName.id, !f.lastName.found
			return m
		}
		r, ok := f.names[k]
		if !ok {
			id, found := f.doc.LookupName(t.Space, t.Local)
			r = resolvedName{id: id, found: found}
			if f.names == nil {
				f.names = make(map[nameKey]resolvedName)
			}
			f.names[k] = r
		}
		f.lastKey, f.lastName = k, r
		m.name, m.never = r.id, !r.found
	}
	return m
}

// childIndexMax is the largest number of same-named elements below a node
// for which a named child step tests their parents (through the name index)
// rather than walking the children.
const childIndexMax = 16

// childWalkMax is the subtree size (in nodes: elements, attributes, text)
// up to which a named child step walks the children instead of asking the
// name index.
const childWalkMax = 64

// named reports whether the test selects the principal node kind with one
// expanded name (QName, element(N), attribute(N)), so the document's name
// index can answer it.
func (m *matcher) named() bool {
	switch m.t.Kind {
	case TestName:
		return true
	case TestElement:
		return m.t.Named && !m.attr
	case TestAttribute:
		return m.t.Named && m.attr
	}
	return false
}

func (f *frame) matches(m *matcher, n xmltree.NodeID) bool {
	d := f.doc
	k := d.Kind(n)
	switch m.t.Kind {
	case TestNode:
		return true
	case TestName:
		want := xmltree.KindElement
		if m.attr {
			want = xmltree.KindAttribute
		}
		return k == want && d.Name(n) == m.name
	case TestAnyName:
		return (m.attr && k == xmltree.KindAttribute) || (!m.attr && k == xmltree.KindElement)
	case TestSpace, TestLocal:
		if (m.attr && k != xmltree.KindAttribute) || (!m.attr && k != xmltree.KindElement) {
			return false
		}
		id := d.Name(n)
		if m.t.Kind == TestSpace {
			return d.NameSpace(id) == m.t.Space
		}
		return d.NameLocal(id) == m.t.Local
	case TestText:
		return k == xmltree.KindText
	case TestComment:
		return k == xmltree.KindComment
	case TestPI:
		return k == xmltree.KindPI && (!m.t.Named || d.NameLocal(d.Name(n)) == m.t.Local)
	case TestElement:
		return k == xmltree.KindElement && (!m.t.Named || d.Name(n) == m.name)
	case TestAttribute:
		return k == xmltree.KindAttribute && (!m.t.Named || d.Name(n) == m.name)
	case TestDocument:
		return k == xmltree.KindDocument
	}
	return false
}

// kindMatches tests a node against a kind test outside any axis.
func (f *frame) kindMatches(n xmltree.NodeID, t *NodeTest) bool {
	m := f.matcher(t, AxisChild)
	if m.never {
		return false
	}
	return f.matches(&m, n)
}

// axis appends the nodes of axis from n that pass the test, in axis order.
// stop, when non-nil, ends the walk early when it returns true.
func (f *frame) axis(axis Axis, t *NodeTest, n xmltree.NodeID, out []xdm.Item, first bool) ([]xdm.Item, error) {
	m := f.matcher(t, axis)
	return f.axisWith(&m, axis, n, out, first)
}

// axisWith is axis with the node test already resolved against f.doc.
func (f *frame) axisWith(m *matcher, axis Axis, n xmltree.NodeID, out []xdm.Item, first bool) ([]xdm.Item, error) {
	if m.never {
		return out, nil
	}
	d := f.doc
	add := func(c xmltree.NodeID) bool {
		if f.matches(m, c) {
			out = append(out, f.node(c))
			return first
		}
		return false
	}
	switch axis {
	case AxisChild:
		if m.named() && d.SubtreeEnd(n)-n <= childWalkMax {
			// A small subtree (a line's party, item, price): its children
			// are compared by name id, cheaper than the index's two
			// binary searches.
			var c, second xmltree.NodeID
			if f.docIdx == 0 {
				c, second = f.fast.kids.children(d, n, m.name) // (the Env's document only: see childCache)
			} else {
				c, second = firstTwoNamed(d, n, m.name)
			}
			for head := c; c != xmltree.None; c = nextNamed(d, c, head, second, m.name) {
				out = append(out, f.node(c))
				if first {
					break
				}
			}
			break
		}
		if m.named() {
			// Few elements of this name below n (the usual case for the
			// UBL/CII structure): test their parents instead of walking all
			// children, text nodes included.
			if in := d.NamedIn(n, m.name, false); len(in) <= childIndexMax {
				for _, c := range in {
					if d.Parent(c) == n {
						out = append(out, f.node(c))
						if first {
							break
						}
					}
				}
				break
			}
		}
		for c := d.FirstChild(n); c != xmltree.None; c = d.NextSibling(c) {
			if err := f.tick(); err != nil {
				return out, err
			}
			if add(c) {
				break
			}
		}
	case AxisAttribute:
		a, cnt := d.Attrs(n)
		for i := 0; i < cnt; i++ {
			if add(a + xmltree.NodeID(i)) {
				break
			}
		}
	case AxisSelf:
		add(n)
	case AxisParent:
		if p := d.Parent(n); p != xmltree.None {
			add(p)
		}
	case AxisDescendantOrSelf, AxisDescendant:
		if axis == AxisDescendantOrSelf && add(n) {
			break
		}
		if m.named() {
			// The document's name index: the named elements inside n's
			// subtree are one slice, whatever the size of the subtree.
			for _, c := range d.NamedIn(n, m.name, false) {
				out = append(out, f.node(c))
				if first {
					break
				}
			}
			break
		}
		end := d.SubtreeEnd(n)
		for c := n + 1; c < end; c++ {
			if err := f.tick(); err != nil {
				return out, err
			}
			if d.Kind(c) == xmltree.KindAttribute {
				continue
			}
			if add(c) {
				break
			}
		}
	case AxisAncestor, AxisAncestorOrSelf:
		c := n
		if axis == AxisAncestor {
			c = d.Parent(n)
		}
		for ; c != xmltree.None; c = d.Parent(c) {
			if add(c) {
				break
			}
		}
	case AxisDescendantAttribute:
		if m.named() {
			for _, c := range d.NamedIn(n, m.name, true) {
				out = append(out, f.node(c))
				if first {
					break
				}
			}
			break
		}
		end := d.SubtreeEnd(n)
		for c := n + 1; c < end; c++ {
			if err := f.tick(); err != nil {
				return out, err
			}
			if d.Kind(c) == xmltree.KindAttribute && add(c) {
				break
			}
		}
	case AxisFollowingSibling:
		if d.Kind(n) == xmltree.KindAttribute {
			break
		}
		for c := d.NextSibling(n); c != xmltree.None; c = d.NextSibling(c) {
			if err := f.tick(); err != nil {
				return out, err
			}
			if add(c) {
				break
			}
		}
	case AxisPrecedingSibling:
		if d.Kind(n) == xmltree.KindAttribute {
			break
		}
		for c := d.PrevSibling(n); c != xmltree.None; c = d.PrevSibling(c) {
			if err := f.tick(); err != nil {
				return out, err
			}
			if add(c) {
				break
			}
		}
	case AxisFollowing:
		start := d.SubtreeEnd(n)
		if d.Kind(n) == xmltree.KindAttribute {
			start = n + 1
		}
		if m.named() {
			// The name index: the elements of this name from start on
			// (an element there is not a descendant of n).
			all := d.Named(m.name, false)
			k, _ := slices.BinarySearch(all, start)
			for _, c := range all[k:] {
				out = append(out, f.node(c))
				if first {
					break
				}
			}
			break
		}
		for c := start; int(c) < d.Len(); c++ {
			if err := f.tick(); err != nil {
				return out, err
			}
			if d.Kind(c) == xmltree.KindAttribute {
				continue
			}
			if add(c) {
				break
			}
		}
	case AxisPreceding:
		if m.named() {
			// The name index: the elements of this name before n, nearest
			// first, but n's ancestors (whose subtree holds n). Without it,
			// preceding::cbc:PaymentID from each payment id (UBL-SR-44)
			// walked every node before it.
			all := d.Named(m.name, false)
			k, _ := slices.BinarySearch(all, n)
			for i := k - 1; i >= 0; i-- {
				if c := all[i]; d.SubtreeEnd(c) <= n {
					out = append(out, f.node(c))
					if first {
						break
					}
				}
			}
			break
		}
		// Walk backwards, skipping ancestors (they contain n) and attributes.
		anc := d.Parent(n)
		for c := n - 1; c > 0; c-- {
			if err := f.tick(); err != nil {
				return out, err
			}
			if c == anc {
				anc = d.Parent(anc)
				continue
			}
			if d.Kind(c) == xmltree.KindAttribute {
				continue
			}
			if add(c) {
				break
			}
		}
	}
	return out, nil
}

// step appends the result of an axis step from n, in document order.
func (f *frame) step(e *Expr, n xmltree.NodeID, out []xdm.Item) ([]xdm.Item, error) {
	rev := e.Axis.Reverse()
	if len(e.Preds) == 0 {
		start := len(out)
		m := f.matcher(&e.Test, e.Axis)
		out, err := f.axisWith(&m, e.Axis, n, out, false)
		if rev {
			slices.Reverse(out[start:])
		}
		return out, err
	}
	if e.KeyPred > 0 && f.docIdx == 0 {
		if r, ok, err := f.stepByIndex(e, n, out); ok || err != nil {
			return r, err
		}
	} else if r, ok, err := f.indexedStep(e, n, out); ok || err != nil {
		return r, err
	}
	tmp := f.buf()
	m := f.matcher(&e.Test, e.Axis)
	tmp, err := f.axisWith(&m, e.Axis, n, tmp, false)
	if err != nil {
		return out, err
	}
	s := f.done(tmp)
	s, err = f.filter(s, e.Preds)
	if err != nil {
		return out, err
	}
	if rev {
		for i := len(s) - 1; i >= 0; i-- {
			out = append(out, s[i])
		}
		return out, nil
	}
	return append(out, s...), nil
}

// stepAny reports whether a predicate-free step from n selects any node.
func (f *frame) stepAny(e *Expr, n xmltree.NodeID) (bool, error) {
	if e.Axis == AxisChild && e.Test.Kind == TestAnyName {
		// *, not(*): is there an element child.
		d := f.doc
		for c := d.FirstChild(n); c != xmltree.None; c = d.NextSibling(c) {
			if err := f.tick(); err != nil {
				return false, err
			}
			if d.Kind(c) == xmltree.KindElement {
				return true, nil
			}
		}
		return false, nil
	}
	b := f.buf()
	m := f.matcher(&e.Test, e.Axis)
	b, err := f.axisWith(&m, e.Axis, n, b, true)
	found := len(b) > 0
	f.drop(b)
	return found, err
}

// childEq reports whether some node of the predicate-free step e.Test from
// n has the string value e.Str.
func (f *frame) childEq(e *Expr, n xmltree.NodeID) (bool, error) {
	m := f.matcher(&e.Test, e.Axis)
	if m.never {
		return false, nil
	}
	d := f.doc
	if e.Axis == AxisAttribute {
		a, cnt := d.Attrs(n)
		for i := 0; i < cnt; i++ {
			c := a + xmltree.NodeID(i)
			if f.matches(&m, c) && d.Value(c) == e.Str {
				return true, nil
			}
		}
		return false, nil
	}
	for c := d.FirstChild(n); c != xmltree.None; c = d.NextSibling(c) {
		if err := f.tick(); err != nil {
			return false, err
		}
		if f.matches(&m, c) && d.StringValue(c) == e.Str {
			return true, nil
		}
	}
	return false, nil
}
