package mix

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config is one open-loop run.
type Config struct {
	Base   string // e.g. http://127.0.0.1:8080
	Key    string // x-api-key of every request
	Client *http.Client
	Ops    []Op // requests cycle through the operations, then through each one's bodies
	// Rate is the request rate of the whole mix, per second.
	Rate     float64
	Duration time.Duration
	// Warmup is left out of the growth and drift judgement (Check).
	Warmup time.Duration
	// SampleEvery is the /metrics sampling period (0: no sampling).
	SampleEvery time.Duration
	// MaxInFlight bounds the requests outstanding at once; a request that
	// would exceed it is not sent and counted as dropped (the server is far
	// behind the offered rate). 0 means 4096.
	MaxInFlight int
	// OnSample, when set, is called with every sample (progress output).
	OnSample func(Sample)
}

// NewClient returns an HTTP client for load runs with at most conns
// connections to a host (0: unbounded). Bounding them keeps the server's
// per-connection goroutines from following the client's concurrency after a
// stall (a queued request still counts its wait: latency runs from the
// scheduled time).
func NewClient(timeout time.Duration, conns int) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxConnsPerHost:     conns,
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     60 * time.Second,
	}}
}

// Record is one request of a run.
type Record struct {
	Op      int           // index into Config.Ops
	At      time.Duration // scheduled send time from the start of the run
	Latency time.Duration // from the scheduled time to the end of the answer
	Status  int           // 0 when the request failed without an answer
	Err     string
}

// Sample is one reading of /metrics.
type Sample struct {
	At         time.Duration
	RSS        float64 // process_resident_memory_bytes
	Goroutines float64 // go_goroutines
	InFlight   float64 // einvoice_http_requests_in_flight (0 when not served)
	Conns      float64 // einvoice_http_connections_open (0 when not served)
	// CPU is the server's CPU time so far, in seconds
	// (process_cpu_seconds_total; 0 when not served). Per request it tells
	// a server that does more work for the same mix from one that got less
	// of the machine.
	CPU float64
	// HostLoad is the one-minute load average of the machine the client
	// runs on (/proc/loadavg; 0 where there is none). It does not judge the
	// run: it tells a p99 that rose with the machine's load (other jobs on
	// a shared machine) from one that rose on its own.
	HostLoad float64
	// HostCPU and HostSteal are the machine's CPU time so far and the part
	// of it the hypervisor gave to other guests, in clock ticks
	// (/proc/stat; 0 where there is none). A window whose p99 rose with
	// the steal lost the machine, not its speed.
	HostCPU, HostSteal float64
	Err                string // the scrape failed
}

// Resting is the goroutines that neither hold an open connection nor serve
// a request: Goroutines less one per open connection and two per request
// in flight (its handler under the time-out and the connection's body
// reader). What load explains comes and goes with it; a leak stays here.
func (s Sample) Resting() float64 { return s.Goroutines - s.Conns - 2*s.InFlight }

// Result is what a run observed.
type Result struct {
	Config  Config
	Records []Record
	Samples []Sample
	Dropped int
	Elapsed time.Duration
}

