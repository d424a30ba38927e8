package mix

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// fakeServer answers /v1/ok with 200, /v1/missing with 501, /v1/picky with
// 422 unless the body is "good", /v1/broken with 500 after the first
// request, and /metrics with the given RSS and goroutines.
type fakeServer struct {
	rss, goroutines atomic.Int64
	broken          atomic.Int64
	delay           time.Duration
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/metrics":
		fmt.Fprintf(w, "# HELP x\ngo_goroutines %d\nprocess_resident_memory_bytes %d\n", f.goroutines.Load(), f.rss.Load())
	case "/v1/ok":
		if r.Header.Get("x-api-key") != "k" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		time.Sleep(f.delay)
		fmt.Fprint(w, "fine")
	case "/v1/missing":
		w.WriteHeader(http.StatusNotImplemented)
	case "/v1/picky":
		b := make([]byte, 4)
		n, _ := r.Body.Read(b)
		if string(b[:n]) != "good" {
			w.WriteHeader(http.StatusUnprocessableEntity)
		}
	case "/v1/broken":
		if f.broken.Add(1) > 1 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	default:
		http.NotFound(w, r)
	}
}

func TestProbeSkips501AndDrops4xxBodies(t *testing.T) {
	srv := httptest.NewServer(&fakeServer{})
	defer srv.Close()
	ops := []Op{
		{Name: "ok", ContentType: "text/plain", Bodies: [][]byte{[]byte("a")}},
		{Name: "missing", ContentType: "text/plain", Bodies: [][]byte{[]byte("a")}},
		{Name: "picky", ContentType: "text/plain", Bodies: [][]byte{[]byte("bad"), []byte("good")}},
		{Name: "picky", ContentType: "text/plain", Bodies: [][]byte{[]byte("bad")}},
	}
	live, skipped, err := Probe(context.Background(), srv.Client(), srv.URL, "k", ops)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 2 || live[0].Name != "ok" || live[1].Name != "picky" || len(live[1].Bodies) != 1 || string(live[1].Bodies[0]) != "good" {
		t.Errorf("live = %+v", live)
	}
	if len(skipped) != 2 || !strings.Contains(skipped[0].Reason, "501") || !strings.Contains(skipped[1].Reason, "422") {
		t.Errorf("skipped = %+v", skipped)
	}
	if _, _, err := Probe(context.Background(), srv.Client(), srv.URL, "k", []Op{{Name: "broken", Bodies: [][]byte{nil, nil}}}); err == nil {
		t.Error("a 500 in the probe is not an error")
	}
}

// startOK starts a fakeServer answering /v1/ok after delay, with 100 MiB
// and 10 goroutines in its metrics, and returns it, its URL and the
// operation of /v1/ok; the server stops with the test.
func startOK(t *testing.T, delay time.Duration) (*fakeServer, string, []Op) {
	f := &fakeServer{delay: delay}
	f.rss.Store(100 << 20)
	f.goroutines.Store(10)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL, []Op{{Name: "ok", ContentType: "text/plain", Bodies: [][]byte{[]byte("a")}}}
}

func TestRunIsOpenLoopAndChecks(t *testing.T) {
	f, url, ops := startOK(t, 30*time.Millisecond)
	cfg := Config{Base: url, Key: "k", Ops: ops, Rate: 100, Duration: 2 * time.Second, Warmup: 200 * time.Millisecond,
		SampleEvery: 100 * time.Millisecond}
	// RSS and goroutines grow during the run.
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				f.rss.Add(10 << 20)
				f.goroutines.Add(5)
			}
		}
	}()
	res, err := Run(context.Background(), cfg)
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	// Open loop: 30 ms per request at 100/s means several at once, and the
	// whole schedule is sent in time.
	if len(res.Records) != 200 || res.Elapsed > 3*time.Second {
		t.Errorf("%d records in %s, want 200 in about 2 s", len(res.Records), res.Elapsed)
	}
	sum := res.Summary()
	if all := sum[len(sum)-1]; all.Status[200] != 200 || all.P50 < 30*time.Millisecond || all.Max > 2*time.Second {
		t.Errorf("summary %+v", all)
	}
	v := strings.Join(res.Check(DefaultBounds), "\n")
	if !strings.Contains(v, "RSS grew") || !strings.Contains(v, "goroutines grew") {
		t.Errorf("growth not reported:\n%s", v)
	}
	var rep strings.Builder
	res.Report(&rep)
	if !strings.Contains(rep.String(), "200:200") || !strings.Contains(rep.String(), "rss_MiB") || !strings.Contains(rep.String(), "load1") {
		t.Errorf("report:\n%s", rep.String())
	}
}

