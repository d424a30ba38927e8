package xmltree

import "sync"

// maxRecycled is the largest node array a Recycler keeps (~1.4 MB: a
// 300 KB invoice). Larger documents are rare; keeping their arrays would
// hold megabytes for the next small one.
const maxRecycled = 32 << 10

// Recycler keeps the node arrays of documents their owner is done with and
// gives them to later parses. A server that parses one invoice after
// another then writes each tree into memory the previous one warmed,
// instead of allocating ~4 nodes per 100 bytes of input every time for the
// collector to reclaim. The zero value is ready; safe for concurrent use.
type Recycler struct{ pool sync.Pool }

// Parse is Parse, with the node array taken from r when r keeps one.
func (r *Recycler) Parse(data []byte, lim Limits) (*Document, error) {
	return parseWith(data, lim, false, r)
}

// Release gives d's node array to r. d must not be used afterwards: it
// has no nodes any more, so its methods panic. Strings read from d stay
// valid (they are in the document's text, never in the array), and so do
// names and values already returned.
func (r *Recycler) Release(d *Document) {
	nodes := d.nodes
	d.nodes = nil
	r.put(nodes)
}

// get returns an empty node array with room for est nodes: a kept one when
// it is large enough, else a new one.
func (r *Recycler) get(est int) []node {
	if r != nil {
		if p, _ := r.pool.Get().(*[]node); p != nil {
			if cap(*p) >= est {
				return (*p)[:0]
			}
			r.pool.Put(p) // for a smaller document
		}
	}
	return make([]node, 0, est)
}

// put keeps nodes for a later parse.
func (r *Recycler) put(nodes []node) {
	if r == nil || cap(nodes) == 0 || cap(nodes) > maxRecycled {
		return
	}
	nodes = nodes[:0]
	r.pool.Put(&nodes)
}
