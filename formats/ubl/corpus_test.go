package ubl

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// knownUnconsumed lists the corpus nodes the model cannot carry, with the
// reason; the test fails when a file's unconsumed paths differ from this
// list (so it cannot go stale).
var knownUnconsumed = map[string]struct {
	paths  []string
	reason string
}{}

// TestCorpusRoundTrip reads every UBL example, lists what was not consumed,
// writes the model and reads it back: the models must be equal.
func TestCorpusRoundTrip(t *testing.T) {
	var table strings.Builder
	fmt.Fprintf(&table, "%-70s %s\n", "file", "unconsumed")
	for _, f := range corpusFiles(t) {
		name := rel(t, f)
		doc := parseFile(t, f)
		if !Detect(doc) {
			t.Errorf("%s: not detected as UBL", name)
			continue
		}
		res, err := Read(doc)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		fmt.Fprintf(&table, "%-70s %d\n", name, len(res.Unconsumed))
		var got []string
		for _, u := range res.Unconsumed {
			fmt.Fprintf(&table, "    %s line %d %s\n", u.Path, u.Line, u.BT)
			got = append(got, u.Path)
		}
		if want := knownUnconsumed[name].paths; !slices.Equal(got, want) {
			t.Errorf("%s: unconsumed %v, want %v", name, got, want)
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(&table, "    warning: %s\n", w)
		}
		var buf bytes.Buffer
		if err := Write(&buf, res.Invoice, WriteOptions{Indent: "  "}); err != nil {
			t.Errorf("%s: write: %v", name, err)
			continue
		}
		doc2, err := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
		if err != nil {
			t.Errorf("%s: written document does not parse: %v", name, err)
			continue
		}
		res2, err := Read(doc2)
		if err != nil {
			t.Errorf("%s: read back: %v", name, err)
			continue
		}
		if len(res2.Unconsumed) != 0 || len(res2.Warnings) != 0 {
			t.Errorf("%s: written document has unconsumed nodes %v, warnings %v", name, res2.Unconsumed, res2.Warnings)
		}
		if res2.CreditNote != res.CreditNote {
			t.Errorf("%s: credit note %v read back as %v", name, res.CreditNote, res2.CreditNote)
		}
		if diffs := Diff(res.Invoice, res2.Invoice); len(diffs) != 0 {
			t.Errorf("%s: round trip changed the model:\n  %s", name, strings.Join(diffs, "\n  "))
		}
	}
	t.Logf("\n%s", table.String())
}
