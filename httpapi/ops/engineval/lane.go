package engineval

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultXSDSpin is how long a worker that has run an XSD stage keeps
// polling for the next one (see lane, XSDSpin). 100 µs covers the gap
// between two validations of a client that sends its documents one after
// the other (15-30 µs on the service path, more when the rule sets end
// after the stage) with room to spare; longer windows gained nothing in
// BenchmarkValidateUBL (docs/PERFORMANCE.md, "Thirty-third pass").
const DefaultXSDSpin = 100 * time.Microsecond

// lane runs the XSD stages that go beside the rule sets. A goroutine made
// runnable on an idle core starts only when that core wakes up: 70-100 µs
// on the virtual machines we measure on (an idle vCPU halts, and waking it
// is a VM exit and entry), a third of a whole validation of a 21 KB
// invoice. So a worker that has run a stage does not block at once: for up
// to spin it polls for the next stage, yielding its P on every poll
// (runtime.Gosched) so that any other runnable goroutine goes first, and
// only then retires. A stage handed to a polling worker starts within a
// microsecond; with no worker polling, it gets a goroutine of its own, as
// before. Workers exist only while they run a stage or poll: nothing
// outlives the last stage by more than spin, so a lane needs no Close.
//
// The cost is CPU, the poll's and that of the processes beside ours whose
// core it holds (the poll yields to goroutines, not to other processes).
// So a lane polls only while polling pays: when the last stage that found
// no worker polling came within spin of the end of the one before (a
// client sending its documents back to back, a batch), not when it came
// later (a client that waits for each answer over the network: then the
// poll would end before the next stage comes, every time). A busy
// server's workers find the next stage at once.
type lane struct {
	spin  time.Duration
	epoch time.Time    // last's origin
	poll  atomic.Bool  // workers poll after a stage (see run)
	last  atomic.Int64 // when the last stage ended, ns since epoch; 0: none yet
	// misses counts the stages in a row that came too late for a poll.
	misses atomic.Int32

	mu   sync.Mutex
	idle []*laneWorker // polling, most recent last

	started atomic.Int64 // goroutines started (tests)
	live    atomic.Int64 // workers running or polling (tests)
}

// laneWorker is one polling goroutine. Only the run that takes it out of
// lane.idle sends on job, once, so the send never blocks.
type laneWorker struct{ job chan func() }

// maxMisses is how many stages in a row must come too late for a poll
// before the lane stops polling: one late stage (a pause of the collector,
// a rule set that ran long) does not.
const maxMisses = 3

func newLane(spin time.Duration) *lane {
	l := &lane{spin: spin, epoch: time.Now()}
	l.poll.Store(spin > 0)
	return l
}

// run runs f on another goroutine: the worker that polled last, if one
// polls, else a new one.
func (l *lane) run(f func()) {
	l.mu.Lock()
	if n := len(l.idle); n > 0 {
		w := l.idle[n-1]
		l.idle = l.idle[:n-1]
		l.mu.Unlock()
		w.job <- f
		return
	}
	l.mu.Unlock()
	// No worker polls: would one have, had it polled for spin after the
	// last stage ended?
	if end := l.last.Load(); end > 0 && l.spin > 0 {
		if time.Since(l.epoch)-time.Duration(end) <= l.spin {
			l.misses.Store(0)
			l.poll.Store(true)
		} else if l.misses.Add(1) >= maxMisses {
			l.poll.Store(false)
		}
	}
	l.started.Add(1)
	l.live.Add(1)
	go l.work(&laneWorker{job: make(chan func(), 1)}, f)
}

// work runs f and then every job handed to w until it retires.
func (l *lane) work(w *laneWorker, f func()) {
	defer l.live.Add(-1)
	for f != nil {
		f()
		l.last.Store(int64(time.Since(l.epoch)))
		f = l.next(w)
	}
}

// next polls for w's next job for up to spin, or until the lane stops
// polling; nil when w retires.
func (l *lane) next(w *laneWorker) func() {
	if !l.poll.Load() {
		return nil
	}
	l.mu.Lock()
	l.idle = append(l.idle, w)
	l.mu.Unlock()
	for end := time.Now().Add(l.spin); time.Now().Before(end) && l.poll.Load(); {
		select {
		case f := <-w.job:
			return f
		default:
			runtime.Gosched()
		}
	}
	l.mu.Lock()
	if i := slices.Index(l.idle, w); i >= 0 {
		l.idle = slices.Delete(l.idle, i, i+1)
		l.mu.Unlock()
		return nil
	}
	l.mu.Unlock()
	// A run took w out of idle after the last poll: its job is on the way.
	return <-w.job
}
