package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathFindsSharedBesideModuleRoot(t *testing.T) {
	t.Setenv("EINVOICE_SHARED", "")
	got := Path()
	// internal/testshared -> module root is two levels up.
	want, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared"))
	if got != want {
		t.Fatalf("Path() = %s, want %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(Dir(t), "rulesets")); err != nil {
		t.Fatalf("shared directory has no rulesets/: %v", err)
	}
}

func TestPathHonoursEnv(t *testing.T) {
	t.Setenv("EINVOICE_SHARED", "/somewhere/else")
	if got := Path(); got != "/somewhere/else" {
		t.Fatalf("Path() = %s", got)
	}
}
