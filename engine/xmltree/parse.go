package xmltree

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

const (
	nsXML   = "http://www.w3.org/XML/1998/namespace"
	nsXMLNS = "http://www.w3.org/2000/xmlns/"
)

// binding is one in-scope namespace declaration.
type binding struct{ prefix, uri string }

// openElem is an element whose end tag has not been seen yet.
type openElem struct {
	id       NodeID
	raw      int32
	bindMark int32  // len(parser.binds) before the element's declarations
	savedGen uint32 // parser.gen before the element's declarations
}

// rawAttr is an attribute of the start tag being parsed, before namespace
// resolution.
type rawAttr struct {
	raw     int32
	nameOff int
	line    int32
	off, n  uint32 // value; n carries the inBuf flag
}

// textAcc accumulates one text node from adjacent character data, references
// and CDATA sections.
type textAcc struct {
	active   bool
	buffered bool // value lives in parser.buf
	off, n   int
	line     int32
}

// parser holds the state of one Parse call. Nothing in it outlives the call
// except what finish moves into the Document.
type parser struct {
	src string
	lim Limits
	d   *Document
	buf []byte

	raws   []rawName
	rawIx  []int32
	recent [64]int32 // cache in front of rawIx: index+1 of a recent raw name

	binds           []binding
	gen, genCounter uint32

	open  []openElem
	cur   NodeID // parent of the next child node
	attrs []rawAttr
	keys  []int64 // scratch for duplicate-attribute detection
	text  textAcc

	rootSeen bool
	rootOnly bool  // RootName: stop after the root's start tag
	line     int32 // line of the scan position: every scanner that consumes a line end counts it
	hasCR    bool
}

// Parse parses data as an XML document. data is not retained: the document
// keeps its own copy. Errors are *SyntaxError or *LimitError.
func Parse(data []byte, lim Limits) (*Document, error) {
	return parse(data, lim, false)
}

// parse is Parse; owned says data may be kept without copying.
func parse(data []byte, lim Limits, owned bool) (*Document, error) {
	return parseWith(data, lim, owned, nil)
}

// parseWith is parse taking the node array from r (nil: a new one).
func parseWith(data []byte, lim Limits, owned bool, r *Recycler) (*Document, error) {
	p, declEnd, err := start(data, lim, owned, 0, r)
	if err != nil {
		return nil, err
	}
	if err := p.parse(declEnd); err != nil {
		r.put(p.d.nodes)
		r.putParser(p)
		return nil, err
	}
	d := p.finish()
	r.putParser(p)
	return d, nil
}

// start checks data's size, decodes it and returns a parser for it and the
// offset after its XML declaration.
func start(data []byte, lim Limits, owned bool, est int, r *Recycler) (*parser, int, error) {
	lim = lim.withDefaults()
	if int64(len(data)) > lim.MaxBytes {
		return nil, 0, &LimitError{Limit: "MaxBytes", Max: lim.MaxBytes, Line: 1 + bytes.Count(data[:lim.MaxBytes], []byte{'\n'})}
	}
	src, declEnd, err := decode(data, owned)
	if err != nil {
		return nil, 0, err
	}
	if len(src) > maxInput {
		// Transcoding UTF-16 or ISO-8859-1 can grow the text past what
		// 31-bit offsets address.
		return nil, 0, &LimitError{Limit: "MaxBytes", Max: lim.MaxBytes, Line: 1}
	}
	return newParser(src, lim, est, r), declEnd, nil
}

// RootName returns the expanded name of data's root element, reading data
// only up to the end of the root's start tag, with Parse's own decoder and
// scanner: for every document Parse accepts it is the name of Parse's root.
// An error is one Parse would also return (it reports the first one in
// the prolog or the root's start tag; Parse may find others later). For
// work that must start before the parse ends (choosing the schema that
// validates the document beside it). The strings are copies: nothing of
// data is retained.
func RootName(data []byte, lim Limits) (ns, local string, err error) {
	p, declEnd, err := start(data, lim, true, 4, nil)
	if err != nil {
		return "", "", err
	}
	p.rootOnly = true
	if err := p.parse(declEnd); err != nil {
		return "", "", err
	}
	d := p.d
	for c := d.nodes[0].first; c != None; c = d.nodes[c].next {
		if d.nodes[c].kind == KindElement {
			name := d.nodes[c].name
			return strings.Clone(d.NameSpace(name)), strings.Clone(d.NameLocal(name)), nil
		}
	}
	return "", "", p.syntaxErr(len(p.src), "no root element")
}

