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
	MaxSteps      int
	Log           io.Writer // one line per step (optional)
}

// Ramp measures the maximum sustained rate of the mix: it runs base (its
// Rate, Duration, Warmup and sampling are replaced) at rates Start,
// Start*Factor, ... for Step each until a step fails — any 5xx, a request
// without an answer, a dropped request, or p99 above MaxP99 (in an open loop
// a server that cannot keep up shows as a p99 growing with the step) — and
// returns the last rate that passed (0 when the first failed).
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
		cfg := base
		cfg.Rate, cfg.Duration, cfg.Warmup, cfg.SampleEvery, cfg.OnSample = rate, rc.Step, 0, 0, nil
		res, err := Run(ctx, cfg)
		if err != nil {
			return best, steps, fmt.Errorf("mix: ramp at %.1f req/s: %w", rate, err)
		}
		sum := res.Summary()
		all := sum[len(sum)-1]
		st := Step{Rate: rate, P99: all.P99, OK: true}
		if v := res.Check(Bounds{Growth: 1e9, GoroutineSlack: 1e9, P99Drift: 1e9, P99Floor: time.Hour}); len(v) > 0 {
			st.OK, st.Why = false, v[0]
		} else if all.P99 > rc.MaxP99 {
			st.OK, st.Why = false, fmt.Sprintf("p99 %s above %s", ms(all.P99), ms(rc.MaxP99))
		}
		steps = append(steps, st)
		if rc.Log != nil {
			verdict := "ok"
			if !st.OK {
				verdict = "FAIL: " + st.Why
			}
			fmt.Fprintf(rc.Log, "ramp %7.1f req/s: %d requests, p50 %s, p99 %s, max %s: %s\n",
				rate, all.Count, ms(all.P50), ms(all.P99), ms(all.Max), verdict)
		}
		if !st.OK {
			break
		}
		best = rate
		rate *= rc.Factor
	}
	return best, steps, nil
}
