package compiler

import (
	"bytes"
	"context"
	"errors"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
)

func compileUpTo(t *testing.T, root, main, stage string, phase string) *Unit {
	t.Helper()
	var buf bytes.Buffer
	u, err := Compile(context.Background(), Config{Root: root, Main: main, Name: "T", Version: "1", Syntax: "x", Phase: phase, Package: "p", Func: "generatedX"}, stage, &buf)
	if err != nil {
		t.Fatalf("compile %s: %v", main, err)
	}
	if stage != "" && buf.Len() == 0 {
		t.Fatalf("dump of stage %s is empty", stage)
	}
	return u
}

func TestSubstituteLongestFirst(t *testing.T) {
	params := []Param{{Name: "BR-10", Value: "ten"}, {Name: "BR-1", Value: "one"}}
	if got := Substitute("$BR-1 and $BR-10", params); got != "one and ten" {
		t.Fatalf("got %q", got)
	}
	// Applied in the given order: with the short name first, $BR-10 is eaten.
	rev := []Param{params[1], params[0]}
	if got := Substitute("$BR-10", rev); got != "one0" {
		t.Fatalf("got %q", got)
	}
}

func TestFrontEndSmall(t *testing.T) {
	u := compileUpTo(t, "testdata", "main.sch", "lets", "")
	if got := strings.Join(u.Files, ","); got != "main.sch,sub/abstract.sch" {
		t.Fatalf("files %s", got)
	}
	tb := u.Tables
	if tb.Phase != "p1" {
		t.Fatalf("phase %q, want the defaultPhase p1", tb.Phase)
	}
	if len(tb.Patterns) != 2 || tb.Patterns[0].ID != "inst" || tb.Patterns[1].ID != "plain" {
		t.Fatalf("patterns %+v", tb.Patterns)
	}
	r0 := tb.Rules[0]
	if r0.Context != "a:x" {
		t.Fatalf("context %q", r0.Context)
	}
	if c := tb.Checks[r0.FirstCheck]; c.Test != "a:ten = a:one" || c.ID != "A1" || c.Flag != "fatal" {
		t.Fatalf("check %+v", c)
	}
	if c := tb.Checks[r0.FirstCheck]; c.Pos.Line != 3 || tb.Files[c.Pos.File] != "sub/abstract.sch" {
		t.Fatalf("pos %+v", c.Pos)
	}
	// Lets: schema g (slot 0), pattern p (1), rule r (2).
	if len(tb.Lets) != 3 || tb.Lets[0].Name != "g" || tb.Lets[1].Name != "p" || tb.Lets[2].Name != "r" {
		t.Fatalf("lets %+v", tb.Lets)
	}
	vars := tb.VarScope(1, tb.Patterns[1].FirstRule, 2)
	if len(vars) != 2 || vars["g"] != 0 || vars["p"] != 1 {
		t.Fatalf("scope of let r: %v", vars)
	}
	vars = tb.VarScope(1, tb.Patterns[1].FirstRule, -1)
	if len(vars) != 3 || vars["r"] != 2 {
		t.Fatalf("scope of rule: %v", vars)
	}
	rep := tb.Checks[tb.Rules[1].FirstCheck]
	if rep.Kind != engine.KindReport || len(rep.Message) != 5 || rep.Message[1].Kind != engine.PartValueOf || rep.Message[3].Kind != engine.PartName {
		t.Fatalf("report %+v", rep)
	}

	u = compileUpTo(t, "testdata", "main.sch", "phase", "p2")
	if len(u.Schema.Patterns) != 1 || u.Schema.Patterns[0].ID != "plain" {
		t.Fatalf("phase p2 patterns %+v", u.Schema.Patterns)
	}
	u = compileUpTo(t, "testdata", "main.sch", "phase", PhaseAll)
	if len(u.Schema.Patterns) != 3 {
		t.Fatalf("#ALL: %d patterns", len(u.Schema.Patterns))
	}
}

func TestIncludeCycle(t *testing.T) {
	_, err := Compile(context.Background(), Config{Root: "testdata", Main: "cycle.sch", Package: "p", Func: "f"}, "", nil)
	var ce *Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "cycle") || ce.Line != 2 {
		t.Fatalf("want an include cycle error at line 2, got %v", err)
	}
}

func TestUnknownStage(t *testing.T) {
	if _, err := Compile(context.Background(), Config{Root: "testdata", Main: "main.sch"}, "nope", nil); err == nil {
		t.Fatal("unknown dump stage accepted")
	}
}

