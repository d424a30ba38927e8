package reliability

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/tools/loadmix/mix"
)

// TestSoak is the quick form of the soak (make reliability runs 30 min
// with scripts/reliability/soak.sh, at 70 %): it measures the maximum rate
// of the mix with a short ramp, then drives the mix at 50 % of it for
// $EINVOICE_SOAK_DURATION (default 60 s) and fails on any 5xx, on RSS or
// goroutines growing more than 10 % after warm-up, or on a p99 drift that a
// second soak repeats.
func TestSoak(t *testing.T) {
	duration := 60 * time.Second
	if v := os.Getenv("EINVOICE_SOAK_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("EINVOICE_SOAK_DURATION: %v", err)
		}
		duration = d
	}
	dataDir := t.TempDir()
	srv := startServer(t, nil, "--data-dir", dataDir)
	key := createKey(t, nil, "--data-dir", dataDir)
	c := mix.NewClient(60*time.Second, 32)
	ops := liveWorkload(t, c, srv.Base, key)
	cfg := mix.Config{Base: srv.Base, Key: key, Client: c, Ops: ops}
	// A step of 2 s passes only when the server keeps up: behind the
	// offered rate by a fraction f, the median request waits about f x 1 s,
	// so a p50 bound of 50 ms lets a step pass only at 95 % of the capacity
	// or less (the long form's 200 ms over 15 s steps is as strict). With
	// 200 ms here a step at 125 % of the capacity passed, and 70 % of it was
	// 87 % of the capacity: a soak without headroom, which one stall of the
	// shared machine tipped into a backlog it never worked off.
	var ramp strings.Builder
	best, steps, err := mix.Ramp(context.Background(), cfg, mix.RampConfig{Start: 4, Factor: 1.8, Step: 2 * time.Second,
		MaxP99: 2 * time.Second, MaxP50: 50 * time.Millisecond, Retries: 1, MaxSteps: 10, Log: &ramp})
	t.Logf("ramp:\n%s", ramp.String())
	if err != nil {
		t.Fatal(err)
	}
	if best == 0 {
		t.Fatalf("the first ramp step (4 req/s) failed")
	}
	if last := steps[len(steps)-1]; last.OK {
		t.Logf("the ramp stopped at its last step without reaching the maximum")
	}
	// The quick form soaks at 50 % of the maximum, the long form (make
	// reliability) at the 70 %: a 2 s ramp step can pass in a quiet
	// moment of the host, and in CI run 14 (session 8) the hypervisor then
	// took 17-54 % of the CPU (steal) for the whole minute, with the
	// server's CPU per request unchanged (3.7 ms): 70 % of 440.8 req/s was
	// more than the cores left.
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.SampleEvery = 0.5*best, duration, duration/4, 2*time.Second
	// The machine is shared: a p99 difference of a quarter second is
	// scheduling, not drift.
	bounds := mix.DefaultBounds
	bounds.P99Floor = 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		res, err := mix.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var rep strings.Builder
		res.Report(&rep)
		t.Logf("max %.1f req/s; soak %d at %.1f req/s:\n%s", best, attempt, cfg.Rate, rep.String())
		v := res.Check(bounds)
		// Of the verdicts only a p99 drift can come from the machine: one
		// build of another job is a third of a one-minute run. A drift of
		// the server comes back in a second soak on the same server; a
		// stall of the machine does not (the report's cpu/req column shows
		// which it was). Anything else fails at once.
		if attempt == 1 && len(v) == 1 && strings.HasPrefix(v[0], mix.P99Drifted) {
			t.Logf("soak 1: %s; soaking again on the same server", v[0])
			continue
		}
		for _, x := range v {
			t.Error(x)
		}
		break
	}
	if srv.cmd.ProcessState != nil {
		t.Fatalf("the server exited: %v\n%s", srv.cmd.ProcessState, srv.log)
	}
}
