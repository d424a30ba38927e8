package xmltree

// postings is a per-document name index: for every expanded name, the ids of
// the elements and, separately, of the attributes with that name, in
// document order. Built once, on the first query, in one pass over the
// nodes (a counting sort), so its cost is linear in the document and it is
// paid only by documents that are queried by name.
type postings struct {
	// ids holds every element and attribute id grouped by key (2*name for
	// elements, 2*name+1 for attributes), each group in document order;
	// start[k]:start[k+1] is the group of key k.
	ids   []NodeID
	start []int32
	// parents[2*k], parents[2*k+1] are the ParentSet of the names of the
	// parent elements of key k's nodes (Document.Parents); nil for a
	// document of more than maxParentNames names.
	parents []uint64
}

// maxParentNames bounds the names whose parents the index records (32
// bytes a name): a document of more, an attack rather than an invoice,
// gets no parent sets, and every Parents answer is "may be".
const maxParentNames = 4096

func (d *Document) postings() *postings {
	d.postOnce.Do(func() { d.post = buildPostings(d) })
	return d.post
}

func buildPostings(d *Document) *postings {
	keys := 2 * len(d.names)
	p := &postings{start: make([]int32, keys+1)}
	if len(d.names) <= maxParentNames {
		p.parents = make([]uint64, 2*keys)
	}
	total := 0
	for i := range d.nodes {
		nd := &d.nodes[i]
		var k int32
		switch nd.kind {
		case KindElement:
			k = 2 * int32(nd.name)
		case KindAttribute:
			k = 2*int32(nd.name) + 1
		default:
			continue
		}
		p.start[k+1]++
		total++
		if par := &d.nodes[nd.parent]; par.kind == KindElement && p.parents != nil {
			p.parents[2*k+int32(par.name>>6&1)] |= 1 << (par.name & 63)
		}
	}
	for k := 1; k <= keys; k++ {
		p.start[k] += p.start[k-1]
	}
	p.ids = make([]NodeID, total)
	fill := make([]int32, keys)
	copy(fill, p.start[:keys])
	for i := range d.nodes {
		nd := &d.nodes[i]
		var k int32
		switch nd.kind {
		case KindElement:
			k = 2 * int32(nd.name)
		case KindAttribute:
			k = 2*int32(nd.name) + 1
		default:
			continue
		}
		p.ids[fill[k]] = NodeID(i)
		fill[k]++
	}
	return p
}

// Named returns the ids of all elements (attr false) or all attributes
// (attr true) with the expanded name id, in document order. The slice
// belongs to the document and must not be modified. The index behind it is
// built on the first call (linear in the document size) and shared by all
// later calls; it is safe for concurrent use.
func (d *Document) Named(id NameID, attr bool) []NodeID {
	if id < 0 || int(id) >= len(d.names) {
		return nil
	}
	p := d.postings()
	k := 2 * int(id)
	if attr {
		k++
	}
	return p.ids[p.start[k]:p.start[k+1]]
}

// ParentSet is a set of element names, by NameID modulo 128: exact for a
// document of at most 128 distinct names, a superset beyond.
type ParentSet [2]uint64

// MayHave reports whether the set may hold the name parent: false means
// it does not.
func (s ParentSet) MayHave(parent NameID) bool {
	return parent >= 0 && s[parent>>6&1]&(1<<(parent&63)) != 0
}

// Parents returns the names of the parent elements of the elements (attr
// false) or attributes (attr true) named child, from the name index
// (Named), built on first use: Parents(c, false).MayHave(p) is false when
// no element named c has a parent named p. For a document of more than
// 4,096 names every name may be a parent.
func (d *Document) Parents(child NameID, attr bool) ParentSet {
	return d.ParentIndex().Parents(child, attr)
}

// ParentIndex is Document.Parents for many names: the index taken once.
type ParentIndex struct{ sets []uint64 }

// ParentIndex returns the document's ParentIndex, building the name index
// on first use.
func (d *Document) ParentIndex() ParentIndex { return ParentIndex{d.postings().parents} }

// Parents is Document.Parents.
func (x ParentIndex) Parents(child NameID, attr bool) ParentSet {
	k := 2 * int(child)
	if attr {
		k++
	}
	if x.sets == nil && child >= 0 {
		return ParentSet{^uint64(0), ^uint64(0)} // not recorded
	}
	if child < 0 || 2*k+1 >= len(x.sets) {
		return ParentSet{}
	}
	return ParentSet{x.sets[2*k], x.sets[2*k+1]}
}

// NamedKinds is Named for both kinds at once: the elements and the
// attributes named id.
func (d *Document) NamedKinds(id NameID) (elems, attrs []NodeID) {
	if id < 0 || int(id) >= len(d.names) {
		return nil, nil
	}
	p := d.postings()
	k := 2 * int(id)
	return p.ids[p.start[k]:p.start[k+1]], p.ids[p.start[k+1]:p.start[k+2]]
}

// NamedIn returns the ids of the elements (attr false) or attributes (attr
// true) named id that lie strictly inside n's subtree, i.e. in
// (n, SubtreeEnd(n)): for an element or the document node, its descendant
// elements named id, or the attributes named id of n and of its descendant
// elements. Ids are in document order; the slice must not be modified.
// It costs two binary searches.
func (d *Document) NamedIn(n NodeID, id NameID, attr bool) []NodeID {
	all := d.Named(id, attr)
	if len(all) == 0 {
		return nil
	}
	if n == 0 {
		return all // the document node contains everything
	}
	lo := searchID(all, n+1)
	hi := lo + searchID(all[lo:], d.SubtreeEnd(n))
	return all[lo:hi]
}

// searchID returns the index of the first id >= x in the sorted ids.
func searchID(ids []NodeID, x NodeID) int {
	lo, hi := 0, len(ids)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ids[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
