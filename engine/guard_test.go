package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestPatternGuards: a rule context with a condition on global variables
// (r[$de]/i, i[@k and $de]) is not matched in a document where that
// condition is false; the findings, and the errors, are those of matching
// every node: a numeric variable is a position ([$n]), a let that raises
// an error is raised where matching reads it, a union with an unguarded
// branch and a disjunction with the focus are not ruled out.
func TestPatternGuards(t *testing.T) {
	lets := []Let{
		{Name: "de", Expr: "/r/@c = 'DE'", Scope: ScopeSchema},
		{Name: "n", Expr: "xs:integer(/r/@n)", Scope: ScopeSchema},
		{Name: "bad", Expr: "xs:integer(/r/@bad)", Scope: ScopeSchema},
	}
	contexts := []string{"r[$de]/i", "i[@k and $de]", "i[$n]", "i[$bad = 1] | j", "i[$bad = 1]", "i[$de or @k]", "i[not($de)][@k]"}
	tables := guardTables("Guards", lets, contexts)
	guarded := mustLoad(t, tables)
	var got []bool
	for _, c := range guarded.ctx {
		got = append(got, c.guarded)
	}
	if want := []bool{true, true, true, false, true, false, true}; !slices.Equal(got, want) {
		t.Fatalf("guarded = %v, want %v", got, want)
	}
	plain := mustLoad(t, tables)
	unguard(plain)
	docs := []struct{ src, want string }{
		{`<r c="DE" n="2" bad="1"><i k="1"/><i/><j/></r>`,
			"A@/r[1]/i[1] A@/r[1]/i[2] B@/r[1]/i[1] C@/r[1]/i[2] D@/r[1]/i[1] D@/r[1]/i[2] D@/r[1]/j[1] " +
				"E@/r[1]/i[1] E@/r[1]/i[2] F@/r[1]/i[1] F@/r[1]/i[2]"},
		{`<r c="FR" n="1" bad="2"><i k="1"/><i/><j/></r>`, "C@/r[1]/i[1] D@/r[1]/j[1] F@/r[1]/i[1] G@/r[1]/i[1]"},
		{`<r c="FR" n="1" bad="x"><i k="1"/><j/></r>`, ""},
		{`<r c="DE" n="x" bad="1"><i/></r>`, ""},
	}
	for round := range 2 {
		for i, d := range docs {
			got, want := guardRun(t, guarded, d.src), guardRun(t, plain, d.src)
			if got != want {
				t.Errorf("round %d doc %d: with guards %q, without %q", round, i, got, want)
			}
			if d.want != "" && got != d.want {
				t.Errorf("round %d doc %d: %s, want %s", round, i, got, d.want)
			}
		}
	}
}

// TestGuardGroups: rules whose contexts carry the same guards (in any
// order, over any number of alternatives) share one evaluation of them per
// document; rules guarded by other variables or other conditions do not;
// the findings are those of matching every node.
func TestGuardGroups(t *testing.T) {
	lets := []Let{
		{Name: "de", Expr: "/r/@c = 'DE'", Scope: ScopeSchema},
		{Name: "fr", Expr: "/r/@c = 'FR'", Scope: ScopeSchema},
		{Name: "bad", Expr: "xs:integer(/r/@bad)", Scope: ScopeSchema},
	}
	contexts := []string{
		"r[$de]/i", "j[$de]", "k[@k and $de] | j[$de]", // $de
		"i[@k and $de and $fr]", "k[@k and $fr and $de]", // $de, $fr
		"j[$fr]", "j[not($de)]", "k[not($de)]", "i[$bad = 1]", "j[$bad = 1]", // $fr; not($de); $bad = 1
		"k[$fr and $de]", // one guard, the conjunction
	}
	tables := guardTables("Groups", lets, contexts)
	grouped := mustLoad(t, tables)
	same := [][]int{{0, 1, 2}, {3, 4}, {5}, {6, 7}, {8, 9}, {10}}
	if grouped.nGuardGroups != len(same) {
		t.Errorf("%d guard groups, want %d", grouped.nGuardGroups, len(same))
	}
	for k, rules := range same {
		for _, ri := range rules {
			if !grouped.ctx[ri].guarded {
				t.Fatalf("rule %d (%s) not guarded", ri, contexts[ri])
			}
			if g, g0 := grouped.guardGroup[ri], grouped.guardGroup[rules[0]]; g != g0 {
				t.Errorf("rule %d (%s) in group %d, rule %d (%s) in %d", ri, contexts[ri], g, rules[0], contexts[rules[0]], g0)
			}
			if k > 0 && grouped.guardGroup[ri] == grouped.guardGroup[same[k-1][0]] {
				t.Errorf("rule %d (%s) shares the group of %s", ri, contexts[ri], contexts[same[k-1][0]])
			}
		}
	}
	plain := mustLoad(t, tables)
	unguard(plain)
	for round := range 2 {
		for i, src := range []string{
			`<r c="DE" bad="1"><i k="1"/><j/><k k="1"/><i/></r>`,
			`<r c="FR" bad="1"><i k="1"/><j/><k/></r>`,
			`<r c="IT" bad="2"><i/><j/><k k="2"/></r>`,
			`<r c="DE" bad="x"><j/><k/></r>`,
		} {
			if got, want := guardRun(t, grouped, src), guardRun(t, plain, src); got != want {
				t.Errorf("round %d doc %d: with guard groups %q, without guards %q", round, i, got, want)
			}
		}
	}
}

