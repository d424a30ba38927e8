package conformance

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// en16931Sources maps a syntax to its main .sch (relative to shared).
var en16931Sources = map[string]string{
	"ubl": "rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch",
	"cii": "rulesets/en16931/1.3.16/cii/schematron/EN16931-CII-validation.sch",
}

type harness struct {
	shared string
	mu     sync.Mutex
	sets   map[string]*engine.Ruleset
	known  map[string]string // case key -> reason
	used   map[string]bool
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	shared, err := SharedDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(shared, "conformance")); err != nil {
		t.Fatalf("shared directory %s: %v (set EINVOICE_SHARED)", shared, err)
	}
	h := &harness{shared: shared, sets: map[string]*engine.Ruleset{}, used: map[string]bool{}}
	h.known, err = readKnownFailures("known_failures.txt")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// ruleset compiles the modular EN 16931 sources in-process (the same
// compiler rulegen runs; the rulesets package's staleness test ties the
// generated tables to it).
func (h *harness) ruleset(t *testing.T, syntax string) *engine.Ruleset {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if rs, ok := h.sets[syntax]; ok {
		return rs
	}
	u, err := compiler.Compile(context.Background(), compiler.Config{Root: h.shared, Main: en16931Sources[syntax],
		Name: "EN16931", Version: "1.3.16", Syntax: syntax, Package: "en16931", Func: "generated"}, "lets", nopWriter{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := engine.Load(u.Tables)
	if err != nil {
		t.Fatal(err)
	}
	h.sets[syntax] = rs
	return rs
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func (h *harness) validate(t *testing.T, rs *engine.Ruleset, data []byte) ([]engine.Finding, error) {
	t.Helper()
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		return nil, err
	}
	got, err := rs.Validate(context.Background(), doc)
	if err != nil {
		return StageErrorFindings(err), nil
	}
	return got, nil
}

// outcome records a case result against the known-failures list and
// returns whether the test must fail for it.
func (h *harness) outcome(t *testing.T, key string, failed bool, detail string) {
	t.Helper()
	reason, known := h.known[key]
	h.mu.Lock()
	h.used[key] = true
	h.mu.Unlock()
	switch {
	case failed && !known:
		t.Errorf("%s: disagrees with the reference:\n%s", key, detail)
	case failed && known:
		t.Logf("%s: known failure (%s)", key, reason)
	case !failed && known:
		t.Errorf("%s: listed in known_failures.txt (%s) but passes: remove it", key, reason)
	}
}

// checkStale fails for entries of the given prefix that no test looked at.
func (h *harness) checkStale(t *testing.T, prefix string) {
	t.Helper()
	for k := range h.known {
		if strings.HasPrefix(k, prefix) && !h.used[k] {
			t.Errorf("known_failures.txt: %s matches no case", k)
		}
	}
}

// readKnownFailures reads "KEY REASON..." lines; '#' starts a comment line.
func readKnownFailures(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, " ")
		if strings.TrimSpace(reason) == "" {
			return nil, &os.PathError{Op: "read", Path: path, Err: os.ErrInvalid}
		}
		out[key] = strings.TrimSpace(reason)
	}
	return out, sc.Err()
}
