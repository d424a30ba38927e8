package conformance

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestUnitTests runs every official vefa unit test of EN 16931, judges it as
// vefa does, and also compares the full fired list with the reference's
// unit-tests.jsonl (same ids, flags, kinds, locations, texts, order).
func TestUnitTests(t *testing.T) {
	h := newHarness(t)
	runUnitFolders(t, h, "corpus/en16931/test", []unitFolder{
		{"Invoice-unit-UBL", "en16931-ubl"},
		{"CreditNote-unit-UBL", "en16931-ubl"},
		{"cii", "en16931-cii"},
	})
	h.checkStale(t, "en16931-ubl:corpus/en16931/test/")
	h.checkStale(t, "en16931-cii:corpus/en16931/test/")
}

// unitFolder is a folder of testSet files and the reference set (a key of
// ruleSources or stagedSets, and the expected/ folder name) it is run with.
type unitFolder struct{ dir, set string }

// baseConfiguration reports whether a vefa configuration is a Peppol "base"
// one (peppolbis-en16931-base-3.0-ubl/cii), which upstream runs with the
// Peppol rules only, without the EN 16931 stage; the reference results do
// the same.
func baseConfiguration(c string) bool { return strings.Contains(c, "-base-") }

// runUnitFolders runs every test of every testSet in base/<dir>, judges it
// as vefa does and compares it with the reference's unit-tests.jsonl.
func runUnitFolders(t *testing.T, h *harness, base string, folders []unitFolder) {
	expected := map[string]ExpectedLine{}
	seen := map[string]bool{}
	for _, f := range folders {
		set := f.set
		if seen[set] {
			continue
		}
		seen[set] = true
		lines, err := ReadExpected(filepath.Join(h.shared, "conformance", "expected", set, "unit-tests.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			expected[set+":"+l.File+"#"+fmt.Sprint(l.Index)] = l
		}
	}
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-22s %6s %6s %6s %8s %9s\n", "folder", "tests", "passed", "failed", "ref-diff", "findings")
	for _, f := range folders {
		all := h.stages(t, f.set)
		files, err := filepath.Glob(filepath.Join(h.shared, filepath.FromSlash(base), f.dir, "*.xml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no testSet files (%v)", f.dir, err)
		}
		sort.Strings(files)
		var tests, passed, failed, refDiff, findings int
		for _, path := range files {
			rel, _ := filepath.Rel(h.shared, path)
			rel = filepath.ToSlash(rel)
			ts, err := ReadTestSet(path)
			if err != nil {
				t.Error(err)
				continue
			}
			stages := all
			if baseConfiguration(ts.Configuration) {
				stages = all[len(all)-1:]
			}
			for i := range ts.Tests {
				ut := &ts.Tests[i]
				tests++
				key := f.set + ":" + rel + "#" + ut.ID
				var problems []string
				got, err := h.validateStages(t, stages, ut.Document)
				if err != nil {
					problems = append(problems, "document: "+err.Error())
				}
				findings += len(got)
				v := Judge(ts.Scope, ut, got)
				if !v.Pass() {
					problems = append(problems, "vefa: "+strings.Join(v.Problems, "; "))
				}
				exp, ok := expected[f.set+":"+rel+"#"+fmt.Sprint(ut.Index)]
				switch {
				case !ok:
					problems = append(problems, "no reference line")
				default:
					if exp.Test != ut.ID {
						problems = append(problems, fmt.Sprintf("reference line is test %q", exp.Test))
					}
					if exp.Pass != v.Pass() {
						problems = append(problems, fmt.Sprintf("reference pass=%v, vefa judge says %v", exp.Pass, v.Pass()))
					}
					if strings.Join(exp.FiredInScope, ",") != strings.Join(v.FiredInScope, ",") {
						problems = append(problems, fmt.Sprintf("fired in scope %v, reference %v", v.FiredInScope, exp.FiredInScope))
					}
					if d := Diff(got, exp.Fired); len(d) > 0 {
						refDiff++
						problems = append(problems, "fired list:\n"+strings.Join(d, "\n"))
					}
				}
				if len(problems) == 0 {
					passed++
				} else {
					failed++
				}
				h.outcome(t, key, len(problems) > 0, strings.Join(problems, "\n"))
			}
		}
		fmt.Fprintf(&table, "%-22s %6d %6d %6d %8d %9d\n", f.dir, tests, passed, failed, refDiff, findings)
		if tests == 0 {
			t.Errorf("%s: no tests", f.dir)
		}
	}
	t.Log(table.String())
}

// TestParseTestSetAndJudge checks the testSet reader (namespace inheritance,
// ids, number=) and the vefa judgement on a hand-written testSet.
func TestParseTestSetAndJudge(t *testing.T) {
	src := `<testSet xmlns="http://difi.no/xsd/vefa/validator/1.0" xmlns:x="urn:x" configuration="c">
  <assert><scope>R1</scope><scope>R2</scope></assert>
  <test id=" 7 "><assert><description>d</description><error number="2">R1</error><success>R2</success></assert>
    <x:Doc xmlns:y="urn:y"><y:a/></x:Doc></test>
  <test><assert><warning>R2</warning></assert><Doc xmlns="urn:d"/></test>
</testSet>`
	ts, err := ParseTestSet([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ts.Configuration != "c" || strings.Join(ts.Scope, ",") != "R1,R2" || len(ts.Tests) != 2 {
		t.Fatalf("testSet %+v", ts)
	}
	t0, t1 := ts.Tests[0], ts.Tests[1]
	if t0.ID != "7" || t1.ID != "2" || t0.Description != "d" || t0.Error[0] != (Expectation{"R1", 2}) || t0.Success[0] != "R2" {
		t.Fatalf("tests %+v", ts.Tests)
	}
	doc := string(t0.Document)
	if !strings.HasPrefix(doc, `<x:Doc xmlns="http://difi.no/xsd/vefa/validator/1.0" xmlns:x="urn:x" xmlns:y="urn:y">`) {
		t.Fatalf("document %s", doc)
	}
	if string(t1.Document) != `<Doc xmlns:x="urn:x" xmlns="urn:d"/>` {
		t.Fatalf("document %s", t1.Document)
	}
	fire := func(ids ...string) (out []engineFinding) {
		for _, id := range ids {
			parts := strings.SplitN(id, ":", 2)
			out = append(out, engineFinding{RuleID: parts[0], Flag: parts[1]})
		}
		return out
	}
	for _, c := range []struct {
		fired []engineFinding
		pass  bool
	}{
		{fire("R1:fatal", "R1:fatal", "R9:fatal"), true},
		{fire("R1:fatal"), false},                           // number=2
		{fire("R1:fatal", "R1:fatal", "R2:warning"), false}, // R2 must succeed
		{fire("R1:warning", "R1:warning"), false},           // wrong level
	} {
		v := Judge(ts.Scope, &t0, toFindings(c.fired))
		if v.Pass() != c.pass {
			t.Errorf("fired %v: pass=%v (%v), want %v", c.fired, v.Pass(), v.Problems, c.pass)
		}
	}
	v := Judge(ts.Scope, &t1, toFindings(fire("R2:warning", "R1:fatal")))
	if v.Pass() || strings.Join(v.FiredInScope, ",") != "R2:warning,R1:error" {
		t.Fatalf("unexpected R1 not reported: %+v", v)
	}
}
