package conformance

import "github.com/einvoice-dev/einvoice/engine"

type engineFinding struct{ RuleID, Flag string }

func toFindings(fs []engineFinding) []engine.Finding {
	out := make([]engine.Finding, len(fs))
	for i, f := range fs {
		out[i] = engine.Finding{RuleID: f.RuleID, Flag: f.Flag, Kind: "assert"}
	}
	return out
}