// newParser returns a parser of src whose node slice has room for est
// nodes, or for an estimate counted from src when est is 0, taken from r
// when it keeps one that large.
func newParser(src string, lim Limits, est int, r *Recycler) *parser {
	// Upper bound of the node count, so the node slice is allocated once:
	// elements, comments, PIs and text nodes each end at or start with a '<'
	// of their own (text nodes end at the next tag; indented documents have
	// one before every start and end tag), attributes each have an '='.
	// Hostile input made of '<' would make the bound huge while failing at
	// once, so it is also capped by size (real invoices take ~18 bytes per
	// node); beyond the cap the slice grows by append.
	if est <= 0 {
		est = 2*strings.Count(src, "<") + strings.Count(src, "=") + 2
		est = min(est, lim.MaxNodes+1, len(src)/3+16)
	}
	// Name tables and scratch sized for an invoice; a few nodes (RootName)
	// get small ones. All of them grow as needed.
	names, depth := 64, 32
	if est <= 16 {
		names, depth = 8, 2
	}
	d := &Document{nodes: r.get(est)}
	var raws []rawName
	if t := r.getTables(); t != nil {
		// A released document's, emptied (its index cleared here).
		clear(t.nameIx)
		d.names, d.nameIx, raws = t.names, t.nameIx, t.raws
	} else {
		d.names, d.nameIx, raws = make([]qname, 0, names), make([]int32, 4*names), make([]rawName, 0, names)
	}
	p := r.getParser()
	if p == nil {
		p = &parser{
			rawIx: make([]int32, 4*names),
			binds: make([]binding, 0, names/4),
			open:  make([]openElem, 0, depth),
			attrs: make([]rawAttr, 0, names/4),
		}
	} else {
		clear(p.rawIx)
	}
	// Everything but the kept storage starts from its zero value.
	*p = parser{
		src:   src,
		lim:   lim,
		d:     d,
		buf:   p.buf,
		raws:  raws,
		rawIx: p.rawIx,
		binds: append(p.binds[:0], binding{prefix: "xml", uri: nsXML}),
		open:  p.open,
		attrs: p.attrs,
		keys:  p.keys,
		line:  1,
		hasCR: strings.IndexByte(src, '\r') >= 0,
	}
	p.d.nodes = append(p.d.nodes, node{kind: KindDocument, parent: None, first: None, last: None, next: None, prev: None, nextEl: None, name: -1, raw: -1, line: 1})
	p.cur = 0
	return p
}

func (p *parser) finish() *Document {
	d := p.d
	d.nodes[0].off = uint32(len(d.nodes))
	if len(p.buf) > 0 {
		d.buf = string(p.buf)
	}
	d.src = p.src
	d.raws = p.raws
	return d
}

func (p *parser) parse(pos int) error {
	s := p.src
	var err error
	p.line += int32(p.countLines(0, pos))
	for pos < len(s) {
		c := s[pos]
		if c != '<' {
			if len(p.open) == 0 {
				if charClass[c]&cSpace != 0 {
					pos = p.skipSpace(pos)
					continue
				}
				if p.rootSeen {
					return p.syntaxErr(pos, "content after the root element")
				}
				return p.syntaxErr(pos, "content before the root element")
			}
			pos, err = p.scanText(pos)
		} else if pos+1 >= len(s) {
			return p.syntaxErr(pos, "unexpected end of input after '<'")
		} else {
			switch s[pos+1] {
			case '/':
				pos, err = p.endTag(pos)
			case '?':
				pos, err = p.pi(pos)
			case '!':
				switch {
				case strings.HasPrefix(s[pos:], "<!--"):
					pos, err = p.comment(pos)
				case strings.HasPrefix(s[pos:], "<![CDATA["):
					if len(p.open) == 0 {
						return p.syntaxErr(pos, "CDATA section outside the root element")
					}
					pos, err = p.cdata(pos)
				case strings.HasPrefix(s[pos:], "<!DOCTYPE"):
					return p.syntaxErr(pos, "DTD is not allowed")
				default:
					return p.syntaxErr(pos, "unexpected '<!': expected a comment or a CDATA section")
				}
			default:
				pos, err = p.startTag(pos)
				if p.rootOnly && err == nil {
					return nil
				}
			}
		}
		if err != nil {
			return err
		}
	}
	if len(p.open) > 0 {
		top := p.open[len(p.open)-1]
		return p.syntaxErr(len(s), "unexpected end of input: element <%s> (line %d) is not closed", p.raws[top.raw].s, p.d.nodes[top.id].line)
	}
	if !p.rootSeen {
		return p.syntaxErr(len(s), "no root element")
	}
	return nil
}

