// Package verapdftest gives tests one veraPDF client per test binary and
// assertions on PDF/A conformance, so every package checks its PDFs the same
// way. The worker jar must have been built (`make verapdf`); when it is
// missing the tests fail with that instruction instead of skipping.
//
// The jar is $EINVOICE_VERAPDF_JAR, else tools/verapdf-worker/target/verapdf-worker.jar
// under the module root; $EINVOICE_VERAPDF_WORKERS bounds the number of
// workers (default 2, the cores of the machines running the suite). A second
// worker starts only when a test validates from two goroutines at once (the
// render coverage test does): sequential tests keep one warm JVM.
package verapdftest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// perFileTimeout is generous: tests run on shared, loaded machines.
const perFileTimeout = 3 * time.Minute

// defaultWorkers is the bound when $EINVOICE_VERAPDF_WORKERS is not set.
const defaultWorkers = 2

var shared struct {
	once   sync.Once
	client *verapdf.Client
	jar    string
	err    string
}

// JarPath returns the worker jar the tests use (it may not exist).
func JarPath() string {
	if j := os.Getenv("EINVOICE_VERAPDF_JAR"); j != "" {
		return j
	}
	dir, err := os.Getwd()
	if err != nil {
		return verapdf.DefaultJar
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(verapdf.DefaultJar))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return verapdf.DefaultJar
		}
		dir = parent
	}
}

// Client returns the test binary's shared client, starting its worker on
// first use. It fails the test when the jar is missing or the worker does
// not start. Do not Close it: the worker ends with the test binary (its
// stdin closes).
func Client(t testing.TB) *verapdf.Client {
	t.Helper()
	shared.once.Do(func() {
		shared.jar = JarPath()
		if _, err := os.Stat(shared.jar); err != nil {
			shared.err = "veraPDF worker jar not found at " + shared.jar + ": run `make verapdf` (or set EINVOICE_VERAPDF_JAR)"
			return
		}
		workers, err := strconv.Atoi(os.Getenv("EINVOICE_VERAPDF_WORKERS"))
		if err != nil || workers <= 0 {
			workers = defaultWorkers
		}
		c := verapdf.New(verapdf.Options{Jar: shared.jar, Workers: workers, Timeout: perFileTimeout, StartTimeout: 2 * time.Minute})
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		if err := c.Start(ctx); err != nil {
			shared.err = "veraPDF worker did not start: " + err.Error()
			return
		}
		shared.client = c
	})
	if shared.client == nil {
		t.Fatal(shared.err)
	}
	return shared.client
}

// Validate returns veraPDF's verdict on pdf for flavour ("auto", "3b", ...),
// failing the test when no verdict can be obtained (unparseable PDF, worker
// failure).
func Validate(t testing.TB, pdf []byte, flavour string) *verapdf.Result {
	t.Helper()
	res, err := Client(t).Validate(context.Background(), pdf, flavour)
	if err != nil {
		t.Fatalf("veraPDF (%s): %v", flavour, err)
	}
	return res
}

// AssertCompliant fails the test, listing every failed rule, unless veraPDF
// finds pdf compliant with flavour ("3b" for our Factur-X output).
func AssertCompliant(t testing.TB, pdf []byte, flavour string) {
	t.Helper()
	res := Validate(t, pdf, flavour)
	if res.Compliant {
		return
	}
	t.Errorf("veraPDF %s: not PDF/A-%s compliant (%d failed rules):\n%s", res.Validator.Version, res.CheckedFlavour,
		len(res.FailedRules), Describe(res))
}

// AssertPDFA3B is AssertCompliant(t, pdf, "3b").
func AssertPDFA3B(t testing.TB, pdf []byte) {
	t.Helper()
	AssertCompliant(t, pdf, "3b")
}

// Describe lists a result's failed rules, one per line.
func Describe(res *verapdf.Result) string {
	var b strings.Builder
	for _, r := range res.FailedRules {
		b.WriteString("  ")
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}
