package convert

import (
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
