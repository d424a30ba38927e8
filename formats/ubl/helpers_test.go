package ubl

import (
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// sharedDir is the read-only official data (EINVOICE_SHARED or ../shared
// relative to the repository root).
func sharedDir(t testing.TB) string {
	return testshared.Dir(t)
}

// corpusFiles lists the UBL EN 16931 examples of the shared corpus.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	sh := sharedDir(t)
	var out []string
	for _, pat := range []string{
		"corpus/en16931/ubl/examples/*.xml",
		"corpus/en16931/ubl/examples/*.XML",
		"corpus/peppol-bis-billing/3.0.19/examples/*.xml",
		"corpus/xrechnung-testsuite/technical-cases/*/*_ubl.xml",
	} {
		m, err := filepath.Glob(filepath.Join(sh, pat))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatalf("no UBL examples under %s (set EINVOICE_SHARED)", sh)
	}
	sort.Strings(out)
	return out
}

func parseFile(t testing.TB, path string) *xmltree.Document {
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

func rel(t testing.TB, path string) string {
	r, err := filepath.Rel(sharedDir(t), path)
	if err != nil {
		return path
	}
	return strings.TrimPrefix(r, "corpus/")
}
