// Command loadmix drives a mixed load (validate/ubl, validate/cii,
// generate/ubl, convert/ubl-to-cii, render/html, extract/xml) at a fixed
// request rate (open loop) against a running einvoice server, samples its
// /metrics, prints per-operation statuses and latencies and the RSS,
// goroutine and p99 series, and exits 1 on any 5xx, on RSS or goroutines
// growing beyond the bound after warm-up, or on p99 drift (package mix).
//
//	loadmix -url http://127.0.0.1:8080 -key ek_live_... -rate 40 -duration 60s
//	loadmix -url ... -key ... -ramp               # measure the maximum rate only
//	loadmix -url ... -key ... -ramp -soak 0.7     # then run at 70 % of it
//
// Exit status: 0 pass, 1 a bound was violated, 2 usage or set-up error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/einvoice-dev/einvoice/tools/loadmix/mix"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadmix", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "http://127.0.0.1:8080", "base URL of the server")
	key := fs.String("key", os.Getenv("EINVOICE_KEY"), "API key (default $EINVOICE_KEY)")
	shared := fs.String("shared", "../shared", "shared directory (corpus read at run time)")
	rate := fs.Float64("rate", 20, "requests per second of the whole mix")
	duration := fs.Duration("duration", 60*time.Second, "duration of the run")
	warmup := fs.Duration("warmup", 0, "left out of the growth and drift judgement (default: a sixth of the duration, at most 5m)")
	sample := fs.Duration("sample", 5*time.Second, "/metrics sampling period")
	only := fs.String("ops", "", "comma-separated operations to keep (default all)")
	growth := fs.Float64("growth", mix.DefaultBounds.Growth, "allowed RSS and goroutine growth after warm-up")
	drift := fs.Float64("p99-drift", mix.DefaultBounds.P99Drift, "allowed factor between the last and first third's p99")
	floor := fs.Duration("p99-floor", mix.DefaultBounds.P99Floor, "p99 difference always allowed")
	ramp := fs.Bool("ramp", false, "measure the maximum rate first (steps of -ramp-step, x-ramp-factor, until p50 > -ramp-p50 or p99 > -ramp-p99)")
	rampStart := fs.Float64("ramp-start", 5, "first rate of the ramp")
	rampFactor := fs.Float64("ramp-factor", 1.25, "factor between ramp steps")
	rampStep := fs.Duration("ramp-step", 10*time.Second, "duration of each ramp step")
	rampP99 := fs.Duration("ramp-p99", 2*time.Second, "p99 above which a ramp step fails")
	rampP50 := fs.Duration("ramp-p50", 200*time.Millisecond, "p50 above which a ramp step fails")
	rampRetries := fs.Int("ramp-retries", 1, "reruns of a failing ramp step before the ramp stops (noise of a shared machine)")
	soak := fs.Float64("soak", 0, "with -ramp: then run -duration at this fraction of the maximum (e.g. 0.7); 0 = ramp only")
	conns := fs.Int("conns", 32, "connections to the server at most (0 = unbounded)")
	seed := fs.Uint64("seed", 1, "seed of the random invoices")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *key == "" || *rate <= 0 || *duration <= 0 {
		fmt.Fprintln(stderr, "loadmix: want -key (or $EINVOICE_KEY), a positive -rate and -duration, no arguments")
		return 2
	}
	if *warmup == 0 {
		*warmup = min(*duration/6, 5*time.Minute)
	}
	base := strings.TrimRight(*url, "/")
	client := mix.NewClient(60*time.Second, *conns)

	ops, err := mix.Workload(*shared, *seed)
	if err != nil {
		fmt.Fprintln(stderr, "loadmix:", err)
		return 2
	}
	if *only != "" {
		keep := map[string]bool{}
		for _, o := range strings.Split(*only, ",") {
			keep[strings.TrimSpace(o)] = true
		}
		var sel []mix.Op
		for _, o := range ops {
			if keep[o.Name] {
				sel = append(sel, o)
			}
		}
		ops = sel
	}
	live, skipped, err := mix.Probe(ctx, client, base, *key, ops)
	if err != nil {
		fmt.Fprintln(stderr, "loadmix:", err)
		return 2
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "skipped %s: %s\n", s.Name, s.Reason)
	}
	if len(live) == 0 {
		fmt.Fprintln(stderr, "loadmix: no operation answers on", base)
		return 2
	}
	for _, o := range live {
		fmt.Fprintf(stdout, "operation %s: %d bodies\n", o.Name, len(o.Bodies))
	}
	cfg := mix.Config{Base: base, Key: *key, Client: client, Ops: live, Rate: *rate, Duration: *duration,
		Warmup: *warmup, SampleEvery: *sample}
	if *ramp {
		best, _, err := mix.Ramp(ctx, cfg, mix.RampConfig{Start: *rampStart, Factor: *rampFactor, Step: *rampStep,
			MaxP99: *rampP99, MaxP50: *rampP50, Retries: *rampRetries, Log: stdout})
		if err != nil {
			fmt.Fprintln(stderr, "loadmix:", err)
			return 2
		}
		fmt.Fprintf(stdout, "max sustained rate: %.1f req/s (p50 <= %s, p99 <= %s, no 5xx)\n", best, *rampP50, *rampP99)
		if *soak <= 0 {
			return 0
		}
		if best == 0 {
			fmt.Fprintln(stderr, "loadmix: the first ramp step failed; no rate to soak at")
			return 1
		}
		cfg.Rate = best * *soak
		fmt.Fprintf(stdout, "soak at %.0f%% of the maximum: %.1f req/s for %s\n", 100**soak, cfg.Rate, *duration)
	}
	cfg.OnSample = func(s mix.Sample) {
		if s.Err != "" {
			fmt.Fprintf(stdout, "sample %6s: %s\n", s.At.Round(time.Second), s.Err)
			return
		}
		fmt.Fprintf(stdout, "sample %6s: rss %.1f MiB, goroutines %.0f\n", s.At.Round(time.Second), s.RSS/(1<<20), s.Goroutines)
	}
	res, err := mix.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "loadmix:", err)
		return 2
	}
	res.Report(stdout)
	bounds := mix.Bounds{Growth: *growth, GoroutineSlack: mix.DefaultBounds.GoroutineSlack, P99Drift: *drift, P99Floor: *floor}
	if v := res.Check(bounds); len(v) > 0 {
		for _, m := range v {
			fmt.Fprintln(stdout, "FAIL:", m)
		}
		return 1
	}
	fmt.Fprintln(stdout, "PASS")
	return 0
}
