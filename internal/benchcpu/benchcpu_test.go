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

// TestLoopReportsMedian: over calls of 1 ms and one of 20 ms, the median
// is about 1 ms and the fastest at most the median; the sample buffer is
// not counted as the op's allocation.
func TestLoopReportsMedian(t *testing.T) {
	i := 0
	r := testing.Benchmark(func(b *testing.B) {
		Loop(b, func() {
			d := time.Millisecond
			if i++; i == 3 {
				d = 20 * time.Millisecond
			}
			time.Sleep(d)
		})
	})
	med, low := r.Extra["med-ns/op"], r.Extra["min-ns/op"]
	if med < 1e6 || med > 15e6 || low > med {
		t.Errorf("med-ns/op %v, min-ns/op %v; want a median of about 1 ms, at least the fastest", med, low)
	}
	if r.AllocedBytesPerOp() > 64 {
		t.Errorf("%d B/op allocated by an op that allocates nothing", r.AllocedBytesPerOp())
	}
}

// TestPairRatio: a call of 1 ms then one of 3 ms give medians of about 1
// and 3 ms and a median ratio of about 3.
func TestPairRatio(t *testing.T) {
	r := testing.Benchmark(func(b *testing.B) {
		Pair(b, func() { time.Sleep(time.Millisecond) }, func() { time.Sleep(3 * time.Millisecond) })
	})
	a, b, ratio := r.Extra["a-med-ns/op"], r.Extra["b-med-ns/op"], r.Extra["ratio-med"]
	if a < 1e6 || b < 3e6 || a > b || ratio < 1.5 || ratio > 4 {
		t.Errorf("a-med-ns/op %v, b-med-ns/op %v, ratio-med %v; want about 1 ms, 3 ms and 3", a, b, ratio)
	}
}
