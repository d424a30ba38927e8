package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpectedExamples runs every document of the EN 16931 example corpora
// and requires fired ids, flags, kinds, locations and message texts to equal
// the reference's, in order.
func TestExpectedExamples(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ set, syntax string }{
		{"en16931-ubl", "ubl"}, {"en16931-cii", "cii"},
		{"ro-cius-ubl", "ro-cius-ubl"},
		{"order-x-basic", "order-x-basic"}, {"order-x-comfort", "order-x-comfort"}, {"order-x-extended", "order-x-extended"},
		{"peppol-ubl", "peppol-ubl"},
		{"peppol-ubl-3.0.21", "peppol-ubl-3.0.21"}, {"peppol-ubl-sb-3.0.21", "peppol-ubl-sb-3.0.21"},
		{"factur-x-minimum", "factur-x-minimum"}, {"factur-x-basic-wl", "factur-x-basic-wl"}, {"factur-x-basic", "factur-x-basic"},
		{"factur-x-en16931", "factur-x-en16931"}, {"factur-x-extended", "factur-x-extended"},
	} {
		lines, err := ReadExpected(filepath.Join(h.shared, "conformance", "expected", c.set, "examples.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		stages := h.stages(t, c.syntax)
		agree, fired := 0, 0
		for _, l := range lines {
			data, err := os.ReadFile(filepath.Join(h.shared, l.File))
			if err != nil {
				t.Fatal(err)
			}
			got, err := h.validateStages(t, stages, data)
			if err != nil {
				t.Errorf("%s: %v", l.File, err)
				continue
			}
			fired += len(l.Fired)
			diff := Diff(got, l.Fired)
			if len(diff) == 0 {
				agree++
			}
			h.outcome(t, c.set+":"+l.File, len(diff) > 0, strings.Join(diff, "\n"))
		}
		t.Logf("%-12s examples: %d documents, %d agree, %d disagree (%d reference findings)", c.set, len(lines), agree, len(lines)-agree, fired)
		if len(lines) == 0 {
			t.Errorf("%s: no expected lines", c.set)
		}
	}
	for _, set := range []string{"en16931-ubl:", "en16931-cii:", "ro-cius-ubl:", "order-x-", "peppol-ubl:corpus/peppol-bis-billing/3.0.19/examples", "peppol-ubl-3.0.21:", "peppol-ubl-sb-3.0.21:", "factur-x-"} {
		h.checkStale(t, set+"corpus/")
	}
}
