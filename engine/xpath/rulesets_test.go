package xpath

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
)

// schExpr is one XPath expression found in a Schematron file.
type schExpr struct {
	file    string
	attr    string // test, context, value, select
	src     string
	pattern bool // a rule context (match pattern)
	ns      map[string]string
}

type schElem struct {
	name     xml.Name
	attrs    map[string]string
	children []*schElem
}

func latin1Reader(charset string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "iso_8859-1", "windows-1252":
		b, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return strings.NewReader(string(r)), nil
	}
	return nil, errors.New("unsupported charset " + charset)
}

func loadSch(path string) (*schElem, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = latin1Reader
	var stack []*schElem
	root := &schElem{}
	stack = append(stack, root)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &schElem{name: t.Name, attrs: map[string]string{}}
			for _, a := range t.Attr {
				if a.Name.Space == "" {
					e.attrs[a.Name.Local] = a.Value
				}
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return root, nil
}

func walk(e *schElem, fn func(e *schElem)) {
	fn(e)
	for _, c := range e.children {
		walk(c, fn)
	}
}

var varRef = regexp.MustCompile(`\$([\p{L}_][\p{L}\p{N}_.\-]*(?::[\p{L}_][\p{L}\p{N}_.\-]*)?)`)

// substituteParams replaces $name placeholders of an abstract pattern.
func substituteParams(s string, params map[string]string) string {
	return varRef.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := params[m[1:]]; ok {
			return v
		}
		return m
	})
}

// collectRuleSetExpressions extracts every expression of every .sch file
// under root, with abstract patterns instantiated, and registers stubs for
// the xsl:functions they define.
func collectRuleSetExpressions(t testing.TB, root string) ([]schExpr, *vm.Functions) {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".sch") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatalf("walk %s: %v", root, err)
	}
	sort.Strings(files)
	funcs := vm.NewFunctions()
	// Module files inherit the <ns> declarations of the file that includes
	// them: merge declarations per rule-set version directory.
	setNS := map[string]map[string]string{}
	setOf := func(f string) string {
		rel, _ := filepath.Rel(root, f)
		parts := strings.SplitN(rel, string(filepath.Separator), 3)
		return strings.Join(parts[:min(2, len(parts))], "/")
	}
	for _, f := range files {
		doc, err := loadSch(f)
		if err != nil {
			continue
		}
		m := setNS[setOf(f)]
		if m == nil {
			m = map[string]string{}
			setNS[setOf(f)] = m
		}
		walk(doc, func(e *schElem) {
			if e.name.Local == "ns" {
				if _, dup := m[e.attrs["prefix"]]; !dup {
					m[e.attrs["prefix"]] = e.attrs["uri"]
				}
			}
		})
	}
	var out []schExpr
	for _, f := range files {
		doc, err := loadSch(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		ns := map[string]string{}
		for k, v := range setNS[setOf(f)] {
			ns[k] = v
		}
		abstract := map[string]*schElem{}
		walk(doc, func(e *schElem) {
			switch e.name.Local {
			case "ns":
				ns[e.attrs["prefix"]] = e.attrs["uri"]
			case "pattern":
				if e.attrs["abstract"] == "true" {
					abstract[e.attrs["id"]] = e
				}
			}
		})
		walk(doc, func(e *schElem) {
			if e.name.Local == "function" {
				name := e.attrs["name"]
				prefix, local, _ := strings.Cut(name, ":")
				n := 0
				for _, c := range e.children {
					if c.name.Local == "param" {
						n++
					}
				}
				funcs.Register(ns[prefix], local, n, nil)
			}
		})
		add := func(e *schElem, params map[string]string) {
			walk(e, func(e *schElem) {
				for _, a := range []string{"test", "context", "select", "value", "path"} {
					v, ok := e.attrs[a]
					if !ok || (e.name.Local == "param" && a == "value") {
						continue
					}
					if a == "value" && e.name.Local != "let" {
						continue
					}
					if params != nil {
						v = substituteParams(v, params)
					}
					out = append(out, schExpr{file: f, attr: e.name.Local + "/@" + a, src: v, pattern: a == "context", ns: ns})
				}
			})
		}
		walk(doc, func(e *schElem) {
			if e.name.Local != "pattern" {
				return
			}
			if e.attrs["abstract"] == "true" {
				return
			}
			if isa := e.attrs["is-a"]; isa != "" {
				params := map[string]string{}
				for _, c := range e.children {
					if c.name.Local == "param" {
						params[c.attrs["name"]] = c.attrs["value"]
					}
				}
				if abs, ok := abstract[isa]; ok {
					add(abs, params)
				}
				return
			}
			add(e, nil)
		})
		// Top-level lets and functions outside patterns.
		for _, top := range doc.children {
			for _, c := range top.children {
				if c.name.Local == "let" || c.name.Local == "function" {
					add(c, nil)
				}
			}
		}
	}
	return out, funcs
}

// unsupportedRuleSetExpressions lists expressions we knowingly cannot
// compile, per family, with the reason. It must stay empty for en16931,
// peppol-bis-billing, xrechnung and ro-cius.
var unsupportedRuleSetExpressions = map[string]string{}

func TestCompileAllRuleSetExpressions(t *testing.T) {
	root := filepath.Join(sharedDir(), "rulesets")
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("shared rule sets not found at %s (set EINVOICE_SHARED): %v", root, err)
	}
	exprs, funcs := collectRuleSetExpressions(t, root)
	if len(exprs) < 1000 {
		t.Fatalf("only %d expressions found", len(exprs))
	}
	failures := map[string]int{}
	n := 0
	for _, x := range exprs {
		if strings.TrimSpace(x.src) == "" {
			continue
		}
		sc := &StaticContext{Namespaces: x.ns, Variables: map[string]int{}, Functions: funcs}
		for _, m := range varRef.FindAllStringSubmatch(x.src, -1) {
			sc.Variables[m[1]] = len(sc.Variables)
		}
		var err error
		if x.pattern {
			_, err = CompilePattern(x.src, sc)
		} else {
			_, err = Compile(x.src, sc)
		}
		n++
		if err == nil {
			if _, listed := unsupportedRuleSetExpressions[x.src]; listed {
				t.Errorf("listed as unsupported but compiles now: %q", x.src)
			}
			continue
		}
		var xe *Error
		if !errors.As(err, &xe) {
			t.Errorf("%s %s: error is %T, not *xpath.Error: %v", x.file, x.attr, err, err)
		}
		if _, listed := unsupportedRuleSetExpressions[x.src]; listed {
			continue
		}
		rel, _ := filepath.Rel(root, x.file)
		family := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		failures[family]++
		if failures[family] <= 5 {
			t.Errorf("%s %s: %q: %v", rel, x.attr, x.src, err)
		}
	}
	t.Logf("compiled %d expressions from %s; failures by family: %v", n, root, failures)
}
