package xsd

import (
	"bytes"
	"strings"
)

// prologVerdict is what scanProlog found before the root element.
type prologVerdict int

const (
	prologNoDoctype prologVerdict = iota // the prolog was read; no DOCTYPE
	prologDoctype                        // a DOCTYPE declaration precedes the root
	prologUnknown                        // encoding not readable here; libxml2's hook decides
)

// maxPrologScan bounds the characters scanProlog reads (comments and PIs in
// a prolog are rarely long; a document with a longer prolog is left to the
// in-parser refusal).
const maxPrologScan = 1 << 20

// scanProlog looks for a DOCTYPE declaration before the root element
// (XML 1.0 production [22] prolog), without involving libxml2. It reads
// ASCII-compatible encodings (UTF-8, US-ASCII, ISO-8859-*, windows-125*) and
// UTF-16 (BOM or "<?" sniffing, XML 1.0 appendix F). Anything else (UTF-32,
// EBCDIC, other declared encodings) is prologUnknown: the SAX hook inside the
// parser then stops at the DOCTYPE before its internal subset is read.
func scanProlog(doc []byte) prologVerdict {
	var r charReader
	switch {
	case bytes.HasPrefix(doc, []byte{0xEF, 0xBB, 0xBF}):
		r = charReader{b: doc[3:], width: 1}
	case bytes.HasPrefix(doc, []byte{0, 0, 0xFE, 0xFF}), bytes.HasPrefix(doc, []byte{0xFF, 0xFE, 0, 0}),
		bytes.HasPrefix(doc, []byte{0, 0, 0, '<'}), bytes.HasPrefix(doc, []byte{'<', 0, 0, 0}),
		bytes.HasPrefix(doc, []byte{0, 0, '<', 0}), bytes.HasPrefix(doc, []byte{0, '<', 0, 0}),
		bytes.HasPrefix(doc, []byte{0x4C, 0x6F, 0xA7, 0x94}):
		return prologUnknown // UCS-4 (any byte order), EBCDIC
	case bytes.HasPrefix(doc, []byte{0xFE, 0xFF}):
		r = charReader{b: doc[2:], width: 2, bigEndian: true}
	case bytes.HasPrefix(doc, []byte{0xFF, 0xFE}):
		r = charReader{b: doc[2:], width: 2}
	case bytes.HasPrefix(doc, []byte{0, '<', 0, '?'}), bytes.HasPrefix(doc, []byte{0, '<', 0, '!'}):
		r = charReader{b: doc, width: 2, bigEndian: true}
	case bytes.HasPrefix(doc, []byte{'<', 0, '?', 0}), bytes.HasPrefix(doc, []byte{'<', 0, '!', 0}):
		r = charReader{b: doc, width: 2}
	default:
		r = charReader{b: doc, width: 1}
	}
	first := true
	for r.n < maxPrologScan {
		c, ok := r.peek(0)
		if !ok {
			return prologNoDoctype // no root element: libxml2 reports it
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			r.skip(1)
		case r.hasPrefix("<?xml") && first && isSpaceOrEnd(&r, 5):
			decl, ok := r.until("?>", true)
			if !ok {
				return r.unterminated()
			}
			if r.width == 1 && !asciiCompatible(declaredEncoding(decl)) {
				return prologUnknown
			}
		case r.hasPrefix("<?"):
			if _, ok := r.until("?>", false); !ok {
				return r.unterminated()
			}
		case r.hasPrefix("<!--"):
			r.skip(4)
			if _, ok := r.until("-->", false); !ok {
				return r.unterminated()
			}
		case r.hasPrefix("<!DOCTYPE"):
			return prologDoctype
		default:
			// The root element, or something libxml2 will reject as not
			// well-formed before any DOCTYPE could follow.
			return prologNoDoctype
		}
		first = false
	}
	return prologUnknown
}

// unterminated is the verdict when a comment or PI does not end: past the
// scan limit nothing is known; at the end of input the document is not
// well-formed and libxml2 reports it.
func (r *charReader) unterminated() prologVerdict {
	if r.n >= maxPrologScan {
		return prologUnknown
	}
	return prologNoDoctype
}

func isSpaceOrEnd(r *charReader, i int) bool {
	c, ok := r.peek(i)
	return ok && (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '?')
}

// declaredEncoding extracts encoding="..." from an XML declaration's text.
func declaredEncoding(decl string) string {
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	q := rest[0]
	j := strings.IndexByte(rest[1:], q)
	if j < 0 {
		return ""
	}
	return rest[1 : 1+j]
}

// asciiCompatible reports whether a declared encoding keeps ASCII markup
// bytes as they are, so the byte scan above saw what libxml2 will see.
func asciiCompatible(enc string) bool {
	e := strings.ToLower(enc)
	switch {
	case e == "", e == "utf-8", e == "utf8", e == "us-ascii", e == "ascii",
		e == "latin1", e == "latin-1":
		return true
	case strings.HasPrefix(e, "iso-8859-"), strings.HasPrefix(e, "iso8859-"),
		strings.HasPrefix(e, "windows-125"), strings.HasPrefix(e, "cp125"):
		return true
	}
	return false
}

// charReader reads the ASCII range of a document as 1- or 2-byte code
// units; anything else reads as a non-ASCII placeholder.
type charReader struct {
	b         []byte
	width     int
	bigEndian bool
	n         int // characters consumed
}

func (r *charReader) peek(i int) (byte, bool) {
	off := i * r.width
	if off+r.width > len(r.b) {
		return 0, false
	}
	if r.width == 1 {
		return r.b[off], true
	}
	hi, lo := r.b[off], r.b[off+1]
	if !r.bigEndian {
		hi, lo = lo, hi
	}
	if hi != 0 || lo >= 0x80 {
		return 0x80, true // non-ASCII
	}
	return lo, true
}

func (r *charReader) skip(k int) {
	k *= r.width
	if k > len(r.b) {
		k = len(r.b)
	}
	r.b = r.b[k:]
	r.n += k / r.width
}

func (r *charReader) hasPrefix(s string) bool {
	for i := 0; i < len(s); i++ {
		c, ok := r.peek(i)
		if !ok || c != s[i] {
			return false
		}
	}
	return true
}

// until consumes through the first occurrence of end and, if keep is set,
// returns the ASCII text before it.
func (r *charReader) until(end string, keep bool) (string, bool) {
	var sb strings.Builder
	for r.n < maxPrologScan {
		if r.hasPrefix(end) {
			r.skip(len(end))
			return sb.String(), true
		}
		c, ok := r.peek(0)
		if !ok {
			return "", false
		}
		if keep {
			sb.WriteByte(c)
		}
		r.skip(1)
	}
	return "", false
}
