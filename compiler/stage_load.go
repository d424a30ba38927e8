package compiler

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// NSSchematron is the ISO Schematron namespace.
const NSSchematron = "http://purl.oclc.org/dsdl/schematron"

// Node is an element or text node of a loaded .sch file.
type Node struct {
	Space, Local string // element name; both empty for a text node
	Attrs        []xml.Attr
	Children     []*Node
	Text         string // text nodes only
	File         int    // index into Unit.Files
	Line         int
}

// IsText reports whether n is a text node.
func (n *Node) IsText() bool { return n.Local == "" }

// Attr returns the value of the unqualified attribute local.
func (n *Node) Attr(local string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// AttrOr returns the attribute value or "".
func (n *Node) AttrOr(local string) string {
	v, _ := n.Attr(local)
	return v
}

// isSch reports whether n is the Schematron element local.
func (n *Node) isSch(local string) bool { return n.Space == NSSchematron && n.Local == local }

func stageLoad(_ context.Context, u *Unit) error {
	root, err := u.loadFile(u.Config.Main)
	if err != nil {
		return err
	}
	if !root.isSch("schema") {
		return &Error{File: u.Config.Main, Line: root.Line, Msg: fmt.Sprintf("root element is {%s}%s, want sch:schema", root.Space, root.Local)}
	}
	u.Root = root
	return nil
}

// loadFile reads and parses one .sch file (path relative to Root) and records it in u.Files.
func (u *Unit) loadFile(rel string) (*Node, error) {
	rel = filepath.ToSlash(filepath.Clean(rel))
	data, err := os.ReadFile(filepath.Join(u.Config.Root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	idx := len(u.Files)
	u.Files = append(u.Files, rel)
	u.Data = append(u.Data, data)
	root, err := parseTree(data, idx)
	if err != nil {
		return nil, &Error{File: rel, Line: lineOf(err), Msg: "XML: " + err.Error(), Err: err}
	}
	return root, nil
}

func lineOf(err error) int {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Line
	}
	return 0
}

// parseTree builds the element tree of an XML document with line numbers.
// Comments and processing instructions are dropped; text (including CDATA)
// is kept as text nodes.
func parseTree(data []byte, file int) (*Node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charsetReader
	var stack []*Node
	var root *Node
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &Node{Space: t.Name.Space, Local: t.Name.Local, File: file, Line: line}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue
				}
				n.Attrs = append(n.Attrs, a)
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, errors.New("more than one root element")
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.Children = append(p.Children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			p := stack[len(stack)-1]
			if k := len(p.Children); k > 0 && p.Children[k-1].IsText() {
				p.Children[k-1].Text += string(t)
				continue
			}
			p.Children = append(p.Children, &Node{Text: string(t), File: file, Line: line})
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// dumpTree writes the tree as indented XML-like text with file:line.
func dumpTree(u *Unit, w io.Writer) error {
	var b strings.Builder
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		ind := strings.Repeat("  ", depth)
		if n.IsText() {
			if t := strings.TrimSpace(n.Text); t != "" {
				fmt.Fprintf(&b, "%s%q\n", ind, t)
			}
			return
		}
		fmt.Fprintf(&b, "%s<%s", ind, n.Local)
		for _, a := range n.Attrs {
			fmt.Fprintf(&b, " %s=%q", a.Name.Local, a.Value)
		}
		fmt.Fprintf(&b, ">  // %s:%d\n", u.Files[n.File], n.Line)
		for _, c := range n.Children {
			walk(c, depth+1)
		}
	}
	walk(u.Root, 0)
	_, err := io.WriteString(w, b.String())
	return err
}

// charsetReader supports the non-UTF-8 encodings official .sch files declare
// (ISO-8859-1 / Latin-1, whose bytes are the first 256 code points).
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
		data, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, c := range data {
			b.WriteRune(rune(c))
		}
		return strings.NewReader(b.String()), nil
	case "us-ascii", "ascii":
		return in, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", label)
}