// guardTables is a rule set of the schema-scope lets and one pattern per
// context, each with one rule and a report named A, B, ... after it.
func guardTables(name string, lets []Let, contexts []string) *Tables {
	tables := &Tables{Name: name, Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"g.sch"}, Lets: lets}
	n := int32(len(lets))
	for i, c := range contexts {
		id := string(rune('A' + i))
		tables.Patterns = append(tables.Patterns, Pattern{ID: id, FirstRule: int32(i), NumRules: 1, FirstLet: n})
		tables.Rules = append(tables.Rules, Rule{Context: c, Pattern: int32(i), FirstCheck: int32(i), NumChecks: 1, FirstLet: n})
		tables.Checks = append(tables.Checks, report(id))
	}
	return tables
}

// guardRun validates src and returns its findings, or its error.
func guardRun(t *testing.T, rs *Ruleset, src string) string {
	t.Helper()
	got, err := validateSrc(t, rs, src)
	if err != nil {
		return "error: " + err.Error()
	}
	return joinIDs(got, true)
}

// TestLetStorageReused: a rule's lets are evaluated on every firing into
// storage the next evaluation reuses; each firing must see its own values
// (longer and shorter than the last, one past maxLetBuf items, a let
// copying another), in its checks and messages.
func TestLetStorageReused(t *testing.T) {
	tables := &Tables{
		Name: "Lets", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"l.sch"},
		Lets: []Let{
			{Name: "a", Expr: "tokenize(@v, ' ')", Scope: ScopeRule},
			{Name: "b", Expr: "$a", Scope: ScopeRule},
		},
		Patterns: []Pattern{{ID: "P", FirstRule: 0, NumRules: 1}},
		Rules:    []Rule{{Context: "i", Pattern: 0, FirstCheck: 0, NumChecks: 1, FirstLet: 0, NumLets: 2}},
		Checks: []Check{{ID: "L", Flag: "warning", Kind: KindReport, Test: "count($a) = count($b)",
			Message: []MessagePart{valueOf("count($a)"), txt(":"), valueOf("string-join($b, ',')")}}},
	}
	rs := mustLoad(t, tables)
	long := strings.TrimSpace(strings.Repeat("x ", maxLetBuf+1))
	src := `<r><i v="a b c"/><i v="d"/><i v="` + long + `"/><i v="e f"/><i v=""/></r>`
	for round := range 2 {
		got, err := validateSrc(t, rs, src)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, f := range got {
			msgs = append(msgs, f.Message)
		}
		want := []string{"3:a,b,c", "1:d", fmt.Sprintf("%d:%s", maxLetBuf+1, strings.ReplaceAll(long, " ", ",")), "2:e,f", "0:"}
		if !slices.Equal(msgs, want) {
			t.Fatalf("round %d: %.200q, want %.200q", round, msgs, want)
		}
	}
}

