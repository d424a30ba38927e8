package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/tools/loadmix/mix"
)

// pgCluster is a throw-away PostgreSQL cluster of scripts/pgtest.sh that a
// test may stop and start.
type pgCluster struct {
	Dir, URL, Port, bindir string
}

// startCluster starts the test's OWN cluster (never the suite-wide one) and
// removes it when the test ends.
func startCluster(t *testing.T) *pgCluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "einvoice-reliability-pg-")
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join(repoRoot, "scripts", "pgtest.sh"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(script, "start", dir).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		_ = os.RemoveAll(dir)
		t.Fatalf("pgtest.sh start: %v\n%s", err, stderr)
	}
	t.Cleanup(func() {
		if out, err := exec.Command(script, "stop", dir).CombinedOutput(); err != nil {
			t.Errorf("pgtest.sh stop: %v\n%s", err, out)
		}
	})
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	port, err := os.ReadFile(filepath.Join(dir, "port"))
	if err != nil {
		t.Fatal(err)
	}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		t.Fatal("pg_ctl not found under /usr/lib/postgresql/*/bin")
	}
	slices.Sort(bins)
	return &pgCluster{Dir: dir, URL: lines[len(lines)-1], Port: strings.TrimSpace(string(port)), bindir: filepath.Dir(bins[len(bins)-1])}
}

