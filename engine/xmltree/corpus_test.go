package xmltree

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// notWellFormed lists corpus files (relative to corpus/) that are genuinely
// not well-formed XML; both parsers must reject them. The test fails if one
// starts to parse, so the list cannot go stale.
var notWellFormed = map[string]string{}

// TestCorpusMatchesEncodingXML parses every corpus file and checks the tree
// against the encoding/xml token stream: same element and attribute expanded
// names, attribute values, merged text, comments and PIs, in order.
func TestCorpusMatchesEncodingXML(t *testing.T) {
	files := corpusFiles(t)
	root := filepath.Join(sharedDir(t), "corpus")
	checked := 0
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("reading %s: %v", rel, err)
		}
		d, perr := Parse(data, DefaultLimits())
		checkRootName(t, data, DefaultLimits(), d, perr)
		if reason, ok := notWellFormed[filepath.ToSlash(rel)]; ok {
			if perr == nil {
				t.Errorf("%s: listed as not well-formed (%s) but parses", rel, reason)
			}
			continue
		}
		if perr != nil {
			t.Errorf("%s: %v", rel, perr)
			continue
		}
		want, err := stdEvents(data)
		if err != nil {
			t.Errorf("%s: encoding/xml rejects a file we accept: %v", rel, err)
			continue
		}
		got := treeEvents(d)
		if !slices.Equal(got, want) {
			for i := 0; i < len(got) && i < len(want); i++ {
				if got[i] != want[i] {
					t.Errorf("%s: event %d differs:\n got %s\nwant %s", rel, i, clip(got[i]), clip(want[i]))
					break
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s: %d events, encoding/xml has %d", rel, len(got), len(want))
			}
			continue
		}
		checkInvariants(t, d)
		checked++
	}
	t.Logf("%d corpus files cross-checked against encoding/xml", checked)
	if checked < len(files)/2 {
		t.Fatalf("only %d of %d files checked", checked, len(files))
	}
}
