package xmltree

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir returns the read-only shared data directory: $EINVOICE_SHARED or
// ../../../shared relative to this package. The test is skipped when it is
// absent, unless EINVOICE_SHARED names it explicitly.
func sharedDir(t testing.TB) string {
	return testshared.Dir(t)
}

// corpusFiles lists every XML file of the shared corpus.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	root := filepath.Join(sharedDir(t), "corpus")
	var files []string
	err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.EqualFold(filepath.Ext(path), ".xml") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking corpus: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("no XML files under %s", root)
	}
	return files
}

func mustParse(t testing.TB, src string) *Document {
	t.Helper()
	d, err := Parse([]byte(src), DefaultLimits())
	if err != nil {
		t.Fatalf("Parse(%q): %v", clip(src), err)
	}
	return d
}

// treeEvents renders the document as a token stream comparable with
// encoding/xml: start/end elements with expanded names and attributes in
// written order, merged character data, comments and PIs.
func treeEvents(d *Document) []string {
	var ev []string
	var walk func(n NodeID) // tests may recurse; the parser may not
	walk = func(n NodeID) {
		switch d.Kind(n) {
		case KindElement:
			nm := d.Name(n)
			s := fmt.Sprintf("S%d {%s}%s", d.Line(n), d.NameSpace(nm), d.NameLocal(nm))
			first, count := d.Attrs(n)
			for a := first; a < first+NodeID(count); a++ {
				an := d.Name(a)
				s += fmt.Sprintf(" {%s}%s=%q", d.NameSpace(an), d.NameLocal(an), normAttr(d.Value(a)))
			}
			ev = append(ev, s)
			for c := d.FirstChild(n); c != None; c = d.NextSibling(c) {
				walk(c)
			}
			ev = append(ev, "E")
		case KindText:
			ev = append(ev, fmt.Sprintf("T%d %q", d.Line(n), d.Value(n)))
		case KindComment:
			ev = append(ev, fmt.Sprintf("C%d %q", d.Line(n), d.Value(n)))
		case KindPI:
			ev = append(ev, fmt.Sprintf("P%d %s %q", d.Line(n), d.NameLocal(d.Name(n)), d.Value(n)))
		}
	}
	for c := d.FirstChild(0); c != None; c = d.NextSibling(c) {
		walk(c)
	}
	return ev
}

// normEOL applies XML line-end normalisation, which encoding/xml skips for
// comments, PIs and attribute values.
func normEOL(s string) string {
	return string(appendNormalized(nil, s))
}

func normAttr(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, normEOL(s))
}

// stdEvents renders the same stream from encoding/xml.
func stdEvents(data []byte) ([]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "iso-8859-1") {
			b, err := io.ReadAll(r)
			return strings.NewReader(latin1ToUTF8(string(b))), err
		}
		return nil, fmt.Errorf("charset %s", label)
	}
	var ev []string
	depth := 0
	var text strings.Builder
	inText := false
	textLine := 0
	flush := func() {
		if inText {
			ev = append(ev, fmt.Sprintf("T%d %q", textLine, text.String()))
			text.Reset()
			inText = false
		}
	}
	lines := lineCounter{data: data, line: 1}
	for {
		line := lines.at(int(dec.InputOffset()))
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			flush()
			s := fmt.Sprintf("S%d {%s}%s", line, tk.Name.Space, tk.Name.Local)
			for _, a := range tk.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue
				}
				s += fmt.Sprintf(" {%s}%s=%q", a.Name.Space, a.Name.Local, normAttr(a.Value))
			}
			ev = append(ev, s)
			depth++
		case xml.EndElement:
			flush()
			ev = append(ev, "E")
			depth--
		case xml.CharData:
			if depth > 0 && len(tk) > 0 {
				if !inText {
					textLine = line
				}
				text.Write(tk)
				inText = true
			}
		case xml.Comment:
			flush()
			ev = append(ev, fmt.Sprintf("C%d %q", line, normEOL(string(tk))))
		case xml.ProcInst:
			if tk.Target == "xml" {
				continue
			}
			flush()
			ev = append(ev, fmt.Sprintf("P%d %s %q", line, tk.Target, normEOL(string(tk.Inst))))
		case xml.Directive:
			return nil, fmt.Errorf("directive <!%s>", tk)
		}
	}
	flush()
	return ev, nil
}

// lineCounter is the obviously-correct line of data[off] for increasing
// offsets: LF, CRLF and lone CR each end a line.
type lineCounter struct {
	data []byte
	off  int
	line int
}

func (c *lineCounter) at(off int) int {
	for ; c.off < off && c.off < len(c.data); c.off++ {
		if b := c.data[c.off]; b == '\n' || (b == '\r' && (c.off+1 >= len(c.data) || c.data[c.off+1] != '\n')) {
			c.line++
		}
	}
	return c.line
}
