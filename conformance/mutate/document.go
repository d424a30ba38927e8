package mutate

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Document is a source document indexed for mutation: the byte spans of
// every element and attribute. It is immutable and safe for concurrent use.
type Document struct {
	name  string
	src   []byte
	elems []element
	cl    *CodeLists
	cands map[Op][]cand // where each operation applies, computed once by Parse
}

type element struct {
	path      string // /Invoice[1]/AccountingSupplierParty[1]
	local     string
	depth     int
	start     int // '<' of the start tag
	startEnd  int // just after the start tag's '>'
	end       int // '<' of the end tag (== startEnd when self-closing)
	endEnd    int // just after the end tag (== startEnd when self-closing)
	selfClose bool
	leaf      bool   // no child element
	text      string // decoded text content of a leaf, untrimmed
	attrs     []attribute
}

type attribute struct {
	qname, local     string
	valStart, valEnd int // the value between the quotes, raw
	value            string
	nsDecl           bool
}

// ErrNotXML is returned by Parse when the source is not well-formed.
var ErrNotXML = errors.New("mutate: source is not well-formed XML")

// Parse indexes a well-formed source document. name identifies it in mutant
// names (e.g. its file name); cl may be nil (codes are then mutated only to
// invalid values).
func Parse(name string, src []byte, cl *CodeLists) (*Document, error) {
	d := &Document{name: name, src: src, cl: cl}
	dec := xml.NewDecoder(bytes.NewReader(src))
	dec.Strict = true
	type open struct {
		idx    int
		counts map[xml.Name]int
		text   strings.Builder
	}
	stack := []*open{{idx: -1, counts: map[xml.Name]int{}}}
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrNotXML, name, err)
		}
		after := int(dec.InputOffset())
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			top.counts[t.Name]++
			parentPath := ""
			if top.idx >= 0 {
				parentPath = d.elems[top.idx].path
				d.elems[top.idx].leaf = false
			}
			e := element{
				path:     fmt.Sprintf("%s/%s[%d]", parentPath, t.Name.Local, top.counts[t.Name]),
				local:    t.Name.Local,
				depth:    len(stack) - 1,
				start:    before,
				startEnd: after,
				leaf:     true,
			}
			attrs, err := scanAttrs(src, before, after)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrNotXML, name, err)
			}
			e.attrs = attrs
			e.selfClose = after >= 2 && src[after-2] == '/'
			d.elems = append(d.elems, e)
			stack = append(stack, &open{idx: len(d.elems) - 1, counts: map[xml.Name]int{}})
		case xml.EndElement:
			e := &d.elems[top.idx]
			if e.selfClose {
				e.end, e.endEnd = e.startEnd, e.startEnd
			} else {
				e.end, e.endEnd = before, after
			}
			if e.leaf {
				e.text = top.text.String()
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.text.Write(t)
		}
	}
	if len(d.elems) == 0 {
		return nil, fmt.Errorf("%w: %s: no element", ErrNotXML, name)
	}
	d.cands = d.candidates()
	return d, nil
}

// scanAttrs finds the attributes of the raw start tag src[start:end].
func scanAttrs(src []byte, start, end int) ([]attribute, error) {
	i := start + 1
	for i < end && !isSpace(src[i]) && src[i] != '>' && src[i] != '/' {
		i++
	}
	var out []attribute
	for {
		for i < end && isSpace(src[i]) {
			i++
		}
		if i >= end || src[i] == '>' || src[i] == '/' {
			return out, nil
		}
		n0 := i
		for i < end && src[i] != '=' && !isSpace(src[i]) {
			i++
		}
		qname := string(src[n0:i])
		for i < end && isSpace(src[i]) {
			i++
		}
		if i >= end || src[i] != '=' {
			return nil, fmt.Errorf("attribute %q without value at offset %d", qname, n0)
		}
		i++
		for i < end && isSpace(src[i]) {
			i++
		}
		if i >= end || (src[i] != '"' && src[i] != '\'') {
			return nil, fmt.Errorf("attribute %q: missing quote at offset %d", qname, i)
		}
		q := src[i]
		i++
		v0 := i
		for i < end && src[i] != q {
			i++
		}
		if i >= end {
			return nil, fmt.Errorf("attribute %q: unterminated value", qname)
		}
		raw := string(src[v0:i])
		i++
		a := attribute{qname: qname, local: localPart(qname), valStart: v0, valEnd: i - 1,
			nsDecl: qname == "xmlns" || strings.HasPrefix(qname, "xmlns:")}
		a.value = unescape(raw)
		out = append(out, a)
	}
}

func unescape(raw string) string {
	if !strings.ContainsRune(raw, '&') {
		return raw
	}
	var b strings.Builder
	dec := xml.NewDecoder(strings.NewReader("<x>" + raw + "</x>"))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
		}
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Name returns the source name given to Parse.
func (d *Document) Name() string { return d.name }

// Elements returns the number of elements.
func (d *Document) Elements() int { return len(d.elems) }

// Paths returns the path of every element in document order.
func (d *Document) Paths() []string {
	out := make([]string, len(d.elems))
	for i, e := range d.elems {
		out[i] = e.path
	}
	return out
}

func escapeText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func escapeAttr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(escapeText(s), `"`, "&quot;"), "'", "&apos;")
}

// splice returns src with [from, to) replaced by repl.
func splice(src []byte, from, to int, repl string) []byte {
	out := make([]byte, 0, len(src)-(to-from)+len(repl))
	out = append(out, src[:from]...)
	out = append(out, repl...)
	return append(out, src[to:]...)
}
