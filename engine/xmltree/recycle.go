package xmltree

import "sync"

// maxRecycled is the largest node array a Recycler keeps (~1.4 MB: a
// 300 KB invoice). Larger documents are rare; keeping their arrays would
// hold megabytes for the next small one.
const maxRecycled = 32 << 10

// maxRecycledNames bounds the name tables a Recycler keeps (distinct
// names of a document, and raw spellings); maxRecycledBuf the parser's
// buffer of values that needed expansion.
const (
	maxRecycledNames = 1 << 12
	maxRecycledBuf   = 64 << 10
)

// Recycler keeps the node arrays of documents their owner is done with and
// gives them to later parses. A server that parses one invoice after
// another then writes each tree into memory the previous one warmed,
// instead of allocating ~4 nodes per 100 bytes of input every time for the
// collector to reclaim. It keeps the released documents' name tables and
// the parsers' working storage (~10 KB a parse of an invoice) the same
// way. The zero value is ready; safe for concurrent use.
type Recycler struct{ pool, tables, parsers sync.Pool }

// nameTables are the name tables of a released document (Document.names,
// nameIx and raws), emptied, for the next parse's.
type nameTables struct {
	names  []qname
	nameIx []int32
	raws   []rawName
}

// Parse is Parse, with the node array taken from r when r keeps one.
func (r *Recycler) Parse(data []byte, lim Limits) (*Document, error) {
	return parseWith(data, lim, false, r)
}

// ParseOwned is r.Parse for a caller that gives data up: nobody writes
// into it afterwards (a request body read for this parse alone), so the
// document keeps it as its text instead of a copy. Reading data again,
// from any goroutine, is fine.
func (r *Recycler) ParseOwned(data []byte, lim Limits) (*Document, error) {
	return parseWith(data, lim, true, r)
}

// Release gives d's node array and name tables to r. d must not be used
// afterwards: it has no nodes and no names any more, so its methods panic.
// Strings read from d stay valid (they are in the document's text, never
// in the arrays), and so do names and values already returned.
func (r *Recycler) Release(d *Document) {
	nodes := d.nodes
	d.nodes = nil
	r.put(nodes)
	if cap(d.names) <= maxRecycledNames && cap(d.raws) <= maxRecycledNames && len(d.nameIx) > 0 {
		clear(d.names) // the strings stay valid for whoever holds them;
		clear(d.raws)  // the tables just stop pinning them
		r.tables.Put(&nameTables{names: d.names[:0], nameIx: d.nameIx, raws: d.raws[:0]})
	}
	d.names, d.nameIx, d.raws = nil, nil, nil
}

// getTables returns a released document's emptied name tables, or nil.
func (r *Recycler) getTables() *nameTables {
	if r == nil {
		return nil
	}
	t, _ := r.tables.Get().(*nameTables)
	return t
}

// getParser returns a parser whose storage a finished parse left, or nil.
func (r *Recycler) getParser() *parser {
	if r == nil {
		return nil
	}
	p, _ := r.parsers.Get().(*parser)
	return p
}

// putParser keeps p's working storage for a later parse: nothing of the
// parse is referenced from it afterwards.
func (r *Recycler) putParser(p *parser) {
	if r == nil || len(p.rawIx) > 4*maxRecycledNames || cap(p.buf) > maxRecycledBuf {
		return
	}
	clear(p.binds[:cap(p.binds)]) // namespace URIs, substrings of the source
	*p = parser{rawIx: p.rawIx, binds: p.binds[:0], open: p.open[:0], attrs: p.attrs[:0], keys: p.keys[:0], buf: p.buf[:0]}
	r.parsers.Put(p)
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
