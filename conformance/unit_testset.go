package conformance

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
)

// NSVefa is the namespace of vefa testSet files.
const NSVefa = "http://difi.no/xsd/vefa/validator/1.0"

// TestSet is one vefa testSet file.
type TestSet struct {
	Configuration string
	Scope         []string
	Tests         []UnitTest
}

// UnitTest is one <test> of a testSet: its expectations and the embedded
// document as a standalone XML document (namespace declarations inherited
// from the testSet are copied onto its root element).
type UnitTest struct {
	ID          string // the id attribute, else the 1-based index
	Index       int
	Description string
	Scope       []string // test-level scope, added to the testSet's
	Success     []string
	Error       []Expectation
	Warning     []Expectation
	Document    []byte
	Line        int // line of the embedded root element in the testSet file
}

// Expectation is an expected error or warning, optionally with number=N
// (exactly N firings).
type Expectation struct {
	ID     string
	Number int // 0 = at least one
}

// ParseTestSet reads a vefa testSet file.
func ParseTestSet(data []byte) (*TestSet, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	ts := &TestSet{}
	var inherited []xml.Attr // namespace declarations of testSet and test
	depth := 0
	var cur *UnitTest
	var testNS []xml.Attr
	inAssert := false
	var text strings.Builder
	var number int
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("testSet: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 1:
				if t.Name.Space != NSVefa || t.Name.Local != "testSet" {
					return nil, fmt.Errorf("testSet: root is {%s}%s", t.Name.Space, t.Name.Local)
				}
				ts.Configuration = attr(t, "configuration")
				inherited = nsDecls(t)
			case depth == 2 && t.Name.Local == "test" && t.Name.Space == NSVefa:
				ts.Tests = append(ts.Tests, UnitTest{ID: attr(t, "id"), Index: len(ts.Tests) + 1})
				cur = &ts.Tests[len(ts.Tests)-1]
				if cur.ID == "" {
					cur.ID = strconv.Itoa(cur.Index)
				} else {
					cur.ID = strings.TrimSpace(cur.ID)
				}
				testNS = nsDecls(t)
			case depth == 2 && t.Name.Local == "assert" && t.Name.Space == NSVefa:
				inAssert = true
			case depth == 3 && cur != nil && t.Name.Local == "assert" && t.Name.Space == NSVefa:
				inAssert = true
			case depth == 3 && cur != nil:
				line, _ := dec.InputPos()
				if err := dec.Skip(); err != nil {
					return nil, fmt.Errorf("testSet: test %s: %w", cur.ID, err)
				}
				depth--
				if cur.Document != nil {
					return nil, fmt.Errorf("testSet: test %s has more than one document", cur.ID)
				}
				cur.Document = withNamespaces(data[off:dec.InputOffset()], append(append([]xml.Attr(nil), inherited...), testNS...), nsDecls(t))
				cur.Line = line
			case inAssert:
				text.Reset()
				number = 0
				if n := attr(t, "number"); n != "" {
					v, err := strconv.Atoi(strings.TrimSpace(n))
					if err != nil || v < 1 {
						return nil, fmt.Errorf("testSet: bad number=%q", n)
					}
					number = v
				}
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			if inAssert {
				v := strings.TrimSpace(text.String())
				switch {
				case t.Name.Local == "assert":
					inAssert = false
				case depth == 3 && t.Name.Local == "scope": // testSet-level assert
					ts.Scope = append(ts.Scope, v)
				case cur == nil:
				case t.Name.Local == "description":
					cur.Description = v
				case t.Name.Local == "scope":
					cur.Scope = append(cur.Scope, v)
				case t.Name.Local == "success":
					cur.Success = append(cur.Success, v)
				case t.Name.Local == "error":
					cur.Error = append(cur.Error, Expectation{v, number})
				case t.Name.Local == "warning":
					cur.Warning = append(cur.Warning, Expectation{v, number})
				}
				text.Reset()
			}
			if depth == 2 && t.Name.Local == "test" {
				if cur != nil && cur.Document == nil {
					return nil, fmt.Errorf("testSet: test %s has no document", cur.ID)
				}
				cur = nil
			}
			depth--
		}
	}
	if len(ts.Tests) == 0 {
		return nil, errors.New("testSet: no tests")
	}
	return ts, nil
}

