package xpath

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestEN16931ExamplesHaveNoFatalFindings runs the preprocessed EN 16931 UBL
// Schematron with a minimal in-test runner (first matching rule per
// pattern and node, every assert) over the official UBL examples, which the
// upstream harness expects to raise no fatal assertion, and requires no
// fatal failure and no dynamic error.
type smokeAssert struct {
	id, flag string
	prog     *vm.Program
}

type smokeRule struct {
	pat     *vm.Pattern
	asserts []smokeAssert
	names   map[xdm.QName]bool // element names the context can match
	any     bool               // the context can match other nodes
}

// loadSmokeSchematron compiles the rules of a preprocessed Schematron file
// (no lets, no abstract patterns) into patterns of rules.
func loadSmokeSchematron(t testing.TB, schFile string) [][]smokeRule {
	t.Helper()
	doc, err := loadSch(schFile)
	if err != nil {
		t.Fatal(err)
	}
	ns := map[string]string{}
	walk(doc, func(e *schElem) {
		if e.name.Local == "ns" {
			ns[e.attrs["prefix"]] = e.attrs["uri"]
		}
	})
	sc := &StaticContext{Namespaces: ns}
	type assert = smokeAssert
	type rule = smokeRule
	var patterns [][]rule
	walk(doc, func(e *schElem) {
		if e.name.Local != "pattern" {
			return
		}
		var rules []rule
		for _, r := range e.children {
			if r.name.Local != "rule" {
				continue
			}
			pt, err := CompilePattern(r.attrs["context"], sc)
			if err != nil {
				t.Fatalf("%s: %v", r.attrs["context"], err)
			}
			ru := rule{pat: pt, names: map[xdm.QName]bool{}}
			names, anyNode := pt.ElementNames()
			for _, q := range names {
				ru.names[q] = true
			}
			ru.any = anyNode
			for _, a := range r.children {
				if a.name.Local != "assert" {
					continue
				}
				p, err := Compile(a.attrs["test"], sc)
				if err != nil {
					t.Fatalf("%s: %v", a.attrs["test"], err)
				}
				ru.asserts = append(ru.asserts, assert{a.attrs["id"], a.attrs["flag"], p})
			}
			rules = append(rules, ru)
		}
		patterns = append(patterns, rules)
	})
	return patterns
}

// runSmoke returns the failed asserts (id -> flag) of a document.
func runSmoke(t testing.TB, patterns [][]smokeRule, d *xmltree.Document) map[string]string {
	t.Helper()
	ctx := context.Background()
	env := &vm.Env{Doc: d}
	fired := map[string]string{}
	for _, rules := range patterns {
		for n := 0; n < d.Len(); n++ {
			node := xmltree.NodeID(n)
			var q xdm.QName
			if d.Kind(node) == xmltree.KindElement {
				id := d.Name(node)
				q = xdm.QName{Space: d.NameSpace(id), Local: d.NameLocal(id)}
			}
			for _, r := range rules {
				if !r.any && !r.names[q] {
					continue // the name index the engine uses
				}
				ok, err := r.pat.Matches(ctx, env, node)
				if err != nil {
					t.Fatalf("pattern %s: %v", r.pat.Source(), err)
				}
				if !ok {
					continue
				}
				for _, a := range r.asserts {
					pass, err := a.prog.EvalBool(ctx, env, node)
					if err != nil {
						t.Errorf("%s at %s: dynamic error %v", a.id, d.Path(node), err)
					} else if !pass {
						fired[a.id] = a.flag
					}
				}
				break
			}
		}
	}
	return fired
}

func ublSchematron(t testing.TB) [][]smokeRule {
	return loadSmokeSchematron(t, filepath.Join(sharedDir(), "rulesets", "en16931", "1.3.16", "ubl", "schematron", "preprocessed", "EN16931-UBL-validation-preprocessed.sch"))
}

func TestEN16931ExamplesHaveNoFatalFindings(t *testing.T) {
	cii := loadSmokeSchematron(t, filepath.Join(sharedDir(), "rulesets", "en16931", "1.3.16", "cii", "schematron", "preprocessed", "EN16931-CII-validation-preprocessed.sch"))
	for _, suite := range []struct {
		dir      string
		patterns [][]smokeRule
	}{{"ubl", ublSchematron(t)}, {"cii", cii}} {
		dir := filepath.Join(sharedDir(), "corpus", "en16931", suite.dir, "examples")
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		files := 0
		for _, ent := range entries {
			data, err := os.ReadFile(filepath.Join(dir, ent.Name()))
			if err != nil {
				t.Fatal(err)
			}
			d, err := xmltree.Parse(data, xmltree.DefaultLimits())
			if err != nil {
				t.Fatalf("%s: %v", ent.Name(), err)
			}
			files++
			for id, flag := range runSmoke(t, suite.patterns, d) {
				if flag == "fatal" {
					t.Errorf("%s/%s: fatal assert %s failed", suite.dir, ent.Name(), id)
				}
			}
		}
		if files < 10 {
			t.Fatalf("only %d %s examples", files, suite.dir)
		}
		t.Logf("%s: %d examples without fatal findings", suite.dir, files)
	}
}

