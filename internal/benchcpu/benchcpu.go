// Package benchcpu owns the CPU-time figures the benchmarks report next to
// wall time. The build machines are shared, so wall time per op swings with
// the load while the process's own CPU time does not. Imported by
// benchmarks only.
package benchcpu

import (
	"slices"
	"testing"
	"time"
)

// maxSamples bounds the single-call times Loop keeps for the median.
const maxSamples = 1 << 14

// Loop runs fn b.N times and reports cpu-ns/op (process CPU time per op),
// med-ns/op (the median single call, over the first maxSamples calls) and
// min-ns/op (the fastest single call: on a shared machine the best
// approximation of an uncontended core).
func Loop(b *testing.B, fn func()) {
	b.ReportAllocs()
	// Allocated before the first b.Loop call, which resets the counters:
	// not part of the op's allocations.
	samples := make([]time.Duration, 0, maxSamples)
	cpu0 := Process()
	for b.Loop() {
		t0 := time.Now()
		fn()
		if d := time.Since(t0); len(samples) < maxSamples {
			samples = append(samples, d)
		}
	}
	if cpu := Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	if len(samples) > 0 {
		slices.Sort(samples)
		b.ReportMetric(float64(samples[(len(samples)-1)/2].Nanoseconds()), "med-ns/op")
		b.ReportMetric(float64(samples[0].Nanoseconds()), "min-ns/op")
	}
}

// Pair runs first then second b.N times, alternating, and reports the
// median single call of each (a-med-ns/op, b-med-ns/op) and the median of
// the per-pair ratios second/first (ratio-med). The shared machines change
// speed from one second to the next, so two benchmarks run one after the
// other can each be timed at a different speed; the two halves of a pair
// run within a fraction of a millisecond of each other, so their ratio
// does not depend on it.
func Pair(b *testing.B, first, second func()) {
	b.ReportAllocs()
	n := min(b.N, maxSamples)
	as := make([]time.Duration, 0, n)
	bs := make([]time.Duration, 0, n)
	rs := make([]float64, 0, n)
	for b.Loop() {
		t0 := time.Now()
		first()
		t1 := time.Now()
		second()
		da, db := t1.Sub(t0), time.Since(t1)
		if len(as) < maxSamples && da > 0 {
			as, bs = append(as, da), append(bs, db)
			rs = append(rs, float64(db)/float64(da))
		}
	}
	if len(as) == 0 {
		return
	}
	slices.Sort(as)
	slices.Sort(bs)
	slices.Sort(rs)
	mid := (len(as) - 1) / 2
	b.ReportMetric(float64(as[mid].Nanoseconds()), "a-med-ns/op")
	b.ReportMetric(float64(bs[mid].Nanoseconds()), "b-med-ns/op")
	b.ReportMetric(rs[mid], "ratio-med")
}

// ReportMS adds cpu-ms/op: the process CPU time since start per operation.
func ReportMS(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(Process()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