// pgCtl runs pg_ctl as the cluster's owner (postgres when we are root).
func (c *pgCluster) pgCtl(args ...string) error {
	name, all := filepath.Join(c.bindir, "pg_ctl"), append([]string{"-D", filepath.Join(c.Dir, "data")}, args...)
	if os.Geteuid() == 0 {
		name, all = "runuser", append([]string{"-u", "postgres", "--", name}, all...)
	}
	if out, err := exec.Command(name, all...).CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// Stop stops the cluster (fast: open connections are terminated).
func (c *pgCluster) Stop() error { return c.pgCtl("-m", "fast", "-w", "stop") }

// Start starts it again on the same port, as pgtest.sh did.
func (c *pgCluster) Start() error {
	return c.pgCtl("-l", filepath.Join(c.Dir, "server.log"), "-w", "-t", "60", "-o",
		fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %s -c unix_socket_directories='%s' -c fsync=off", c.Port, c.Dir), "start")
}

// TestPostgresOutageUnderLoad stops PostgreSQL under load and starts it
// again: protected operations answer 503 (never 401) while it is down, the
// unprotected validate/ubl keeps answering 200, /health says the store is
// unavailable, and the same server process recovers on its own; the usage
// recorded equals the protected calls answered 200.
func TestPostgresOutageUnderLoad(t *testing.T) {
	t.Parallel()
	pg := startCluster(t)
	env := []string{"DATABASE_URL=" + pg.URL}
	key := createKey(t, env)
	srv := startServer(t, env, "--data-dir", t.TempDir())
	c := mix.NewClient(30*time.Second, 0)
	protected, open, fire := storeLoad(t, c, srv.Base, key)
	stop := load(25*time.Millisecond, fire)
	time.Sleep(3 * time.Second)

	downAt := time.Now()
	if err := pg.Stop(); err != nil {
		stop()
		t.Fatal(err)
	}
	stoppedAt := time.Now()
	time.Sleep(4 * time.Second)
	health := call(context.Background(), c, http.MethodGet, srv.Base+"/health", "", "", nil)
	upAt := time.Now()
	if err := pg.Start(); err != nil {
		stop()
		t.Fatal(err)
	}
	startedAt := time.Now()
	// Run until protected calls have been answered 200 for 3 s after the restart.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		time.Sleep(time.Second)
		r := call(context.Background(), c, http.MethodGet, srv.Base+"/v1/usage", key, "", nil)
		if r.Status == http.StatusOK && time.Since(startedAt) > 3*time.Second {
			break
		}
	}
	time.Sleep(3 * time.Second)
	recs := stop()
	t.Logf("pg_ctl stop took %s, start %s; statuses %v", stoppedAt.Sub(downAt).Round(time.Millisecond),
		startedAt.Sub(upAt).Round(time.Millisecond), statuses(recs))

	var firstOK, last503 time.Time
	var down503, downTotal, ok200 int
	for _, r := range recs {
		if r.Op == open.Name {
			if r.Resp.Status != http.StatusOK {
				t.Errorf("unprotected %s sent at %s answered %d %v (the store must not matter): %.200s",
					r.Op, r.At.Sub(downAt).Round(time.Millisecond), r.Resp.Status, r.Resp.Err, r.Resp.Body)
			}
			continue
		}
		switch r.Resp.Status {
		case http.StatusOK:
			ok200++
			if r.At.After(upAt) && (firstOK.IsZero() || r.Resp.At.Before(firstOK)) {
				firstOK = r.Resp.At
			}
		case http.StatusServiceUnavailable:
			if !strings.Contains(r.Resp.Body, "unavailable") || !strings.Contains(r.Resp.Body, "request_id") {
				t.Errorf("503 body does not say the store is unavailable or lacks request_id: %.300s", r.Resp.Body)
			}
			if r.Resp.At.After(last503) {
				last503 = r.Resp.At
			}
		default:
			t.Errorf("protected %s sent at %+.3fs (PostgreSQL down at 0) answered %d %v: %.300s",
				r.Op, r.At.Sub(downAt).Seconds(), r.Resp.Status, r.Resp.Err, r.Resp.Body)
		}
		// Sent once the cluster was fully down and before it was started again.
		if r.At.After(stoppedAt) && r.Resp.At.Before(upAt) {
			downTotal++
			if r.Resp.Status == http.StatusServiceUnavailable {
				down503++
			}
		}
	}
	if downTotal < 20 || down503 != downTotal {
		t.Errorf("while PostgreSQL was down: %d of %d protected answers were 503 (want all, at least 20)", down503, downTotal)
	}
	if firstOK.IsZero() {
		t.Fatalf("no protected 200 after PostgreSQL was restarted (the server did not recover)\n%s", srv.log)
	}
	for _, r := range recs {
		if r.Op == protected.Name && r.At.After(firstOK.Add(time.Second)) && r.Resp.Status != http.StatusOK {
			t.Errorf("after recovery, %s sent at %+.3fs answered %d", r.Op, r.At.Sub(downAt).Seconds(), r.Resp.Status)
		}
	}
	var h struct {
		Components map[string]struct{ Status, Detail string }
	}
	if err := json.Unmarshal([]byte(health.Body), &h); err != nil || h.Components["store"].Status == "ok" {
		t.Errorf("/health while PostgreSQL was down: %d %s (want the store not ok)", health.Status, health.Body)
	}
	if srv.cmd.ProcessState != nil {
		t.Fatalf("the server exited: %v", srv.cmd.ProcessState)
	}
	// Every 200 was metered once; no 503 was.
	usage := call(context.Background(), c, http.MethodGet, srv.Base+"/v1/usage", key, "", nil)
	if n := usageCount(t, usage, "generate_ubl"); n != int64(ok200) {
		t.Errorf("usage generate_ubl = %d, want the %d protected calls answered 200", n, ok200)
	}
	t.Logf("PostgreSQL outage: %d/%d protected answers 503 while down; /health %d %s; first 200 %s after pg_ctl start returned (%s after it was called); last 503 %s after",
		down503, downTotal, health.Status, h.Components["store"].Status, firstOK.Sub(startedAt).Round(time.Millisecond),
		firstOK.Sub(upAt).Round(time.Millisecond), last503.Sub(startedAt).Round(time.Millisecond))
}

// usageCount sums the /v1/usage rows of one operation.
func usageCount(t *testing.T, a answer, op string) int64 {
	t.Helper()
	if a.Status != http.StatusOK {
		t.Fatalf("/v1/usage: %d %v %s", a.Status, a.Err, a.Body)
	}
	var u struct {
		Usage []struct {
			Operation string
			Count     int64
		}
	}
	if err := json.Unmarshal([]byte(a.Body), &u); err != nil {
		t.Fatalf("/v1/usage: %v: %s", err, a.Body)
	}
	var n int64
	for _, r := range u.Usage {
		if r.Operation == op {
			n += r.Count
		}
	}
	return n
}
