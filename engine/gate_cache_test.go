package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestGateVerdictsAcrossDocuments validates documents one after the other,
// twice, with one Ruleset (pooled state and its cache of name-gate verdicts
// by spelling reused) and checks the findings.
// The two gated rules disagree on the spelling abc (the first gate, checked
// first, rejects it), so a cache keyed by the spelling without the gate, or
// a verdict kept under another document's name ids, loses a finding. The
// last document has more distinct names than the state keeps verdicts for.
func TestGateVerdictsAcrossDocuments(t *testing.T) {
	tables := &Tables{
		Name: "Gates", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"g.sch"},
		Patterns: []Pattern{{ID: "E", FirstRule: 0, NumRules: 1}, {ID: "A", FirstRule: 1, NumRules: 1}},
		Rules: []Rule{
			{Context: "*[ends-with(name(), 'Amount')]", Pattern: 0, FirstCheck: 0, NumChecks: 1},
			{Context: "*[starts-with(name(), 'a')]", Pattern: 1, FirstCheck: 1, NumChecks: 1},
		},
		Checks: []Check{
			{ID: "E1", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("element")}},
			{ID: "S1", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("a-element")}},
		},
	}
	docs := []struct{ src, want string }{
		{`<r><bAmount aAmount="1"/><x:aAmount xmlns:x="urn:x"/><abc/></r>`, "E1@/r[1]/bAmount[1] E1@/r[1]/aAmount[1] S1@/r[1]/abc[1]"},
		{`<r a="1"><c/><aAmount/><bAmount/></r>`, "E1@/r[1]/aAmount[1] E1@/r[1]/bAmount[1] S1@/r[1]/aAmount[1]"},
		{`<r><abc/><bAmount abc="1"/><other/></r>`, "E1@/r[1]/bAmount[1] S1@/r[1]/abc[1]"},
	}
	// More distinct names than the state numbers (maxSpelled): the names
	// past the limit are decided per document, without a kept verdict.
	var big, want strings.Builder
	big.WriteString("<r>")
	for i := 0; i < maxSpelled+500; i++ {
		name := fmt.Sprintf("a%dAmount", i)
		if i%3 == 1 {
			name = fmt.Sprintf("b%dAmount", i)
		}
		if i%3 == 2 {
			name = fmt.Sprintf("a%dx", i)
		}
		fmt.Fprintf(&big, "<%s/>", name)
		if strings.HasSuffix(name, "Amount") {
			fmt.Fprintf(&want, " E1@/r[1]/%s[1]", name)
		}
	}
	big.WriteString("</r>")
	for i := 0; i < maxSpelled+500; i++ {
		if i%3 != 1 {
			name := fmt.Sprintf("a%dAmount", i)
			if i%3 == 2 {
				name = fmt.Sprintf("a%dx", i)
			}
			fmt.Fprintf(&want, " S1@/r[1]/%s[1]", name)
		}
	}
	docs = append(docs, struct{ src, want string }{big.String(), strings.TrimSpace(want.String())})
	shared := mustLoad(t, tables)
	for round := 0; round < 2; round++ {
		for i, d := range docs {
			if g := findingIDs(t, shared, d.src, true); g != d.want {
				t.Fatalf("round %d doc %d: got %.300s, want %.300s", round, i, g, d.want)
			}
		}
	}
}

