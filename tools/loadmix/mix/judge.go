package mix

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

// Bounds are the pass criteria of a run (Check).
type Bounds struct {
	// Growth is the allowed relative growth of RSS and goroutines after
	// warm-up: the median of the last quarter of the samples against the
	// median of the first quarter (0.10 = 10 %).
	Growth float64
	// GoroutineSlack is added to the goroutine allowance: the count includes
	// the requests in flight at the moment of the scrape.
	GoroutineSlack float64
	// P99Drift is the allowed factor between the p99 of the last third of
	// the post-warm-up requests and that of the first third; P99Floor is an
	// absolute difference always allowed (scheduling noise on a shared
	// machine).
	P99Drift float64
	P99Floor time.Duration
}

// DefaultBounds are the bounds of issue 9: 10 % growth, p99 at most doubling.
var DefaultBounds = Bounds{Growth: 0.10, GoroutineSlack: 8, P99Drift: 2, P99Floor: 50 * time.Millisecond}

// Stats summarises the requests of one operation (or of all).
type Stats struct {
	Name          string
	Count         int
	Status        map[int]int
	Errors        int
	FirstError    string
	P50, P99, Max time.Duration
}

// Summary returns the statistics per operation, in the order of
// Config.Ops, then one row "all".
func (r *Result) Summary() []Stats {
	per := make([][]Record, len(r.Config.Ops))
	for _, rec := range r.Records {
		per[rec.Op] = append(per[rec.Op], rec)
	}
	out := make([]Stats, 0, len(per)+1)
	for i, recs := range per {
		out = append(out, stats(r.Config.Ops[i].Name, recs))
	}
	return append(out, stats("all", r.Records))
}

func stats(name string, recs []Record) Stats {
	s := Stats{Name: name, Count: len(recs), Status: map[int]int{}}
	lat := make([]time.Duration, 0, len(recs))
	for _, rec := range recs {
		if rec.Err != "" && rec.Status == 0 {
			s.Errors++
			if s.FirstError == "" {
				s.FirstError = rec.Err
			}
		} else {
			s.Status[rec.Status]++
		}
		lat = append(lat, rec.Latency)
	}
	s.P50, s.P99, s.Max = percentiles(lat)
	return s
}

// percentiles returns p50, p99 and max (nearest rank) of ds, which it sorts.
func percentiles(ds []time.Duration) (p50, p99, mx time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(ds))+0.999999) - 1
		return ds[max(0, min(i, len(ds)-1))]
	}
	return rank(0.50), rank(0.99), ds[len(ds)-1]
}

// Check returns every violation of b: answers 5xx, requests without an
// answer, dropped requests, RSS or goroutine growth after warm-up, p99 drift.
// An empty result is a pass.
func (r *Result) Check(b Bounds) []string {
	var out []string
	for _, s := range r.Summary() {
		if s.Name == "all" {
			continue
		}
		for code, n := range s.Status {
			if code >= 500 {
				out = append(out, fmt.Sprintf("%s: %d answers with status %d", s.Name, n, code))
			}
		}
		if s.Errors > 0 {
			out = append(out, fmt.Sprintf("%s: %d requests without an answer (first: %s)", s.Name, s.Errors, s.FirstError))
		}
	}
	if r.Dropped > 0 {
		out = append(out, fmt.Sprintf("%d requests not sent: %d already in flight (the server is far behind %.1f req/s)",
			r.Dropped, r.Config.MaxInFlight, r.Config.Rate))
	}
	var post []Sample
	for _, s := range r.Samples {
		if s.Err != "" {
			out = append(out, fmt.Sprintf("metrics sample at %s: %s", s.At.Round(time.Second), s.Err))
			continue
		}
		if s.At >= r.Config.Warmup {
			post = append(post, s)
		}
	}
	if len(post) >= 4 {
		q := len(post) / 4
		first, last := post[:q], post[len(post)-q:]
		rss0, rss1 := median(first, func(s Sample) float64 { return s.RSS }), median(last, func(s Sample) float64 { return s.RSS })
		if rss1 > rss0*(1+b.Growth) {
			out = append(out, fmt.Sprintf("RSS grew %.1f%% after warm-up (%.1f -> %.1f MiB; bound %.0f%%)",
				100*(rss1/rss0-1), rss0/(1<<20), rss1/(1<<20), 100*b.Growth))
		}
		// Resting goroutines: a count that follows the requests in flight
		// and the client's open connections is load, not growth. They are
		// compared between the first and last quarter of the quiet samples.
		qs := quiet(post)
		qq := len(qs) / 4
		g0, g1 := median(qs[:qq], Sample.Resting), median(qs[len(qs)-qq:], Sample.Resting)
		if g1 > g0*(1+b.Growth)+b.GoroutineSlack {
			out = append(out, fmt.Sprintf("goroutines grew after warm-up (%.0f -> %.0f not holding a connection or serving a request; bound +%.0f%% + %.0f)",
				g0, g1, 100*b.Growth, b.GoroutineSlack))
		}
	}
	if first, last, ok := r.driftThirds(); ok && last > time.Duration(float64(first)*b.P99Drift) && last-first > b.P99Floor {
		msg := fmt.Sprintf("%s from %s (first third after warm-up) to %s (last third); bound x%.1f or +%s",
			P99Drifted, first.Round(time.Millisecond), last.Round(time.Millisecond), b.P99Drift, b.P99Floor)
		if c0, c1, ok := r.cpuThirds(); ok {
			msg += fmt.Sprintf("; server CPU per request %.2f ms, then %.2f ms", c0, c1)
		}
		out = append(out, msg)
	}
	return out
}