// vefaCase is one <test> of a vefa testSet file.
type vefaCase struct {
	success, errors, warnings []string
	doc                       []byte
}

// loadVefa reads a vefa testSet: the scope and, per test, the expected
// outcome and the raw bytes of the embedded document.
func loadVefa(t *testing.T, path string) (scope []string, cases []vefaCase) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	var cur *vefaCase
	var text strings.Builder
	docStart := int64(-1)
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tk.Name.Local)
			text.Reset()
			if tk.Name.Local == "test" && len(stack) == 2 {
				cases = append(cases, vefaCase{})
				cur = &cases[len(cases)-1]
			}
			if cur != nil && len(stack) == 3 && tk.Name.Local != "assert" {
				docStart = off
			}
		case xml.CharData:
			text.Write(tk)
		case xml.EndElement:
			v := strings.TrimSpace(text.String())
			switch {
			case len(stack) == 3 && stack[1] == "assert" && tk.Name.Local == "scope":
				scope = append(scope, v)
			case cur != nil && len(stack) == 4 && stack[2] == "assert":
				switch tk.Name.Local {
				case "success":
					cur.success = append(cur.success, v)
				case "error":
					cur.errors = append(cur.errors, v)
				case "warning":
					cur.warnings = append(cur.warnings, v)
				}
			case cur != nil && len(stack) == 3 && docStart >= 0:
				cur.doc = data[docStart:dec.InputOffset()]
				docStart = -1
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 1 {
				cur = nil
			}
		}
	}
	return scope, cases
}

// TestEN16931UnitTests runs the official vefa unit tests of the EN 16931
// UBL rules (Invoice-unit-UBL) through the in-test runner: every expected
// error must fire as fatal, every expected warning as warning, and no
// success-listed rule may fire. This checks the XPath semantics the rules
// depend on (decimal sums and rounding, code lists, regexes, dates).
func TestEN16931UnitTests(t *testing.T) {
	cii := loadSmokeSchematron(t, filepath.Join(sharedDir(), "rulesets", "en16931", "1.3.16", "cii", "schematron", "preprocessed", "EN16931-CII-validation-preprocessed.sch"))
	ubl := ublSchematron(t)
	for _, suite := range []struct {
		dir      string
		patterns [][]smokeRule
	}{{"Invoice-unit-UBL", ubl}, {"CreditNote-unit-UBL", ubl}, {"cii", cii}} {
		t.Run(suite.dir, func(t *testing.T) {
			runVefaSuite(t, filepath.Join(sharedDir(), "corpus", "en16931", "test", suite.dir), suite.patterns)
		})
	}
}

func runVefaSuite(t *testing.T, dir string, patterns [][]smokeRule) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	total, failed := 0, 0
	for _, ent := range entries {
		scope, cases := loadVefa(t, filepath.Join(dir, ent.Name()))
		for i, c := range cases {
			if len(c.doc) == 0 {
				continue
			}
			d, err := xmltree.Parse(c.doc, xmltree.DefaultLimits())
			if err != nil {
				t.Errorf("%s test %d: parse: %v", ent.Name(), i+1, err)
				continue
			}
			total++
			fired := runSmoke(t, patterns, d)
			bad := ""
			for _, id := range c.errors {
				if fired[id] != "fatal" {
					bad += " expected error " + id + " (got " + fired[id] + ")"
				}
			}
			for _, id := range c.warnings {
				if fired[id] != "warning" {
					bad += " expected warning " + id + " (got " + fired[id] + ")"
				}
			}
			for _, id := range c.success {
				if fl, ok := fired[id]; ok {
					bad += " unexpected " + fl + " " + id
				}
			}
			_ = scope
			if bad != "" {
				failed++
				t.Errorf("%s test %d:%s", ent.Name(), i+1, bad)
			}
		}
	}
	if total < 5 {
		t.Fatalf("only %d unit tests found in %s", total, dir)
	}
	t.Logf("%d unit tests, %d failed", total, failed)
}
