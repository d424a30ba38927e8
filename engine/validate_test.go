package engine

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

func mustLoad(t testing.TB, tb *Tables) *Ruleset {
	t.Helper()
	rs, err := Load(tb)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func summary(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s|%s|%s|%s|%s|%v", f.RuleID, f.Flag, f.Kind, f.Location, f.Message, f.Terms))
	}
	return out
}

func TestValidateSemantics(t *testing.T) {
	rs := mustLoad(t, smallTables())
	doc := parseFile(t, "testdata/small.xml")
	got, err := rs.Validate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// Pattern A: line 1 is taken by the first rule (A1), so R1 does not see it.
		"A1|fatal|assert|/inv[1]/line[1]|[A1] first line (BT-1) id 1|[BT-1]",
		"R1|warning|report|/inv[1]/line[2]|line 2 of 2 in line PL|[]",
		"R2|information|report|/inv[1]/note[1]|note p:note says hello world (BG-2, BT-1, BG-2)|[BG-2 BT-1]",
		// Pattern B after all of pattern A.
		"B1|fatal|assert|/inv[1]/line[2]/amt[1]|amount x of line|[]",
		// Pattern D: attributes are visited.
		"D1|warning|report|/inv[1]/line[2]/@id|attribute id|[]",
	}
	if g := summary(got); !reflect.DeepEqual(g, want) {
		t.Fatalf("findings:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
	}
	f := got[0]
	if f.Test != "false()" || f.Source != "Small 0.1" || f.Line != 3 {
		t.Fatalf("finding details: %+v", f)
	}
	// Pooled state must not leak between documents: run again.
	again, err := rs.Validate(context.Background(), doc)
	if err != nil || !reflect.DeepEqual(summary(again), want) {
		t.Fatalf("second run differs: %v %v", summary(again), err)
	}
}

func TestValidateDynamicErrorAbortsStage(t *testing.T) {
	tb := smallTables()
	// B2 now raises FORG0001 on amt "x" (after B1 fired there).
	tb.Checks[4].Test = "xs:integer(.) > 0"
	tb.Namespaces = append(tb.Namespaces, Namespace{"xs", "http://www.w3.org/2001/XMLSchema"})
	rs := mustLoad(t, tb)
	got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
	var ee *EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("want *EvalError, got %v", err)
	}
	if ee.Code() != "FORG0001" || ee.Pattern != "B" || ee.RuleID != "assert B2" || ee.Location != "/inv[1]/line[2]/amt[1]" {
		t.Fatalf("error %+v (code %s)", ee, ee.Code())
	}
	var xe *xdm.Error
	if !errors.As(err, &xe) {
		t.Fatalf("error does not wrap *xdm.Error: %v", err)
	}
	// Findings so far are returned, the stage is marked incomplete by the error.
	if len(got) != 4 || got[3].RuleID != "B1" {
		t.Fatalf("partial findings %v", summary(got))
	}
}

