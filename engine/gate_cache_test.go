package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestGateVerdictsAcrossDocuments validates documents one after the other,
// twice, with one Ruleset (pooled state and its cache of name-gate verdicts
// by spelling reused) and checks the findings.
// The two gated rules disagree on the spelling abc (the first gate, checked
// first, rejects it), so a cache keyed by the spelling without the gate, or
// a verdict kept under another document's name ids, loses a finding.
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
	shared := mustLoad(t, tables)
	ctx := context.Background()
	for round := 0; round < 2; round++ {
		for i, d := range docs {
			doc, err := xmltree.Parse([]byte(d.src), xmltree.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			got, err := shared.Validate(ctx, doc)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, f := range got {
				ids = append(ids, f.RuleID+"@"+f.Location)
			}
			if g := strings.Join(ids, " "); g != d.want {
				t.Fatalf("round %d doc %d: got %s, want %s", round, i, g, d.want)
			}
		}
	}
}
