package verapdf

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// jar returns the worker jar, failing the test when it has not been built.
func jar(t testing.TB) string {
	t.Helper()
	if j := os.Getenv("EINVOICE_VERAPDF_JAR"); j != "" {
		return j
	}
	j, err := filepath.Abs(filepath.Join("..", "..", filepath.FromSlash(DefaultJar)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(j); err != nil {
		t.Fatalf("veraPDF worker jar not found at %s: run `make verapdf`", j)
	}
	return j
}

var sharedClient struct {
	once sync.Once
	c    *Client
}

// realClient is one warm worker shared by the tests that do not break it.
func realClient(t testing.TB) *Client {
	t.Helper()
	j := jar(t)
	sharedClient.once.Do(func() {
		opts := Options{Jar: j, Timeout: 2 * time.Minute, StartTimeout: 2 * time.Minute}
		// EINVOICE_VERAPDF_JVM_ARGS compares JVM settings in the benchmark
		// (e.g. "-Xmx768m -XX:+UseSerialGC" for tiered C2).
		if a := os.Getenv("EINVOICE_VERAPDF_JVM_ARGS"); a != "" {
			opts.JVMArgs = strings.Fields(a)
		}
		sharedClient.c = New(opts)
	})
	return sharedClient.c
}

func corpus(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(testshared.Dir(t), "corpus", "pdf", filepath.FromSlash(name))
}

func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(corpus(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestValidateCorpus(t *testing.T) {
	c := realClient(t)
	ctx := context.Background()

	res, err := c.Validate(ctx, readCorpus(t, "mustang/zugferd_invoice.pdf"), "3b")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Compliant || res.Flavour != "3b" || res.CheckedFlavour != "3b" || len(res.FailedRules) != 0 {
		t.Fatalf("zugferd_invoice.pdf: %+v", res)
	}
	if res.Validator.Name != "veraPDF" || !strings.HasPrefix(res.Validator.Version, "1.") || res.Duration <= 0 {
		t.Fatalf("validator/duration: %+v %v", res.Validator, res.Duration)
	}

	res, err = c.ValidateFile(ctx, corpus(t, "mustang/veraPDFtestsuite6-7-11-t01-fail-a.pdf"), "auto")
	if err != nil {
		t.Fatal(err)
	}
	if res.Compliant || res.Flavour != "1a" || res.CheckedFlavour != "1a" {
		t.Fatalf("fail-a: %+v", res)
	}
	found := false
	for _, r := range res.FailedRules {
		if r.Specification == "ISO 19005-1:2005" && r.Clause == "6.7.11" && r.FailedChecks > 0 && r.Description != "" {
			found = true
		}
	}
	if !found {
		t.Fatalf("fail-a: rule 6.7.11 not reported: %+v", res.FailedRules)
	}

	// A file that declares no PDF/A flavour is checked as 3b under auto.
	res, err = c.Validate(ctx, readCorpus(t, "mustang/MustangGnuaccountingBeispielRE-20170509_505PDF14.pdf"), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Compliant || res.Flavour != "" || res.CheckedFlavour != "3b" || len(res.FailedRules) == 0 {
		t.Fatalf("PDF14 without claim: %+v", res)
	}
}

func TestValidateDocumentErrors(t *testing.T) {
	c := realClient(t)
	ctx := context.Background()
	for name, pdf := range map[string][]byte{
		"not a PDF": []byte("hello, world"),
		"empty":     {},
		"truncated": readCorpus(t, "mustang/zugferd_invoice.pdf")[:2000],
		"corrupted": readCorpus(t, "mustang/corruptedV2PDF.pdf"),
	} {
		_, err := c.Validate(ctx, pdf, "3b")
		var de *DocumentError
		if !errors.As(err, &de) || de.Kind != KindParse || de.Message == "" {
			t.Errorf("%s: want a parse DocumentError, got %v", name, err)
		}
	}
	if _, err := c.Validate(ctx, []byte("%PDF-1.7"), "9z"); !errors.Is(err, ErrUnknownFlavour) {
		t.Errorf("flavour 9z: %v", err)
	}
	// The worker survived all of that.
	if st := c.Health(ctx); st.State != StateOK || st.Running != 1 {
		t.Fatalf("health after bad input: %+v", st)
	}
}

func TestMissingJarIsUnavailable(t *testing.T) {
	c := New(Options{Jar: filepath.Join(t.TempDir(), "nowhere.jar")})
	defer c.Close()
	st := c.Health(context.Background())
	if st.State != StateUnavailable || !strings.Contains(st.Detail, "make verapdf") {
		t.Fatalf("health: %+v", st)
	}
	_, err := c.Validate(context.Background(), []byte("%PDF-1.4\n"), "auto")
	var ue *UnavailableError
	if !errors.Is(err, ErrUnavailable) || !errors.As(err, &ue) || !strings.Contains(err.Error(), "nowhere.jar") {
		t.Fatalf("want UnavailableError naming the jar, got %v", err)
	}
	c2 := New(Options{Jar: jar(t), Java: "no-such-java-binary"})
	if _, err := c2.Validate(context.Background(), []byte("%PDF-1.4\n"), "auto"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("missing java: %v", err)
	}
}

// TestKillMidRequest kills -9 the real worker right after a request was sent:
// that request gets the unavailable error, the next one is answered by a new worker.
func TestKillMidRequest(t *testing.T) {
	c := New(Options{Jar: jar(t), Timeout: 2 * time.Minute, StartTimeout: 2 * time.Minute})
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var killed *proc
	c.afterSend = func(p *proc) {
		killed = p
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Errorf("kill: %v", err)
		}
	}
	pdf := readCorpus(t, "mustang/zugferd_invoice.pdf")
	_, err := c.Validate(ctx, pdf, "3b")
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "exited") {
		t.Fatalf("request during the kill: want unavailable (worker exited), got %v", err)
	}
	c.afterSend = nil
	res, err := c.Validate(ctx, pdf, "3b")
	if err != nil || !res.Compliant {
		t.Fatalf("request after the kill: %v %+v", err, res)
	}
	st := c.Health(ctx)
	if st.State != StateOK || st.Restarts != 1 || st.Running != 1 {
		t.Fatalf("health after restart: %+v", st)
	}
	if killed == nil || !killed.exited() {
		t.Fatal("the killed worker is not reaped")
	}
}

// TestJVMOutputStaysOffTheProtocol: what the JVM prints by itself (here
// -XX:+PrintFlagsFinal, hundreds of lines; in production a "CodeCache is
// full" warning and summary) goes to stderr under DefaultJVMArgs, so the
// ready line is still the first line on stdout and answers stay in step.
func TestJVMOutputStaysOffTheProtocol(t *testing.T) {
	c := New(Options{Jar: jar(t), JVMArgs: append(append([]string{}, DefaultJVMArgs...), "-XX:+PrintFlagsFinal"),
		Timeout: 2 * time.Minute, StartTimeout: 2 * time.Minute, Stderr: io.Discard})
	t.Cleanup(func() { _ = c.Close() })
	res, err := c.Validate(context.Background(), readCorpus(t, "mustang/zugferd_invoice.pdf"), "3b")
	if err != nil || !res.Compliant {
		t.Fatalf("with the JVM printing flags: %v %+v", err, res)
	}
}
