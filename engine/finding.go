package engine

import (
	"strings"
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
// space and trims them at both ends, as fn:normalize-space. Other Unicode
// spaces (such as U+00A0) are kept, as the reference keeps them.
func NormalizeSpace(s string) string {
	if !needsNormalize(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if isXMLSpace(s[i]) {
			i++
			continue
		}
		// A run of other bytes is copied at once (a load normalises every
		// static message of the rule sets).
		j := i + 1
		for j < len(s) && !isXMLSpace(s[j]) {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

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

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// needsNormalize reports whether NormalizeSpace would change s: blanks at
// either end, a tab, newline or carriage return, or two spaces in a row.
func needsNormalize(s string) bool {
	if s == "" {
		return false
	}
	return isXMLSpace(s[0]) || isXMLSpace(s[len(s)-1]) || strings.IndexByte(s, '\n') >= 0 ||
		strings.IndexByte(s, '\t') >= 0 || strings.IndexByte(s, '\r') >= 0 || strings.Contains(s, "  ")
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
