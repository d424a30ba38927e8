package xsd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Schemas compiled for one instance document (Options.Instance).
//
// Compiling UBL 2.1's Invoice schema takes libxml2 36-38 ms, nearly all of
// it building the 1,101 named complex types of the common aggregate and
// basic components; an invoice uses a few dozen of them. A one-document
// process (the CLI) pays that on its critical path.
//
// Validating an instance only ever uses the declarations of the elements it
// contains: an element declaration whose name occurs nowhere in the
// document is only a particle of its parent's content model, which matches
// by name (and substitution group) alone. So such a declaration can take
// the type xs:anyType without changing any verdict or message, and a named
// complex type no remaining declaration or derivation refers to can be
// dropped. The pruned documents are handed to libxml2 from memory, under
// their own paths (relative locations and messages unchanged).
//
// The pruning is conservative, and anything it does not understand makes it
// step aside (the full schema is compiled):
//   - names are compared by local name only (an element {a}x keeps every
//     declaration named x, and a reference to any type named t keeps every
//     complex type named t);
//   - declarations with substitutionGroup, default or fixed are kept, and
//     so are those with an inline type (they have no type attribute);
//   - an instance with xsi:type, or a schema set with xs:redefine,
//     xs:override, a DOCTYPE or a markup the scanner does not read, is not
//     pruned;
//   - only top-level named complex types of documents with a target
//     namespace are dropped.
//
// TestPrunedSameFindingsAsFull holds the pruned schema to the full one over
// the corpus and broken variants of it.

// Instance describes the one document a schema is compiled for.
type Instance struct {
	// Elements holds the local name of every element of the document.
	Elements map[string]bool
	// XsiType reports an xsi:type attribute in the document: it may name
	// any type, so the schema is then compiled whole.
	XsiType bool
}

// maxPruneFiles bounds the schema documents the pruner reads.
const maxPruneFiles = 256

// schemaDoc is one scanned schema document.
type schemaDoc struct {
	path   string
	src    []byte
	tns    string // targetNamespace, "" when none
	opaque bool   // has a DTD: read for its references, never rewritten
	decls  []elemDecl
	types  []typeDef // top-level named complex types
	refs   []typeRef // type and base attributes of XSD elements
	locs   []string  // schemaLocation of imports and includes, as written
}

// elemDecl is an xs:element with a name and a type attribute.
type elemDecl struct {
	name       string
	val        span // the type attribute's value
	xsdPrefix  string
	inType     int // enclosing top-level complex type (index in types), or -1
	prunable   bool
	substGroup bool
}

type typeDef struct {
	name string
	at   span // the whole element, start tag to end tag
}

type typeRef struct {
	local  string
	inType int
	decl   int // the declaration whose type attribute this is, or -1
}

type span struct{ start, end int }

var errNoPrune = errors.New("xsd: schema set not prunable")

