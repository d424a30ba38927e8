package engine

import (
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// locationForm says how finding locations are written.
type locationForm uint8

const (
	// locXSLT2 is the reference's form for queryBinding xslt2: local names
	// with 1-based positions, /Invoice[1]/InvoiceLine[2] (xmltree Path).
	locXSLT2 locationForm = iota
	// locXSLT1 is the ISO skeleton's XSLT 1 form, used for schemas without
	// a queryBinding (e.g. Order-X): /*[local-name()='X' and
	// namespace-uri()='U'], a position only when a sibling has the same
	// local name, attributes as @name or @*[local-name()=... and namespace-uri()=...].
	locXSLT1
)

func formFor(queryBinding string) locationForm {
	switch strings.ToLower(queryBinding) {
	case "", "xslt", "xpath", "exslt":
		return locXSLT1
	}
	return locXSLT2
}

func location(form locationForm, doc *xmltree.Document, n xmltree.NodeID) string {
	if form == locXSLT2 {
		return doc.Path(n)
	}
	var steps []string
	for m := n; m != xmltree.None && doc.Kind(m) != xmltree.KindDocument; m = doc.Parent(m) {
		switch doc.Kind(m) {
		case xmltree.KindElement:
			steps = append(steps, xslt1Step(doc, m))
		case xmltree.KindAttribute:
			id := doc.Name(m)
			if ns := doc.NameSpace(id); ns != "" {
				steps = append(steps, "@*[local-name()='"+doc.NameLocal(id)+"' and namespace-uri()='"+ns+"']")
			} else {
				steps = append(steps, "@"+doc.NameLocal(id))
			}
		default:
			// Text, comments, PIs are never rule contexts here.
			steps = append(steps, "node()")
		}
	}
	if len(steps) == 0 {
		return "/"
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(steps[i])
	}
	return b.String()
}

// xslt1Step renders one element step: name() (no namespace) or
// *[local-name()='L' and namespace-uri()='U'], followed by [p] when a
// preceding or following sibling element has the same name (no namespace) or
// the same local name (namespaced), as the skeleton counts them.
func xslt1Step(doc *xmltree.Document, n xmltree.NodeID) string {
	id := doc.Name(n)
	local, ns := doc.NameLocal(id), doc.NameSpace(id)
	same := func(m xmltree.NodeID) bool {
		if doc.Kind(m) != xmltree.KindElement {
			return false
		}
		mid := doc.Name(m)
		if ns == "" {
			return doc.NameLocal(mid) == local && doc.Prefix(m) == doc.Prefix(n)
		}
		return doc.NameLocal(mid) == local
	}
	pos, following := 1, false
	for m := doc.PrevSibling(n); m != xmltree.None; m = doc.PrevSibling(m) {
		if same(m) {
			pos++
		}
	}
	for m := doc.NextSibling(n); m != xmltree.None && !following; m = doc.NextSibling(m) {
		following = same(m)
	}
	var s string
	if ns == "" {
		s = local
	} else {
		s = "*[local-name()='" + local + "' and namespace-uri()='" + ns + "']"
	}
	if pos > 1 || following {
		s += "[" + strconv.Itoa(pos) + "]"
	}
	return s
}
