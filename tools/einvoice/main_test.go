package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// cli runs the command line in-process and returns exit code, stdout, stderr.
func cli(t *testing.T, environ map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, func(k string) string { return environ[k] })
	return code, out.String(), errb.String()
}

var keyRE = regexp.MustCompile(`^ek_live_[0-9A-Za-z]{32}$`)

func TestVersionAndUsage(t *testing.T) {
	if code, out, _ := cli(t, nil, "--version"); code != 0 || out != "einvoice dev\n" {
		t.Fatalf("--version: %d %q", code, out)
	}
	for _, args := range [][]string{{}, {"frobnicate"}, {"serve", "--bogus"}, {"serve", "extra"}, {"serve", "--addr", "nohostport"},
		{"keys"}, {"keys", "create"}, {"keys", "revoke"}, {"keys", "nuke"}, {"validate"}, {"validate", "--format", "yaml", "x.xml"},
		{"validate", "--syntax", "edi", "x.xml"}, {"validate", "/no/such/file.xml"}} {
		code, out, errs := cli(t, nil, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "einvoice: ") || out != "" {
			t.Errorf("%v: want one stderr line, got stdout %q stderr %q", args, out, errs)
		}
	}
	// A bad environment value is a usage error too.
	if code, _, errs := cli(t, map[string]string{"EINVOICE_MAX_BODY": "lots"}, "serve"); code != 2 || !strings.Contains(errs, "EINVOICE_MAX_BODY") {
		t.Errorf("bad env: %d %q", code, errs)
	}
}