func TestValidateCancelled(t *testing.T) {
	rs := mustLoad(t, smallTables())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := rs.Validate(ctx, parseFile(t, "testdata/small.xml"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(nil); err == nil {
		t.Fatal("Load(nil) succeeded")
	}
	if _, err := Load(&Tables{}); err == nil {
		t.Fatal("Load of empty tables succeeded")
	}
	tb := smallTables()
	tb.Checks[3].Test = "number(. > "
	tb.Checks[3].Pos = SourcePos{File: 0, Line: 42}
	_, err := Load(tb)
	var le *LoadError
	if !errors.As(err, &le) || le.File != "small.sch" || le.Line != 42 || le.Item != "assert B1 test" {
		t.Fatalf("want a LoadError at small.sch:42 naming assert B1, got %v", err)
	}
	var xe *xpath.Error
	if !errors.As(err, &xe) {
		t.Fatalf("LoadError does not wrap *xpath.Error: %v", err)
	}
	tb = smallTables()
	tb.Checks[0].Test = "$undeclared"
	if _, err := Load(tb); err == nil {
		t.Fatal("reference to an undeclared variable compiled")
	}
	tb = smallTables()
	tb.Checks[0].Test = "$x" // rule-scope let of another rule: not visible
	if _, err := Load(tb); err == nil {
		t.Fatal("let of another rule is visible")
	}
}

func TestValidateConcurrent(t *testing.T) {
	rs := mustLoad(t, smallTables())
	doc := parseFile(t, "testdata/small.xml")
	want, err := rs.Validate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				got, err := rs.Validate(context.Background(), doc)
				if err != nil || !reflect.DeepEqual(summary(got), summary(want)) {
					errs <- fmt.Errorf("run differs: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestNormalizeSpaceAndTerms(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"a":                "a",
		"  a \n\t b  ":     "a b",
		"a\u00a0 \u00a0  ": "a\u00a0 \u00a0",
		"a  b":             "a b",
		"\r\na\rb\n":       "a b",
	} {
		if got := NormalizeSpace(in); got != want {
			t.Errorf("NormalizeSpace(%q) = %q, want %q", in, got, want)
		}
	}
	got := Terms("[BR-CO-10]-Sum (BT-106) = Σ (BT-131); BG-25, BT-106, XBT-1, BT-, BT-12a")
	if !reflect.DeepEqual(got, []string{"BT-106", "BT-131", "BG-25"}) {
		t.Fatalf("Terms = %v", got)
	}
	for in, want := range map[string][]string{
		"BT-1": {"BT-1"}, "xBT-1": nil, "BT-": nil, "B": nil, "BBG-2": nil, "BBT-2 BT-3": {"BT-3"}, "see BG-7": {"BG-7"}, "BT-9B": nil, "BT-9 B": {"BT-9"},
	} {
		if got := Terms(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Terms(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestLocationXSLT1 checks the location form of schemas without a
// queryBinding (the ISO skeleton's XSLT 1 full path, as the reference
// reports for Order-X).
func TestLocationXSLT1(t *testing.T) {
	tb := smallTables()
	tb.QueryBinding = ""
	rs := mustLoad(t, tb)
	got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
	if err != nil {
		t.Fatal(err)
	}
	const inv = "/*[local-name()='inv' and namespace-uri()='urn:t']"
	want := []string{
		inv + "/*[local-name()='line' and namespace-uri()='urn:t'][1]",
		inv + "/*[local-name()='line' and namespace-uri()='urn:t'][2]",
		inv + "/*[local-name()='note' and namespace-uri()='urn:p']",
		inv + "/*[local-name()='line' and namespace-uri()='urn:t'][2]/*[local-name()='amt' and namespace-uri()='urn:t']",
		inv + "/*[local-name()='line' and namespace-uri()='urn:t'][2]/@id",
	}
	if len(got) != len(want) {
		t.Fatalf("%d findings", len(got))
	}
	for i, f := range got {
		if f.Location != want[i] {
			t.Errorf("#%d location %s, want %s", i, f.Location, want[i])
		}
	}
}

// TestLetErrorsAreLazy checks that a let whose expression fails aborts the
// stage only where its value is needed, as with Saxon's lazy variables.
func TestLetErrorsAreLazy(t *testing.T) {
	base := func(test string) *Tables {
		tb := smallTables()
		tb.Namespaces = append(tb.Namespaces, Namespace{"xs", "http://www.w3.org/2001/XMLSchema"})
		// Schema let that raises FORG0001 on this document.
		tb.Lets = append([]Let{{Name: "bad", Expr: "xs:integer(//t:amt[2] | //t:line[2]/t:amt)", Scope: ScopeSchema}}, tb.Lets...)
		for i := range tb.Patterns {
			tb.Patterns[i].FirstLet++
		}
		for i := range tb.Rules {
			tb.Rules[i].FirstLet++
		}
		tb.Checks[4].Test = test
		return tb
	}
	// Not referenced at all, or not needed ($x false()): no error, same findings.
	for _, test := range []string{"true()", "not(false() and $bad = 1)", "true() or $bad"} {
		rs := mustLoad(t, base(test))
		got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
		if err != nil || len(got) != 5 {
			t.Fatalf("test %q: %v %v", test, summary(got), err)
		}
	}
	// A comparison with a let that holds its value, decided without a
	// frame (vm.Program.FastVarTest): the findings of evaluating it.
	for test, want := range map[string]string{". != $pl": "/inv[1]/line[1]/amt[1]", ". = $pl": "/inv[1]/line[2]/amt[1]"} {
		tb := base(test)
		tb.Lets[2].Expr = "string(//t:line[1]/t:amt)" // $pl: '10', not a constant
		rs := mustLoad(t, tb)
		if !rs.hot[4].vars {
			t.Fatalf("test %q: no frame-free form reading variables", test)
		}
		got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
		var b2 []string
		for _, f := range got {
			if f.RuleID == "B2" {
				b2 = append(b2, f.Location)
			}
		}
		if err != nil || len(got) != 6 || len(b2) != 1 || b2[0] != want {
			t.Fatalf("test %q: %v %v, want 6 findings, B2 at %s", test, summary(got), err, want)
		}
	}
	// Needed: the let's error aborts the stage at the check that needs it,
	// also where the test has a frame-free form reading the let (a
	// comparison with it, arithmetic of it).
	for _, test := range []string{"$bad > 0", ". = $bad", "$bad * 2 > 0"} {
		rs := mustLoad(t, base(test))
		if !rs.hot[4].vars {
			t.Fatalf("test %q: no frame-free form reading variables", test)
		}
		_, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
		var ee *EvalError
		if !errors.As(err, &ee) || ee.Code() != "FORG0001" || ee.RuleID != "assert B2" {
			t.Fatalf("test %q: want the let's FORG0001 at assert B2, got %v", test, err)
		}
	}
	// A let whose value is frame-free and reads the failed let (a string
	// function of it, vm.compileFastStr): the probe's two bindings give two
	// values, so the error stands where the value is needed; not where the
	// branch taken does not read it.
	for expr, needed := range map[string]bool{
		"concat($bad, 'x')": true, "string-length(replace(string($bad), '1', '')) + 1": true,
		"if (count(//t:line) > 0) then 'y' else concat($bad, 'x')": false,
	} {
		tb := base("$pl = 'y' or $pl != 'y'")
		tb.Lets[2].Expr = expr
		rs := mustLoad(t, tb)
		got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
		var ee *EvalError
		switch {
		case needed && (!errors.As(err, &ee) || ee.Code() != "FORG0001"):
			t.Fatalf("let %q: want the failed let's FORG0001, got %v %v", expr, summary(got), err)
		case !needed && (err != nil || len(got) != 5):
			t.Fatalf("let %q: %v %v, want the 5 findings and no error", expr, summary(got), err)
		}
	}
}

// TestAbsenceVerdicts: checks decided by a name the document lacks
// (vm.Program.AbsenceVerdict) give the same findings as evaluating them, for
// names present and absent, not/empty/exists, steps and paths.
func TestAbsenceVerdicts(t *testing.T) {
	checks := []Check{
		{ID: "N1", Kind: KindAssert, Test: "not(t:missing)"},            // absent: true, no finding
		{ID: "N2", Kind: KindAssert, Test: "not(t:line/t:missing)"},     // absent: true
		{ID: "N3", Kind: KindAssert, Test: "not(t:line/t:amt)"},         // present: false, fires
		{ID: "E1", Kind: KindAssert, Test: "exists(t:line/t:gone)"},     // absent: false, fires
		{ID: "E2", Kind: KindAssert, Test: "exists(t:line[@id])"},       // present: true
		{ID: "M1", Kind: KindReport, Test: "empty(p:none[1 div 0])"},    // absent: true, fires (predicate never evaluated)
		{ID: "M2", Kind: KindReport, Test: "empty(p:note)"},             // present: false
		{ID: "C1", Kind: KindAssert, Test: "count(t:line/t:gone) <= 1"}, // absent: 0 <= 1 true
		{ID: "C2", Kind: KindAssert, Test: "count(t:gone) >= 1"},        // absent: false, fires
		{ID: "C3", Kind: KindAssert, Test: "count(t:line) = 1"},         // present (2 lines): fires
		// Both names occur, not as parent and child (vm.Program.AbsenceEdges).
		{ID: "P1", Kind: KindAssert, Test: "not(t:line/p:note)"},                       // no pair: true
		{ID: "P2", Kind: KindAssert, Test: "exists(t:line/t:amt/t:line)"},              // no pair: false, fires
		{ID: "P3", Kind: KindAssert, Test: "not(t:amt/@id)"},                           // no attribute pair: true
		{ID: "P4", Kind: KindReport, Test: "count(t:line/p:note[1 div 0]) = 0"},        // no pair: fires, predicate never evaluated
		{ID: "P5", Kind: KindAssert, Test: "not(t:line/@id)"},                          // pair present: false, fires
		{ID: "P6", Kind: KindAssert, Test: "empty(t:line/t:amt[. = '10'])"},            // pair present: false, fires
		{ID: "P7", Kind: KindAssert, Test: "not(t:line[@id = '3']/t:line/t:amt)"},      // after a predicate: evaluated, true
		{ID: "P8", Kind: KindAssert, Test: "exists(t:line/following-sibling::p:note)"}, // not a child step: evaluated, true
	}
	rs := absenceRules(t, "t:inv", checks)
	for i, c := range checks {
		if len(rs.checks[i].absent) == 0 {
			t.Fatalf("%s (%s): no absence verdict derived", c.ID, c.Test)
		}
		// Every path starts with a child step of the context (t:inv);
		// the pairs within it are those of AbsenceEdges' killer prefix.
		inv := rs.absIdx[xdm.QName{Space: "urn:t", Local: "inv"}]
		fromCtx, within := false, false
		for _, j := range rs.checks[i].absentEdges {
			if e := rs.absEdges[j]; e.n == 1 && rs.edgeParents[e.first] == inv {
				fromCtx = true
			} else {
				within = true
			}
		}
		if want := !strings.Contains("N1 E2 M1 M2 C2 C3 P7 P8", c.ID); !fromCtx || within != want {
			t.Fatalf("%s (%s): pairs %v: from the context %v, within the path %v, want %v", c.ID, c.Test, rs.checks[i].absentEdges, fromCtx, within, want)
		}
	}
	for round := 0; round < 2; round++ { // pooled state reused
		got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, f := range got {
			ids = append(ids, f.RuleID)
		}
		if want := "N3 E1 M1 C2 C3 P2 P4 P5 P6"; strings.Join(ids, " ") != want {
			t.Fatalf("round %d: findings %v, want %s", round, ids, want)
		}
	}
}

// TestAbsencePlansPerDocument: the checks decided by absence are planned
// per rule and document (validation.plan), on the rule's first firing; a
// rule fired on several nodes, in documents with and without the names,
// one after the other with the same pooled state, gives the findings of
// evaluating every check.
func TestAbsencePlansPerDocument(t *testing.T) {
	rs := absenceRules(t, "t:line", []Check{
		{ID: "G", Kind: KindAssert, Test: "exists(t:gone)"},    // absent: fires
		{ID: "R", Kind: KindReport, Test: "exists(t:gone)"},    // absent: passes
		{ID: "A", Kind: KindAssert, Test: "not(t:amt = '2')"},  // evaluated
		{ID: "X", Kind: KindReport, Test: "count(t:gone) = 0"}, // absent: fires
	})
	wantFindings(t, rs, false, 2, [][2]string{
		{`<inv xmlns="urn:t"><line><amt>1</amt></line><line><amt>2</amt></line></inv>`, "G X G A X"},
		{`<inv xmlns="urn:t"><line><gone/><amt>2</amt></line><line/></inv>`, "R A G X"},
		{`<inv xmlns="urn:t"><line/></inv>`, "G X"},
	})
}

// TestAbsenceContextPairs: a check whose path starts with a child step of
// its context is decided by the pairs of the context's names and that
// child (one name, or each of a union's), and not for a context that can
// match any element.
func TestAbsenceContextPairs(t *testing.T) {
	checks := []Check{
		{ID: "A1", Kind: KindAssert, Test: "not(t:amt)"},
		{ID: "A2", Kind: KindReport, Test: "exists(@cur)"},
		{ID: "A3", Kind: KindAssert, Test: "exists(following-sibling::t:note)"}, // not a child step
		{ID: "U1", Kind: KindAssert, Test: "not(t:amt)"},
		{ID: "W1", Kind: KindAssert, Test: "not(t:amt)"},
	}
	rs := absenceRules(t, "", checks,
		Rule{Context: "t:line", FirstCheck: 0, NumChecks: 3},
		Rule{Context: "t:line | t:note", FirstCheck: 3, NumChecks: 1},
		Rule{Context: "t:line | *", FirstCheck: 4, NumChecks: 1}, // any element
	)
	for i, want := range []int{2, 2, 0, 3, 0} { // one pair, of 1, 1, 2 parents, or none
		if e := rs.checks[i].absentEdges; len(e) != min(want, 1) || want > 0 && rs.absEdges[e[0]].n != int32(want-1) {
			t.Fatalf("%s: pairs %v, want one with %d parents", checks[i].ID, e, want-1)
		}
	}
	wantFindings(t, rs, true, 3, [][2]string{
		{`<inv xmlns="urn:t"><line/><note cur="1"><amt/></note></inv>`, "U1@/inv[1]/note[1] W1@/inv[1]/note[1]"},
		{`<inv xmlns="urn:t"><line cur="1"><amt/></line><note/></inv>`, "A1@/inv[1]/line[1] A2@/inv[1]/line[1] U1@/inv[1]/line[1] W1@/inv[1]/line[1]"},
		{`<inv xmlns="urn:t"><line/><note/><amt cur="1"/></inv>`, "W1@/inv[1]"},
	})
}

// TestAbsencePlansPerStructure: documents with the same names, some as
// parent and child and some not (vm.Program.AbsenceEdges), get plans of
// their own: a plan that skipped a check for a missing pair is not reused
// for a document that has the pair, nor the reverse, with the same pooled
// state.
func TestAbsencePlansPerStructure(t *testing.T) {
	rs := absenceRules(t, "t:inv", []Check{
		{ID: "A", Kind: KindAssert, Test: "not(t:line/t:amt)"},
		{ID: "R", Kind: KindReport, Test: "exists(t:line/@cur)"},
		{ID: "N", Kind: KindAssert, Test: "not(t:note/t:amt)"},
	})
	wantFindings(t, rs, false, 3, [][2]string{
		{`<inv xmlns="urn:t"><line/><amt cur="x"/><note/></inv>`, ""},
		{`<inv xmlns="urn:t"><line><amt cur="x"/></line><note/></inv>`, "A"},
		{`<inv xmlns="urn:t"><line cur="x"><amt/></line><note/></inv>`, "A R"},
		{`<inv xmlns="urn:t"><line/><amt cur="x"/><note><amt/></note></inv>`, "N"},
		{`<inv xmlns="urn:t"><line/><amt cur="x"/><note/></inv>`, ""},
	})
}

// absenceRules loads a rule set of one rule on context, the checks fatal
// and their ids their messages.
func absenceRules(t *testing.T, context string, checks []Check, more ...Rule) *Ruleset {
	t.Helper()
	for i := range checks {
		checks[i].Flag = "fatal"
		checks[i].Message = []MessagePart{txt(checks[i].ID)}
	}
	tb := &Tables{
		Name: "Abs", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"a.sch"},
		Namespaces: []Namespace{{"t", "urn:t"}, {"p", "urn:p"}},
		Patterns:   []Pattern{{ID: "P", FirstRule: 0, NumRules: 1}},
		Rules:      []Rule{{Context: context, Pattern: 0, FirstCheck: 0, NumChecks: int32(len(checks))}},
		Checks:     checks,
	}
	if len(more) > 0 {
		// One pattern per rule, each with its own checks.
		tb.Patterns, tb.Rules = nil, more
		for ri := range more {
			tb.Patterns = append(tb.Patterns, Pattern{ID: fmt.Sprint("P", ri), FirstRule: int32(ri), NumRules: 1})
			tb.Rules[ri].Pattern = int32(ri)
		}
	}
	return mustLoad(t, tb)
}

// wantFindings validates each document (src, the findings' ids, with
// their locations when loc) rounds times with the same pooled state, in
// reverse order every other round.
func wantFindings(t *testing.T, rs *Ruleset, loc bool, rounds int, docs [][2]string) {
	t.Helper()
	for round := 0; round < rounds; round++ {
		for i := range docs {
			d := docs[i]
			if round%2 == 1 {
				d = docs[len(docs)-1-i]
			}
			if g := findingIDs(t, rs, d[0], loc); g != d[1] {
				t.Errorf("round %d %s: findings %q, want %q", round, d[0], g, d[1])
			}
		}
	}
}

// TestValidateContextErrorIsNoMatch: a dynamic error while matching a rule
// context makes the rule not match that node, as the reference (Saxon,
// XSLT 2.0 recoverable error) does; the stage goes on and is complete. The
// oracle diff found this on an emptied udt:Indicator in a CII context
// predicate (ram:ChargeIndicator/udt:Indicator = false()).
func TestValidateContextErrorIsNoMatch(t *testing.T) {
	tb := smallTables()
	tb.Namespaces = append(tb.Namespaces, Namespace{"xs", "http://www.w3.org/2001/XMLSchema"})
	// amt "x" raises FORG0001 in the context predicate; amt "10" matches.
	tb.Rules[3].Context = "t:amt[xs:integer(.) > 0]"
	tb.Checks[4].Test = "false()" // B2 fires wherever the rule matches
	rs := mustLoad(t, tb)
	got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
	if err != nil {
		t.Fatalf("context error aborted the stage: %v", err)
	}
	var b []string
	for _, f := range got {
		if f.RuleID == "B1" || f.RuleID == "B2" {
			b = append(b, f.RuleID+"@"+f.Location)
		}
	}
	if len(b) != 1 || b[0] != "B2@/inv[1]/line[1]/amt[1]" {
		t.Fatalf("pattern B findings %v, want only B2 on the first amt", b)
	}
}

// TestPatternVisitsNamedNodesInDocumentOrder: a pattern without a
// catch-all rule visits only the nodes of its rules' names, and still in
// document order when it names several (lines and notes interleaved); a
// pattern with a catch-all rule visits every node. The findings come out
// in document order per pattern, patterns in schema order.
func TestPatternVisitsNamedNodesInDocumentOrder(t *testing.T) {
	tb := smallTables()
	tb.Patterns = []Pattern{
		{ID: "two-names", FirstRule: 0, NumRules: 2, FirstLet: 3},
		{ID: "catch-all", FirstRule: 2, NumRules: 2, FirstLet: 3},
	}
	tb.Rules = []Rule{
		{Context: "p:note", Pattern: 0, FirstCheck: 0, NumChecks: 1, FirstLet: 3},
		{Context: "t:line", Pattern: 0, FirstCheck: 1, NumChecks: 1, FirstLet: 3},
		{Context: "t:amt", Pattern: 1, FirstCheck: 2, NumChecks: 1, FirstLet: 3},
		{Context: "node()", Pattern: 1, FirstCheck: 3, NumChecks: 1, FirstLet: 3},
	}
	tb.Checks = []Check{report("NOTE"), report("LINE"), report("AMT"), report("ANY")}
	tb.Lets = tb.Lets[:1]
	rs := mustLoad(t, tb)
	doc, err := xmltree.Parse([]byte(`<inv xmlns="urn:t" xmlns:p="urn:p"><p:note/><line><amt/></line><p:note/><line/><line><amt/></line><p:note/></inv>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	got, err := rs.Validate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range got {
		ids = append(ids, f.RuleID)
	}
	want := "NOTE LINE NOTE LINE LINE NOTE " + // two-names: document order across both names
		"ANY ANY ANY AMT ANY ANY ANY AMT ANY" // catch-all: inv, note, line, amt, note, line, line, amt, note
	if strings.Join(ids, " ") != want {
		t.Fatalf("findings\n got %s\nwant %s", strings.Join(ids, " "), want)
	}
}

// TestDeadLets: a let that no check, message, rule context, diagnostic or
// live let reads is not evaluated (Ruleset.liveLets); one read through any
// of them, or through a chain of lets, is, and its value reaches the
// findings. A dead let that would raise an error changes nothing.
func TestDeadLets(t *testing.T) {
	tb := &Tables{
		Name: "Dead", Version: "1", Syntax: "t", QueryBinding: "xslt2", Files: []string{"d.sch"},
		Namespaces: []Namespace{{"t", "urn:t"}, {"xs", "http://www.w3.org/2001/XMLSchema"}},
		Lets: []Let{
			/* 0 */ {Name: "lines", Expr: "count(//t:line)", Scope: ScopeSchema}, // read by $twice only
			/* 1 */ {Name: "twice", Expr: "$lines * 2", Scope: ScopeSchema}, // read by a message
			/* 2 */ {Name: "diag", Expr: "concat('D', $lines)", Scope: ScopeSchema}, // read by a diagnostic
			/* 3 */ {Name: "ctx", Expr: "'2'", Scope: ScopeSchema}, // read by a rule context
			/* 4 */ {Name: "bad", Expr: "xs:integer(//t:amt[2])", Scope: ScopeSchema}, // dead, would raise FORG0001
			/* 5 */ {Name: "unused", Expr: "count(//t:amt)", Scope: ScopePattern}, // dead
			/* 6 */ {Name: "id", Expr: "string(@id)", Scope: ScopeRule}, // read by $tag only
			/* 7 */ {Name: "tag", Expr: "concat('#', $id)", Scope: ScopeRule}, // read by a test
			/* 8 */ {Name: "spare", Expr: "$bad + 1", Scope: ScopeRule}, // dead, and so is what it reads
		},
		Patterns: []Pattern{{ID: "P", FirstRule: 0, NumRules: 2, FirstLet: 5, NumLets: 1}},
		Rules: []Rule{
			{Context: "t:line[@id = $ctx]", Pattern: 0, FirstCheck: 0, NumChecks: 1, FirstLet: 6, NumLets: 3},
			{Context: "t:inv", Pattern: 0, FirstCheck: 1, NumChecks: 1, FirstLet: 9},
		},
		Checks: []Check{
			{ID: "L1", Flag: "fatal", Kind: KindReport, Test: "$tag = '#2'", Message: []MessagePart{txt("line "), valueOf("$tag")}},
			{ID: "I1", Flag: "fatal", Kind: KindReport, Test: "true()", Message: []MessagePart{txt("lines x2: "), valueOf("$twice")}, Diagnostics: []int32{0}},
		},
		Diagnostics: []Diagnostic{{ID: "d", Message: []MessagePart{valueOf("$diag")}}},
	}
	rs := mustLoad(t, tb)
	wantDead := []bool{false, false, false, false, true, true, false, false, true}
	if !slices.Equal(rs.deadLet, wantDead) {
		t.Fatalf("dead lets %v, want %v", rs.deadLet, wantDead)
	}
	for round := 0; round < 2; round++ { // pooled state reused
		got, err := rs.Validate(context.Background(), parseFile(t, "testdata/small.xml"))
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, f := range got {
			msgs = append(msgs, f.RuleID+": "+f.Message+" "+strings.Join(f.Diagnostics, ","))
		}
		if want := "I1: lines x2: 4 D2|L1: line #2 "; strings.Join(msgs, "|") != want {
			t.Fatalf("round %d: %q, want %q", round, strings.Join(msgs, "|"), want)
		}
	}
}

// TestFindingsOwnedByCaller: the findings Validate returns are the
// caller's (the pooled state collects them in storage of its own): the
// next validations, with more findings and with none, leave them as they
// were, and a document without findings gets none.
func TestFindingsOwnedByCaller(t *testing.T) {
	rs := mustLoad(t, guardTables("Owned", nil, []string{"i", "j"}))
	first, err := validateSrc(t, rs, `<r><i/><j/></r>`)
	if err != nil {
		t.Fatal(err)
	}
	kept := slices.Clone(first)
	for _, src := range []string{`<r><j/><j/><i/><i/><i/></r>`, `<r/>`} {
		got, err := validateSrc(t, rs, src)
		if err != nil {
			t.Fatal(err)
		}
		if src == `<r/>` && len(got) != 0 {
			t.Errorf("%s: %d findings, want none", src, len(got))
		}
		if !slices.EqualFunc(first, kept, func(a, b Finding) bool { return a.RuleID == b.RuleID && a.Location == b.Location }) {
			t.Fatalf("after validating %s, the first findings are %s, were %s", src, joinIDs(first, true), joinIDs(kept, true))
		}
	}
	if got := joinIDs(first, true); got != "A@/r[1]/i[1] B@/r[1]/j[1]" {
		t.Errorf("findings %s", got)
	}
}
