package reliability

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/tools/loadmix/mix"
)

// nginxConf is the balancer's configuration. Connections to the upstreams
// are not kept alive, so each request opens its own: an instance that
// stopped accepting refuses the connection before anything is sent and
// nginx moves the request to the other one. non_idempotent lets nginx also
// retry a POST whose connection failed after it was written (a connection
// still in the stopping instance's accept queue when the listener closed):
// an instance that stops gracefully answers every request it has read, so
// a retried POST was never processed; the usage counts prove it.
const nginxConf = `{{user}}
daemon off;
worker_processes 1;
pid {{dir}}/nginx.pid;
error_log {{dir}}/error.log error;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path {{dir}}/body;
  proxy_temp_path {{dir}}/proxy;
  fastcgi_temp_path {{dir}}/fastcgi;
  uwsgi_temp_path {{dir}}/uwsgi;
  scgi_temp_path {{dir}}/scgi;
  client_max_body_size 25m;
  client_body_buffer_size 1m;
  upstream einvoice {
    server {{a}} max_fails=1 fail_timeout=30s;
    server {{b}} max_fails=1 fail_timeout=30s;
  }
  server {
    listen {{listen}};
    location / {
      proxy_pass http://einvoice;
      proxy_next_upstream error timeout non_idempotent;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
    }
  }
}
`

// startNginx runs nginx in the foreground on a free loopback port in front
// of upstreams and stops it when the test ends.
func startNginx(t *testing.T, upstreams ...string) string {
	t.Helper()
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if nginx = "/usr/sbin/nginx"; !fileExists(nginx) {
			t.Fatal("nginx not found: scripts/deps.sh installs Debian's nginx (EINVOICE_DEPS_TEST=1)")
		}
	}
	dir := t.TempDir()
	listen := freeAddr(t)
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;" // the workers write the temp paths below dir
	}
	conf := strings.NewReplacer("{{user}}", user, "{{dir}}", dir, "{{a}}", upstreams[0], "{{b}}", upstreams[1],
		"{{listen}}", listen).Replace(nginxConf)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", path, "-e", filepath.Join(dir, "error.log"))
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = writerFunc(out.add), writerFunc(out.add)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start nginx: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if b, err := os.ReadFile(filepath.Join(dir, "error.log")); err == nil && len(b) > 0 {
			t.Logf("nginx error.log:\n%s", b)
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", listen, time.Second)
		if err == nil {
			conn.Close()
			return "http://" + listen
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx does not listen on %s: %v\n%s", listen, err, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type writerFunc func(string)

func (f writerFunc) Write(p []byte) (int, error) {
	f(string(p))
	return len(p), nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// freeAddr returns a loopback address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// served returns how many generate_ubl requests an instance answered 200
// (its own /metrics).
func served(t *testing.T, c *http.Client, base string) int {
	t.Helper()
	a := call(context.Background(), c, http.MethodGet, base+"/metrics", "", "", nil)
	if a.Status != http.StatusOK {
		t.Fatalf("%s/metrics: %d %v", base, a.Status, a.Err)
	}
	sc := bufio.NewScanner(strings.NewReader(a.Body))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "einvoice_http_requests_total{") && strings.Contains(l, `operation="generate_ubl"`) && strings.Contains(l, `status="200"`) {
			f := strings.Fields(l)
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				t.Fatal(err)
			}
			return int(v)
		}
	}
	return 0
}

