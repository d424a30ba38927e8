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

// Encrypt returns src (a PDF file) encrypted by qpdf with AES-128, the
// user password user ("": it opens without one) and the owner password
// "owner", the same bytes on every call (qpdf's --static-id and
// --static-aes-iv). AES-256 cannot be made deterministic from qpdf's command
// line (its file key is random), and veraPDF 1.30 fails to parse about one
// in twenty of qpdf's AES-256 files opened with the empty password ("Pages
// not found"), which made the tests built on this flaky (docs/PDF.md).
func Encrypt(t testing.TB, src, user string) []byte {
	t.Helper()
	Need(t, "qpdf")
	out := filepath.Join(t.TempDir(), "enc.pdf")
	if msg, err := exec.Command("qpdf", "--static-id", "--static-aes-iv", "--encrypt", user, "owner", "128", "--use-aes=y", "--", src, out).CombinedOutput(); err != nil {
		t.Fatalf("qpdf --encrypt: %v: %s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
