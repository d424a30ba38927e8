package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// dispatchTables: one pattern whose first three rules start with
// normalize-space(t:id) = 'literal' (the last one a union with that form in
// both branches), a rule with another key, and a catch-all; one on an
// attribute; one whose key may have several values (t:tag = 'literal').
func dispatchTables() *Tables {
	return &Tables{
		Name: "Dispatch", Version: "0.1", Syntax: "t", QueryBinding: "xslt2",
		Files:      []string{"d.sch"},
		Namespaces: []Namespace{{"t", "urn:t"}},
		Patterns:   []Pattern{{ID: "P", FirstRule: 0, NumRules: 5}, {ID: "Q", FirstRule: 5, NumRules: 3}, {ID: "R", FirstRule: 8, NumRules: 2}},
		Rules: []Rule{
			{Context: "t:c[normalize-space(t:id) = 'A'][t:ok]", FirstCheck: 0, NumChecks: 1},
			{Context: "t:c[normalize-space(t:id) = 'B']", FirstCheck: 1, NumChecks: 1},
			{Context: "t:line/t:c[normalize-space(t:id) = 'C'] | t:other/t:c[normalize-space(t:id) = 'C']", FirstCheck: 2, NumChecks: 1},
			{Context: "t:c[t:code = 'A']", FirstCheck: 3, NumChecks: 1},
			{Context: "t:c", FirstCheck: 4, NumChecks: 1},
			// the attribute form (the child-equals fast path on @k)
			{Context: "t:c[@k = 'A']", Pattern: 1, FirstCheck: 5, NumChecks: 1},
			{Context: "t:c[@k = 'B'] | t:other/t:c[@k = 'B']", Pattern: 1, FirstCheck: 6, NumChecks: 1},
			{Context: "t:c[@k]", Pattern: 1, FirstCheck: 7, NumChecks: 1},
			// a key of several values: each one lets its rule through
			{Context: "t:c[t:tag = 'X']", Pattern: 2, FirstCheck: 8, NumChecks: 1},
			{Context: "t:c[t:tag = 'Y']", Pattern: 2, FirstCheck: 9, NumChecks: 1},
		},
		Checks: []Check{
			{ID: "RA", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("A")}},
			{ID: "RB", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("B")}},
			{ID: "RC", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("C")}},
			{ID: "RK", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("code A")}},
			{ID: "RX", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("other")}},
			{ID: "QA", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("@k A")}},
			{ID: "QB", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("@k B")}},
			{ID: "QK", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("@k other")}},
			{ID: "TX", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("tag X")}},
			{ID: "TY", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("tag Y")}},
		},
	}
}

// TestDispatchSameFindings: the rules that share a K = 'literal' key are
// skipped on a node whose K lacks their literal (Ruleset.buildDispatch), and
// the findings are those of matching every rule: a matching literal, a
// missing one, K raising XPTY0004 (two t:id: the rules do not match, as
// the reference recovers), K empty, and the union rule in both branches.
func TestDispatchSameFindings(t *testing.T) {
	rs := mustLoad(t, dispatchTables())
	var keys []int32
	for _, c := range rs.ctx {
		keys = append(keys, c.dispatch)
	}
	if len(rs.dispatchers) != 3 || !reflect.DeepEqual(keys, []int32{0, 0, 0, -1, -1, 1, 1, -1, 2, 2}) {
		t.Fatalf("dispatch %v with %d keys; want the first three rules of P on one key, two of Q on another, R's on a third", keys, len(rs.dispatchers))
	}
	plain := mustLoad(t, dispatchTables())
	for i := range plain.ctx {
		plain.ctx[i].dispatch = -1
	}
	doc := `<t:inv xmlns:t="urn:t">
	<t:line><t:c><t:id> A </t:id><t:ok/></t:c></t:line>
	<t:line><t:c k="A"><t:id>A</t:id></t:c></t:line>
	<t:line><t:c k="B"><t:id>B</t:id></t:c></t:line>
	<t:line><t:c><t:id>C</t:id></t:c></t:line>
	<t:other><t:c k="B"><t:id>C</t:id></t:c></t:other>
	<t:c><t:id>C</t:id></t:c>
	<t:line><t:c><t:id>D</t:id><t:code>A</t:code></t:c></t:line>
	<t:line><t:c><t:id>A</t:id><t:id>B</t:id><t:ok/></t:c></t:line>
	<t:line><t:c k="C"/></t:line>
	<t:line><t:c><t:tag>Y</t:tag><t:tag>X</t:tag></t:c></t:line>
	<t:line><t:c><t:tag>Y</t:tag></t:c></t:line>
</t:inv>`
	d, err := xmltree.Parse([]byte(doc), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	got, err := rs.Validate(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plain.Validate(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	g, w := summary(got), summary(want)
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("with dispatch:\n%s\nwithout:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	var ids []string
	for _, f := range got {
		ids = append(ids, f.RuleID)
	}
	// Pattern P: line 1: A; 2: A without t:ok -> falls to RX; 3: B; 4, 5: C
	// (both branches); 6: C outside line/other -> RX; 7: code A; 8: two
	// ids -> RX; 9 to 11: no id -> RX. Then pattern Q (@k): A on line 2,
	// B on line 3 and in t:other, another value on line 9. Then pattern
	// R: tags Y and X (X's rule is first), tag Y.
	if w := []string{"RA", "RX", "RB", "RC", "RC", "RX", "RK", "RX", "RX", "RX", "RX", "QA", "QB", "QB", "QK", "TX", "TY"}; !reflect.DeepEqual(ids, w) {
		t.Fatalf("fired %v, want %v", ids, w)
	}
}