// ---- nodes ----

func (p *parser) newNode(kind Kind, line int32) (NodeID, error) {
	if len(p.d.nodes) >= p.lim.MaxNodes {
		return None, &LimitError{Limit: "MaxNodes", Max: int64(p.lim.MaxNodes), Line: int(line)}
	}
	id := NodeID(len(p.d.nodes))
	p.d.nodes = append(p.d.nodes, node{kind: kind, parent: None, first: None, last: None, next: None, prev: None, nextEl: None, name: -1, raw: -1, line: line})
	return id, nil
}

// link appends id as the last child of p.cur.
func (p *parser) link(id NodeID) {
	nodes := p.d.nodes
	par := p.cur
	nd := &nodes[id]
	nd.parent = par
	last := nodes[par].last
	nd.prev = last
	if last == None {
		nodes[par].first = id
	} else {
		nodes[last].next = id
	}
	nodes[par].last = id
	if nd.kind == KindElement {
		// The element sibling before it, past the text, comments and
		// processing instructions between them (each walked once: the
		// next element's walk stops here).
		for s := last; s != None; s = nodes[s].prev {
			if nodes[s].kind == KindElement {
				nodes[s].nextEl = id
				break
			}
		}
	}
}

// ---- start and end tags ----

func (p *parser) startTag(pos int) (int, error) {
	s := p.src
	elemLine := p.line
	if len(p.open) == 0 {
		if p.rootSeen {
			return 0, p.syntaxErr(pos, "content after the root element: a document has exactly one root element")
		}
		p.rootSeen = true
	}
	if len(p.open) >= p.lim.MaxDepth {
		return 0, p.limitErr("MaxDepth", int64(p.lim.MaxDepth), pos)
	}
	if err := p.flushText(); err != nil {
		return 0, err
	}
	nameStart := pos + 1
	end, colon, err := p.scanName(nameStart)
	if err != nil {
		return 0, err
	}
	raw := p.internRaw(s[nameStart:end], colon)
	if colon == 5 && p.raws[raw].xmlns {
		return 0, p.syntaxErr(nameStart, "element names must not use the prefix xmlns")
	}
	pos = end
	p.attrs = p.attrs[:0]
	hasNS := false
	empty := false
	for {
		ws := pos
		pos = p.skipSpace(pos)
		if pos >= len(s) {
			return 0, p.syntaxErr(pos, "unexpected end of input in start tag <%s>", p.raws[raw].s)
		}
		c := s[pos]
		if c == '>' {
			pos++
			break
		}
		if c == '/' {
			if pos+1 < len(s) && s[pos+1] == '>' {
				pos += 2
				empty = true
				break
			}
			return 0, p.syntaxErr(pos+1, "expected '>' after '/' in start tag <%s>", p.raws[raw].s)
		}
		if ws == pos {
			return 0, p.syntaxErr(pos, "unexpected %q in start tag <%s>: expected whitespace, '>' or '/>'", p.runeAt(pos), p.raws[raw].s)
		}
		if len(p.attrs) >= p.lim.MaxAttrs {
			return 0, p.limitErr("MaxAttrs", int64(p.lim.MaxAttrs), pos)
		}
		aStart, aLine := pos, p.line
		aEnd, aColon, err := p.scanName(pos)
		if err != nil {
			return 0, err
		}
		araw := p.internRaw(s[aStart:aEnd], aColon)
		pos = p.skipSpace(aEnd)
		if pos >= len(s) || s[pos] != '=' {
			return 0, p.syntaxErr(pos, "expected '=' after attribute name %s", p.raws[araw].s)
		}
		pos = p.skipSpace(pos + 1)
		if pos >= len(s) || (s[pos] != '"' && s[pos] != '\'') {
			return 0, p.syntaxErr(pos, "expected a quoted value for attribute %s", p.raws[araw].s)
		}
		off, n, vend, err := p.attrValue(pos+1, s[pos])
		if err != nil {
			return 0, err
		}
		p.attrs = append(p.attrs, rawAttr{raw: araw, nameOff: aStart, line: aLine, off: off, n: n})
		if p.raws[araw].xmlns {
			hasNS = true
		}
		pos = vend
	}

	savedGen, mark := p.gen, len(p.binds)
	if hasNS {
		if err := p.declareNamespaces(); err != nil {
			return 0, err
		}
	}
	id, err := p.newNode(KindElement, elemLine)
	if err != nil {
		return 0, err
	}
	name, err := p.resolve(raw, false, nameStart)
	if err != nil {
		return 0, err
	}
	p.d.nodes[id].name = name
	p.d.nodes[id].raw = raw
	p.link(id)
	nattr := 0
	for _, a := range p.attrs {
		if p.raws[a.raw].xmlns {
			continue
		}
		aid, err := p.newNode(KindAttribute, a.line)
		if err != nil {
			return 0, err
		}
		aname, err := p.resolve(a.raw, true, a.nameOff)
		if err != nil {
			return 0, err
		}
		nd := &p.d.nodes[aid]
		nd.parent, nd.name, nd.raw, nd.off, nd.n = id, aname, a.raw, a.off, a.n
		nattr++
	}
	p.d.nodes[id].n = uint32(nattr)
	if len(p.attrs) > 1 {
		if err := p.checkDuplicateAttrs(id); err != nil {
			return 0, err
		}
	}
	if empty {
		p.d.nodes[id].off = uint32(len(p.d.nodes))
		p.binds = p.binds[:mark]
		p.gen = savedGen
	} else {
		p.open = append(p.open, openElem{id: id, raw: raw, bindMark: int32(mark), savedGen: savedGen})
		p.cur = id
	}
	return pos, nil
}

