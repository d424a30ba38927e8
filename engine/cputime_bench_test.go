//go:build unix

package engine_test

import (
	"syscall"
	"testing"
	"time"
)

// processCPU returns the user+system CPU time of this process. The build
// machine is shared, so benchmarks report CPU time per op next to wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuLoop runs fn b.N times and reports cpu-ns/op (process CPU time per
// op) and min-ns/op (the fastest single call: on a shared machine the best
// approximation of an uncontended core).
func cpuLoop(b *testing.B, fn func()) {
	b.ReportAllocs()
	cpu0 := processCPU()
	best := time.Duration(1<<63 - 1)
	for b.Loop() {
		t0 := time.Now()
		fn()
		best = min(best, time.Since(t0))
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(best.Nanoseconds()), "min-ns/op")
}
