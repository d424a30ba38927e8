package engine

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

func parseFile(t testing.TB, path string) *xmltree.Document {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return doc
}

func txt(s string) MessagePart { return MessagePart{Kind: PartText, Text: s} }

// report is a check that fires on every node its rule matches, its id as
// its message.
func report(id string) Check {
	return Check{ID: id, Flag: "warning", Kind: KindReport, Test: "true()", Message: []MessagePart{txt(id)}}
}
func valueOf(s string) MessagePart { return MessagePart{Kind: PartValueOf, Text: s} }
func name(s string) MessagePart    { return MessagePart{Kind: PartName, Text: s} }

// smallTables is a hand-written rule set over testdata/small.xml exercising
// pattern order, first-matching-rule-wins, lets of every scope, assert and
// report, value-of and name in messages, attribute contexts and the context
// index (a wildcard rule after named ones).
func smallTables() *Tables {
	return &Tables{
		Name: "Small", Version: "0.1", Syntax: "t", QueryBinding: "xslt2",
		Files:      []string{"small.sch"},
		Namespaces: []Namespace{{"t", "urn:t"}, {"p", "urn:p"}},
		Lets: []Let{
			{Name: "n", Expr: "count(//t:line)", Scope: ScopeSchema},
			{Name: "pl", Expr: "'PL'", Scope: ScopePattern},
			{Name: "x", Expr: "string(@id)", Scope: ScopeRule},
		},
		Patterns: []Pattern{
			{ID: "A", FirstRule: 0, NumRules: 3, FirstLet: 1, NumLets: 1},
			{ID: "B", FirstRule: 3, NumRules: 1, FirstLet: 3},
			{ID: "D", FirstRule: 4, NumRules: 1, FirstLet: 3},
		},
		Rules: []Rule{
			{Context: "t:line[@id='1']", Pattern: 0, FirstCheck: 0, NumChecks: 1, FirstLet: 3},
			{Context: "t:line", Pattern: 0, FirstCheck: 1, NumChecks: 1, FirstLet: 2, NumLets: 1},
			{Context: "*", Pattern: 0, FirstCheck: 2, NumChecks: 1, FirstLet: 3},
			{Context: "t:amt", Pattern: 1, FirstCheck: 3, NumChecks: 2, FirstLet: 3},
			{Context: "@id", Pattern: 2, FirstCheck: 5, NumChecks: 1, FirstLet: 3},
		},
		Checks: []Check{
			{ID: "A1", Flag: "fatal", Kind: KindAssert, Test: "false()", Message: []MessagePart{txt("[A1] first line (BT-1) id "), valueOf("@id")}},
			{ID: "R1", Flag: "warning", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("\n  line "), valueOf("$x"), txt(" of "), valueOf("$n"), txt(" in "), name(""), txt(" "), valueOf("$pl"), txt("  ")}},
			{ID: "R2", Flag: "information", Kind: KindReport, Test: "self::p:note", Message: []MessagePart{txt("note "), name(""), txt(" says "), valueOf("."), txt(" (BG-2, BT-1, BG-2)")}},
			{ID: "B1", Flag: "fatal", Kind: KindAssert, Test: "number(.) > 0", Message: []MessagePart{txt("amount "), valueOf("."), txt(" of "), name("..")}},
			{ID: "B2", Flag: "fatal", Kind: KindAssert, Test: "true()", Message: []MessagePart{txt("never")}},
			{ID: "D1", Flag: "warning", Kind: KindReport, Test: ". = '2'", Message: []MessagePart{txt("attribute "), name("")}},
		},
	}
}

// findingIDs validates the document src with rs and returns its findings
// as "ID" (or "ID@location" with loc), space-separated.
func findingIDs(t testing.TB, rs *Ruleset, src string, loc bool) string {
	t.Helper()
	got, err := validateSrc(t, rs, src)
	if err != nil {
		t.Fatal(err)
	}
	return joinIDs(got, loc)
}

// validateSrc parses src and validates it with rs.
func validateSrc(t testing.TB, rs *Ruleset, src string) ([]Finding, error) {
	t.Helper()
	doc, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return rs.Validate(context.Background(), doc)
}

// joinIDs is findingIDs' answer for the findings got.
func joinIDs(got []Finding, loc bool) string {
	ids := make([]string, len(got))
	for i, f := range got {
		ids[i] = f.RuleID
		if loc {
			ids[i] += "@" + f.Location
		}
	}
	return strings.Join(ids, " ")
}
