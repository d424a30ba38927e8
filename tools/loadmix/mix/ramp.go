package mix

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Step is one rate of a ramp.
type Step struct {
	Rate float64
	P99  time.Duration
	OK   bool
	Why  string // why the step failed
}

// RampConfig shapes Ramp.
type RampConfig struct {
	Start, Factor float64       // first rate and the factor between steps (> 1)
	Step          time.Duration // duration of each step
	MaxP99        time.Duration // a step whose p99 exceeds this fails
	// MaxP50 (optional) fails a step whose median exceeds it: in an open
	// loop a server behind the offered rate delays every request, while a
	// short stall of a shared machine moves only the tail.
	MaxP50   time.Duration
	MaxSteps int
	// Retries reruns a failing step this many times before the ramp stops
	// (a step fails only when every attempt fails).
	Retries int
	Log     io.Writer // one line per step (optional)
}

// Ramp measures the maximum sustained rate of the mix: it runs base (its
// Rate, Duration, Warmup and sampling are replaced) at rates Start,
// Start*Factor, ... for Step each until a step fails Retries+1 times — any
// 5xx, a request without an answer, a dropped request, p99 above MaxP99 or
// p50 above MaxP50 (in an open loop a server that cannot keep up shows as
// latencies growing with the step) — and returns the last rate that passed
// (0 when the first failed) and every attempt.
func Ramp(ctx context.Context, base Config, rc RampConfig) (float64, []Step, error) {
	if rc.Start <= 0 || rc.Factor <= 1 || rc.Step <= 0 || rc.MaxP99 <= 0 {
		return 0, nil, fmt.Errorf("mix: Ramp needs Start > 0, Factor > 1, Step > 0 and MaxP99 > 0")
	}
	if rc.MaxSteps <= 0 {
		rc.MaxSteps = 20
	}
	var best float64
	var steps []Step
	rate := rc.Start
	for i := 0; i < rc.MaxSteps; i++ {
		var st Step
		for attempt := 0; attempt <= rc.Retries; attempt++ {
			var err error
			if st, err = rampStep(ctx, base, rc, rate); err != nil {
				return best, steps, err
			}
			steps = append(steps, st)
			if st.OK {
				break
			}
		}
		if !st.OK {
			break
		}
		best = rate
		rate *= rc.Factor
	}
	return best, steps, nil
}

// rampStep runs one step of a ramp at rate and judges it.
func rampStep(ctx context.Context, base Config, rc RampConfig, rate float64) (Step, error) {
	cfg := base
	cfg.Rate, cfg.Duration, cfg.Warmup, cfg.SampleEvery, cfg.OnSample = rate, rc.Step, 0, 0, nil
	res, err := Run(ctx, cfg)
	if err != nil {
		return Step{}, fmt.Errorf("mix: ramp at %.1f req/s: %w", rate, err)
	}
	sum := res.Summary()
	all := sum[len(sum)-1]
	st := Step{Rate: rate, P99: all.P99, OK: true}
	switch v := res.Check(Bounds{Growth: 1e9, GoroutineSlack: 1e9, P99Drift: 1e9, P99Floor: time.Hour}); {
	case len(v) > 0:
		st.OK, st.Why = false, v[0]
	case all.P99 > rc.MaxP99:
		st.OK, st.Why = false, fmt.Sprintf("p99 %s above %s", ms(all.P99), ms(rc.MaxP99))
	case rc.MaxP50 > 0 && all.P50 > rc.MaxP50:
		st.OK, st.Why = false, fmt.Sprintf("p50 %s above %s", ms(all.P50), ms(rc.MaxP50))
	}
	if rc.Log != nil {
		verdict := "ok"
		if !st.OK {
			verdict = "FAIL: " + st.Why
		}
		fmt.Fprintf(rc.Log, "ramp %7.1f req/s: %d requests, p50 %s, p99 %s, max %s: %s\n",
			rate, all.Count, ms(all.P50), ms(all.P99), ms(all.Max), verdict)
	}
	return st, nil
}