// P99Drifted begins the violation Check reports for a p99 that drifted: of
// its verdicts the one a stall of a shared machine can cause.
const P99Drifted = "p99 drifted"

// thirds returns the bounds of the first and the last third of the run
// after warm-up: [w, w+span/3) and [w+2*span/3, Duration).
func (r *Result) thirds() (a0, a1, c0, c1 time.Duration, ok bool) {
	span := r.Config.Duration - r.Config.Warmup
	w := r.Config.Warmup
	return w, w + span/3, w + 2*span/3, r.Config.Duration, span > 0
}

// cpuThirds returns the server's CPU time per request, in milliseconds, in
// the first and the last third after warm-up, from the samples nearest to
// their bounds (false when the server does not export its CPU time or the
// samples do not cover the thirds).
func (r *Result) cpuThirds() (first, last float64, ok bool) {
	a0, a1, c0, c1, ok := r.thirds()
	if !ok {
		return 0, 0, false
	}
	first, ok1 := r.cpuPerRequest(a0, a1)
	last, ok2 := r.cpuPerRequest(c0, c1)
	return first, last, ok1 && ok2
}

// cpuPerRequest is the server's CPU time between the first sample at or
// after from and the last one at or before to, divided by the requests
// scheduled between them, in milliseconds.
func (r *Result) cpuPerRequest(from, to time.Duration) (float64, bool) {
	var s0, s1 *Sample
	for i := range r.Samples {
		s := &r.Samples[i]
		if s.Err != "" || s.CPU <= 0 {
			continue
		}
		if s.At >= from && s0 == nil {
			s0 = s
		}
		if s.At <= to {
			s1 = s
		}
	}
	if s0 == nil || s1 == nil || s1.At <= s0.At {
		return 0, false
	}
	var n int
	for _, rec := range r.Records {
		if rec.At >= s0.At && rec.At < s1.At {
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return 1000 * (s1.CPU - s0.CPU) / float64(n), true
}

// driftThirds returns the p99 of the first and the last third of the
// requests scheduled after warm-up.
func (r *Result) driftThirds() (first, last time.Duration, ok bool) {
	a0, a1, c0, _, ok := r.thirds()
	if !ok {
		return 0, 0, false
	}
	var a, c []time.Duration
	for _, rec := range r.Records {
		switch {
		case rec.At < a0:
		case rec.At < a1:
			a = append(a, rec.Latency)
		case rec.At >= c0:
			c = append(c, rec.Latency)
		}
	}
	if len(a) < 20 || len(c) < 20 {
		return 0, 0, false
	}
	_, first, _ = percentiles(a)
	_, last, _ = percentiles(c)
	return first, last, true
}

// quietInFlight is the number of requests in flight below which a sample's
// resting goroutines are exact. Above it requests wait in different places
// (reading the body, queued for a worker, in a handler under the time-out)
// with one or two goroutines each, and subtracting two per request takes
// too many: in a stall of the shared machine the resting count went to -14.
const quietInFlight = 8

// quiet returns the samples with fewer than quietInFlight requests in
// flight, or all of them when fewer than four are.
func quiet(xs []Sample) []Sample {
	var out []Sample
	for _, s := range xs {
		if s.InFlight < quietInFlight {
			out = append(out, s)
		}
	}
	if len(out) < 4 {
		return xs
	}
	return out
}

func median(xs []Sample, f func(Sample) float64) float64 {
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// Window is the requests scheduled in one sampling period.
type Window struct {
	From, To time.Duration
	Count    int
	P99      time.Duration
	Sample   Sample // the metrics sample taken at To (zero when none)
}

// Windows splits the run into the sampling periods (or 10 s when the run
// was not sampled), with the p99 of each.
func (r *Result) Windows() []Window {
	step := r.Config.SampleEvery
	if step <= 0 {
		step = 10 * time.Second
	}
	n := int((r.Config.Duration + step - 1) / step)
	lat := make([][]time.Duration, n)
	for _, rec := range r.Records {
		i := min(int(rec.At/step), n-1)
		lat[i] = append(lat[i], rec.Latency)
	}
	out := make([]Window, n)
	for i := range out {
		out[i] = Window{From: time.Duration(i) * step, To: time.Duration(i+1) * step, Count: len(lat[i])}
		_, out[i].P99, _ = percentiles(lat[i])
		for _, s := range r.Samples {
			if s.At >= out[i].To-step/2 && s.At < out[i].To+step/2 {
				out[i].Sample = s
			}
		}
	}
	return out
}

// Report writes the per-operation table and the sample series.
func (r *Result) Report(w io.Writer) {
	fmt.Fprintf(w, "rate %.1f req/s for %s (warm-up %s): %d requests, %d dropped, elapsed %s\n",
		r.Config.Rate, r.Config.Duration, r.Config.Warmup, len(r.Records), r.Dropped, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "%-20s %7s %-28s %9s %9s %9s\n", "operation", "count", "statuses", "p50", "p99", "max")
	for _, s := range r.Summary() {
		codes := slices.Sorted(maps.Keys(s.Status))
		var st []string
		for _, c := range codes {
			st = append(st, fmt.Sprintf("%d:%d", c, s.Status[c]))
		}
		if s.Errors > 0 {
			st = append(st, fmt.Sprintf("err:%d", s.Errors))
		}
		fmt.Fprintf(w, "%-20s %7d %-28s %9s %9s %9s\n", s.Name, s.Count, strings.Join(st, " "),
			ms(s.P50), ms(s.P99), ms(s.Max))
	}
	if first, last, ok := r.driftThirds(); ok {
		fmt.Fprintf(w, "p99 after warm-up: first third %s, last third %s\n", ms(first), ms(last))
	}
	if len(r.Samples) > 0 {
		fmt.Fprintf(w, "%8s %8s %10s %10s %9s %6s %7s %8s %6s %6s %7s\n", "t", "requests", "rss_MiB", "goroutines", "in_flight", "conns", "resting", "p99", "load1", "steal%", "cpu/req")
		// prev starts at the sample taken as the run began, if any.
		var prev Sample
		wins := r.Windows()
		if s := r.Samples[0]; len(wins) > 0 && s.Err == "" && s.At < (wins[0].From+wins[0].To)/2 {
			prev = s
		}
		for _, win := range wins {
			rss, gor, infl, conns, rest, load, steal, cpu := "-", "-", "-", "-", "-", "-", "-", "-"
			s := win.Sample
			if s.At > 0 && s.Err == "" {
				rss, gor = fmt.Sprintf("%.1f", s.RSS/(1<<20)), fmt.Sprintf("%.0f", s.Goroutines)
				infl, conns, rest = fmt.Sprintf("%.0f", s.InFlight), fmt.Sprintf("%.0f", s.Conns), fmt.Sprintf("%.0f", s.Resting())
				// The server's CPU milliseconds per request of the window:
				// flat while p99 rises, the server got less of the machine.
				if prev.CPU > 0 && s.CPU > 0 && win.Count > 0 {
					cpu = fmt.Sprintf("%.2f", 1000*(s.CPU-prev.CPU)/float64(win.Count))
				}
				// The share of the machine's CPU time the hypervisor gave
				// to other guests in the window.
				if d := s.HostCPU - prev.HostCPU; prev.HostCPU > 0 && d > 0 {
					steal = fmt.Sprintf("%.0f", 100*(s.HostSteal-prev.HostSteal)/d)
				}
				prev = s
			}
			if s.HostLoad > 0 {
				load = fmt.Sprintf("%.2f", s.HostLoad)
			}
			fmt.Fprintf(w, "%8s %8d %10s %10s %9s %6s %7s %8s %6s %6s %7s\n", win.To, win.Count, rss, gor, infl, conns, rest, ms(win.P99), load, steal, cpu)
		}
	}
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}
