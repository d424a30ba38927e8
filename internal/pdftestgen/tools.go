package pdftestgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Need fails the test when a command-line tool the test relies on is
// missing (scripts/deps.sh installs them).
func Need(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required by this test (run scripts/deps.sh): %v", tool, err)
		}
	}
}

// Detach returns the embedded files of pdf by name as poppler's pdfdetach
// extracts them: an implementation independent of ours.
func Detach(t testing.TB, pdf []byte) map[string][]byte {
	t.Helper()
	Need(t, "pdfdetach")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o700); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("pdfdetach", "-saveall", "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("pdfdetach -saveall: %v: %s", err, msg)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}
