package oracle

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

// requireJava skips when Java/Maven are missing unless EINVOICE_REQUIRE_ORACLE=1.
func requireJava(t *testing.T) {
	t.Helper()
	if err := Available(Options{}); err != nil {
		if os.Getenv("EINVOICE_REQUIRE_ORACLE") == "1" {
			t.Fatalf("EINVOICE_REQUIRE_ORACLE=1 but %v", err)
		}
		t.Skipf("oracle unavailable: %v", err)
	}
}

func startTiny(t *testing.T) *Oracle {
	t.Helper()
	o, _ := startSch(t, "testdata/tiny.sch")
	return o
}

// syncLog collects the process's stderr (written by exec's copying
// goroutine) for assertions.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor reports whether the log contains s within 5 seconds (the copying
// goroutine may lag behind the ready line).
func (l *syncLog) waitFor(s string) bool {
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if strings.Contains(l.String(), s) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// startSch starts an oracle on one test schema with a fresh cache; it
// returns the process's diagnostics too.
func startSch(t *testing.T, sch string) (*Oracle, *syncLog) {
	t.Helper()
	requireJava(t)
	stderr := &syncLog{}
	o, err := Start(context.Background(), Options{Sch: []string{sch}, CacheDir: t.TempDir(), Stderr: stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := o.Close(); err != nil {
			t.Error(err)
		}
	})
	return o, stderr
}

const tinyDoc = `<order xmlns="urn:example:order">
  <item sku="A" qty="2"/>
  <item sku="B" qty="0" note="x" currency="GBP"/>
  <item sku="C" qty="1" currency="EUR"/>
</order>`

func TestValidateFindingsShape(t *testing.T) {
	o := startTiny(t)
	if got := o.Stages(); len(got) != 1 || got[0] != "tiny.sch" {
		t.Fatalf("stages %v", got)
	}
	r, err := o.Validate(context.Background(), "doc 1.xml", []byte(tinyDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := []Finding{
		{ID: "T-1", Flag: "fatal", Kind: "assert", Loc: "/order[1]/item[2]", Text: "[T-1] Item B needs a positive quantity.", Stage: "tiny.sch"},
		{ID: "T-2", Flag: "warning", Kind: "report", Loc: "/order[1]/item[2]", Text: "[T-2] Note on item.", Stage: "tiny.sch"},
		{ID: "T-3", Flag: "", Kind: "assert", Loc: "/order[1]", Text: "[T-3] At most two items.", Stage: "tiny.sch"},
		{ID: "T-4", Flag: "fatal", Kind: "assert", Loc: "/order[1]/item[2]/@currency", Text: "[T-4] Currency.", Stage: "tiny.sch"},
	}
	if r.File != "doc 1.xml" || r.Error != "" {
		t.Fatalf("file %q error %q", r.File, r.Error)
	}
	if len(r.Fired) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(r.Fired), len(want), r.Fired)
	}
	for i := range want {
		if r.Fired[i] != want[i] {
			t.Errorf("#%d\n got  %+v\n want %+v", i, r.Fired[i], want[i])
		}
	}
}

func TestValidateStageErrorAndParseError(t *testing.T) {
	o := startTiny(t)
	ctx := context.Background()
	r, err := o.Validate(ctx, "dyn", []byte(`<order xmlns="urn:example:order"><item sku="A" qty="many"/></order>`))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Fired) != 1 || r.Fired[0].Kind != "stage-error" || r.Fired[0].ID != "FORG0001" || r.Fired[0].Stage != "tiny.sch" {
		t.Fatalf("want one FORG0001 stage-error, got %+v", r.Fired)
	}
	r, err = o.Validate(ctx, "broken", []byte(`<order><item></order>`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == "" || len(r.Fired) != 0 {
		t.Fatalf("want a parse error, got %+v", r)
	}
	// The process is still in sync after both.
	if r, err = o.Validate(ctx, "ok", []byte(`<order xmlns="urn:example:order"/>`)); err != nil || len(r.Fired) != 0 || r.Error != "" {
		t.Fatalf("after errors: %+v, %v", r, err)
	}
}

func TestValidateCancelled(t *testing.T) {
	o := startTiny(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := o.Validate(ctx, "x", []byte(tinyDoc)); !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if !o.Usable() {
		t.Fatal("a request cancelled before it was sent must not break the process")
	}
	// A deadline that ends while the reference works kills the process.
	big := "<order xmlns=\"urn:example:order\">" + strings.Repeat(`<item sku="A" qty="1"/>`, 200000) + "</order>"
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := o.Validate(ctx, "big", []byte(big)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want DeadlineExceeded, got %v", err)
	}
	if o.Usable() {
		t.Fatal("a request abandoned mid-way must mark the process unusable")
	}
	if _, err := o.Validate(context.Background(), "after", []byte(tinyDoc)); err == nil {
		t.Fatal("a broken oracle must refuse requests")
	}
}

func TestJarStale(t *testing.T) {
	dir := t.TempDir()
	write := func(p string, mod time.Time) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	jar := filepath.Join(dir, "target", "oracle.jar")
	now := time.Now()
	write("pom.xml", now.Add(-time.Hour))
	write("src/main/java/A.java", now.Add(-time.Hour))
	if stale, err := jarStale(dir, jar); err != nil || !stale {
		t.Fatalf("missing jar: stale=%v err=%v", stale, err)
	}
	write("target/oracle.jar", now.Add(-time.Minute))
	if stale, err := jarStale(dir, jar); err != nil || stale {
		t.Fatalf("fresh jar: stale=%v err=%v", stale, err)
	}
	write("src/main/java/B.java", now)
	if stale, err := jarStale(dir, jar); err != nil || !stale {
		t.Fatalf("source newer than jar: stale=%v err=%v", stale, err)
	}
}

func TestLockBuild(t *testing.T) {
	path := filepath.Join(t.TempDir(), "target", ".build-lock")
	unlock, err := lockBuild(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	if _, err := lockBuild(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second lock while held: %v", err)
	}
	unlock()
	unlock2, err := lockBuild(context.Background(), path)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
	old := time.Now().Add(-time.Hour)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	unlock3, err := lockBuild(context.Background(), path)
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	unlock3()
}

// TestXSLT1Schema: a schema without queryBinding (XSLT 1.0, as Order-X) runs
// through SchXslt's XSLT 1.0 steps (the 2.0 pipeline refuses it); rules
// without id or flag report null ones.
func TestXSLT1Schema(t *testing.T) {
	o, stderr := startSch(t, "testdata/tiny1.sch")
	if !stderr.waitFor("XSLT 1.0 pipeline") {
		t.Errorf("not compiled by the XSLT 1.0 steps: %s", stderr.String())
	}
	r, err := o.Validate(context.Background(), "d", []byte(tinyDoc))
	if err != nil {
		t.Fatal(err)
	}
	// Document order within the pattern, as the ISO skeleton reports.
	want := []Finding{
		{Kind: "report", Loc: "/order[1]", Text: "More than two items.", Stage: "tiny1.sch"},
		{Kind: "assert", Loc: "/order[1]/item[2]", Text: "Item B needs a positive quantity.", Stage: "tiny1.sch"},
	}
	if r.Error != "" || len(r.Fired) != len(want) {
		t.Fatalf("got %+v", r)
	}
	for i := range want {
		if r.Fired[i] != want[i] {
			t.Errorf("#%d: got %+v, want %+v", i, r.Fired[i], want[i])
		}
	}
}

// TestParenthesisedUnionContext: a rule context with a parenthesised union
// step (XSLT 3.0; Saxon's XSLT 2.0 compiler refuses it) runs as the union of
// paths, as the reference was run.
func TestParenthesisedUnionContext(t *testing.T) {
	o, stderr := startSch(t, "testdata/union.sch")
	if !stderr.waitFor("1 rule contexts with a parenthesised union step") {
		t.Errorf("rewrite not reported: %s", stderr.String())
	}
	r, err := o.Validate(context.Background(), "d", []byte(tinyDoc))
	if err != nil {
		t.Fatal(err)
	}
	if r.Error != "" || len(r.Fired) != 1 || r.Fired[0].Loc != "/order[1]/item[2]" || r.Fired[0].Text != "Zero quantity on B." {
		t.Fatalf("got %+v", r)
	}
}
