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
		// and the client's open connections is load, not growth.
		g0, g1 := median(first, Sample.Resting), median(last, Sample.Resting)
		if g1 > g0*(1+b.Growth)+b.GoroutineSlack {
			out = append(out, fmt.Sprintf("goroutines grew after warm-up (%.0f -> %.0f not holding a connection or serving a request; bound +%.0f%% + %.0f)",
				g0, g1, 100*b.Growth, b.GoroutineSlack))
		}
	}
	if first, last, ok := r.driftThirds(); ok && last > time.Duration(float64(first)*b.P99Drift) && last-first > b.P99Floor {
		out = append(out, fmt.Sprintf("p99 drifted from %s (first third after warm-up) to %s (last third); bound x%.1f or +%s",
			first.Round(time.Millisecond), last.Round(time.Millisecond), b.P99Drift, b.P99Floor))
	}
	return out
}

// driftThirds returns the p99 of the first and the last third of the
// requests scheduled after warm-up.
func (r *Result) driftThirds() (first, last time.Duration, ok bool) {
	span := r.Config.Duration - r.Config.Warmup
	if span <= 0 {
		return 0, 0, false
	}
	var a, c []time.Duration
	for _, rec := range r.Records {
		switch {
		case rec.At < r.Config.Warmup:
		case rec.At < r.Config.Warmup+span/3:
			a = append(a, rec.Latency)
		case rec.At >= r.Config.Warmup+2*span/3:
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
		fmt.Fprintf(w, "%8s %8s %10s %10s %9s %6s %7s %8s %6s\n", "t", "requests", "rss_MiB", "goroutines", "in_flight", "conns", "resting", "p99", "load1")
		for _, win := range r.Windows() {
			rss, gor, infl, conns, rest, load := "-", "-", "-", "-", "-", "-"
			if s := win.Sample; s.At > 0 && s.Err == "" {
				rss, gor = fmt.Sprintf("%.1f", s.RSS/(1<<20)), fmt.Sprintf("%.0f", s.Goroutines)
				infl, conns, rest = fmt.Sprintf("%.0f", s.InFlight), fmt.Sprintf("%.0f", s.Conns), fmt.Sprintf("%.0f", s.Resting())
			}
			if s := win.Sample; s.HostLoad > 0 {
				load = fmt.Sprintf("%.2f", s.HostLoad)
			}
			fmt.Fprintf(w, "%8s %8d %10s %10s %9s %6s %7s %8s %6s\n", win.To, win.Count, rss, gor, infl, conns, rest, ms(win.P99), load)
		}
	}
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}
