package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestFastAgreesWithInterpreter evaluates every EN 16931 check that has a
// frame-free evaluation (vm/fast.go) on every element and attribute of the
// example documents, both ways: wherever the fast path decides, the
// interpreter must give the same answer and no error. The mutated
// documents of FuzzValidateEN16931 go through the same comparison.
func TestFastAgreesWithInterpreter(t *testing.T) {
	for _, c := range []struct{ syntax, main, dir string }{
		{"ubl", ublMain, "corpus/en16931/ubl/examples"},
		{"cii", ciiMain, "corpus/en16931/cii/examples"},
	} {
		rs := loadEN16931(t, c.syntax, c.main)
		files, err := filepath.Glob(filepath.Join(sharedDir(t), c.dir, "*.xml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no documents (%v)", c.dir, err)
		}
		decided := 0
		for _, file := range files {
			n, err := rs.FastAgrees(context.Background(), parseShared(t, file))
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(file), err)
			}
			decided += n
		}
		// Most of the checks on most nodes: a fast path that stopped
		// deciding (a broken compile) must fail here too.
		if decided < 100000 {
			t.Errorf("%s: the fast path decided only %d evaluations", c.syntax, decided)
		}
		t.Logf("%s: %d documents, %d evaluations decided by the fast path", c.syntax, len(files), decided)
	}
}

// parseShared parses a document of ../shared (a full path).
func parseShared(t *testing.T, path string) *xmltree.Document {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc
}