// TestGatedAnyPattern: a pattern whose rules that can match any node all
// have a name gate visits only the nodes with a rule of their own in the
// pattern and the nodes a gate allows (Ruleset.gatedAny); the findings are
// those of visiting every node: rule order within the pattern, elements
// and attributes, prefixes as written, documents one after the other.
func TestGatedAnyPattern(t *testing.T) {
	tables := &Tables{
		Name: "GatedAny", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"g.sch"},
		Patterns: []Pattern{{ID: "P", FirstRule: 0, NumRules: 4}},
		Rules: []Rule{
			{Context: "item", Pattern: 0, FirstCheck: 0, NumChecks: 1},
			{Context: "*[ends-with(name(), 'Amount')]", Pattern: 0, FirstCheck: 1, NumChecks: 1},
			{Context: "@*[starts-with(name(), 'cur')]", Pattern: 0, FirstCheck: 2, NumChecks: 1},
			{Context: "total", Pattern: 0, FirstCheck: 3, NumChecks: 1},
		},
		Checks: []Check{report("I"), report("A"), report("C"), report("T")},
	}
	rs := mustLoad(t, tables)
	if rs.gatedAny[0] == nil {
		t.Fatal("the pattern is not treated as a gated one")
	}
	docs := []struct{ src, want string }{
		{`<r><item/><x:netAmount xmlns:x="urn:x" currency="E"/><total curID="1"/><item>t</item></r>`,
			"I@/r[1]/item[1] A@/r[1]/netAmount[1] C@/r[1]/netAmount[1]/@currency T@/r[1]/total[1] C@/r[1]/total[1]/@curID I@/r[1]/item[2]"},
		// item named ...Amount: the named rule comes first in the pattern
		{`<r><taxAmount><item/></taxAmount><total/><other curx="1" Amount="2"/></r>`,
			"A@/r[1]/taxAmount[1] I@/r[1]/taxAmount[1]/item[1] T@/r[1]/total[1] C@/r[1]/other[1]/@curx"},
		{`<r><other/><cur/></r>`, ""},
	}
	checkDocs(t, rs, docs)
}

// TestGatedAnyRoutes: the nodes of a gated pattern are found by name
// (validation.visitGated) along three routes, and the findings are still
// those of visiting every node in document order: names with rules of
// their own in the pattern (item), names other patterns' contexts mention
// (lineAmount, by its nodes' spelling: the gate reads the prefix as
// written, and one expanded name is spelt three ways), names no context
// mentions (zed, note), an element and an attribute with one qualified
// name, and the nodes of the routes interleaved.
func TestGatedAnyRoutes(t *testing.T) {
	tables := &Tables{
		Name: "GatedRoutes", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"g.sch"},
		Patterns: []Pattern{{ID: "P", FirstRule: 0, NumRules: 3}, {ID: "Q", FirstRule: 3, NumRules: 1}},
		Rules: []Rule{
			{Context: "item", Pattern: 0, FirstCheck: 0, NumChecks: 1},
			{Context: "*[starts-with(name(), 'p:')]", Pattern: 0, FirstCheck: 1, NumChecks: 1},
			{Context: "@*[ends-with(name(), 'note')]", Pattern: 0, FirstCheck: 2, NumChecks: 1},
			{Context: "x:lineAmount", Pattern: 1, FirstCheck: 3, NumChecks: 1},
		},
		Checks:     []Check{report("I"), report("P"), report("N"), report("L")},
		Namespaces: []Namespace{{Prefix: "x", URI: "urn:x"}},
	}
	rs := mustLoad(t, tables)
	if rs.gatedAny[0] == nil {
		t.Fatal("the pattern is not treated as a gated one")
	}
	docs := []struct{ src, want string }{
		{`<r xmlns:p="urn:x" xmlns:q="urn:x"><q:lineAmount/><p:lineAmount note="a"/><item p:note="b"/>` +
			`<p:zed><lineAmount xmlns="urn:x"/><q:zed/><p:item/></p:zed><note note="c"/><p:note/><item/></r>`,
			"P@/r[1]/lineAmount[2] N@/r[1]/lineAmount[2]/@note I@/r[1]/item[1] N@/r[1]/item[1]/@note P@/r[1]/zed[1] P@/r[1]/zed[1]/item[1] N@/r[1]/note[1]/@note P@/r[1]/note[1] I@/r[1]/item[2] " +
				"L@/r[1]/lineAmount[1] L@/r[1]/lineAmount[2] L@/r[1]/zed[1]/lineAmount[1]"},
		{`<r><zed/></r>`, ""},
	}
	for round := 0; round < 2; round++ {
		for i, d := range docs {
			if g := findingIDs(t, rs, d.src, true); g != d.want {
				t.Errorf("round %d doc %d:\n got %s\nwant %s", round, i, g, d.want)
			}
		}
	}
}

