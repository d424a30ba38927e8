package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpectedEN16931StageOfOtherCorpora compares our EN 16931 output with
// the EN 16931 stage of the reference runs over the XRechnung corpora (their
// first stage is EN 16931 1.3.16): many more real documents with findings.
func TestExpectedEN16931StageOfOtherCorpora(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ file, syntax, stage string }{
		{"xrechnung-ubl/testsuite-technical.jsonl", "ubl", "EN16931-UBL-validation.sch"},
		{"xrechnung-ubl/xr-instances.jsonl", "ubl", "EN16931-UBL-validation.sch"},
		{"xrechnung-cii/testsuite-technical.jsonl", "cii", "EN16931-CII-validation.sch"},
		{"xrechnung-cii/xr-instances.jsonl", "cii", "EN16931-CII-validation.sch"},
	} {
		lines, err := ReadExpected(filepath.Join(h.shared, "conformance", "expected", c.file))
		if err != nil {
			t.Fatal(err)
		}
		rs := h.ruleset(t, c.syntax)
		agree, findings := 0, 0
		for _, l := range lines {
			var want []ExpectedFinding
			for _, f := range l.Fired {
				if f.Stage == c.stage {
					want = append(want, f)
				}
			}
			findings += len(want)
			data, err := os.ReadFile(filepath.Join(h.shared, l.File))
			if err != nil {
				t.Fatal(err)
			}
			got, err := h.validate(t, rs, data)
			if err != nil {
				t.Errorf("%s: %v", l.File, err)
				continue
			}
			diff := Diff(got, want)
			if len(diff) == 0 {
				agree++
			}
			h.outcome(t, "en16931-"+c.syntax+":"+l.File, len(diff) > 0, strings.Join(diff, "\n"))
		}
		t.Logf("%-40s %4d documents, %4d agree, %4d disagree (%d reference findings)", c.file, len(lines), agree, len(lines)-agree, findings)
	}
	h.checkStale(t, "en16931-ubl:corpus/xrechnung")
	h.checkStale(t, "en16931-cii:corpus/xrechnung")
}

// TestExpectedXRechnung compares both stages (EN 16931 1.3.16, then
// XRechnung 2.5.0) over the XRechnung corpora with the reference.
func TestExpectedXRechnung(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ file, set string }{
		{"xrechnung-ubl/testsuite-technical.jsonl", "xrechnung-ubl"},
		{"xrechnung-ubl/xr-instances.jsonl", "xrechnung-ubl"},
		{"xrechnung-cii/testsuite-technical.jsonl", "xrechnung-cii"},
		{"xrechnung-cii/xr-instances.jsonl", "xrechnung-cii"},
	} {
		lines, err := ReadExpected(filepath.Join(h.shared, "conformance", "expected", c.file))
		if err != nil {
			t.Fatal(err)
		}
		stages := h.stages(t, c.set)
		agree, findings := 0, 0
		for _, l := range lines {
			findings += len(l.Fired)
			data, err := os.ReadFile(filepath.Join(h.shared, l.File))
			if err != nil {
				t.Fatal(err)
			}
			got, err := h.validateStages(t, stages, data)
			if err != nil {
				t.Errorf("%s: %v", l.File, err)
				continue
			}
			diff := Diff(got, l.Fired)
			if len(diff) == 0 {
				agree++
			}
			h.outcome(t, c.set+":"+l.File, len(diff) > 0, strings.Join(diff, "\n"))
		}
		t.Logf("%-40s %4d documents, %4d agree, %4d disagree (%d reference findings)", c.file, len(lines), agree, len(lines)-agree, findings)
	}
	h.checkStale(t, "xrechnung-ubl:")
	h.checkStale(t, "xrechnung-cii:")
}
