package repair

import (
	"bytes"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"testing"
)

// sharedFile reads a file of the read-only shared data (EINVOICE_SHARED or
// ../shared next to the repository).
func sharedFile(tb testing.TB, rel string) []byte {
	tb.Helper()
	dir := testshared.Dir(tb)
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		tb.Fatalf("shared data: %v", err)
	}
	return data
}

// replaceOnce replaces the first old in src by new and fails if absent.
func replaceOnce(tb testing.TB, src []byte, old, new string) []byte {
	tb.Helper()
	i := bytes.Index(src, []byte(old))
	if i < 0 {
		tb.Fatalf("%q not in the document", old)
	}
	out := append([]byte(nil), src[:i]...)
	out = append(out, new...)
	return append(out, src[i+len(old):]...)
}

const (
	example4 = "corpus/en16931/ubl/examples/ubl-tc434-example4.xml"
	ciiEx1   = "corpus/en16931/cii/examples/CII_example1.xml"
)