// TestLeafOnlyPattern: a pattern whose rules match only empty leaves (the
// rule sets' //*[not(*) and not(normalize-space())]) visits only them;
// its findings are those of visiting every node: empty and whitespace
// elements, an element with an empty child, text beside a child,
// attributes (never an element), and a pattern that also has another rule
// (which must still see every node).
func TestLeafOnlyPattern(t *testing.T) {
	tables := &Tables{
		Name: "Leaves", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"l.sch"},
		Patterns: []Pattern{{ID: "L", FirstRule: 0, NumRules: 1}, {ID: "M", FirstRule: 1, NumRules: 2}, {ID: "A", FirstRule: 3, NumRules: 1},
			{ID: "O", FirstRule: 4, NumRules: 1}, {ID: "C", FirstRule: 5, NumRules: 1}, {ID: "T", FirstRule: 6, NumRules: 1}},
		Rules: []Rule{
			{Context: "//*[not(*) and not(normalize-space())]", Pattern: 0, FirstCheck: 0, NumChecks: 1},
			{Context: "//*[not(*) and not(normalize-space())]", Pattern: 1, FirstCheck: 1, NumChecks: 1},
			{Context: "*[@k]", Pattern: 1, FirstCheck: 2, NumChecks: 1},
			{Context: "x:a[not(*) and not(normalize-space())] | b[@k][not(name() = 'c') and not(*) and not(normalize-space())]", Pattern: 2, FirstCheck: 3, NumChecks: 1},
			// not leaf-only: a disjunction, one conjunct alone
			{Context: "//*[not(*) or not(normalize-space())]", Pattern: 3, FirstCheck: 4, NumChecks: 1},
			{Context: "//*[not(*)]", Pattern: 4, FirstCheck: 5, NumChecks: 1},
			{Context: "//*[@k and not(normalize-space())]", Pattern: 5, FirstCheck: 6, NumChecks: 1},
		},
		Checks:     []Check{report("E"), report("F"), report("K"), report("N"), report("O"), report("C"), report("T")},
		Namespaces: []Namespace{{Prefix: "x", URI: "urn:x"}},
	}
	rs := mustLoad(t, tables)
	if want := []bool{true, false, true, false, false, false}; !slices.Equal(rs.leafOnly, want) {
		t.Fatalf("leafOnly = %v, want %v", rs.leafOnly, want)
	}
	docs := []struct{ src, want string }{
		{`<r><a/><b k="1"> </b><c>t</c><d><e/></d><f> <g/> </f><h>x<i/></h></r>`,
			"E@/r[1]/a[1] E@/r[1]/b[1] E@/r[1]/d[1]/e[1] E@/r[1]/f[1]/g[1] E@/r[1]/h[1]/i[1] " +
				"F@/r[1]/a[1] F@/r[1]/b[1] F@/r[1]/d[1]/e[1] F@/r[1]/f[1]/g[1] F@/r[1]/h[1]/i[1] " +
				"N@/r[1]/b[1] " +
				"O@/r[1]/a[1] O@/r[1]/b[1] O@/r[1]/c[1] O@/r[1]/d[1] O@/r[1]/d[1]/e[1] O@/r[1]/f[1] O@/r[1]/f[1]/g[1] O@/r[1]/h[1]/i[1] " +
				"C@/r[1]/a[1] C@/r[1]/b[1] C@/r[1]/c[1] C@/r[1]/d[1]/e[1] C@/r[1]/f[1]/g[1] C@/r[1]/h[1]/i[1] " +
				"T@/r[1]/b[1]"},
		{`<r k=" "><x:a xmlns:x="urn:x" k=""/><b k="2">t</b><c k="3"><d/></c></r>`,
			"E@/r[1]/a[1] E@/r[1]/c[1]/d[1] K@/r[1] F@/r[1]/a[1] K@/r[1]/b[1] K@/r[1]/c[1] F@/r[1]/c[1]/d[1] N@/r[1]/a[1] " +
				"O@/r[1]/a[1] O@/r[1]/b[1] O@/r[1]/c[1] O@/r[1]/c[1]/d[1] C@/r[1]/a[1] C@/r[1]/b[1] C@/r[1]/c[1]/d[1] T@/r[1]/a[1] T@/r[1]/c[1]"},
		{`<r>text</r>`, "O@/r[1] C@/r[1]"},
	}
	checkDocs(t, rs, docs)
}