// Run drives the mix at cfg.Rate for cfg.Duration and waits for every
// request sent to finish.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Rate <= 0 || cfg.Duration <= 0 || len(cfg.Ops) == 0 {
		return nil, errors.New("mix: Run needs a positive rate and duration and at least one operation")
	}
	if cfg.Client == nil {
		cfg.Client = NewClient(60*time.Second, 0)
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 4096
	}
	res := &Result{Config: cfg}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, cfg.MaxInFlight)
	start := time.Now()

	stopSampling := make(chan struct{})
	samplerDone := make(chan struct{})
	go func() {
		defer close(samplerDone)
		if cfg.SampleEvery <= 0 {
			return
		}
		// The samples have a connection of their own: behind the load's
		// (at most 32, all busy when the server stalls) a sample would wait
		// for the very stall it should record.
		sc := NewClient(cfg.SampleEvery+5*time.Second, 1)
		defer sc.CloseIdleConnections()
		t := time.NewTicker(cfg.SampleEvery)
		defer t.Stop()
		take := func() {
			s := Scrape(ctx, sc, cfg.Base)
			s.At, s.HostLoad = time.Since(start), hostLoad()
			s.HostCPU, s.HostSteal = hostCPU()
			mu.Lock()
			res.Samples = append(res.Samples, s)
			mu.Unlock()
			if cfg.OnSample != nil {
				cfg.OnSample(s)
			}
		}
		take()
		for {
			select {
			case <-t.C:
				take()
			case <-stopSampling:
				take()
				return
			case <-ctx.Done():
				return
			}
		}
	}()

	counters := make([]int, len(cfg.Ops))
loop:
	for i := 0; ; i++ {
		at := time.Duration(float64(i) * float64(time.Second) / cfg.Rate)
		if at >= cfg.Duration {
			break
		}
		if d := time.Until(start.Add(at)); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				break loop
			}
		}
		opIdx := i % len(cfg.Ops)
		op := cfg.Ops[opIdx]
		body := op.Bodies[counters[opIdx]%len(op.Bodies)]
		counters[opIdx]++
		select {
		case sem <- struct{}{}:
		default:
			mu.Lock()
			res.Dropped++
			mu.Unlock()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			status, _, err := Do(ctx, cfg.Client, cfg.Base, cfg.Key, op, body)
			rec := Record{Op: opIdx, At: at, Latency: time.Since(start.Add(at)), Status: status}
			if err != nil {
				rec.Err = err.Error()
			}
			mu.Lock()
			res.Records = append(res.Records, rec)
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	close(stopSampling)
	<-samplerDone
	return res, ctx.Err()
}

// Scrape reads the resident memory and goroutine count from base/metrics.
func Scrape(ctx context.Context, c *http.Client, base string) Sample {
	var s Sample
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		s.Err = err.Error()
		return s
	}
	resp, err := c.Do(req)
	if err != nil {
		s.Err = err.Error()
		return s
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		s.Err = fmt.Sprintf("/metrics: status %d", resp.StatusCode)
		return s
	}
	var seen int
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		var dst *float64
		required := true // the in-flight and connection gauges are optional
		switch name {
		case "process_resident_memory_bytes":
			dst = &s.RSS
		case "go_goroutines":
			dst = &s.Goroutines
		case "einvoice_http_requests_in_flight":
			dst, required = &s.InFlight, false
		case "einvoice_http_connections_open":
			dst, required = &s.Conns, false
		case "process_cpu_seconds_total":
			dst, required = &s.CPU, false
		default:
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			s.Err = fmt.Sprintf("/metrics: %s: %v", name, err)
			return s
		}
		*dst = v
		if required {
			seen++
		}
	}
	if err := sc.Err(); err != nil {
		s.Err = fmt.Sprintf("/metrics: %v", err)
	} else if seen < 2 {
		s.Err = "/metrics: process_resident_memory_bytes or go_goroutines missing"
	}
	return s
}

// hostCPU returns the machine's CPU time and its steal time so far, in
// clock ticks, from the "cpu" line of /proc/stat (user nice system idle
// iowait irq softirq steal ...), or zeros.
func hostCPU() (total, steal float64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	for i, v := range f[1:] {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, 0
		}
		// guest and guest_nice (fields 9 and 10) are already counted in
		// user and nice.
		if i < 8 {
			total += x
		}
		if i == 7 {
			steal = x
		}
	}
	return total, steal
}

// hostLoad returns the one-minute load average of this machine, or 0.
func hostLoad() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _, _ := strings.Cut(string(b), " ")
	v, err := strconv.ParseFloat(f, 64)
	if err != nil {
		return 0
	}
	return v
}
