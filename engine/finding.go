package engine

import (
	"strings"

	"github.com/einvoice-dev/einvoice/engine/vm"
)

// Finding is one fired assert or report.
type Finding struct {
	RuleID   string // the assert/report id
	Flag     string // as written in the .sch: fatal, warning, information (or empty)
	Kind     string // "assert" or "report"
	Message  string // whitespace-normalised message with value-of/name evaluated
	Location string // path of the context node, e.g. /Invoice[1]/cac:InvoiceLine[2] in local-name form
	Test     string // the test expression as compiled (after abstract-pattern expansion)
	Source   string // the rule set, e.g. "EN16931 1.3.16"
	Line     int    // line of the context node in the validated document (0 if unknown)
	Terms    []string
	// Diagnostics holds the texts of the diagnostics the check references.
	Diagnostics []string
}

// NormalizeSpace collapses runs of XML whitespace (space, tab, CR, LF) into one
// space and trims them at both ends, as fn:normalize-space (vm.NormalizeSpace).
func NormalizeSpace(s string) string { return vm.NormalizeSpace(s) }

// Terms returns the BT-n and BG-n identifiers named in a message, in order
// of first appearance, without duplicates.
func Terms(msg string) []string {
	var out []string
	for i := 0; i+3 < len(msg); i++ {
		// Skip to the next 'B' (IndexByte is vectorised: compiling the
		// rule sets scans every static message).
		k := strings.IndexByte(msg[i:len(msg)-3], 'B')
		if k < 0 {
			break
		}
		i += k
		if (msg[i+1] != 'T' && msg[i+1] != 'G') || msg[i+2] != '-' {
			continue
		}
		if i > 0 && isWordByte(msg[i-1]) {
			continue
		}
		j := i + 3
		for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
			j++
		}
		if j == i+3 || (j < len(msg) && isWordByte(msg[j])) {
			continue
		}
		term := msg[i:j]
		dup := false
		for _, t := range out {
			if t == term {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, term)
		}
		i = j - 1
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
