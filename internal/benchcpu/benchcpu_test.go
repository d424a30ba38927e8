package benchcpu

import (
	"testing"
	"time"
)

// TestProcessAdvances: burning CPU moves Process forward.
func TestProcessAdvances(t *testing.T) {
	t0 := Process()
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	if d := Process() - t0; d <= 0 {
		t.Fatalf("CPU time did not advance (%v) after %d iterations", d, x)
	}
}
