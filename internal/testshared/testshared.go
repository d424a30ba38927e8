// Package testshared locates the official artifacts (../shared: XSD,
// Schematron, corpora, expected results) for tests and benchmarks, so every
// test package finds them the same way: $EINVOICE_SHARED, else the folder
// `shared` beside the module root (the directory holding go.mod). It is
// imported by tests only; the binaries take the directory from their own
// flags and environment.
package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns the shared directory without checking that it exists, for
// places without a testing.TB (TestMain, package-level setup, examples).
func Path() string {
	if d := os.Getenv("EINVOICE_SHARED"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared")
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "shared")
		}
		dir = parent
	}
}

// Dir returns the shared directory and fails the test when it does not
// exist: tests that need the official data never skip silently.
func Dir(tb testing.TB) string {
	tb.Helper()
	d := Path()
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		tb.Fatalf("official artifacts not found at %s (set EINVOICE_SHARED): %v", d, err)
	}
	return d
}