func (p *parser) endTag(pos int) (int, error) {
	s := p.src
	nameStart := pos + 2
	if len(p.open) == 0 {
		return 0, p.syntaxErr(pos, "unexpected end tag: no element is open")
	}
	top := p.open[len(p.open)-1]
	name := p.raws[top.raw].s
	if !strings.HasPrefix(s[nameStart:], name) || p.nameCharAt(nameStart+len(name)) {
		end, _, err := p.scanName(nameStart)
		if err != nil {
			return 0, err
		}
		return 0, p.syntaxErr(nameStart, "end tag </%s> does not match start tag <%s> (line %d)", s[nameStart:end], name, p.d.nodes[top.id].line)
	}
	i := p.skipSpace(nameStart + len(name))
	if i >= len(s) || s[i] != '>' {
		return 0, p.syntaxErr(i, "expected '>' to close end tag </%s>", name)
	}
	if err := p.flushText(); err != nil {
		return 0, err
	}
	p.d.nodes[top.id].off = uint32(len(p.d.nodes))
	p.binds = p.binds[:top.bindMark]
	p.gen = top.savedGen
	p.open = p.open[:len(p.open)-1]
	p.cur = p.d.nodes[top.id].parent
	return i + 1, nil
}

// declareNamespaces pushes the namespace declarations of p.attrs.
func (p *parser) declareNamespaces() error {
	p.genCounter++
	p.gen = p.genCounter
	for _, a := range p.attrs {
		r := &p.raws[a.raw]
		if !r.xmlns {
			continue
		}
		prefix := ""
		if r.colon >= 0 {
			prefix = r.s[r.colon+1:]
		}
		uri := p.attrString(a)
		switch {
		case prefix == "xmlns":
			return p.syntaxErr(a.nameOff, "the prefix xmlns must not be declared")
		case prefix == "xml" && uri != nsXML:
			return p.syntaxErr(a.nameOff, "the prefix xml must not be bound to %q", uri)
		case prefix != "xml" && uri == nsXML:
			return p.syntaxErr(a.nameOff, "only the prefix xml may be bound to %s", nsXML)
		case uri == nsXMLNS:
			return p.syntaxErr(a.nameOff, "no prefix may be bound to %s", nsXMLNS)
		case prefix != "" && uri == "":
			return p.syntaxErr(a.nameOff, "namespace prefix %s must not be bound to the empty URI", prefix)
		}
		p.binds = append(p.binds, binding{prefix: prefix, uri: uri})
	}
	return nil
}

// attrString returns an attribute value as a string while parsing.
func (p *parser) attrString(a rawAttr) string {
	if a.n&inBuf != 0 {
		return string(p.buf[a.off : a.off+a.n&^inBuf])
	}
	return p.src[a.off : a.off+a.n]
}

