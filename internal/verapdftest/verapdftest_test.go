package verapdftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/testshared"
)

func TestAssertCompliantOnCorpus(t *testing.T) {
	dir := filepath.Join(testshared.Dir(t), "corpus", "pdf", "mustang")
	good, err := os.ReadFile(filepath.Join(dir, "zugferd_invoice.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	AssertCompliant(t, good, "3b")
	AssertPDFA3B(t, good)

	bad, err := os.ReadFile(filepath.Join(dir, "veraPDFtestsuite6-7-11-t01-fail-a.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	ft := &fakeTB{TB: t}
	AssertCompliant(ft, bad, "auto")
	if !ft.failed || !strings.Contains(ft.msg, "6.7.11") {
		t.Fatalf("AssertCompliant on a failing PDF: failed=%v msg=%q", ft.failed, ft.msg)
	}
}

func TestJarPathHonoursEnv(t *testing.T) {
	t.Setenv("EINVOICE_VERAPDF_JAR", "/x/y.jar")
	if got := JarPath(); got != "/x/y.jar" {
		t.Fatalf("JarPath() = %q", got)
	}
}

// fakeTB records Errorf instead of failing the real test.
type fakeTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.failed = true
	f.msg = strings.TrimSpace(strings.Join([]string{f.msg, fmt.Sprintf(format, args...)}, "\n"))
}