func TestCheckReports5xxAndDrift(t *testing.T) {
	srv := httptest.NewServer(&fakeServer{})
	defer srv.Close()
	ops := []Op{{Name: "broken", Bodies: [][]byte{nil}}}
	res, err := Run(context.Background(), Config{Base: srv.URL, Ops: ops, Rate: 50, Duration: 400 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if v := strings.Join(res.Check(DefaultBounds), "\n"); !strings.Contains(v, "status 500") {
		t.Errorf("5xx not reported: %q", v)
	}
	// Drift: synthetic records, 10 ms in the first third, 500 ms in the last.
	r := &Result{Config: Config{Ops: ops, Duration: 3 * time.Second}}
	for i := range 300 {
		lat := 10 * time.Millisecond
		if i >= 200 {
			lat = 500 * time.Millisecond
		}
		r.Records = append(r.Records, Record{At: time.Duration(i) * 10 * time.Millisecond, Latency: lat, Status: 200})
	}
	if v := strings.Join(r.Check(DefaultBounds), "\n"); !strings.Contains(v, "p99 drifted") {
		t.Errorf("drift not reported: %q", v)
	}
}

func TestRampFindsTheLimit(t *testing.T) {
	// 50 ms per request, one at a time: about 20 req/s.
	var busy atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for !busy.CompareAndSwap(0, 1) {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		busy.Store(0)
	}))
	defer srv.Close()
	cfg := Config{Base: srv.URL, Ops: []Op{{Name: "x", Bodies: [][]byte{nil}}}}
	best, steps, err := Ramp(context.Background(), cfg, RampConfig{Start: 4, Factor: 2, Step: 1500 * time.Millisecond,
		MaxP99: time.Second, MaxP50: 300 * time.Millisecond, MaxSteps: 6})
	if err != nil {
		t.Fatal(err)
	}
	if best < 8 || best > 16 || steps[len(steps)-1].OK {
		t.Errorf("best %.1f, steps %+v; want 8 or 16 and a failed last step", best, steps)
	}
}

func TestWorkloadFromCorpus(t *testing.T) {
	ops, err := Workload(testshared.Dir(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"validate/ubl", "validate/cii", "convert/ubl-to-cii", "render/html", "extract/xml", "generate/ubl"}
	if len(ops) != len(want) {
		t.Fatalf("%d ops", len(ops))
	}
	for i, o := range ops {
		if o.Name != want[i] || len(o.Bodies) == 0 {
			t.Errorf("op %d: %s with %d bodies, want %s", i, o.Name, len(o.Bodies), want[i])
		}
	}
	a, _ := GenerateBodies(3, 2)
	b, _ := GenerateBodies(3, 2)
	if string(a[1]) != string(b[1]) || !strings.HasPrefix(string(a[0]), `{"invoice":{`) {
		t.Errorf("generate bodies not seeded or not wrapped: %.80s", a[0])
	}
}

// TestCheckGoroutinesNetOfLoad: goroutines that follow the requests in
// flight and the open connections (a latency spike late in the run) are
// not growth; the same rise with neither is.
func TestCheckGoroutinesNetOfLoad(t *testing.T) {
	samples := func(late Sample) []Sample {
		var out []Sample
		for i := 0; i < 12; i++ {
			s := Sample{At: time.Duration(i) * time.Second, RSS: 100 << 20, Goroutines: 45, InFlight: 2, Conns: 6}
			if i >= 9 {
				s.Goroutines, s.InFlight, s.Conns = late.Goroutines, late.InFlight, late.Conns
			}
			out = append(out, s)
		}
		return out
	}
	r := &Result{Config: Config{Rate: 1, Duration: 12 * time.Second, Warmup: 2 * time.Second}}
	r.Samples = samples(Sample{Goroutines: 45 + 3*10 + 12, InFlight: 2 + 10, Conns: 6 + 12 + 3*10 - 2*10})
	if v := strings.Join(r.Check(DefaultBounds), "\n"); strings.Contains(v, "goroutines grew") {
		t.Errorf("a rise explained by requests in flight and open connections reported:\n%s", v)
	}
	r.Samples = samples(Sample{Goroutines: 45 + 30, InFlight: 2, Conns: 6})
	if v := strings.Join(r.Check(DefaultBounds), "\n"); !strings.Contains(v, "goroutines grew") {
		t.Errorf("30 more resting goroutines not reported:\n%s", v)
	}
	// A stall early after warm-up: every connection busy, fewer goroutines
	// than two per request in flight (requests queued, not yet in a
	// handler), so the resting count goes negative. Quiet samples judge.
	r = &Result{Config: Config{Rate: 1, Duration: 40 * time.Second, Warmup: 6 * time.Second}}
	for i := 0; i < 40; i++ {
		s := Sample{At: time.Duration(i) * time.Second, RSS: 100 << 20, Goroutines: 48, InFlight: 2, Conns: 33}
		if i >= 7 && i <= 15 {
			s.Goroutines, s.InFlight = 85, 33
		}
		r.Samples = append(r.Samples, s)
	}
	if v := strings.Join(r.Check(DefaultBounds), "\n"); strings.Contains(v, "goroutines grew") {
		t.Errorf("a stall early in the run reported as growth:\n%s", v)
	}
	for i := 30; i < 40; i++ {
		r.Samples[i].Goroutines += 20
	}
	if v := strings.Join(r.Check(DefaultBounds), "\n"); !strings.Contains(v, "goroutines grew") {
		t.Errorf("20 more resting goroutines at the end, after an early stall, not reported:\n%s", v)
	}
}

// TestDriftShowsServerCPU: a p99 drift is reported with the server's CPU
// time per request in both thirds, and the report has a column of it.
func TestDriftShowsServerCPU(t *testing.T) {
	r := &Result{Config: Config{Ops: []Op{{Name: "x"}}, Duration: 30 * time.Second, SampleEvery: time.Second}}
	for i := range 3000 {
		lat := 10 * time.Millisecond
		if i >= 2000 {
			lat = 900 * time.Millisecond
		}
		r.Records = append(r.Records, Record{At: time.Duration(i) * 10 * time.Millisecond, Latency: lat, Status: 200})
	}
	for i := 0; i <= 30; i++ {
		// 5 ms of CPU per request throughout: 100 requests a second.
		// and a quarter of the machine's time stolen.
		r.Samples = append(r.Samples, Sample{At: time.Duration(i) * time.Second, RSS: 1 << 20, Goroutines: 10, CPU: 1 + 0.5*float64(i),
			HostCPU: 1000 + 200*float64(i), HostSteal: 10 + 50*float64(i)})
	}
	v := strings.Join(r.Check(DefaultBounds), "\n")
	if !strings.HasPrefix(v, P99Drifted) || !strings.Contains(v, "server CPU per request 5.00 ms, then 5.00 ms") {
		t.Errorf("drift verdict %q", v)
	}
	var rep strings.Builder
	r.Report(&rep)
	if !strings.Contains(rep.String(), "steal%") || strings.Count(rep.String(), "  25    5.00\n") != 30 {
		t.Errorf("report without the steal and the CPU per request of 30 windows:\n%s", rep.String())
	}
}

// TestHostCPU: the machine's CPU and steal times are read on Linux.
func TestHostCPU(t *testing.T) {
	total, steal := hostCPU()
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat on this system")
	}
	if total <= 0 || steal < 0 || steal > total {
		t.Errorf("hostCPU() = %v, %v", total, steal)
	}
}

