package xmltree

import (
	"hash/maphash"
	"unicode/utf8"
)

// rawName is a qualified name as written ("cbc:ID"), interned per document so
// that each distinct spelling is resolved to an expanded name once per set of
// in-scope namespace bindings.
type rawName struct {
	s       string // substring of the source
	h       uint64
	colon   int32 // index of ':' in s, -1 if none
	xmlns   bool  // "xmlns" or "xmlns:*": a namespace declaration
	elemGen uint32
	elemID  NameID // cached resolution as an element name, valid while elemGen == parser.gen
	attrGen uint32
	attrID  NameID // cached resolution as an attribute name
}

const noGen = ^uint32(0)

// nameSeed is the seed of every name hash of the process (set once, never
// written): a document's expanded names carry their hash
// (Document.NameHash), so a table of names keyed by NameHash, such as a
// rule set's catalog, resolves a document's names without hashing them
// again. It is random per process, as a map's seed is per map.
var nameSeed = maphash.MakeSeed()

// NameHash returns the hash of the expanded name {space}local, as
// Document.NameHash gives it for the document's names.
func NameHash(space, local string) uint64 {
	return maphash.String(nameSeed, local) ^ maphash.String(nameSeed, space)*0x9E3779B97F4A7C15
}

// ASCII character classes.
const (
	cNameStart = 1 << iota // NameStartChar minus ':'
	cName                  // NameChar minus ':'
	cSpace                 // S
	cTextStop              // stops the fast text scan
	cAttrStop              // stops the fast attribute-value scan (besides the quote)
	cIllegal               // not an XML Char
)

var charClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			t[c] |= cNameStart | cName
		case c >= '0' && c <= '9', c == '-', c == '.':
			t[c] |= cName
		}
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			t[c] |= cIllegal | cTextStop | cAttrStop
		}
		if c >= 0x80 {
			t[c] |= cTextStop | cAttrStop
		}
	}
	for _, c := range []byte{' ', '\t', '\n', '\r'} {
		t[c] |= cSpace
	}
	for _, c := range []byte{'<', '&', '\r', '\n', ']'} {
		t[c] |= cTextStop
	}
	for _, c := range []byte{'<', '&', '\t', '\n', '\r', '"', '\''} {
		t[c] |= cAttrStop
	}
	return t
}()

// isChar reports whether r is an XML 1.0 Char.
func isChar(r rune) bool {
	switch {
	case r < 0x20:
		return r == 0x9 || r == 0xA || r == 0xD
	case r <= 0xD7FF:
		return true
	case r < 0xE000:
		return false
	case r <= 0xFFFD:
		return true
	case r < 0x10000:
		return false
	default:
		return r <= 0x10FFFF
	}
}

// isNameStartRune reports whether a non-ASCII rune is a NameStartChar.
func isNameStartRune(r rune) bool {
	switch {
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

// isNameRune reports whether a non-ASCII rune is a NameChar.
func isNameRune(r rune) bool {
	return isNameStartRune(r) || r == 0xB7 || (r >= 0x300 && r <= 0x36F) || (r >= 0x203F && r <= 0x2040)
}

// scanName scans a QName starting at pos. It returns the end offset and the
// index of the colon relative to pos (-1 if none).
func (p *parser) scanName(pos int) (end, colon int, err error) {
	s := p.src
	i := pos
	colon = -1
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if charClass[c]&cName != 0 {
				if i == pos && charClass[c]&cNameStart == 0 {
					return 0, 0, p.syntaxErr(i, "invalid name start character %q", c)
				}
				i++
				continue
			}
			if c == ':' {
				if colon >= 0 || i == pos {
					return 0, 0, p.syntaxErr(i, "invalid qualified name: unexpected ':'")
				}
				colon = i - pos
				i++
				if i >= len(s) || !p.nameStartAt(i) {
					return 0, 0, p.syntaxErr(i, "invalid qualified name: ':' must be followed by a name start character")
				}
				continue
			}
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return 0, 0, p.syntaxErr(i, "invalid UTF-8")
		}
		if i == pos {
			if !isNameStartRune(r) {
				return 0, 0, p.syntaxErr(i, "invalid name start character %q", r)
			}
		} else if !isNameRune(r) {
			break
		}
		i += size
	}
	if i == pos {
		if i >= len(s) {
			return 0, 0, p.syntaxErr(i, "unexpected end of input, expected a name")
		}
		return 0, 0, p.syntaxErr(i, "expected a name, found %q", p.runeAt(i))
	}
	if i-pos > p.lim.MaxNameLen {
		return 0, 0, p.limitErr("MaxNameLen", int64(p.lim.MaxNameLen), pos)
	}
	return i, colon, nil
}

