package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheck: -update writes the file (and its directory); the same bytes
// then pass; other bytes fail.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testdata", "x.golden")
	Check(t, path, []byte("a\n"), true)
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\n" {
		t.Fatalf("not written: %q %v", b, err)
	}
	Check(t, path, []byte("a\n"), false)
	var ft failT
	ft.TB = t
	Check(&ft, path, []byte{0xff, 'b'}, false)
	if !ft.failed {
		t.Fatal("a difference passed")
	}
}

type failT struct {
	testing.TB
	failed bool
}

func (f *failT) Helper()               {}
func (f *failT) Errorf(string, ...any) { f.failed = true }
func (f *failT) Fatalf(string, ...any) { f.failed = true }
func (f *failT) Fatal(...any)          { f.failed = true }
