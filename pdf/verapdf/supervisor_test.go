package verapdf

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake returns a client whose "java" is testdata/fakeworker.sh in the given mode.
func fake(t *testing.T, mode string, opts Options) *Client {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "fakeworker.sh"))
	if err != nil {
		t.Fatal(err)
	}
	j := filepath.Join(t.TempDir(), mode+".jar")
	if err := os.WriteFile(j, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Jar, opts.Java, opts.JVMArgs = j, script, []string{}
	c := New(opts)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestHungWorkerIsKilledAndReplaced(t *testing.T) {
	c := fake(t, "hang", Options{Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := c.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b")
	var de *DocumentError
	if !errors.As(err, &de) || de.Kind != KindTimeout {
		t.Fatalf("want a timeout DocumentError, got %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("timeout took %s", d)
	}
	if st := c.Health(context.Background()); st.Running != 0 || st.Restarts != 1 {
		t.Fatalf("the hung worker is still counted: %+v", st)
	}
}

func TestHealthPingsIdleWorker(t *testing.T) {
	c := fake(t, "ok", Options{})
	if st := c.Health(context.Background()); st.State != StateOK || st.Running != 0 || !strings.Contains(st.Detail, "next PDF/A request") {
		t.Fatalf("before start: %+v", st)
	}
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := c.Health(context.Background()); st.State != StateOK || st.Running != 1 || st.Version != "fake" {
		t.Fatalf("after start: %+v", st)
	}
	h := fake(t, "hang", Options{})
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := h.Health(context.Background()); st.State != StateUnavailable || !strings.Contains(st.Detail, "health check") {
		t.Fatalf("a worker that does not answer pings: %+v", st)
	}
}

func TestBoundedConcurrency(t *testing.T) {
	c := fake(t, "slow", Options{Workers: 2})
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	var maxRunning int
	var mu sync.Mutex
	for range 6 {
		wg.Go(func() {
			_, err := c.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b")
			errs <- err
			mu.Lock()
			maxRunning = max(maxRunning, c.Health(context.Background()).Running)
			mu.Unlock()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if maxRunning > 2 || maxRunning == 0 {
		t.Fatalf("running workers: %d, want 1..2", maxRunning)
	}
}

func TestCancelledRequestKeepsProtocolInStep(t *testing.T) {
	c := fake(t, "slow", Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Validate(ctx, []byte("%PDF-1.7\n"), "3b"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context error, got %v", err)
	}
	// The next call waits for the abandoned answer to be drained, then gets its own.
	res, err := c.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b")
	if err != nil || !res.Compliant {
		t.Fatalf("after a cancelled request: %v %+v", err, res)
	}
	if st := c.Health(context.Background()); st.Restarts != 0 {
		t.Fatalf("a cancelled request must not cost a restart: %+v", st)
	}
}

func TestProtocolErrorsAreUnavailable(t *testing.T) {
	c := fake(t, "garbage", Options{})
	if _, err := c.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("garbage answer: %v", err)
	}
	n := fake(t, "noready", Options{})
	_, err := n.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b")
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("no ready line: %v", err)
	}
	// The failed start is remembered for a moment: /health says why.
	if st := n.Health(context.Background()); st.State != StateUnavailable || st.Detail == "" {
		t.Fatalf("health after a failed start: %+v", st)
	}
}

func TestClosedClient(t *testing.T) {
	c := fake(t, "ok", Options{})
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	if _, err := c.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("after Close: %v", err)
	}
	if st := c.Health(context.Background()); st.State != StateUnavailable {
		t.Fatalf("health after Close: %+v", st)
	}
}

// TestRestartingWorkerIsReplaced: a worker that announces its exit after a
// timeout answer is dropped at once; that request is a timeout, the next
// one gets a fresh worker.
func TestRestartingWorkerIsReplaced(t *testing.T) {
	c := fake(t, "restart", Options{})
	_, err := c.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b")
	var de *DocumentError
	if !errors.As(err, &de) || de.Kind != KindTimeout {
		t.Fatalf("want a timeout DocumentError, got %v", err)
	}
	if st := c.Health(context.Background()); st.Running != 0 || st.Restarts != 1 {
		t.Fatalf("after the restarting answer: %+v", st)
	}
	if _, err := c.Validate(context.Background(), []byte("%PDF-1.7\n"), "3b"); !errors.As(err, &de) {
		t.Fatalf("next request: want a fresh worker's answer, got %v", err)
	}
}

// TestWatchReportsAWedgedWorker: the watcher's ping finds a worker that no
// longer answers, replaces it and reports the change.
func TestWatchReportsAWedgedWorker(t *testing.T) {
	c := fake(t, "hang", Options{})
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan Status, 4)
	go c.Watch(ctx, 10*time.Millisecond, func(st Status) { got <- st })
	select {
	case st := <-got:
		if st.State != StateUnavailable || !strings.Contains(st.Detail, "health check") {
			t.Fatalf("watch reported %+v", st)
		}
	case <-time.After(60 * time.Second):
		// The report comes one ping timeout (5 s) after the worker's warm-up
		// answer; on a loaded 2-core CI machine the fake worker (a shell
		// script forking sed per request) was once not reported within 20 s.
		t.Fatalf("the wedged worker was not reported within 60 s; health now %+v", c.status(nil))
	}
	if st := c.Health(context.Background()); st.Restarts != 1 || st.Running != 0 {
		t.Fatalf("the wedged worker was not replaced: %+v", st)
	}
}

// TestSequentialCallsKeepOneWorker: with room for two workers, calls one
// after the other keep using the running one (a fresh JVM is costly to
// warm); a second starts only when calls overlap.
func TestSequentialCallsKeepOneWorker(t *testing.T) {
	c := fake(t, "slow", Options{Workers: 2})
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if _, err := c.Validate(ctx, []byte("%PDF-1.7\n"), "3b"); err != nil {
			t.Fatal(err)
		}
		if st := c.Health(ctx); st.Running != 1 {
			t.Fatalf("sequential calls: %d workers running, want 1", st.Running)
		}
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if _, err := c.Validate(ctx, []byte("%PDF-1.7\n"), "3b"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if st := c.Health(ctx); st.Running != 2 || st.Restarts != 0 {
		t.Fatalf("overlapping calls: %+v, want 2 running", st)
	}
}

// TestHealthPingsARunningWorker: with a free slot that has no worker and
// one that has, the health check pings the running one (a hung worker is
// found and replaced) instead of reporting on the empty slot.
func TestHealthPingsARunningWorker(t *testing.T) {
	c := fake(t, "hang", Options{Workers: 2})
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 { // whichever slot comes first
		if st := c.Health(ctx); st.State != StateUnavailable || !strings.Contains(st.Detail, "health check") {
			t.Fatalf("the hung worker was not pinged: %+v", st)
		}
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
	}
}
