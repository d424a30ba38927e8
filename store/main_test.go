package store

import (
	"fmt"
	"os"
	"testing"
)

// TestMain lets the test binary double as the unprivileged child process of
// TestSQLiteReadOnlyFile (see runReadOnlyChild): root ignores file permissions, so
// a read-only file can only be tested from another user.
func TestMain(m *testing.M) {
	if os.Getenv(envChild) == childReadOnly {
		if err := checkReadOnlyStore(os.Getenv(envChildDir), os.Getenv(envChildKey)); err != nil {
			fmt.Fprintln(os.Stderr, "read-only child:", err)
			os.Exit(1)
		}
		fmt.Println(childOK)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