// TestDocConstantChecks: a check whose test has one value per document
// (absolute paths, global lets) in a rule that fires on several nodes is
// evaluated once per document (fireConst); its findings, and its errors,
// are those of evaluating it on every node, document after document (the
// kept value must not outlive its document), also when the let it reads
// failed.
func TestDocConstantChecks(t *testing.T) {
	lets := []Let{
		{Name: "de", Expr: "/r/@c = 'DE'", Scope: ScopeSchema},
		{Name: "bad", Expr: "xs:integer(/r/@bad)", Scope: ScopeSchema},
		{Name: "rl", Expr: "@k", Scope: ScopeRule},
	}
	type chk struct {
		context, test string
		docConst      bool
	}
	checks := []chk{
		{"i", "/r/@c = 'DE'", true},
		{"i", "$de", true},
		{"i", "$bad = 1", true},
		{"i", "/r/@c = 'DE' and @k", false}, // reads the focus
		{"/r", "/r/@c = 'DE'", false},       // fires on the document element only
		{"j", "$rl", false},                 // a rule's own let
		{"i | j", "not(/r/j)", true},
	}
	build := func(plain bool) *Tables {
		tb := &Tables{Name: "Const", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"c.sch"}, Lets: lets}
		for i, c := range checks {
			id := string(rune('A' + i))
			rule := Rule{Context: c.context, Pattern: int32(i), FirstCheck: int32(i), NumChecks: 1, FirstLet: 2}
			if c.test == "$rl" {
				rule.NumLets = 1
			}
			tb.Patterns = append(tb.Patterns, Pattern{ID: id, FirstRule: int32(i), NumRules: 1, FirstLet: 2})
			tb.Rules = append(tb.Rules, rule)
			ch := report(id)
			ch.Test = c.test
			if plain {
				ch.Test = "(" + c.test + ") and exists(.)" // the same value, read on each node
			}
			tb.Checks = append(tb.Checks, ch)
		}
		return tb
	}
	memo, plain := mustLoad(t, build(false)), mustLoad(t, build(true))
	for i, c := range checks {
		if memo.checks[i].docConst != c.docConst {
			t.Errorf("%s: docConst %v, want %v", c.test, memo.checks[i].docConst, c.docConst)
		}
		if plain.checks[i].docConst {
			t.Errorf("%s and exists(.): docConst", c.test)
		}
	}
	docs := []struct{ src, want string }{
		{`<r c="DE" bad="1"><i k="1"/><i/><j k="2"/></r>`,
			"A@/r[1]/i[1] A@/r[1]/i[2] B@/r[1]/i[1] B@/r[1]/i[2] C@/r[1]/i[1] C@/r[1]/i[2] D@/r[1]/i[1] E@/r[1] F@/r[1]/j[1]"},
		{`<r c="FR" bad="2"><i k="1"/><i/></r>`, "G@/r[1]/i[1] G@/r[1]/i[2]"},
		{`<r c="DE" bad="x"><i/><i/></r>`, "error"}, // $bad raises FORG0001 where C reads it
		{`<r c="DE" bad="1"><i/><j/><i/></r>`, "A@/r[1]/i[1] A@/r[1]/i[2] B@/r[1]/i[1] B@/r[1]/i[2] C@/r[1]/i[1] C@/r[1]/i[2] E@/r[1]"},
	}
	for round := range 2 {
		for i, d := range docs {
			got, want := guardRun(t, memo, d.src), guardRun(t, plain, d.src)
			if got != want {
				t.Errorf("round %d doc %d: once per document %q, on every node %q", round, i, got, want)
			}
			if got != d.want && !(d.want == "error" && strings.HasPrefix(got, "error: ")) {
				t.Errorf("round %d doc %d: %s, want %s", round, i, got, d.want)
			}
		}
	}
	// The kept value is read, not computed again: with A's and C's values
	// set to true before the first node, both fire on every i although
	// false in this document; the value of C, whose let failed, is not
	// read (the error stays).
	preset := map[int32]uint8{0: 2, 2: 2}
	if got, want := constRun(t, memo, docs[1].src, preset), "A@/r[1]/i[1] A@/r[1]/i[2] C@/r[1]/i[1] C@/r[1]/i[2] G@/r[1]/i[1] G@/r[1]/i[2]"; got != want {
		t.Errorf("with kept values: %s, want %s", got, want)
	}
	if got := constRun(t, memo, docs[2].src, preset); !strings.HasPrefix(got, "error: ") {
		t.Errorf("with kept values and a failed let: %s, want the let's error", got)
	}
}

// constRun validates src as Validate does, with the document-constant
// values preset (check index -> state.constRes) after the state's reset.
func constRun(t *testing.T, rs *Ruleset, src string, preset map[int32]uint8) string {
	t.Helper()
	doc, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	st := &state{}
	st.reset(rs, doc)
	for ci, r := range preset {
		st.constRes[ci] = r
	}
	v := validation{r: rs, st: st, doc: doc}
	if err := v.run(context.Background()); err != nil {
		return "error: " + err.Error()
	}
	return joinIDs(v.findings, true)
}

// unguard makes r try its rules' contexts whole, as if none had guards.
func unguard(r *Ruleset) {
	for i := range r.ctx {
		r.ctx[i].guarded = false
	}
}
