// Package golden owns the golden-file check the tests share: a test's
// output is compared byte for byte with a file under testdata, and the
// test's -update flag rewrites the file first (after the change has been
// checked by eye). It is imported by tests only.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// Check compares got with the file at path; with update it writes got
// there first (creating the directory). A difference fails t, showing got
// when it is text.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if bytes.Equal(want, got) {
		return
	}
	if utf8.Valid(got) {
		t.Errorf("differs from %s (run with -update after checking the change):\n%s", path, got)
		return
	}
	t.Errorf("differs from %s (run with -update after checking the change)", path)
}