func TestServeHelpListsConfig(t *testing.T) {
	code, out, _ := cli(t, map[string]string{"EINVOICE_GATEWAY_SECRET": "topsecret", "DATABASE_URL": "postgres://u:pw@h/db"}, "serve", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, env := range []string{"EINVOICE_ADDR", "EINVOICE_DATA_DIR", "DATABASE_URL", "EINVOICE_GATEWAY_SECRET", "EINVOICE_MAX_BODY",
		"EINVOICE_RATE_LIMIT", "EINVOICE_RATE_BURST", "EINVOICE_REQUEST_TIMEOUT", "EINVOICE_SHUTDOWN_GRACE", "127.0.0.1:8080", "20971520", "30s"} {
		if !strings.Contains(out, env) {
			t.Errorf("serve --help lacks %s", env)
		}
	}
	if strings.Contains(out, "topsecret") || strings.Contains(out, ":pw@") {
		t.Error("serve --help prints a secret")
	}
}

func TestParseServeEnvAndFlags(t *testing.T) {
	environ := map[string]string{"EINVOICE_ADDR": "0.0.0.0:9000", "EINVOICE_MAX_BODY": "5MiB", "EINVOICE_RATE_LIMIT": "2.5",
		"EINVOICE_REQUEST_TIMEOUT": "7s", "EINVOICE_GATEWAY_SECRET": "gw"}
	cfg, err := parseServe([]string{"--data-dir", "/tmp/x", "--rate-burst", "4"}, io.Discard, func(k string) string { return environ[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.addr != "0.0.0.0:9000" || cfg.maxBody != 5<<20 || cfg.rateLimit != 2.5 || cfg.rateBurst != 4 ||
		cfg.requestTimeout != 7*time.Second || cfg.gatewaySecret != "gw" || cfg.dataDir != "/tmp/x" {
		t.Fatalf("%+v", cfg)
	}
	cfg, err = parseServe([]string{"--gateway-secret", "flag", "--addr", "127.0.0.1:1"}, io.Discard, func(k string) string { return environ[k] })
	if err != nil || cfg.gatewaySecret != "flag" || cfg.addr != "127.0.0.1:1" {
		t.Fatalf("flags must win over env: %+v %v", cfg, err)
	}
	if cfg.xsdSpin != engineval.DefaultXSDSpin {
		t.Fatalf("xsd spin %v by default, want %v", cfg.xsdSpin, engineval.DefaultXSDSpin)
	}
	environ["EINVOICE_XSD_SPIN"] = "0s"
	if cfg, err = parseServe(nil, io.Discard, func(k string) string { return environ[k] }); err != nil || cfg.xsdSpin != 0 {
		t.Fatalf("EINVOICE_XSD_SPIN=0s: %+v %v", cfg, err)
	}
	if cfg, err = parseServe([]string{"--xsd-spin", "250us"}, io.Discard, func(k string) string { return environ[k] }); err != nil || cfg.xsdSpin != 250*time.Microsecond {
		t.Fatalf("--xsd-spin 250us: %+v %v", cfg, err)
	}
	if _, err = parseServe([]string{"--xsd-spin", "-1ms"}, io.Discard, func(k string) string { return environ[k] }); err == nil {
		t.Fatal("--xsd-spin -1ms accepted")
	}
}

func TestKeysCLI(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := cli(t, nil, "keys", "create", "--name", "acme", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("create: %d %s", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	key := lines[len(lines)-1]
	if !keyRE.MatchString(key) {
		t.Fatalf("last line %q is not a key", key)
	}
	id := strings.TrimPrefix(lines[0], "id: ")
	// EINVOICE_DATA_DIR is honoured like --data-dir.
	code, out, _ = cli(t, map[string]string{"EINVOICE_DATA_DIR": dir}, "keys", "list")
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "acme") || strings.Contains(out, key) {
		t.Fatalf("list: %d %q", code, out)
	}
	if code, out, _ = cli(t, nil, "keys", "revoke", id, "--data-dir", dir); code != 0 || !strings.Contains(out, id) {
		t.Fatalf("revoke: %d %q", code, out)
	}
	code, out, _ = cli(t, nil, "keys", "list", "--data-dir", dir)
	if code != 0 || strings.Contains(out, "\t-\n") || !regexp.MustCompile(id+`.*\d{4}-\d\d-\d\dT.*\d{4}-\d\d-\d\dT`).MatchString(out) {
		t.Fatalf("list after revoke should show a revocation time: %q", out)
	}
	if code, _, errs := cli(t, nil, "keys", "revoke", "key_nosuchkey000", "--data-dir", dir); code != 1 || !strings.Contains(errs, "no key") {
		t.Fatalf("revoke unknown: %d %q", code, errs)
	}
	if code, _, errs := cli(t, map[string]string{"DATABASE_URL": "mysql://x"}, "keys", "list"); code != 1 || errs == "" {
		t.Fatalf("bad DATABASE_URL must be honoured and fail: %d %q", code, errs)
	}
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeEndToEnd issues a key with the CLI, serves the API on a free port
// with the real SQLite store, exercises auth and metering over HTTP, and shuts
// down gracefully on cancellation.
func TestServeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	_, out, _ := cli(t, nil, "keys", "create", "--name", "e2e", "--data-dir", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	key, id := lines[len(lines)-1], strings.TrimPrefix(lines[0], "id: ")

	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir, "--shutdown-grace", "5s", "--shared", sharedDir()},
			io.Discard, logs, func(k string) string { return map[string]string{"EINVOICE_GATEWAY_SECRET": "gw"}[k] })
	}()
	addr := waitListening(t, logs)
	base := "http://" + addr

	get := func(path string, hdr map[string]string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if resp, body := get("/health", nil); resp.StatusCode != 200 || !strings.Contains(body, `"status":"ok"`) {
		t.Fatalf("health: %d %s", resp.StatusCode, body)
	}
	if resp, _ := get("/v1/usage", map[string]string{"x-api-key": key}); resp.StatusCode != 403 {
		t.Fatalf("without gateway secret: %d", resp.StatusCode)
	}
	auth := map[string]string{"x-api-key": key, "x-gateway-proxy-secret": "gw"}
	resp, body := get("/v1/usage", auth)
	if resp.StatusCode != 200 || !strings.Contains(body, `"operation":"usage"`) || !strings.Contains(body, id) {
		t.Fatalf("usage: %d %s", resp.StatusCode, body)
	}
	if resp, _ := get("/v1/usage", map[string]string{"x-api-key": "ek_live_00000000000000000000000000000000", "x-gateway-proxy-secret": "gw"}); resp.StatusCode != 401 {
		t.Fatalf("unknown key: %d", resp.StatusCode)
	}
	if code, _, _ := cli(t, nil, "keys", "revoke", id, "--data-dir", dir); code != 0 {
		t.Fatal("revoke failed")
	}
	if resp, body := get("/v1/usage", auth); resp.StatusCode != 401 || !strings.Contains(body, "revoked") {
		t.Fatalf("revoked key: %d %s", resp.StatusCode, body)
	}
	// Free validation through the real engine.
	example, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	vresp, err := http.Post(base+"/v1/validate/ubl?profile=en16931", "application/xml", bytes.NewReader(example))
	if err != nil {
		t.Fatal(err)
	}
	vbody, _ := io.ReadAll(vresp.Body)
	vresp.Body.Close()
	if vresp.StatusCode != 200 || !strings.Contains(string(vbody), `"valid":true`) || !strings.Contains(string(vbody), `"rulesets":[{"name":"XSD"`) {
		t.Fatalf("validate: %d %s", vresp.StatusCode, vbody)
	}
	if resp, body := get("/v1/rulesets", nil); resp.StatusCode != 200 || !strings.Contains(body, `"sha256":"`) {
		t.Fatalf("rulesets: %d %.200s", resp.StatusCode, body)
	}
	if resp, body := get("/health", nil); !strings.Contains(body, `"rulesets":[{`) {
		t.Fatalf("health lists no rule sets: %d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exit %d: %s", code, logs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not shut down")
	}
	if !strings.Contains(logs.String(), `"msg":"stopped"`) || !strings.Contains(logs.String(), `"request_id"`) {
		t.Errorf("logs: %s", logs.String())
	}
}

func waitListening(t *testing.T, logs *syncBuffer) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		sc := bufio.NewScanner(strings.NewReader(logs.String()))
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				return line.Addr
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("server did not start: %s", logs.String())
	return ""
}

// sharedDir locates the official data for CLI tests.
func sharedDir() string {
	return testshared.Path()
}

func TestValidateCLI(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.xml")
	bad := filepath.Join(dir, "sub", "bad.xml")
	broken := filepath.Join(dir, "broken.xml")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, good, src)
	mustWrite(t, bad, bytes.Replace(src, []byte("<cbc:IssueDate>"), []byte("<cbc:IssueDate>x"), 1))
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}

	code, out, errs := cli(t, env, "validate", "--profile", "en16931", good, "--format", "json")
	if code != 0 {
		t.Fatalf("valid file: exit %d %s %s", code, out, errs)
	}
	var line fileResult
	if err := json.Unmarshal([]byte(out), &line); err != nil || line.File != good || line.Report == nil || !line.Report.Valid {
		t.Fatalf("json line %q: %v", out, err)
	}
	// A directory is walked; one invalid file makes the exit code 1.
	code, out, _ = cli(t, env, "validate", "--profile", "en16931", "--jobs", "2", dir)
	if code != 1 || !strings.Contains(out, good+": VALID") || !strings.Contains(out, bad+": INVALID") {
		t.Fatalf("dir: exit %d\n%s", code, out)
	}
	// A file that cannot be validated makes it 2.
	mustWrite(t, broken, []byte("<Invoice><oops></Invoice>"))
	code, out, _ = cli(t, env, "validate", "--profile", "en16931", "--syntax", "ubl", dir, "--format", "json")
	if code != 2 || strings.Count(out, "\n") != 3 || !strings.Contains(out, `"type":"xml_syntax"`) {
		t.Fatalf("broken: exit %d\n%s", code, out)
	}
	code, out, _ = cli(t, env, "validate", "--profile", "en16931", "--format", "svrl", good)
	if code != 0 || !strings.Contains(out, "<svrl:schematron-output") {
		t.Fatalf("svrl: %d %s", code, out)
	}
	// Without the official data the engine is unavailable: exit 2, one line.
	code, _, errs = cli(t, map[string]string{"EINVOICE_SHARED": t.TempDir()}, "validate", good)
	if code != 2 || strings.Count(errs, "\n") != 1 {
		t.Fatalf("no engine: %d %q", code, errs)
	}
}

func mustWrite(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