// resolve returns the expanded name of a raw element or attribute name under
// the current namespace bindings.
func (p *parser) resolve(raw int32, attr bool, off int) (NameID, error) {
	r := &p.raws[raw]
	if attr {
		if r.attrGen == p.gen {
			return r.attrID, nil
		}
	} else if r.elemGen == p.gen {
		return r.elemID, nil
	}
	prefix, local := "", r.s
	if r.colon >= 0 {
		prefix, local = r.s[:r.colon], r.s[r.colon+1:]
	}
	uri := ""
	if prefix != "" || !attr {
		found := false
		for i := len(p.binds) - 1; i >= 0; i-- {
			if p.binds[i].prefix == prefix {
				uri, found = p.binds[i].uri, true
				break
			}
		}
		if !found && prefix != "" {
			return -1, p.syntaxErr(off, "undeclared namespace prefix %q", prefix)
		}
	}
	id := p.internName(uri, local)
	r = &p.raws[raw]
	if attr {
		r.attrGen, r.attrID = p.gen, id
	} else {
		r.elemGen, r.elemID = p.gen, id
	}
	return id, nil
}

// checkDuplicateAttrs rejects two attributes with the same expanded name, or
// two declarations of the same prefix, on element id. Linear scan for the
// usual handful, sort beyond that, so many attributes stay O(n log n).
func (p *parser) checkDuplicateAttrs(id NodeID) error {
	keys := p.keys[:0]
	next := id + 1
	for _, a := range p.attrs {
		if p.raws[a.raw].xmlns {
			keys = append(keys, int64(a.raw)|1<<40)
		} else {
			keys = append(keys, int64(p.d.nodes[next].name))
			next++
		}
	}
	p.keys = keys
	dup := -1
	if len(keys) <= 16 {
	outer:
		for i := 1; i < len(keys); i++ {
			for j := 0; j < i; j++ {
				if keys[i] == keys[j] {
					dup = i
					break outer
				}
			}
		}
	} else {
		sorted := slices.Clone(keys)
		slices.Sort(sorted)
		for i := 1; i < len(sorted); i++ {
			if sorted[i] == sorted[i-1] {
				first := slices.Index(keys, sorted[i])
				dup = first + 1 + slices.Index(keys[first+1:], sorted[i])
				break
			}
		}
	}
	if dup < 0 {
		return nil
	}
	a := p.attrs[dup]
	return p.syntaxErr(a.nameOff, "duplicate attribute %s", p.raws[a.raw].s)
}

// attrValue scans an attribute value starting after the quote q, expanding
// references and normalising white space (XML 1.0 §3.3.3, CDATA type).
func (p *parser) attrValue(pos int, q byte) (off, n uint32, end int, err error) {
	s := p.src
	start, run, i := pos, pos, pos
	buffered, bstart := false, 0
	for {
		for i < len(s) && charClass[s[i]]&cAttrStop == 0 {
			i++
		}
		if i >= len(s) {
			return 0, 0, 0, p.syntaxErr(start-1, "unexpected end of input in attribute value")
		}
		c := s[i]
		switch {
		case c == q:
			if !buffered {
				if i-start > p.lim.MaxTextLen {
					return 0, 0, 0, p.limitErr("MaxTextLen", int64(p.lim.MaxTextLen), start)
				}
				return uint32(start), uint32(i - start), i + 1, nil
			}
			p.buf = append(p.buf, s[run:i]...)
			if len(p.buf)-bstart > p.lim.MaxTextLen {
				return 0, 0, 0, p.limitErr("MaxTextLen", int64(p.lim.MaxTextLen), start)
			}
			return uint32(bstart), uint32(len(p.buf)-bstart) | inBuf, i + 1, nil
		case c == '"' || c == '\'':
			i++
		case c == '<':
			return 0, 0, 0, p.syntaxErr(i, "'<' is not allowed in an attribute value")
		case c == '&' || c == '\t' || c == '\n' || c == '\r':
			if !buffered {
				buffered, bstart = true, len(p.buf)
			}
			p.buf = append(p.buf, s[run:i]...)
			if c == '&' {
				if p.buf, i, err = p.appendRef(p.buf, i); err != nil {
					return 0, 0, 0, err
				}
			} else {
				p.buf = append(p.buf, ' ')
				i++
				if c == '\r' && i < len(s) && s[i] == '\n' {
					i++
				}
				if c != '\t' {
					p.line++
				}
			}
			run = i
		case c >= utf8.RuneSelf:
			if i, err = p.checkRune(i); err != nil {
				return 0, 0, 0, err
			}
		default:
			return 0, 0, 0, p.syntaxErr(i, "illegal character %U in attribute value", rune(c))
		}
	}
}