// nameStartAt reports whether a NameStartChar (not ':') starts at i.
func (p *parser) nameStartAt(i int) bool {
	c := p.src[i]
	if c < utf8.RuneSelf {
		return charClass[c]&cNameStart != 0
	}
	r, _ := utf8.DecodeRuneInString(p.src[i:])
	return isNameStartRune(r)
}

// nameCharAt reports whether a NameChar (':' included) starts at i.
func (p *parser) nameCharAt(i int) bool {
	if i >= len(p.src) {
		return false
	}
	c := p.src[i]
	if c < utf8.RuneSelf {
		return charClass[c]&cName != 0 || c == ':'
	}
	r, _ := utf8.DecodeRuneInString(p.src[i:])
	return isNameRune(r)
}

// internRaw returns the index of the raw name s (a substring of the source).
// A small direct-mapped cache of recent spellings, verified by comparison,
// skips hashing for the names that repeat on every line of an invoice.
func (p *parser) internRaw(s string, colon int) int32 {
	slot := (uint(len(s))*31 + uint(s[0])*7 + uint(s[len(s)-1])) & uint(len(p.recent)-1)
	if e := p.recent[slot]; e > 0 && p.raws[e-1].s == s {
		return e - 1
	}
	idx := p.internRawSlow(s, colon)
	p.recent[slot] = idx + 1
	return idx
}

func (p *parser) internRawSlow(s string, colon int) int32 {
	h := maphash.String(nameSeed, s)
	mask := uint64(len(p.rawIx) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := p.rawIx[i]
		if e == 0 {
			idx := int32(len(p.raws))
			p.raws = append(p.raws, rawName{
				s: s, h: h, colon: int32(colon),
				xmlns:   s == "xmlns" || (colon == 5 && s[:5] == "xmlns"),
				elemGen: noGen, attrGen: noGen, elemID: -1, attrID: -1,
			})
			p.rawIx[i] = idx + 1
			if len(p.raws)*2 > len(p.rawIx) {
				p.growRawIx()
			}
			return idx
		}
		if r := &p.raws[e-1]; r.h == h && r.s == s {
			return e - 1
		}
	}
}

func (p *parser) growRawIx() {
	ix := make([]int32, len(p.rawIx)*2)
	mask := uint64(len(ix) - 1)
	for k := range p.raws {
		i := p.raws[k].h & mask
		for ix[i] != 0 {
			i = (i + 1) & mask
		}
		ix[i] = int32(k) + 1
	}
	p.rawIx = ix
}

// internName returns the id of the expanded name {space}local.
func (p *parser) internName(space, local string) NameID {
	d := p.d
	h := NameHash(space, local)
	mask := uint64(len(d.nameIx) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := d.nameIx[i]
		if e == 0 {
			id := NameID(len(d.names))
			d.names = append(d.names, qname{space: space, local: local, h: h})
			d.nameIx[i] = int32(id) + 1
			if len(d.names)*2 > len(d.nameIx) {
				p.growNameIx()
			}
			return id
		}
		if q := &d.names[e-1]; q.local == local && q.space == space {
			return NameID(e - 1)
		}
	}
}

func (p *parser) growNameIx() {
	d := p.d
	ix := make([]int32, len(d.nameIx)*2)
	mask := uint64(len(ix) - 1)
	for k := range d.names {
		i := d.names[k].h & mask
		for ix[i] != 0 {
			i = (i + 1) & mask
		}
		ix[i] = int32(k) + 1
	}
	d.nameIx = ix
}
