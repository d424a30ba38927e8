package engine

import (
	"slices"
	"testing"
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
	tables := &Tables{Name: "Guards", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"g.sch"}, Lets: lets}
	for i, c := range contexts {
		id := string(rune('A' + i))
		tables.Patterns = append(tables.Patterns, Pattern{ID: id, FirstRule: int32(i), NumRules: 1, FirstLet: 3})
		tables.Rules = append(tables.Rules, Rule{Context: c, Pattern: int32(i), FirstCheck: int32(i), NumChecks: 1, FirstLet: 3})
		tables.Checks = append(tables.Checks, report(id))
	}
	guarded := mustLoad(t, tables)
	if want := []bool{true, true, true, false, true, false, true}; !slices.Equal(guarded.guarded, want) {
		t.Fatalf("guarded = %v, want %v", guarded.guarded, want)
	}
	plain := mustLoad(t, tables)
	clear(plain.guarded)
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

// guardRun validates src and returns its findings, or its error.
func guardRun(t *testing.T, rs *Ruleset, src string) string {
	t.Helper()
	got, err := validateSrc(t, rs, src)
	if err != nil {
		return "error: " + err.Error()
	}
	return joinIDs(got, true)
}
