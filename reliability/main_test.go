package reliability

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/tools/loadmix/mix"
)

// bin is the einvoice binary built by TestMain.
var bin string

// repoRoot is the module root (the tests run in reliability/).
const repoRoot = ".."

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "einvoice-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "reliability:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Others (runuser -u postgres) need to reach files below it.
	_ = os.Chmod(dir, 0o755)
	bin = filepath.Join(dir, "einvoice")
	build := exec.Command("go", "build", "-o", bin, "./tools/einvoice")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "reliability: go build ./tools/einvoice: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// lockedBuffer collects a child's log lines.
type lockedBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (b *lockedBuffer) add(l string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, l)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n")
}

// server is one `einvoice serve` child process.
type server struct {
	t    *testing.T
	cmd  *exec.Cmd
	Base string // http://127.0.0.1:port
	Addr string // 127.0.0.1:port
	log  *lockedBuffer
	done chan error // the exit of the process
}

// startServer starts `einvoice serve` on a free loopback port with args
// (e.g. --data-dir or --database-url) and waits for it to listen. The
// process is stopped (SIGTERM, then SIGKILL) when the test ends.
func startServer(t *testing.T, env []string, args ...string) *server {
	t.Helper()
	all := append([]string{"serve", "--addr", "127.0.0.1:0", "--shared", testshared.Dir(t), "--log-level", "info"}, args...)
	cmd := exec.Command(bin, all...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start einvoice serve: %v", err)
	}
	s := &server{t: t, cmd: cmd, log: &lockedBuffer{}, done: make(chan error, 1)}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			l := sc.Text()
			s.log.add(l)
			var rec struct{ Msg, Addr string }
			if json.Unmarshal([]byte(l), &rec) == nil && rec.Msg == "listening" {
				select {
				case listening <- rec.Addr:
				default:
				}
			}
		}
		s.done <- cmd.Wait()
	}()
	t.Cleanup(func() { s.stop(syscall.SIGTERM, 30*time.Second) })
	select {
	case s.Addr = <-listening:
	case err := <-s.done:
		s.done <- err
		t.Fatalf("einvoice serve exited before listening: %v\n%s", err, s.log)
	case <-time.After(120 * time.Second):
		t.Fatalf("einvoice serve did not listen within 120 s\n%s", s.log)
	}
	s.Base = "http://" + s.Addr
	return s
}

// stop signals the server and waits for its exit (SIGKILL after wait); it
// returns the exit error, nil for a clean exit. Safe to call twice.
func (s *server) stop(sig syscall.Signal, wait time.Duration) error {
	if s.cmd.ProcessState != nil {
		return nil
	}
	_ = s.cmd.Process.Signal(sig)
	select {
	case err := <-s.done:
		s.done <- err
		return err
	case <-time.After(wait):
		_ = s.cmd.Process.Kill()
		err := <-s.done
		s.done <- err
		return fmt.Errorf("did not exit within %s after %s: %w", wait, sig, err)
	}
}

// createKey issues a key with the CLI against the given store flags.
func createKey(t *testing.T, env []string, storeArgs ...string) string {
	t.Helper()
	args := append([]string{"keys", "create", "--name", t.Name()}, storeArgs...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("einvoice keys create: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	key := strings.TrimSpace(lines[len(lines)-1])
	if !strings.HasPrefix(key, "ek_live_") {
		t.Fatalf("keys create printed no key: %q", out)
	}
	return key
}

// answer is one response, reduced to what the tests check.
type answer struct {
	Status int
	Body   string
	Err    error
	At     time.Time // when the answer arrived
}

// call sends one request and reads the whole answer.
func call(ctx context.Context, c *http.Client, method, url, key, contentType string, body []byte) answer {
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return answer{Err: err, At: time.Now()}
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	resp, err := c.Do(req)
	if err != nil {
		return answer{Err: err, At: time.Now()}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{Status: resp.StatusCode, Body: string(b), Err: err, At: time.Now()}
}

// workload returns the mix's operations (corpus and random invoices),
// restricted to names when given.
func workload(t *testing.T, names ...string) []mix.Op {
	t.Helper()
	ops, err := mix.Workload(testshared.Dir(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		return ops
	}
	var out []mix.Op
	for _, n := range names {
		for _, o := range ops {
			if o.Name == n {
				out = append(out, o)
			}
		}
	}
	if len(out) != len(names) {
		t.Fatalf("workload: want %v, have %d of them", names, len(out))
	}
	return out
}

// requireRoot skips unless the tests run as root (tmpfs mounts, runuser).
func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root (mounts a tmpfs / runs PostgreSQL as the postgres user); CI runs as root")
	}
}

// sent is one request of a background load and its answer.
type sent struct {
	Op   string
	At   time.Time // when it was sent
	Resp answer
}

// load sends fire(i) every period in its own goroutine (an open loop: a
// stalled server does not slow the sender) until the returned stop is
// called; stop waits for the answers and returns every request.
func load(period time.Duration, fire func(ctx context.Context, i int) sent) (stop func() []sent) {
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var out []sent
	var wg sync.WaitGroup
	tick := time.NewTicker(period)
	quit := make(chan struct{})
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		for i := 0; ; i++ {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := fire(ctx, i)
				mu.Lock()
				out = append(out, s)
				mu.Unlock()
			}()
		}
	}()
	return func() []sent {
		close(quit)
		<-loopDone
		tick.Stop()
		wg.Wait()
		cancel()
		mu.Lock()
		defer mu.Unlock()
		return out
	}
}

// opRequest returns a fire function cycling through ops' bodies.
func opRequest(c *http.Client, base, key string, ops ...mix.Op) func(ctx context.Context, i int) sent {
	return func(ctx context.Context, i int) sent {
		op := ops[i%len(ops)]
		body := op.Bodies[(i/len(ops))%len(op.Bodies)]
		at := time.Now()
		return sent{Op: op.Name, At: at, Resp: call(ctx, c, http.MethodPost, base+op.Path(), key, op.ContentType, body)}
	}
}

// statuses counts the answers per operation and status ("err" for none).
func statuses(recs []sent) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, r := range recs {
		if out[r.Op] == nil {
			out[r.Op] = map[string]int{}
		}
		k := fmt.Sprint(r.Resp.Status)
		if r.Resp.Err != nil {
			k = "err"
		}
		out[r.Op][k]++
	}
	return out
}

// liveWorkload is the whole mix as the server at base answers it
// (mix.Probe: operations answering 501 and bodies answered 4xx left out).
func liveWorkload(t *testing.T, c *http.Client, base, key string) []mix.Op {
	t.Helper()
	live, skipped, err := mix.Probe(context.Background(), c, base, key, workload(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range skipped {
		t.Logf("skipped %s: %s", s.Name, s.Reason)
	}
	return live
}

// storeLoad is the load of the store fault tests: generate/ubl with the key
// (authenticated and metered: it needs the store) alternating with
// validate/ubl without a key (it must not need the store).
func storeLoad(t *testing.T, c *http.Client, base, key string) (protected, open mix.Op, fire func(context.Context, int) sent) {
	t.Helper()
	ops := workload(t, "generate/ubl", "validate/ubl")
	protected, open = ops[0], ops[1]
	return protected, open, func(ctx context.Context, i int) sent {
		if i%2 == 0 {
			return opRequest(c, base, key, protected)(ctx, i/2)
		}
		return opRequest(c, base, "", open)(ctx, i/2)
	}
}
