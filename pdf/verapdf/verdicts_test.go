package verapdf

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/golden"
	"github.com/einvoice-dev/einvoice/internal/testshared"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus_verdicts.golden")

// TestCorpusVerdicts pins veraPDF's verdict on every corpus PDF, checked
// as PDF/A-3b and as the flavour it declares: compliant or not, and each
// failed rule with its number of failed checks. A change to the worker or
// its JVM settings that loses a rule (or a check) fails here; the golden was
// written by the worker before the issue 8 changes, so the non-compliant
// files fail with the same rule ids as before. Regenerate (after a veraPDF
// upgrade) with -update.
func TestCorpusVerdicts(t *testing.T) {
	c := realClient(t)
	dir := filepath.Join(testshared.Dir(t), "corpus", "pdf")
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".pdf" {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d PDFs under %s", len(files), dir)
	}
	var got bytes.Buffer
	for _, f := range files {
		name, _ := filepath.Rel(dir, f)
		for _, flavour := range []string{"3b", "auto"} {
			fmt.Fprintf(&got, "%s %s: %s\n", filepath.ToSlash(name), flavour, verdictLine(t, c, f, flavour))
		}
	}
	golden.Check(t, filepath.Join("testdata", "corpus_verdicts.golden"), got.Bytes(), *update)
}

// verdictLine is the verdict in one line: what the file declares, what it
// was checked as, and each failed rule "spec clause-test(checks)"; a file
// veraPDF cannot read is "error <kind>".
func verdictLine(t *testing.T, c *Client, path, flavour string) string {
	t.Helper()
	res, err := c.ValidateFile(context.Background(), path, flavour)
	var de *DocumentError
	if errors.As(err, &de) {
		return "error " + de.Kind
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	declared := res.Flavour
	if declared == "" {
		declared = "none"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "declares %s, checked %s, compliant %v", declared, res.CheckedFlavour, res.Compliant)
	for _, r := range res.FailedRules {
		fmt.Fprintf(&b, "; %s %s-%d(%d)", r.Specification, r.Clause, r.TestNumber, r.FailedChecks)
	}
	return b.String()
}
