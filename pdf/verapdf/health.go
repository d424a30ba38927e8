package verapdf

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"time"
)

// pingTimeout bounds a health check of an idle worker.
const pingTimeout = 5 * time.Second

// pingGrace is how much longer Health waits than the ping's own timeout.
const pingGrace = time.Second

// Health states.
const (
	StateOK          = "ok"
	StateUnavailable = "unavailable"
)

// Status is the client's health, for /health.
type Status struct {
	State   string // StateOK or StateUnavailable
	Detail  string // human-readable: what runs, or why nothing can
	Workers int    // the configured bound
	Running int    // workers alive now
	// Restarts counts workers replaced after a crash, a hang or a failed health check.
	Restarts int
	Version  string // veraPDF version of the last worker started ("" before the first start)
}

// Health reports whether a verdict can be obtained. It pings one idle
// running worker (a worker that does not answer is replaced), and when none
// runs it checks that the jar and Java are there without starting a JVM.
// It never waits for a busy worker: busy means alive.
func (c *Client) Health(ctx context.Context) Status {
	select {
	case s := <-c.slots:
		s = c.preferRunning(s)
		if s.p == nil || s.p.exited() {
			c.release(s)
			return c.status(nil)
		}
		// The ping's own timer (pingTimeout, in roundTrip) decides that a
		// worker is wedged and replaces it. This context only bounds the
		// wait a little later: with both at pingTimeout, a loaded machine
		// could let the context win the race, and the wedged worker was
		// then replaced without ever being reported (a CI failure of
		// TestWatchReportsAWedgedWorker).
		pctx, cancel := context.WithTimeout(ctx, pingTimeout+pingGrace)
		defer cancel()
		resp, err := c.roundTrip(pctx, s, s.p, request{Op: "ping"})
		switch {
		case err != nil && errors.Is(err, ErrUnavailable):
			return c.status(err)
		case err != nil && ctx.Err() == nil:
			// Our own bound ran out first: still no answer to a health check.
			return c.status(&UnavailableError{Reason: "the worker did not answer a health check", Err: err})
		case err == nil && !resp.OK:
			return c.status(&UnavailableError{Reason: "the worker answered a health check with an error"})
		}
	default:
	}
	return c.status(nil)
}

func (c *Client) status(pingErr error) Status {
	c.mu.Lock()
	st := Status{Workers: c.opts.Workers, Running: len(c.procs), Restarts: c.restarts, Version: c.version}
	lastErr, closed := c.lastErr, c.closed
	c.mu.Unlock()
	switch {
	case closed:
		st.State, st.Detail = StateUnavailable, "the validator has been shut down"
	case pingErr != nil:
		st.State, st.Detail = StateUnavailable, pingErr.Error()
	case st.Running > 0:
		st.State = StateOK
		st.Detail = fmt.Sprintf("veraPDF %s: %d of %d workers running", st.Version, st.Running, st.Workers)
	case lastErr != nil:
		st.State, st.Detail = StateUnavailable, lastErr.Error()
	default:
		if err := c.canStart(); err != nil {
			st.State, st.Detail = StateUnavailable, err.Error()
		} else {
			st.State, st.Detail = StateOK, "no worker running; one starts on the next PDF/A request"
		}
	}
	return st
}

// canStart checks, without starting anything, that a worker could be started.
func (c *Client) canStart() error {
	if _, err := os.Stat(c.opts.Jar); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &UnavailableError{Reason: fmt.Sprintf("worker jar not found at %s (build it with `make verapdf`)", c.opts.Jar)}
		}
		return &UnavailableError{Reason: "worker jar not readable", Err: err}
	}
	if _, err := exec.LookPath(c.opts.Java); err != nil {
		return &UnavailableError{Reason: fmt.Sprintf("java executable %q not found (install a Java 17+ runtime)", c.opts.Java), Err: err}
	}
	return nil
}

// Watch checks the workers every interval until ctx ends (a worker that no
// longer answers a ping is replaced, see Health) and calls changed with the
// status whenever its State differs from the previous check's, so a server
// logs when PDF/A verdicts become unavailable and when they are back.
func (c *Client) Watch(ctx context.Context, every time.Duration, changed func(Status)) {
	t := time.NewTicker(every)
	defer t.Stop()
	last := ""
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		st := c.Health(ctx)
		if ctx.Err() != nil {
			return
		}
		if st.State != last {
			if last != "" || st.State != StateOK {
				changed(st)
			}
			last = st.State
		}
	}
}
