package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
