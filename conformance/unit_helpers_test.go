package conformance

import (
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
)

type engineFinding struct{ RuleID, Flag string }

func toFindings(fs []engineFinding) []engine.Finding {
	out := make([]engine.Finding, len(fs))
	for i, f := range fs {
		out[i] = engine.Finding{RuleID: f.RuleID, Flag: f.Flag, Kind: "assert"}
	}
	return out
}

func TestDiff(t *testing.T) {
	want := []ExpectedFinding{{ID: "BR-01", Flag: "fatal", Kind: "assert", Loc: "/Invoice[1]", Text: "m"}, {ID: "FORG0001", Kind: "stage-error"}}
	got := []engine.Finding{{RuleID: "BR-01", Flag: "fatal", Kind: "assert", Location: "/Invoice[1]", Message: "m"}, {RuleID: "FORG0001", Kind: "stage-error", Message: "details"}}
	if d := Diff(got, want); len(d) != 0 {
		t.Fatalf("equal lists differ: %v", d)
	}
	got[0].Message = "other"
	if d := Diff(got, want); len(d) != 1 {
		t.Fatalf("a changed message must differ: %v", d)
	}
	if d := Diff(got[:1], want); len(d) != 2 {
		t.Fatalf("a missing finding must be reported: %v", d)
	}
}