// TestScaleOut runs two instances sharing one PostgreSQL behind a loopback
// nginx: a key issued against the shared database is accepted by both and
// a revocation refused by both; N concurrent calls through the balancer are
// metered exactly N times; stopping one instance with SIGTERM under load
// loses no request and counts none twice.
func TestScaleOut(t *testing.T) {
	t.Parallel()
	pg := startCluster(t)
	env := []string{"DATABASE_URL=" + pg.URL}
	a := startServer(t, env, "--data-dir", t.TempDir())
	b := startServer(t, env, "--data-dir", t.TempDir())
	lb := startNginx(t, a.Addr, b.Addr)
	c := mix.NewClient(60*time.Second, 0)
	ctx := context.Background()

	// One key, accepted by both instances; revoked, refused by both.
	key := createKey(t, env)
	for _, s := range []*server{a, b} {
		if r := call(ctx, c, http.MethodGet, s.Base+"/v1/usage", key, "", nil); r.Status != http.StatusOK {
			t.Fatalf("%s refuses the key: %d %s", s.Base, r.Status, r.Body)
		}
	}
	revoked := createKey(t, env)
	out, err := exec.Command(bin, "keys", "list", "--database-url", pg.URL).Output()
	if err != nil {
		t.Fatalf("keys list: %v", err)
	}
	var revokedID string
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 2 && strings.HasPrefix(revoked, f[2]) {
			revokedID = f[0]
		}
	}
	if out, err := exec.Command(bin, "keys", "revoke", revokedID, "--database-url", pg.URL).CombinedOutput(); err != nil {
		t.Fatalf("keys revoke %q: %v\n%s", revokedID, err, out)
	}
	for _, s := range []*server{a, b} {
		if r := call(ctx, c, http.MethodGet, s.Base+"/v1/usage", revoked, "", nil); r.Status != http.StatusUnauthorized {
			t.Errorf("%s accepts a revoked key: %d %s", s.Base, r.Status, r.Body)
		}
	}

	// N concurrent calls through the balancer: usage sums to N.
	gen := workload(t, "generate/ubl")[0]
	const n, workers = 400, 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := map[string]int{}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				r := opRequest(c, lb, key, gen)(ctx, i)
				if r.Resp.Status != http.StatusOK {
					mu.Lock()
					failed[fmt.Sprintf("%d %v %.100s", r.Resp.Status, r.Resp.Err, r.Resp.Body)]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Fatalf("through the balancer, %d calls: failures %v", n, failed)
	}
	// An instance counts a request in /metrics after its handler returns,
	// which can be just after the client has read the whole response: the
	// last of the n counts may land a moment after wg.Wait.
	sa, sb := served(t, c, a.Base), served(t, c, b.Base)
	for deadline := time.Now().Add(2 * time.Second); sa+sb < n && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		sa, sb = served(t, c, a.Base), served(t, c, b.Base)
	}
	if got := usageCount(t, call(ctx, c, http.MethodGet, lb+"/v1/usage", key, "", nil), "generate_ubl"); got != n || sa+sb != n || sa == 0 || sb == 0 {
		t.Errorf("%d calls through the balancer: usage %d, served by A %d + B %d", n, got, sa, sb)
	}
	t.Logf("%d concurrent calls (%d workers) through nginx: usage %d, A served %d, B served %d", n, workers, n, sa, sb)

	// Stop A gracefully under load: no failed request, no double count.
	key2 := createKey(t, env)
	ops := workload(t, "generate/ubl", "validate/ubl")
	stop := load(20*time.Millisecond, opRequest(c, lb, key2, ops...))
	time.Sleep(3 * time.Second)
	termAt := time.Now()
	if err := a.stop(syscall.SIGTERM, 30*time.Second); err != nil {
		t.Errorf("instance A did not stop gracefully: %v\n%s", err, a.log)
	}
	stoppedIn := time.Since(termAt)
	time.Sleep(4 * time.Second)
	recs := stop()
	var gens, bad int
	for _, r := range recs {
		if r.Op == gen.Name {
			gens++
		}
		if r.Resp.Err != nil || r.Resp.Status != http.StatusOK {
			bad++
			if bad <= 10 {
				t.Errorf("%s sent %+.3fs from SIGTERM: %d %v %.200s", r.Op, r.At.Sub(termAt).Seconds(), r.Resp.Status, r.Resp.Err, r.Resp.Body)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d requests failed while A stopped", bad, len(recs))
	}
	if got := usageCount(t, call(ctx, c, http.MethodGet, b.Base+"/v1/usage", key2, "", nil), "generate_ubl"); got != int64(gens) {
		t.Errorf("usage after A stopped: %d, want the %d generate/ubl calls sent (none lost, none counted twice)", got, gens)
	}
	t.Logf("SIGTERM to A under %d req/s through nginx: A exited in %s; %d requests (%d generate/ubl), %d failed; statuses %v",
		50, stoppedIn.Round(time.Millisecond), len(recs), gens, bad, statuses(recs))
}
