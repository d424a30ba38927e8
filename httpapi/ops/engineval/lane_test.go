package engineval

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitLive waits until l has no worker left, or fails after a second.
func waitLive(t *testing.T, l *lane) {
	t.Helper()
	for end := time.Now().Add(time.Second); l.live.Load() != 0; {
		if time.Now().After(end) {
			t.Fatalf("%d lane workers still live a second after their last job", l.live.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

// stopPolling makes l's workers retire (a test's long spin would go on
// polling after it) and waits for them.
func stopPolling(t *testing.T, l *lane) {
	l.poll.Store(false)
	waitLive(t, l)
}

// waitPolling waits until a worker polls on l (it registers after its job
// has returned), or fails after a second.
func waitPolling(t *testing.T, l *lane, job int) {
	t.Helper()
	for end := time.Now().Add(time.Second); ; time.Sleep(10 * time.Microsecond) {
		l.mu.Lock()
		n := len(l.idle)
		l.mu.Unlock()
		if n == 1 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("job %d: the worker never polled", job)
		}
	}
}

// A job run while a worker polls goes to that worker: one goroutine for a
// run of jobs one after the other.
func TestLaneReusesPollingWorker(t *testing.T) {
	l := newLane(time.Minute)
	t.Cleanup(func() { stopPolling(t, l) })
	for i := range 5 {
		done := make(chan struct{})
		l.run(func() { close(done) })
		<-done
		waitPolling(t, l, i)
	}
	if got := l.started.Load(); got != 1 {
		t.Fatalf("%d goroutines started for five jobs in a row, want 1", got)
	}
}

// A lane stops polling when maxMisses jobs in a row came later than spin
// after the last one ended, and polls again when one comes sooner.
func TestLanePollsOnlyWhenItPays(t *testing.T) {
	l := newLane(30 * time.Millisecond) // room for a loaded machine's stalls
	job := func() {
		done := make(chan struct{})
		l.run(func() { close(done) })
		<-done
	}
	job()
	for i := 1; i <= maxMisses; i++ {
		time.Sleep(120 * time.Millisecond) // the worker polls for 30 ms and retires
		job()
		if polls := l.poll.Load(); polls != (i < maxMisses) {
			t.Fatalf("after %d jobs in a row that came 120 ms after the last one ended: polling %v", i, polls)
		}
	}
	waitLive(t, l) // without polling, the worker retired at once
	job()          // right after the last one ended
	if !l.poll.Load() {
		t.Fatal("not polling after a job that came right after the last one ended")
	}
	if got, want := l.started.Load(), int64(maxMisses+2); got != want {
		t.Fatalf("%d goroutines started, want %d (no worker polled for any job)", got, want)
	}
}

// Without a spin every job gets a goroutine of its own and no worker
// stays.
func TestLaneNoSpin(t *testing.T) {
	l := newLane(0)
	for range 3 {
		done := make(chan struct{})
		l.run(func() { close(done) })
		<-done
	}
	waitLive(t, l)
	if got := l.started.Load(); got != 3 {
		t.Fatalf("%d goroutines started, want 3", got)
	}
}

// Workers retire after the spin; every job runs exactly once, also when
// jobs arrive at the moment workers retire (a spin of a microsecond makes
// that race common; run with -race).
func TestLaneEveryJobOnce(t *testing.T) {
	for _, spin := range []time.Duration{time.Microsecond, 50 * time.Microsecond, 0} {
		l := newLane(spin)
		const senders, jobs = 8, 500
		var ran atomic.Int64
		var wg sync.WaitGroup
		for range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range jobs {
					done := make(chan struct{})
					l.run(func() { ran.Add(1); close(done) })
					select {
					case <-done:
					case <-time.After(10 * time.Second):
						t.Errorf("spin %v: a job never ran", spin)
						return
					}
				}
			}()
		}
		wg.Wait()
		if got := ran.Load(); got != senders*jobs {
			t.Fatalf("spin %v: %d jobs ran, want %d", spin, got, senders*jobs)
		}
		waitLive(t, l)
		if n := len(l.idle); n != 0 {
			t.Fatalf("spin %v: %d workers still listed as polling after they retired", spin, n)
		}
	}
}

// BenchmarkLaneHandoff measures how long a job handed to the lane waits
// before it starts ("start-ns/op") when jobs and their callers compute for
// 140 and 150 µs, as a validation's XSD stage and its parse and rule sets
// do side by side: through a polling worker (spin) and with a goroutine
// per job (nospin), which has to wait for an idle core to wake up.
func BenchmarkLaneHandoff(b *testing.B) {
	for _, c := range []struct {
		name string
		spin time.Duration
	}{{"spin", DefaultXSDSpin}, {"nospin", 0}} {
		b.Run(c.name, func(b *testing.B) {
			l := newLane(c.spin)
			var wait time.Duration
			for b.Loop() {
				done := make(chan struct{})
				start := time.Now()
				l.run(func() {
					wait += time.Since(start)
					busy(140 * time.Microsecond)
					close(done)
				})
				busy(150 * time.Microsecond)
				<-done
			}
			b.ReportMetric(float64(wait.Nanoseconds())/float64(b.N), "start-ns/op")
		})
	}
}

// busy computes for d.
func busy(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}