// ReadTestSet reads and parses a testSet file.
func ReadTestSet(path string) (*TestSet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read testSet: %w", err)
	}
	ts, err := ParseTestSet(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ts, nil
}

func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// nsDecls returns the namespace declarations of a start tag, as raw
// attributes (Space "xmlns" for prefixed, Local "xmlns" for the default).
func nsDecls(t xml.StartElement) []xml.Attr {
	var out []xml.Attr
	for _, a := range t.Attr {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			out = append(out, a)
		}
	}
	return out
}

// withNamespaces inserts into the root start tag of raw the inherited
// namespace declarations the element does not declare itself (later
// declarations in inherited win, as inner scopes do).
func withNamespaces(raw []byte, inherited, own []xml.Attr) []byte {
	declared := map[string]bool{}
	for _, a := range own {
		declared[nsKey(a)] = true
	}
	eff := map[string]string{}
	var order []string
	for _, a := range inherited {
		k := nsKey(a)
		if _, ok := eff[k]; !ok {
			order = append(order, k)
		}
		eff[k] = a.Value
	}
	sort.Strings(order)
	var ins strings.Builder
	for _, k := range order {
		if declared[k] {
			continue
		}
		name := "xmlns"
		if k != "" {
			name = "xmlns:" + k
		}
		fmt.Fprintf(&ins, " %s=\"%s\"", name, escapeAttr(eff[k]))
	}
	if ins.Len() == 0 {
		return append([]byte(nil), raw...)
	}
	// raw starts with "<qname"; insert after the name.
	i := 1
	for i < len(raw) && !isSpaceOrEnd(raw[i]) {
		i++
	}
	out := make([]byte, 0, len(raw)+ins.Len())
	out = append(out, raw[:i]...)
	out = append(out, ins.String()...)
	return append(out, raw[i:]...)
}

func nsKey(a xml.Attr) string {
	if a.Name.Space == "xmlns" {
		return a.Name.Local
	}
	return ""
}

func isSpaceOrEnd(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/'
}

func escapeAttr(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&#34;")
}

// Verdict is vefa's judgement of one test.
type Verdict struct {
	FiredInScope []string // "ID:error" / "ID:warning" in firing order
	Problems     []string
}

// Pass reports whether the test passed.
func (v Verdict) Pass() bool { return len(v.Problems) == 0 }

// Judge applies vefa's rules: only fired rules whose id is in scope count
// (fatal counts as error); each success id must not fire; each error
// (warning) id must fire as error (warning), exactly number times when
// number is given; an in-scope rule that fires but is not expected is a
// problem.
func Judge(scope []string, t *UnitTest, fired []engine.Finding) Verdict {
	in := map[string]bool{}
	for _, s := range scope {
		in[s] = true
	}
	for _, s := range t.Scope {
		in[s] = true
	}
	var v Verdict
	count := map[string]int{}
	for _, f := range fired {
		if !in[f.RuleID] {
			continue
		}
		level := f.Flag
		switch f.Flag {
		case "fatal", "error", "":
			level = "error"
		}
		k := f.RuleID + ":" + level
		v.FiredInScope = append(v.FiredInScope, k)
		count[k]++
	}
	expected := map[string]bool{}
	for _, s := range t.Success {
		if count[s+":error"]+count[s+":warning"] > 0 {
			v.Problems = append(v.Problems, fmt.Sprintf("rule %s fired, expected success", s))
		}
	}
	check := func(list []Expectation, level string) {
		for _, e := range list {
			k := e.ID + ":" + level
			expected[k] = true
			switch n := count[k]; {
			case n == 0:
				v.Problems = append(v.Problems, fmt.Sprintf("rule %s did not fire as %s", e.ID, level))
			case e.Number > 0 && n != e.Number:
				v.Problems = append(v.Problems, fmt.Sprintf("rule %s fired %d times as %s, expected %d", e.ID, n, level, e.Number))
			}
		}
	}
	check(t.Error, "error")
	check(t.Warning, "warning")
	for _, k := range v.FiredInScope {
		if !expected[k] && !strings.HasSuffix(k, ":") {
			id := k[:strings.LastIndexByte(k, ':')]
			succ := false
			for _, s := range t.Success {
				succ = succ || s == id
			}
			if !succ {
				v.Problems = append(v.Problems, "unexpected "+k)
				expected[k] = true // report once
			}
		}
	}
	return v
}
