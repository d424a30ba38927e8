package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
)

func TestPDFAValidateCLI(t *testing.T) {
	jar := verapdftest.JarPath()
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("veraPDF worker jar not found at %s: run `make verapdf`", jar)
	}
	env := map[string]string{"EINVOICE_VERAPDF_JAR": jar}
	dir := filepath.Join(testshared.Dir(t), "corpus", "pdf", "mustang")
	good := filepath.Join(dir, "zugferd_invoice.pdf")
	bad := filepath.Join(dir, "veraPDFtestsuite6-7-11-t01-fail-a.pdf")

	code, out, _ := cli(t, env, "pdfa", "validate", good, bad)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 2 {
		t.Fatalf("good + failing: exit %d, out %q", code, out)
	}
	var first, second struct {
		File           string `json:"file"`
		Compliant      bool   `json:"compliant"`
		CheckedFlavour string `json:"checked_flavour"`
		FailedRules    []struct {
			Clause string `json:"clause"`
		} `json:"failed_rules"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.File != good || !first.Compliant || first.CheckedFlavour != "3b" {
		t.Fatalf("line 1: %s (%v)", lines[0], err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil || second.Compliant || len(second.FailedRules) != 1 || second.FailedRules[0].Clause != "6.7.11" {
		t.Fatalf("line 2: %s (%v)", lines[1], err)
	}

	if code, out, _ := cli(t, env, "pdfa", "validate", "--flavour", "3b", good); code != 0 || !strings.Contains(out, `"compliant":true`) {
		t.Fatalf("compliant file: exit %d, out %q", code, out)
	}

	// Not a PDF: exit 2 with the reason, veraPDF is not even started.
	notPDF := filepath.Join(t.TempDir(), "x.pdf")
	mustWrite(t, notPDF, []byte("<Invoice/>"))
	if code, out, errs := cli(t, env, "pdfa", "validate", notPDF); code != 2 || !strings.Contains(out, "not a PDF") || !strings.Contains(errs, "not a PDF") {
		t.Fatalf("not a PDF: exit %d, out %q, err %q", code, out, errs)
	}
	// No worker: exit 2, the reason names the jar and `make verapdf`.
	missing := map[string]string{"EINVOICE_VERAPDF_JAR": filepath.Join(t.TempDir(), "none.jar")}
	if code, out, _ := cli(t, missing, "pdfa", "validate", good); code != 2 || !strings.Contains(out, "make verapdf") {
		t.Fatalf("missing jar: exit %d, out %q", code, out)
	}
	for _, args := range [][]string{{"pdfa"}, {"pdfa", "nope"}, {"pdfa", "validate"}, {"pdfa", "validate", "--flavour", "9z", good}} {
		if code, _, errs := cli(t, env, args...); code != 2 || !strings.HasPrefix(errs, "einvoice: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestServePDFAValidate runs `einvoice serve` with the real worker: it is
// warmed after the server listens, answers pdfa/validate, shows in /health,
// and is stopped with the server.
func TestServePDFAValidate(t *testing.T) {
	jar := verapdftest.JarPath()
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("veraPDF worker jar not found at %s: run `make verapdf`", jar)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(), "--shutdown-grace", "5s",
			"--shared", sharedDir(), "--verapdf-workers", "1"}, io.Discard, logs,
			func(k string) string { return map[string]string{"EINVOICE_VERAPDF_JAR": jar}[k] })
	}()
	base := "http://" + waitListening(t, logs)
	deadline := time.Now().Add(3 * time.Minute)
	for !strings.Contains(logs.String(), "veraPDF worker ready") {
		if time.Now().After(deadline) || strings.Contains(logs.String(), "veraPDF worker not available") {
			t.Fatalf("worker not warmed: %s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	pdf, err := os.ReadFile(filepath.Join(testshared.Dir(t), "corpus", "pdf", "mustang", "veraPDFtestsuite6-7-11-t01-fail-a.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(base+"/v1/pdfa/validate", "application/pdf", bytes.NewReader(pdf))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"compliant":false`) || !strings.Contains(string(body), `"clause":"6.7.11"`) {
		t.Fatalf("pdfa/validate: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Get(base + "/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !strings.Contains(string(body), `"verapdf":{"status":"ok","detail":"veraPDF 1.`) {
		t.Fatalf("health: %s", body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exit %d: %s", code, logs.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not shut down")
	}
}
