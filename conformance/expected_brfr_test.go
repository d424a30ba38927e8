package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpectedBRFR compares BR-FR 1.4.0.03 with the reference: UBL (the
// package's EN 16931 copy, then Flux 2 with its custom:* xsl:functions
// compiled from the source) and the CDAR lifecycle messages.
func TestExpectedBRFR(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ set, file string }{
		{"br-fr-ubl", "akretion.jsonl"},
		{"br-fr-cdar", "examples.jsonl"},
	} {
		lines, err := ReadExpected(filepath.Join(h.shared, "conformance", "expected", c.set, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) == 0 {
			t.Fatalf("%s: no expected lines", c.set)
		}
		stages := h.stages(t, c.set)
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
		t.Logf("%-10s %s: %d documents, %d agree, %d disagree (%d reference findings)", c.set, c.file, len(lines), agree, len(lines)-agree, fired)
	}
	h.checkStale(t, "br-fr-")
}

// The reference cuts long messages to 2000 characters and a marker; ours
// match when the kept part is a prefix and the cut length is exact.
func TestSameText(t *testing.T) {
	for _, c := range []struct {
		got, want string
		same      bool
	}{
		{"abc", "abc", true},
		{"abcdef", "abc...[+3 chars]", true},
		{"abcdefg", "abc...[+3 chars]", false},
		{"abxdef", "abc...[+3 chars]", false},
		{"abé", "ab...[+1 chars]", true},
		{"abc", "abd", false},
	} {
		if got := sameText(c.got, c.want); got != c.same {
			t.Errorf("sameText(%q, %q) = %v", c.got, c.want, got)
		}
	}
}