// TestRootOnlyPattern: a pattern whose rules match only children of the
// document node ("/*", "/r[@k]", the scenario matches of the validator
// configurations) visits only those; its findings are those of visiting
// every node: the document element only (not a nested element of the
// same name, not comments or processing instructions beside it), and a
// pattern that also has another rule (which must still see every node).
func TestRootOnlyPattern(t *testing.T) {
	tables := &Tables{
		Name: "Root", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"r.sch"},
		Patterns: []Pattern{{ID: "S", FirstRule: 0, NumRules: 1}, {ID: "N", FirstRule: 1, NumRules: 1},
			{ID: "P", FirstRule: 2, NumRules: 1}, {ID: "M", FirstRule: 3, NumRules: 2}, {ID: "D", FirstRule: 5, NumRules: 1}},
		Rules: []Rule{
			{Context: "/*", Pattern: 0, FirstCheck: 0, NumChecks: 1},
			{Context: "/r | /x:r", Pattern: 1, FirstCheck: 1, NumChecks: 1},
			{Context: "/*[@k = '1']", Pattern: 2, FirstCheck: 2, NumChecks: 1},
			{Context: "/*", Pattern: 3, FirstCheck: 3, NumChecks: 1},
			{Context: "*", Pattern: 3, FirstCheck: 4, NumChecks: 1},
			// not root-only: a descendant step
			{Context: "//r", Pattern: 4, FirstCheck: 5, NumChecks: 1},
		},
		Checks:     []Check{report("S"), report("N"), report("P"), report("M"), report("A"), report("D")},
		Namespaces: []Namespace{{Prefix: "x", URI: "urn:x"}},
	}
	rs := mustLoad(t, tables)
	if want := []bool{true, true, true, false, false}; !slices.Equal(rs.rootOnly, want) {
		t.Fatalf("rootOnly = %v, want %v", rs.rootOnly, want)
	}
	docs := []struct{ src, want string }{
		{`<?p x?><!-- c --><r k="1"><r/><a><r k="1"/></a></r><!-- d -->`,
			"S@/r[1] N@/r[1] P@/r[1] M@/r[1] A@/r[1]/r[1] A@/r[1]/a[1] A@/r[1]/a[1]/r[1] D@/r[1] D@/r[1]/r[1] D@/r[1]/a[1]/r[1]"},
		{`<x:r xmlns:x="urn:x" k="2"><r/></x:r>`, "S@/r[1] N@/r[1] M@/r[1] A@/r[1]/r[1] D@/r[1]/r[1]"},
		{`<q><r/></q>`, "S@/q[1] M@/q[1] A@/q[1]/r[1] D@/q[1]/r[1]"},
	}
	checkDocs(t, rs, docs)
}

// checkDocs validates each document twice with rs (the pooled state
// reused) and compares its findings, "ID@location" in order, with want.
func checkDocs(t *testing.T, rs *Ruleset, docs []struct{ src, want string }) {
	t.Helper()
	for round := 0; round < 2; round++ {
		for i, d := range docs {
			if g := findingIDs(t, rs, d.src, true); g != d.want {
				t.Errorf("round %d doc %d: got %s, want %s", round, i, g, d.want)
			}
		}
	}
}
