package cii

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// knownUnconsumed lists source nodes of the corpus that the reader does not
// carry, with the reason. The test fails when one of them is consumed (so the
// list cannot go stale) and for any node not listed.
var knownUnconsumed = map[string]string{
	// Empty: the gross price's own BasisQuantity (CII_example2, ...) is
	// carried in GrossBaseQuantity since it has no place in UBL only.
}

// TestCorpusRoundTrip reads every CII EN 16931 example, lists what the
// reader did not carry (the aim is none), writes the model, reads it back
// and requires the same model and nothing unconsumed in our own output.
func TestCorpusRoundTrip(t *testing.T) {
	files := corpusFiles(t)
	var table strings.Builder
	fmt.Fprintf(&table, "%-60s %s\n", "file", "unconsumed")
	total := 0
	seen := map[string]bool{}
	for _, f := range files {
		doc := parseFile(t, f)
		res, err := Read(doc)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		fmt.Fprintf(&table, "%-60s %d\n", name, len(res.Unconsumed))
		total += len(res.Unconsumed)
		for _, u := range res.Unconsumed {
			key := name + ":" + u.Path
			if _, ok := knownUnconsumed[key]; ok {
				seen[key] = true
				continue
			}
			t.Errorf("%s: unconsumed %s (line %d, %s)", name, u.Path, u.Line, u.BT)
		}
		for _, w := range res.Warnings {
			t.Errorf("%s: warning %s", name, w)
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
		for _, u := range res2.Unconsumed {
			t.Errorf("%s: written document: unconsumed %s (%s)", name, u.Path, u.BT)
		}
		for _, d := range modelDiff(res.Invoice, res2.Invoice) {
			t.Errorf("%s: round trip: %s", name, d)
		}
	}
	for key, why := range knownUnconsumed {
		if !seen[key] {
			t.Errorf("known unconsumed node %s (%s) is now consumed or gone: remove it from knownUnconsumed", key, why)
		}
	}
	fmt.Fprintf(&table, "%-60s %d\n", "total", total)
	t.Logf("CII corpus (%d files):\n%s", len(files), table.String())
}