// pruneSet reads the schema documents reachable from roots (resolved as
// libxml2 would: relative locations against the including document, then
// resolve) and returns the pruned contents of the documents it changed, by
// canonical path. It returns errNoPrune (or a read error) when it steps
// aside.
func pruneSet(roots []string, inst *Instance, resolve func(string) (string, bool)) (map[string][]byte, error) {
	if inst == nil || inst.XsiType || inst.Elements == nil {
		return nil, errNoPrune
	}
	var docs []*schemaDoc
	seen := map[string]bool{}
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if len(seen) > maxPruneFiles {
			return nil, errNoPrune
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		d, err := scanSchema(p, src)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
		for _, loc := range d.locs {
			target := loc
			if !hasScheme(loc) && !filepath.IsAbs(loc) {
				target = filepath.Join(filepath.Dir(p), filepath.FromSlash(loc))
			}
			next, ok := resolve(target)
			if !ok {
				return nil, errNoPrune
			}
			queue = append(queue, next)
		}
	}
	// Declarations of names the instance lacks give up their type.
	for _, d := range docs {
		for i := range d.decls {
			e := &d.decls[i]
			e.prunable = !d.opaque && !e.substGroup && !inst.Elements[e.name]
		}
	}
	// Drop every complex type nothing live refers to, until none is left.
	removed := make([][]bool, len(docs))
	for i, d := range docs {
		removed[i] = make([]bool, len(d.types))
	}
	for changed := true; changed; {
		changed = false
		live := map[string]bool{}
		for i, d := range docs {
			for _, r := range d.refs {
				if r.inType >= 0 && removed[i][r.inType] {
					continue
				}
				if r.decl >= 0 && d.decls[r.decl].prunable {
					continue
				}
				live[r.local] = true
			}
		}
		for i, d := range docs {
			if d.tns == "" || d.opaque {
				continue
			}
			for k, t := range d.types {
				if !removed[i][k] && !live[t.name] {
					removed[i][k] = true
					changed = true
				}
			}
		}
	}
	out := map[string][]byte{}
	for i, d := range docs {
		if b, ok := d.rewrite(removed[i]); ok {
			out[d.path] = b
		}
	}
	return out, nil
}

// rewrite applies the pruning to d; ok is false when nothing changed.
func (d *schemaDoc) rewrite(removed []bool) ([]byte, bool) {
	type edit struct {
		at   span
		with string
	}
	var edits []edit
	for k, t := range d.types {
		if removed[k] {
			edits = append(edits, edit{t.at, ""})
		}
	}
	for _, e := range d.decls {
		if e.prunable && (e.inType < 0 || !removed[e.inType]) {
			edits = append(edits, edit{e.val, qualify(e.xsdPrefix, "anyType")})
		}
	}
	if len(edits) == 0 {
		return nil, false
	}
	// Spans are disjoint or nested (a declaration inside a dropped type is
	// not edited): sorted by start, each one starts after the previous end.
	slices.SortFunc(edits, func(a, b edit) int { return a.at.start - b.at.start })
	var b bytes.Buffer
	b.Grow(len(d.src))
	pos := 0
	for _, e := range edits {
		b.Write(d.src[pos:e.at.start])
		b.WriteString(e.with)
		pos = e.at.end
	}
	b.Write(d.src[pos:])
	return b.Bytes(), true
}

