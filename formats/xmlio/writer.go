package xmlio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Namespace is a prefix binding declared on the root element. An empty
// Prefix declares the default namespace.
type Namespace struct {
	Prefix, URI string
}

// Attr is an attribute as written: Name is the qualified name ("currencyID",
// "xsi:type"), Value the unescaped value.
type Attr struct {
	Name, Value string
}

// Options configure a Writer.
type Options struct {
	// Indent, when non-empty, puts every element on its own line indented
	// by Indent per level. Leaf elements keep their text on the same line.
	Indent string
	// OmitDeclaration suppresses the <?xml version="1.0" encoding="UTF-8"?>
	// declaration.
	OmitDeclaration bool
}

// ErrInvalidChar is wrapped by the errors of a Writer that was given text
// XML 1.0 cannot represent (control characters, invalid UTF-8).
var ErrInvalidChar = errors.New("xmlio: character not allowed in XML")

// InvalidChar returns the first character of s that XML 1.0 cannot carry
// (a control character other than tab, line feed and carriage return, a
// surrogate, U+FFFE, U+FFFF, or a byte of invalid UTF-8, returned as
// utf8.RuneError) and its byte offset; ok is false when there is none.
func InvalidChar(s string) (r rune, at int, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return rune(c), i, true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !xmlRune(r, size) {
			return r, i, true
		}
		i += size
	}
	return 0, 0, false
}

// xmlRune reports whether a decoded non-ASCII rune (of size bytes) is an
// XML 1.0 character.
func xmlRune(r rune, size int) bool {
	return !((r == utf8.RuneError && size == 1) || r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF))
}

// ErrUnbalanced is wrapped by Close when elements are still open, or by End
// when none is.
var ErrUnbalanced = errors.New("xmlio: unbalanced elements")

// Writer streams an XML document. Its methods record the first error and
// become no-ops afterwards; Close returns it. A Writer is not safe for
// concurrent use.
type Writer struct {
	w       *bufio.Writer
	opts    Options
	stack   []string
	open    bool // a start tag is open ('>' not yet written)
	hasText bool // the current element received text (no indentation before its end tag)
	started bool
	err     error
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer, opts Options) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 8192), opts: opts, stack: make([]string, 0, 16)}
}

// Err returns the first error met so far.
func (w *Writer) Err() error { return w.err }

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *Writer) closeStart() {
	if w.open {
		w.w.WriteByte('>')
		w.open = false
	}
}

func (w *Writer) newline(depth int) {
	if w.opts.Indent == "" {
		return
	}
	w.w.WriteByte('\n')
	for range depth {
		w.w.WriteString(w.opts.Indent)
	}
}

// Root opens the document element and declares ns on it, in the given
// order. It must be the first element written.
func (w *Writer) Root(name string, ns []Namespace, attrs ...Attr) {
	if w.err != nil {
		return
	}
	if w.started {
		w.fail(fmt.Errorf("xmlio: Root(%q) after the document element was started: %w", name, ErrUnbalanced))
		return
	}
	w.started = true
	if !w.opts.OmitDeclaration {
		w.w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>`)
		if w.opts.Indent != "" {
			w.w.WriteByte('\n')
		}
	}
	w.w.WriteByte('<')
	w.w.WriteString(name)
	for _, n := range ns {
		if n.Prefix == "" {
			w.w.WriteString(` xmlns="`)
		} else {
			w.w.WriteString(" xmlns:")
			w.w.WriteString(n.Prefix)
			w.w.WriteString(`="`)
		}
		w.escape(n.URI, true)
		w.w.WriteByte('"')
	}
	w.attrs(attrs)
	w.stack = append(w.stack, name)
	w.open = true
	w.hasText = false
}

// Start opens element name (qualified, e.g. "cac:Party") with attrs.
func (w *Writer) Start(name string, attrs ...Attr) {
	if w.err != nil {
		return
	}
	if len(w.stack) == 0 {
		w.fail(fmt.Errorf("xmlio: Start(%q) outside the document element: %w", name, ErrUnbalanced))
		return
	}
	w.closeStart()
	w.newline(len(w.stack))
	w.w.WriteByte('<')
	w.w.WriteString(name)
	w.attrs(attrs)
	w.stack = append(w.stack, name)
	w.open = true
	w.hasText = false
}

func (w *Writer) attrs(attrs []Attr) {
	for _, a := range attrs {
		w.w.WriteByte(' ')
		w.w.WriteString(a.Name)
		w.w.WriteString(`="`)
		w.escape(a.Value, true)
		w.w.WriteByte('"')
	}
}

// Text writes character data into the current element.
func (w *Writer) Text(s string) {
	if w.err != nil {
		return
	}
	if len(w.stack) == 0 {
		w.fail(fmt.Errorf("xmlio: Text outside the document element: %w", ErrUnbalanced))
		return
	}
	w.closeStart()
	w.escape(s, false)
	w.hasText = true
}

// End closes the innermost open element; an element without content is
// written as an empty-element tag.
func (w *Writer) End() {
	if w.err != nil {
		return
	}
	if len(w.stack) == 0 {
		w.fail(fmt.Errorf("xmlio: End without an open element: %w", ErrUnbalanced))
		return
	}
	name := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	if w.open {
		w.w.WriteString("/>")
		w.open = false
		w.hasText = false
		return
	}
	if !w.hasText {
		w.newline(len(w.stack))
	}
	w.w.WriteString("</")
	w.w.WriteString(name)
	w.w.WriteByte('>')
	w.hasText = false
}

// Element writes <name attrs>text</name> (an empty-element tag if text is
// empty).
func (w *Writer) Element(name, text string, attrs ...Attr) {
	w.Start(name, attrs...)
	if text != "" {
		w.Text(text)
	}
	w.End()
}

// Close checks that every element was closed, flushes the output and returns
// the first error met.
func (w *Writer) Close() error {
	if w.err == nil && (len(w.stack) != 0 || !w.started) {
		w.fail(fmt.Errorf("xmlio: Close with %d open elements (document started: %v): %w", len(w.stack), w.started, ErrUnbalanced))
	}
	if w.err == nil && w.opts.Indent != "" {
		w.w.WriteByte('\n')
	}
	if err := w.w.Flush(); err != nil {
		w.fail(fmt.Errorf("xmlio: flush: %w", err))
	}
	return w.err
}

// escape writes s escaped for text (attr false) or a double-quoted attribute
// value (attr true). Characters XML 1.0 cannot carry fail the writer.
func (w *Writer) escape(s string, attr bool) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !xmlRune(r, size) {
				w.fail(fmt.Errorf("xmlio: %q at byte %d: %w", s[i:i+size], i, ErrInvalidChar))
				return
			}
			i += size
			continue
		}
		var rep string
		switch c {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '"':
			if attr {
				rep = "&quot;"
			}
		case '\r':
			rep = "&#xD;"
		case '\n':
			if attr {
				rep = "&#xA;"
			}
		case '\t':
			if attr {
				rep = "&#x9;"
			}
		default:
			if c < 0x20 {
				w.fail(fmt.Errorf("xmlio: control character %#x at byte %d: %w", c, i, ErrInvalidChar))
				return
			}
		}
		if rep != "" {
			w.w.WriteString(s[last:i])
			w.w.WriteString(rep)
			last = i + 1
		}
		i++
	}
	w.w.WriteString(s[last:])
}
