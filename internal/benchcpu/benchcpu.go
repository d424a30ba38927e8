// Package benchcpu owns the CPU-time figures the benchmarks report next to
// wall time. The build machines are shared, so wall time per op swings with
// the load while the process's own CPU time does not. Imported by
// benchmarks only.
package benchcpu

import (
	"testing"
	"time"
)

// Loop runs fn b.N times and reports cpu-ns/op (process CPU time per op) and
// min-ns/op (the fastest single call: on a shared machine the best
// approximation of an uncontended core).
func Loop(b *testing.B, fn func()) {
	b.ReportAllocs()
	cpu0 := Process()
	best := time.Duration(1<<63 - 1)
	for b.Loop() {
		t0 := time.Now()
		fn()
		best = min(best, time.Since(t0))
	}
	if cpu := Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(best.Nanoseconds()), "min-ns/op")
}

// ReportMS adds cpu-ms/op: the process CPU time since start per operation.
func ReportMS(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(Process()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
