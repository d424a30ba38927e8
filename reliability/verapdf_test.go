package reliability

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/tools/loadmix/mix"
)

// childPIDs returns the children of pid whose command line contains name.
func childPIDs(t *testing.T, pid int, name string) []int {
	t.Helper()
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, s := range strings.Fields(string(b)) {
			c, err := strconv.Atoi(s)
			if err != nil {
				continue
			}
			cmd, _ := os.ReadFile("/proc/" + s + "/cmdline")
			if strings.Contains(string(cmd), name) {
				out = append(out, c)
			}
		}
	}
	return out
}

// waitHealthy waits until /health reports component ok.
func waitHealthy(t *testing.T, c *http.Client, base, component string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	var last string
	for time.Now().Before(deadline) {
		a := call(context.Background(), c, http.MethodGet, base+"/health", "", "", nil)
		var h struct {
			Components map[string]struct{ Status string }
		}
		if json.Unmarshal([]byte(a.Body), &h) == nil && h.Components[component].Status == "ok" {
			return
		}
		last = a.Body
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("/health: %s not ok within %s: %s", component, within, last)
}

// TestVeraPDFWorkerKilledUnderLoad kills the veraPDF worker (kill -9) while
// pdfa/validate requests run and the rest of the mix is driven beside them:
// the request in flight gets 503 with the reason, the supervisor starts a
// new worker, later pdfa/validate requests get 200, and no other operation
// sees anything but its usual answer.
func TestVeraPDFWorkerKilledUnderLoad(t *testing.T) {
	t.Parallel()
	jar := verapdftest.JarPath()
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("veraPDF worker jar not found at %s: run `make verapdf` (or set EINVOICE_VERAPDF_JAR)", jar)
	}
	dataDir := t.TempDir()
	srv := startServer(t, nil, "--data-dir", dataDir, "--verapdf-jar", jar, "--verapdf-workers", "1")
	key := createKey(t, nil, "--data-dir", dataDir)
	c := mix.NewClient(60*time.Second, 0)
	waitHealthy(t, c, srv.Base, "verapdf", 3*time.Minute)
	pdf, err := os.ReadFile(filepath.Join(testshared.Dir(t), "corpus", "pdf", "mustang", "Facture_F20180027.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	validate := func() answer {
		return call(context.Background(), c, http.MethodPost, srv.Base+"/v1/pdfa/validate", "", "application/pdf", pdf)
	}
	if a := validate(); a.Status != http.StatusOK {
		t.Fatalf("pdfa/validate before the fault: %d %v %.300s", a.Status, a.Err, a.Body)
	}

	// The rest of the mix at 8 req/s, and two pdfa/validate callers in a
	// closed loop, so that the worker always has a request in flight.
	others := load(125*time.Millisecond, opRequest(c, srv.Base, key, liveWorkload(t, c, srv.Base, key)...))
	var mu sync.Mutex
	var pdfa []sent
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-quit:
					return
				default:
				}
				at := time.Now()
				a := validate()
				mu.Lock()
				pdfa = append(pdfa, sent{Op: "pdfa/validate", At: at, Resp: a})
				mu.Unlock()
			}
		}()
	}
	okCount := func(after time.Time) int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, s := range pdfa {
			if s.Resp.Status == http.StatusOK && s.At.After(after) {
				n++
			}
		}
		return n
	}
	waitFor := func(what string, cond func() bool) {
		deadline := time.Now().Add(3 * time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				close(quit)
				wg.Wait()
				others()
				t.Fatalf("%s: not within 3 min\n%s", what, srv.log)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	start := time.Now()
	waitFor("two pdfa/validate answers before the fault", func() bool { return okCount(start) >= 2 })

	javas := childPIDs(t, srv.cmd.Process.Pid, "java")
	if len(javas) != 1 {
		t.Fatalf("want one java child of the server, have %v", javas)
	}
	// Kill it while a request is in flight: just after an answer the other
	// caller's request is being checked.
	time.Sleep(300 * time.Millisecond)
	killedAt := time.Now()
	if err := syscall.Kill(javas[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor("three pdfa/validate answers 200 after the kill", func() bool { return okCount(killedAt) >= 3 })
	close(quit)
	wg.Wait()
	otherRecs := others()

	var first503, last503, firstOK time.Time
	var n503, nWorker, nTimeout int
	for _, s := range pdfa {
		switch s.Resp.Status {
		case http.StatusOK:
			if s.At.After(killedAt) && (firstOK.IsZero() || s.Resp.At.Before(firstOK)) {
				firstOK = s.Resp.At
			}
		case http.StatusServiceUnavailable:
			n503++
			// The request in flight gets the worker's failure; requests
			// queued behind it wait for the new JVM and, when that takes
			// longer than the request time limit (a loaded machine), get
			// the time-out 503. Both say why; neither guesses a verdict.
			switch {
			case strings.Contains(s.Resp.Body, "PDF/A validation is unavailable") && strings.Contains(s.Resp.Body, "no verdict was guessed"):
				nWorker++
			case strings.Contains(s.Resp.Body, "did not complete within its time limit"):
				nTimeout++
			default:
				t.Errorf("503 without the reason: %.300s", s.Resp.Body)
			}
			if s.Resp.At.Before(killedAt) {
				t.Errorf("503 before the kill: %.300s", s.Resp.Body)
			}
			if first503.IsZero() || s.Resp.At.Before(first503) {
				first503 = s.Resp.At
			}
			if s.Resp.At.After(last503) {
				last503 = s.Resp.At
			}
		default:
			t.Errorf("pdfa/validate answered %d %v: %.300s", s.Resp.Status, s.Resp.Err, s.Resp.Body)
		}
	}
	if nWorker == 0 {
		t.Errorf("no pdfa/validate request got the worker's 503: the kill hit no request in flight")
	}
	if !last503.IsZero() && last503.After(firstOK) {
		t.Errorf("a 503 (%s after the kill) came after the first 200 of the new worker (%s)", last503.Sub(killedAt), firstOK.Sub(killedAt))
	}
	if now := childPIDs(t, srv.cmd.Process.Pid, "java"); len(now) != 1 || now[0] == javas[0] {
		t.Errorf("java children after the restart: %v (killed %d)", now, javas[0])
	}
	for _, r := range otherRecs {
		if r.Resp.Err != nil || r.Resp.Status >= 300 {
			t.Errorf("%s sent %s after the kill answered %d %v: %.300s", r.Op, r.At.Sub(killedAt).Round(time.Millisecond), r.Resp.Status, r.Resp.Err, r.Resp.Body)
		}
	}
	t.Logf("veraPDF worker kill -9: %d pdfa/validate answers 503 (%d worker failure, %d time limit while the new JVM started), first %s after the kill; first 200 from the new worker %s after the kill; pdfa statuses %v; other operations %v",
		n503, nWorker, nTimeout, first503.Sub(killedAt).Round(time.Millisecond), firstOK.Sub(killedAt).Round(time.Millisecond),
		statuses(pdfa)["pdfa/validate"], statuses(otherRecs))
}
