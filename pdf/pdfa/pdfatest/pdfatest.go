// Package pdfatest gives tests of our PDF output poppler's view of it:
// the extracted text (pdftotext), the embedded files (pdfdetach) and the
// page count (pdfinfo), and qpdf's structural check, so tests assert what
// readers see, not what we think we wrote. The poppler-utils and qpdf
// Debian packages must be installed (scripts/deps.sh); tests fail, not
// skip, without them.
package pdfatest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func run(t testing.TB, pdf []byte, name string, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Fatalf("%s not found: install poppler-utils and qpdf (scripts/deps.sh)", name)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, a := range args {
		args[i] = strings.NewReplacer("{in}", in, "{dir}", dir).Replace(a)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("%s %v: %v: %s", name, args, err, stderr.String())
	}
	return out
}

// Text is the text pdftotext extracts (UTF-8, reading order), pages
// separated by form feeds.
func Text(t testing.TB, pdf []byte) string {
	t.Helper()
	return string(run(t, pdf, "pdftotext", "-enc", "UTF-8", "{in}", "-"))
}

// Pages is the page count pdfinfo reports.
func Pages(t testing.TB, pdf []byte) int {
	t.Helper()
	for line := range strings.SplitSeq(string(run(t, pdf, "pdfinfo", "{in}")), "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("pdfinfo: pages %q", v)
			}
			return n
		}
	}
	t.Fatal("pdfinfo: no page count")
	return 0
}

// Detach returns the embedded files pdfdetach saves, by name.
func Detach(t testing.TB, pdf []byte) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	run(t, pdf, "pdfdetach", "-saveall", "-o", dir, "{in}")
	files := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// QPDFCheck runs qpdf --check (cross-reference table, object and stream
// syntax, stream lengths) and fails the test on any warning or error.
func QPDFCheck(t testing.TB, pdf []byte) {
	t.Helper()
	out := string(run(t, pdf, "qpdf", "--check", "{in}"))
	if !strings.Contains(out, "No syntax or stream encoding errors found") || strings.Contains(strings.ToLower(out), "warning") {
		t.Errorf("qpdf --check:\n%s", out)
	}
}
