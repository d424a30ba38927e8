package pdftestgen

import (
	"os/exec"
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