// appendRef expands the reference at s[i] == '&' onto dst.
func (p *parser) appendRef(dst []byte, i int) ([]byte, int, error) {
	s := p.src
	j := strings.IndexByte(s[i+1:], ';')
	if j < 0 {
		return dst, 0, p.syntaxErr(i, "unterminated reference: missing ';'")
	}
	ref := s[i+1 : i+1+j]
	end := i + 2 + j
	switch ref {
	case "lt":
		return append(dst, '<'), end, nil
	case "gt":
		return append(dst, '>'), end, nil
	case "amp":
		return append(dst, '&'), end, nil
	case "apos":
		return append(dst, '\''), end, nil
	case "quot":
		return append(dst, '"'), end, nil
	}
	if len(ref) > 0 && ref[0] == '#' {
		digits, base := ref[1:], 10
		if len(digits) > 0 && digits[0] == 'x' {
			digits, base = digits[1:], 16
		}
		if len(digits) == 0 {
			return dst, 0, p.syntaxErr(i, "invalid character reference &%s;", ref)
		}
		var r rune
		for k := 0; k < len(digits); k++ {
			c := digits[k]
			var v rune
			switch {
			case c >= '0' && c <= '9':
				v = rune(c - '0')
			case base == 16 && c >= 'a' && c <= 'f':
				v = rune(c-'a') + 10
			case base == 16 && c >= 'A' && c <= 'F':
				v = rune(c-'A') + 10
			default:
				return dst, 0, p.syntaxErr(i, "invalid character reference &%s;", clip(ref))
			}
			r = r*rune(base) + v
			if r > utf8.MaxRune {
				return dst, 0, p.syntaxErr(i, "character reference &%s; is out of range", clip(ref))
			}
		}
		if !isChar(r) {
			return dst, 0, p.syntaxErr(i, "character reference &%s; is not a legal XML character", ref)
		}
		return utf8.AppendRune(dst, r), end, nil
	}
	return dst, 0, p.syntaxErr(i, "undefined entity &%s; (only &lt; &gt; &amp; &apos; &quot; and character references are allowed)", clip(ref))
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// checkRune validates the non-ASCII character at i and returns the offset
// after it.
func (p *parser) checkRune(i int) (int, error) {
	r, size := utf8.DecodeRuneInString(p.src[i:])
	if r == utf8.RuneError && size == 1 {
		return 0, p.syntaxErr(i, "invalid UTF-8")
	}
	if !isChar(r) {
		return 0, p.syntaxErr(i, "illegal character %U", r)
	}
	return i + size, nil
}

// validateSpan checks that src[lo:hi] holds only legal characters.
func (p *parser) validateSpan(lo, hi int) error {
	s := p.src
	for i := lo; i < hi; {
		c := s[i]
		if c < utf8.RuneSelf {
			if charClass[c]&cIllegal != 0 {
				return p.syntaxErr(i, "illegal character %U", rune(c))
			}
			i++
			continue
		}
		var err error
		if i, err = p.checkRune(i); err != nil {
			return err
		}
	}
	return nil
}

// spanValue stores src[lo:hi] as a value, normalising line ends.
func (p *parser) spanValue(lo, hi int) (off, n uint32) {
	v := p.src[lo:hi]
	if !p.hasCR || strings.IndexByte(v, '\r') < 0 {
		return uint32(lo), uint32(hi - lo)
	}
	start := len(p.buf)
	p.buf = appendNormalized(p.buf, v)
	return uint32(start), uint32(len(p.buf)-start) | inBuf
}

// appendNormalized appends v with CRLF and lone CR replaced by LF.
func appendNormalized(dst []byte, v string) []byte {
	for {
		k := strings.IndexByte(v, '\r')
		if k < 0 {
			return append(dst, v...)
		}
		dst = append(dst, v[:k]...)
		dst = append(dst, '\n')
		v = v[k+1:]
		if len(v) > 0 && v[0] == '\n' {
			v = v[1:]
		}
	}
}

// ---- character data ----

func (p *parser) beginText(off int) {
	if !p.text.active {
		p.text = textAcc{active: true, off: off, line: p.line}
	}
}

// addLit appends src[lo:hi] verbatim to the pending text.
func (p *parser) addLit(lo, hi int) {
	t := &p.text
	if lo == hi {
		return
	}
	if !t.buffered {
		if t.off+t.n == lo {
			t.n += hi - lo
			return
		}
		p.textToBuf()
	}
	p.buf = append(p.buf, p.src[lo:hi]...)
	t.n += hi - lo
}

func (p *parser) textToBuf() {
	t := &p.text
	if t.buffered {
		return
	}
	start := len(p.buf)
	p.buf = append(p.buf, p.src[t.off:t.off+t.n]...)
	t.off, t.buffered = start, true
}

func (p *parser) flushText() error {
	t := &p.text
	if !t.active {
		return nil
	}
	t.active = false
	if t.n == 0 {
		return nil
	}
	if t.n > p.lim.MaxTextLen {
		return &LimitError{Limit: "MaxTextLen", Max: int64(p.lim.MaxTextLen), Line: int(t.line)}
	}
	if len(p.d.nodes) >= p.lim.MaxNodes {
		return &LimitError{Limit: "MaxNodes", Max: int64(p.lim.MaxNodes), Line: int(t.line)}
	}
	id := NodeID(len(p.d.nodes))
	n := uint32(t.n)
	if t.buffered {
		n |= inBuf
	}
	p.d.nodes = append(p.d.nodes, node{kind: KindText, first: None, last: None, next: None, nextEl: None, name: -1, raw: -1, off: uint32(t.off), n: n, line: t.line})
	p.link(id)
	return nil
}

// scanText consumes character data up to the next '<'.
func (p *parser) scanText(pos int) (int, error) {
	s := p.src
	p.beginText(pos)
	run, i := pos, pos
	var err error
	for {
		for i < len(s) && charClass[s[i]]&cTextStop == 0 {
			i++
		}
		if i >= len(s) {
			p.addLit(run, i)
			return i, nil
		}
		switch c := s[i]; {
		case c == '<':
			p.addLit(run, i)
			return i, nil
		case c == '\n':
			p.line++
			i++
		case c == ']':
			if strings.HasPrefix(s[i:], "]]>") {
				return 0, p.syntaxErr(i, "']]>' is not allowed in character data")
			}
			i++
		case c == '&':
			p.addLit(run, i)
			p.textToBuf()
			before := len(p.buf)
			if p.buf, i, err = p.appendRef(p.buf, i); err != nil {
				return 0, err
			}
			p.text.n += len(p.buf) - before
			run = i
		case c == '\r':
			p.addLit(run, i)
			p.textToBuf()
			p.buf = append(p.buf, '\n')
			p.text.n++
			p.line++
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			run = i
		case c >= utf8.RuneSelf:
			if i, err = p.checkRune(i); err != nil {
				return 0, err
			}
		default:
			return 0, p.syntaxErr(i, "illegal character %U", rune(c))
		}
	}
}

func (p *parser) cdata(pos int) (int, error) {
	s := p.src
	body := pos + len("<![CDATA[")
	j := strings.Index(s[body:], "]]>")
	if j < 0 {
		return 0, p.syntaxErr(pos, "unterminated CDATA section")
	}
	end := body + j
	if err := p.validateSpan(body, end); err != nil {
		return 0, err
	}
	p.beginText(body)
	p.line += int32(p.countLines(body, end))
	for lo := body; lo < end; {
		k := strings.IndexByte(s[lo:end], '\r')
		if k < 0 {
			p.addLit(lo, end)
			break
		}
		p.addLit(lo, lo+k)
		p.textToBuf()
		p.buf = append(p.buf, '\n')
		p.text.n++
		lo += k + 1
		if lo < end && s[lo] == '\n' {
			lo++
		}
	}
	return end + 3, nil
}

// ---- comments and processing instructions ----

func (p *parser) comment(pos int) (int, error) {
	s := p.src
	body := pos + 4
	j := strings.Index(s[body:], "--")
	if j < 0 {
		return 0, p.syntaxErr(pos, "unterminated comment")
	}
	end := body + j
	if end+2 >= len(s) || s[end+2] != '>' {
		if end+2 >= len(s) {
			return 0, p.syntaxErr(pos, "unterminated comment")
		}
		return 0, p.syntaxErr(end, "'--' is not allowed inside a comment")
	}
	if err := p.validateSpan(body, end); err != nil {
		return 0, err
	}
	if err := p.leafNode(KindComment, pos, body, end, -1, -1); err != nil {
		return 0, err
	}
	p.line += int32(p.countLines(body, end))
	return end + 3, nil
}

func (p *parser) pi(pos int) (int, error) {
	s := p.src
	tStart := pos + 2
	tEnd, colon, err := p.scanName(tStart)
	if err != nil {
		return 0, err
	}
	target := s[tStart:tEnd]
	if colon >= 0 {
		return 0, p.syntaxErr(tStart, "processing instruction target %s must not contain ':'", target)
	}
	if strings.EqualFold(target, "xml") {
		return 0, p.syntaxErr(pos, "the XML declaration is only allowed at the very start of the document")
	}
	i := tEnd
	body := i
	for i < len(s) && charClass[s[i]]&cSpace != 0 {
		i++
	}
	piLine := p.line
	if i == body && !strings.HasPrefix(s[i:], "?>") {
		return 0, p.syntaxErr(i, "expected whitespace or '?>' after processing instruction target %s", target)
	}
	body = i
	j := strings.Index(s[body:], "?>")
	if j < 0 {
		return 0, p.syntaxErr(pos, "unterminated processing instruction")
	}
	end := body + j
	if err := p.validateSpan(body, end); err != nil {
		return 0, err
	}
	raw := p.internRaw(target, -1)
	if err := p.leafNode(KindPI, pos, body, end, p.internName("", target), raw); err != nil {
		return 0, err
	}
	p.line = piLine + int32(p.countLines(tEnd, end))
	return end + 2, nil
}

// leafNode adds a comment or PI node with value src[lo:hi] under p.cur.
func (p *parser) leafNode(kind Kind, pos, lo, hi int, name NameID, raw int32) error {
	if err := p.flushText(); err != nil {
		return err
	}
	if hi-lo > p.lim.MaxTextLen {
		return p.limitErr("MaxTextLen", int64(p.lim.MaxTextLen), pos)
	}
	id, err := p.newNode(kind, p.line)
	if err != nil {
		return err
	}
	off, n := p.spanValue(lo, hi)
	nd := &p.d.nodes[id]
	nd.off, nd.n, nd.name, nd.raw = off, n, name, raw
	p.link(id)
	return nil
}

// ---- positions and errors ----

// skipSpace skips white space from pos, counting line ends.
func (p *parser) skipSpace(pos int) int {
	s := p.src
	for pos < len(s) {
		switch s[pos] {
		case ' ', '\t':
		case '\n':
			p.line++
		case '\r':
			if pos+1 >= len(s) || s[pos+1] != '\n' {
				p.line++
			}
		default:
			return pos
		}
		pos++
	}
	return pos
}

// countLines counts the line ends in src[lo:hi].
func (p *parser) countLines(lo, hi int) int {
	n := strings.Count(p.src[lo:hi], "\n")
	if p.hasCR {
		n += loneCRs(p.src, lo, hi)
	}
	return n
}

// loneCRs counts the CRs in s[lo:hi] not followed by LF (each is a line end).
func loneCRs(s string, lo, hi int) int {
	n := 0
	for lo < hi {
		k := strings.IndexByte(s[lo:hi], '\r')
		if k < 0 {
			break
		}
		lo += k + 1
		if lo >= len(s) || s[lo] != '\n' {
			n++
		}
	}
	return n
}

// lineCol returns the 1-based line and column (in characters) of s[off].
func lineCol(s string, off int) (line, col int) {
	if off > len(s) {
		off = len(s)
	}
	line = 1 + strings.Count(s[:off], "\n") + loneCRs(s, 0, off)
	ls := strings.LastIndexAny(s[:off], "\r\n") + 1
	return line, 1 + utf8.RuneCountInString(s[ls:off])
}

func posErr(s string, off int, format string, args ...any) *SyntaxError {
	line, col := lineCol(s, off)
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) syntaxErr(off int, format string, args ...any) error {
	return posErr(p.src, off, format, args...)
}

func (p *parser) limitErr(limit string, max int64, off int) error {
	line, _ := lineCol(p.src, off)
	return &LimitError{Limit: limit, Max: max, Line: line}
}

// runeAt returns the character at off for messages.
func (p *parser) runeAt(off int) rune {
	if off >= len(p.src) {
		return utf8.RuneError
	}
	r, _ := utf8.DecodeRuneInString(p.src[off:])
	return r
}
