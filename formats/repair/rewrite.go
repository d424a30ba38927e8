package repair

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// ErrUnsupportedInput is wrapped when the source bytes cannot be edited in
// place (an encoding that is not ASCII-compatible, a DOCTYPE, or tags the
// scanner does not pair with the parsed tree).
var ErrUnsupportedInput = errors.New("repair: the document cannot be edited in place")

// span is the raw content of one element: src[start:end] lies between its
// start tag and its end tag; empty elements written <a/> have start = end =
// -1.
type span struct{ start, end int }

// scanElements returns the content span of every element of src in document
// order (the order of element NodeIDs in an xmltree Document).
func scanElements(src []byte) ([]span, error) {
	var spans []span
	var stack []int
	i := 0
	for {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		skip := func(end string) error {
			k := bytes.Index(rest, []byte(end))
			if k < 0 {
				return fmt.Errorf("%w: unterminated markup at byte %d", ErrUnsupportedInput, i)
			}
			i += k + len(end)
			return nil
		}
		var err error
		switch {
		case bytes.HasPrefix(rest, []byte("<?")):
			err = skip("?>")
		case bytes.HasPrefix(rest, []byte("<!--")):
			err = skip("-->")
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			err = skip("]]>")
		case bytes.HasPrefix(rest, []byte("<!")):
			return nil, fmt.Errorf("%w: declaration at byte %d", ErrUnsupportedInput, i)
		case bytes.HasPrefix(rest, []byte("</")):
			if len(stack) == 0 {
				return nil, fmt.Errorf("%w: end tag without start at byte %d", ErrUnsupportedInput, i)
			}
			spans[stack[len(stack)-1]].end = i
			stack = stack[:len(stack)-1]
			err = skip(">")
		default:
			end, selfClosing, ok := tagEnd(src, i)
			if !ok {
				return nil, fmt.Errorf("%w: unterminated start tag at byte %d", ErrUnsupportedInput, i)
			}
			if selfClosing {
				spans = append(spans, span{-1, -1})
			} else {
				spans = append(spans, span{start: end + 1})
				stack = append(stack, len(spans)-1)
			}
			i = end + 1
		}
		if err != nil {
			return nil, err
		}
	}
	if len(stack) != 0 {
		return nil, fmt.Errorf("%w: %d elements not closed", ErrUnsupportedInput, len(stack))
	}
	return spans, nil
}

// tagEnd finds the '>' closing the start tag at src[i], skipping quoted
// attribute values.
func tagEnd(src []byte, i int) (end int, selfClosing, ok bool) {
	var quote byte
	for k := i + 1; k < len(src); k++ {
		c := src[k]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return k, src[k-1] == '/', true
		}
	}
	return 0, false, false
}

// editor collects text replacements of elements of one document.
type editor struct {
	src   []byte
	doc   *xmltree.Document
	spans []span
	ord   []int32 // element ordinal by NodeID (-1 for other nodes)
	edits []edit
}

type edit struct {
	start, end int
	text       string
}

func newEditor(src []byte, doc *xmltree.Document) (*editor, error) {
	if len(src) >= 2 && (src[0] == 0xFE || src[0] == 0xFF || src[0] == 0 || src[1] == 0) {
		return nil, fmt.Errorf("%w: UTF-16 input", ErrUnsupportedInput)
	}
	spans, err := scanElements(src)
	if err != nil {
		return nil, err
	}
	ord := make([]int32, doc.Len())
	n := int32(0)
	for id := range doc.Len() {
		ord[id] = -1
		if doc.Kind(xmltree.NodeID(id)) == xmltree.KindElement {
			ord[id] = n
			n++
		}
	}
	if int(n) != len(spans) {
		return nil, fmt.Errorf("%w: %d elements scanned, %d parsed", ErrUnsupportedInput, len(spans), n)
	}
	return &editor{src: src, doc: doc, spans: spans, ord: ord}, nil
}

// setText replaces the text of leaf element n by text, keeping the
// whitespace around it. It returns an explanation when it cannot.
func (e *editor) setText(n xmltree.NodeID, text string) (ok bool, why string) {
	sp := e.spans[e.ord[n]]
	if sp.start < 0 {
		return false, "the element is empty (<x/>); nothing is inserted"
	}
	for c := e.doc.FirstChild(n); c != xmltree.None; c = e.doc.NextSibling(c) {
		if e.doc.Kind(c) != xmltree.KindText {
			return false, "the element has child nodes other than text"
		}
	}
	raw := string(e.src[sp.start:sp.end])
	if raw != e.doc.StringValue(n) {
		return false, "the element's text uses entities, character references or CDATA; left as written"
	}
	trimmed := strings.TrimSpace(raw)
	lead := strings.Index(raw, trimmed)
	if trimmed == "" {
		lead = 0
	}
	e.edits = append(e.edits, edit{start: sp.start + lead, end: sp.start + lead + len(trimmed), text: text})
	return true, ""
}

// apply returns the source with the edits made.
func (e *editor) apply() []byte {
	sort.Slice(e.edits, func(i, j int) bool { return e.edits[i].start < e.edits[j].start })
	var out bytes.Buffer
	out.Grow(len(e.src) + 64)
	last := 0
	for _, ed := range e.edits {
		out.Write(e.src[last:ed.start])
		out.WriteString(ed.text)
		last = ed.end
	}
	out.Write(e.src[last:])
	return out.Bytes()
}