func sharedDir(t *testing.T) string {
	return testshared.Dir(t)
}

// TestInstantiationMatchesPreprocessed compiles the modular EN 16931 sources
// and checks that every pattern, rule context and assert (id, flag, test)
// equals the official preprocessed file, which is the output of the ISO
// abstract-pattern expansion.
func TestInstantiationMatchesPreprocessed(t *testing.T) {
	shared := sharedDir(t)
	for _, c := range []struct{ main, pre string }{
		{"rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch", "rulesets/en16931/1.3.16/ubl/schematron/preprocessed/EN16931-UBL-validation-preprocessed.sch"},
		{"rulesets/en16931/1.3.16/cii/schematron/EN16931-CII-validation.sch", "rulesets/en16931/1.3.16/cii/schematron/preprocessed/EN16931-CII-validation-preprocessed.sch"},
	} {
		got := compileUpTo(t, shared, c.main, "phase", "").Schema
		want := compileUpTo(t, shared, c.pre, "phase", "").Schema
		if len(got.Patterns) != len(want.Patterns) {
			t.Fatalf("%s: %d patterns, preprocessed has %d", c.main, len(got.Patterns), len(want.Patterns))
		}
		checks := 0
		for i, gp := range got.Patterns {
			wp := want.Patterns[i]
			if gp.ID != wp.ID || len(gp.Rules) != len(wp.Rules) {
				t.Fatalf("pattern %d: %s/%d rules vs %s/%d", i, gp.ID, len(gp.Rules), wp.ID, len(wp.Rules))
			}
			for j, gr := range gp.Rules {
				wr := wp.Rules[j]
				if ws(gr.Context) != ws(wr.Context) || len(gr.Checks) != len(wr.Checks) {
					t.Errorf("%s rule %d: context %q (%d checks) vs %q (%d)", gp.ID, j, gr.Context, len(gr.Checks), wr.Context, len(wr.Checks))
					continue
				}
				for k, gc := range gr.Checks {
					wc := wr.Checks[k]
					checks++
					if gc.ID == "CII-SR-282" {
						// Declared twice in CII/EN16931-CII-syntax.sch; the
						// reference (skeleton) uses the first, the
						// preprocessed file the last declaration.
						if gc.Test != "not(ram:BuyerTaxRepresentativeTradeParty)" {
							t.Errorf("CII-SR-282: got %q, want the first param's value", gc.Test)
						}
						continue
					}
					if gc.ID != wc.ID || gc.Flag != wc.Flag || gc.Kind != wc.Kind || ws(gc.Test) != ws(wc.Test) || !sameMessage(gc.Message, wc.Message) {
						t.Errorf("%s rule %d check %d:\n got  %s %s %q\n want %s %s %q", gp.ID, j, k, gc.ID, gc.Flag, gc.Test, wc.ID, wc.Flag, wc.Test)
					}
				}
			}
		}
		if checks < 200 {
			t.Fatalf("%s: only %d checks compared", c.main, checks)
		}
	}
}

func ws(s string) string { return strings.Join(strings.Fields(s), " ") }

func sameMessage(a, b []engine.MessagePart) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || engine.NormalizeSpace(a[i].Text) != engine.NormalizeSpace(b[i].Text) {
			return false
		}
	}
	return true
}

func TestEmitDeterministicAndValidGo(t *testing.T) {
	shared := sharedDir(t)
	cfg := Config{Root: shared, Main: "rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch", Name: "EN16931", Version: "1.3.16", Syntax: "ubl", Package: "en16931", Func: "generatedUBL"}
	u1, err := Compile(context.Background(), cfg, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	u2, err := Compile(context.Background(), cfg, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(u1.Output, u2.Output) {
		t.Fatal("emit is not deterministic")
	}
	first := string(u1.Output[:bytes.IndexByte(u1.Output, '\n')])
	if first != GeneratedHeader(cfg.Main, u1.Tables.SHA256) || len(u1.Tables.SHA256) != 64 {
		t.Fatalf("header %q", first)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "zz.go", u1.Output, 0); err != nil {
		t.Fatalf("emitted Go does not parse: %v", err)
	}
	h, err := HashSources(shared, cfg.Main)
	if err != nil || h != u1.Tables.SHA256 {
		t.Fatalf("HashSources = %s, %v; tables stamped %s", h, err, u1.Tables.SHA256)
	}
	if len(u1.Timings) != len(Stages()) {
		t.Fatalf("%d timings for %d stages", len(u1.Timings), len(Stages()))
	}
}