// TestScrapeReadsLoadGauges: the optional in-flight and connection gauges
// are read when the server exports them, and their absence is no error.
func TestScrapeReadsLoadGauges(t *testing.T) {
	body := "go_goroutines 50\nprocess_resident_memory_bytes 1e+08\neinvoice_http_requests_in_flight 3\neinvoice_http_connections_open 7\nprocess_cpu_seconds_total 12.5\n"
	for _, c := range []struct {
		body                string
		inFlight, conn, cpu float64
	}{{body, 3, 7, 12.5}, {"go_goroutines 50\nprocess_resident_memory_bytes 1e+08\n", 0, 0, 0}} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, c.body) }))
		s := Scrape(context.Background(), srv.Client(), srv.URL)
		srv.Close()
		if s.Err != "" || s.Goroutines != 50 || s.InFlight != c.inFlight || s.Conns != c.conn || s.CPU != c.cpu || s.Resting() != 50-c.conn-2*c.inFlight {
			t.Errorf("scrape of %q: %+v", c.body, s)
		}
	}
}

// TestSamplesNotQueuedBehindLoad: when every load connection is busy (the
// server stalls), /metrics is still read on time on a connection of its own.
func TestSamplesNotQueuedBehindLoad(t *testing.T) {
	_, url, ops := startOK(t, 250*time.Millisecond)
	cfg := Config{Base: url, Key: "k", Ops: ops, Client: NewClient(10*time.Second, 1), Rate: 12,
		Duration: time.Second, SampleEvery: 100 * time.Millisecond}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The one load connection is busy for 3 s; the samples of the first
	// second must not wait for it.
	var early int
	for _, s := range res.Samples {
		if s.Err != "" {
			t.Errorf("sample at %s: %s", s.At, s.Err)
		}
		if s.At < 1500*time.Millisecond {
			early++
		}
	}
	if early < 5 {
		t.Errorf("%d samples in the first 1.5 s of a run sampled every 100 ms; they queued behind the load", early)
	}
}
