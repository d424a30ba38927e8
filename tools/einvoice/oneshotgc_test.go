package main

import (
	"runtime/debug"
	"testing"
)

// TestOneShotGC: a one-file validate turns the collector off under a memory
// limit and restores both afterwards; GOGC in the environment leaves them
// alone.
func TestOneShotGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	pct0 := debug.SetGCPercent(150)
	lim0 := debug.SetMemoryLimit(-1)
	defer debug.SetGCPercent(pct0)
	restore := oneShotGC()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent during the run: %d, want off (-1)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != oneShotMemoryLimit {
		t.Errorf("memory limit during the run: %d, want %d", l, oneShotMemoryLimit)
	}
	restore()
	if p := debug.SetGCPercent(150); p != 150 {
		t.Errorf("GC percent after the run: %d, want 150 back", p)
	}
	if l := debug.SetMemoryLimit(-1); l != lim0 {
		t.Errorf("memory limit after the run: %d, want %d back", l, lim0)
	}

	t.Setenv("GOGC", "200")
	restore = oneShotGC()
	if p := debug.SetGCPercent(-1); p != 150 {
		t.Errorf("with GOGC set: GC percent %d, want 150 untouched", p)
	}
	debug.SetGCPercent(150)
	restore()
}
