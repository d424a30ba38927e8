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
// with scripts/reliability/soak.sh): it measures the maximum rate of the
// mix with a short ramp, then drives the mix at 70 % of it for
// $EINVOICE_SOAK_DURATION (default 60 s) and fails on any 5xx, on RSS or
// goroutines growing more than 10 % after warm-up, or on p99 drift.
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
	var ramp strings.Builder
	best, steps, err := mix.Ramp(context.Background(), cfg, mix.RampConfig{Start: 4, Factor: 1.8, Step: 2 * time.Second,
		MaxP99: 2 * time.Second, MaxP50: 200 * time.Millisecond, Retries: 1, MaxSteps: 10, Log: &ramp})
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
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.SampleEvery = 0.7*best, duration, duration/4, 2*time.Second
	res, err := mix.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var rep strings.Builder
	res.Report(&rep)
	t.Logf("max %.1f req/s; soak at %.1f req/s:\n%s", best, cfg.Rate, rep.String())
	// The machine is shared: a p99 difference of a quarter second is
	// scheduling, not drift.
	bounds := mix.DefaultBounds
	bounds.P99Floor = 250 * time.Millisecond
	for _, v := range res.Check(bounds) {
		t.Error(v)
	}
	if srv.cmd.ProcessState != nil {
		t.Fatalf("the server exited: %v\n%s", srv.cmd.ProcessState, srv.log)
	}
}