func qualify(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// scanSchema reads the markup of a schema document: the declarations,
// type definitions, type references and locations pruneSet needs. It is
// not a validating parser: libxml2 reads the document afterwards; anything
// unusual is errNoPrune.
func scanSchema(path string, src []byte) (*schemaDoc, error) {
	d := &schemaDoc{path: path, src: src}
	type open struct {
		local   string // local name when in the XSD namespace, else ""
		ns      map[string]string
		typeIdx int // index in d.types when a top-level named complex type
		start   int
	}
	var stack []open
	lastPrefix := ""
	type attr struct {
		name, val []byte
		at        span
	}
	var attrs []attr
	nsOf := func(prefix string) (string, bool) {
		for i := len(stack) - 1; i >= 0; i-- {
			if u, ok := stack[i].ns[prefix]; ok {
				return u, true
			}
		}
		if prefix == "xml" {
			return "http://www.w3.org/XML/1998/namespace", true
		}
		return "", prefix == ""
	}
	inType := func() int {
		if len(stack) >= 2 {
			return stack[1].typeIdx
		}
		return -1
	}
	i := 0
	rootSeen := false
	for i < len(src) {
		lt := bytes.IndexByte(src[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		rest := src[i:]
		if n := skipMarkup(rest); n != 0 {
			if n < 0 {
				return nil, errNoPrune
			}
			i += n
			continue
		}
		switch {
		case bytes.HasPrefix(rest, []byte("<!DOCTYPE")) && !rootSeen && !d.opaque:
			// A DTD (the xmldsig schema has one, with entities and a
			// defaulted xmlns:ds) can change what the markup means: the
			// document is read only for its references and locations, and
			// left as it is (opaque).
			end := doctypeEnd(rest)
			if end < 0 {
				return nil, errNoPrune
			}
			d.opaque = true
			i += end
			continue
		case bytes.HasPrefix(rest, []byte("<!")):
			return nil, errNoPrune
		case bytes.HasPrefix(rest, []byte("</")):
			end := bytes.IndexByte(rest, '>')
			if end < 0 || len(stack) == 0 {
				return nil, errNoPrune
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.typeIdx >= 0 && len(stack) == 1 {
				d.types[top.typeIdx].at = span{top.start, i + end + 1}
			}
			i += end + 1
			continue
		}
		// A start tag.
		start := i
		j := i + 1
		name := scanName(src[j:])
		if len(name) == 0 {
			return nil, errNoPrune
		}
		j += len(name)
		attrs = attrs[:0]
		selfClosing := false
		for {
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j >= len(src) {
				return nil, errNoPrune
			}
			if src[j] == '>' {
				j++
				break
			}
			if src[j] == '/' && j+1 < len(src) && src[j+1] == '>' {
				selfClosing = true
				j += 2
				break
			}
			an := scanName(src[j:])
			if len(an) == 0 {
				return nil, errNoPrune
			}
			j += len(an)
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j >= len(src) || src[j] != '=' {
				return nil, errNoPrune
			}
			j++
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j >= len(src) || (src[j] != '"' && src[j] != '\'') {
				return nil, errNoPrune
			}
			q := src[j]
			end := bytes.IndexByte(src[j+1:], q)
			if end < 0 {
				return nil, errNoPrune
			}
			v := span{j + 1, j + 1 + end}
			attrs = append(attrs, attr{an, src[v.start:v.end], v})
			j = v.end + 1
		}
		ns := map[string]string(nil)
		for _, a := range attrs {
			switch {
			case string(a.name) == "xmlns":
				ns = setNS(ns, "", string(a.val))
			case bytes.HasPrefix(a.name, []byte("xmlns:")):
				ns = setNS(ns, string(a.name[len("xmlns:"):]), string(a.val))
			}
		}
		stack = append(stack, open{ns: ns, typeIdx: -1, start: start})
		pb, lb := name[:0], name
		if k := bytes.IndexByte(name, ':'); k >= 0 {
			pb, lb = name[:k], name[k+1:]
		}
		if string(pb) != lastPrefix { // one allocation per prefix change, not per tag
			lastPrefix = string(pb)
		}
		prefix, local := lastPrefix, xsdLocal(lb)
		if u, ok := nsOf(prefix); !ok && !d.opaque {
			return nil, errNoPrune
		} else if u == xsdNamespace || (!ok && d.opaque) {
			// (An opaque document's prefixes may be bound by its DTD: its
			// elements are taken as XSD ones, which only adds references.)
			stack[len(stack)-1].local = local
		}
		get := func(n string) (attr, bool) {
			for _, a := range attrs {
				if string(a.name) == n {
					return a, true
				}
			}
			return attr{}, false
		}
		depth := len(stack) - 1
		xl := stack[len(stack)-1].local
		if depth == 0 {
			if rootSeen || xl != "schema" {
				return nil, errNoPrune
			}
			rootSeen = true
			if a, ok := get("targetNamespace"); ok {
				d.tns = string(a.val)
			}
		}
		switch xl {
		case "redefine", "override":
			return nil, errNoPrune
		case "import", "include":
			if a, ok := get("schemaLocation"); ok {
				if bytes.IndexByte(a.val, '&') >= 0 {
					return nil, errNoPrune
				}
				d.locs = append(d.locs, string(a.val))
			}
		case "complexType":
			if a, ok := get("name"); ok && depth == 1 {
				if selfClosing {
					d.types = append(d.types, typeDef{name: string(a.val), at: span{start, j}})
				} else {
					stack[len(stack)-1].typeIdx = len(d.types)
					d.types = append(d.types, typeDef{name: string(a.val)})
				}
			}
		}
		if xl != "" {
			for _, a := range attrs {
				if string(a.name) != "type" && string(a.name) != "base" {
					continue
				}
				l := strings.TrimSpace(string(a.val))
				if k := strings.LastIndexAny(l, ":;"); k >= 0 {
					l = l[k+1:] // prefix:local, or &entity;local in an opaque document
				}
				ref := typeRef{local: l, inType: inType(), decl: -1}
				if xl == "element" && string(a.name) == "type" {
					if nm, ok := get("name"); ok {
						_, hasSG := get("substitutionGroup")
						_, hasDef := get("default")
						_, hasFix := get("fixed")
						ref.decl = len(d.decls)
						d.decls = append(d.decls, elemDecl{name: string(nm.val), val: a.at, xsdPrefix: prefix,
							inType: ref.inType, substGroup: hasSG || hasDef || hasFix})
					}
				}
				d.refs = append(d.refs, ref)
			}
		}
		if selfClosing {
			stack = stack[:len(stack)-1]
		}
		i = j
	}
	if len(stack) != 0 || !rootSeen {
		return nil, errNoPrune
	}
	for _, t := range d.types {
		if t.at.end == 0 {
			return nil, fmt.Errorf("%w: %s: complex type %s not closed", errNoPrune, path, t.name)
		}
	}
	return d, nil
}

func setNS(m map[string]string, prefix, uri string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[prefix] = uri
	return m
}

// xsdLocal returns the local name of an XSD element as the scanner needs
// it: the names it acts on, or "xsd" for any other (without allocating).
func xsdLocal(b []byte) string {
	switch string(b) {
	case "schema":
		return "schema"
	case "element":
		return "element"
	case "complexType":
		return "complexType"
	case "import":
		return "import"
	case "include":
		return "include"
	case "redefine":
		return "redefine"
	case "override":
		return "override"
	}
	return "xsd"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// scanName returns the XML name at the start of b (ASCII delimiters; any
// byte >= 0x80 is taken as a name character).
func scanName(b []byte) []byte {
	n := 0
	for n < len(b) {
		c := b[n]
		if isSpace(c) || c == '=' || c == '>' || c == '/' || c == '<' || c == '"' || c == '\'' {
			break
		}
		n++
	}
	return b[:n]
}

// skipMarkup returns the length of the comment, CDATA section or
// processing instruction at the start of b, 0 when there is none, -1 when
// it is not closed.
func skipMarkup(b []byte) int {
	for _, m := range [...]struct{ open, close string }{{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}} {
		if bytes.HasPrefix(b, []byte(m.open)) {
			end := bytes.Index(b, []byte(m.close))
			if end < 0 {
				return -1
			}
			return end + len(m.close)
		}
	}
	return 0
}

// doctypeEnd returns the length of the DOCTYPE declaration at the start of
// b (internal subset included), or -1. Quoted literals and comments in the
// subset are skipped, so a ']' or '>' inside them does not end it.
func doctypeEnd(b []byte) int {
	inSubset := false
	for i := len("<!DOCTYPE"); i < len(b); i++ {
		switch c := b[i]; {
		case c == '"' || c == '\'':
			end := bytes.IndexByte(b[i+1:], c)
			if end < 0 {
				return -1
			}
			i += end + 1
		case inSubset && bytes.HasPrefix(b[i:], []byte("<!--")):
			end := bytes.Index(b[i:], []byte("-->"))
			if end < 0 {
				return -1
			}
			i += end + 2
		case c == '[' && !inSubset:
			inSubset = true
		case c == ']' && inSubset:
			inSubset = false
		case c == '>' && !inSubset:
			return i + 1
		}
	}
	return -1
}
