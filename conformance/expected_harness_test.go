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
	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
)

// ruleSource is a rule set of the reference, keyed by the expected/ folder name.
type ruleSource struct {
	main, name, version, syntax string
	functions                   func() *vm.Functions
	// xslFunctions: the set's xsl:functions are compiled from main itself
	// (BR-FR custom:*), as rulegen and the catalog do.
	xslFunctions bool
}

// ruleSources maps an expected/ rule-set folder (single-stage sets) to its
// main .sch (relative to shared). "ubl"/"cii" are kept as short keys for
// EN 16931.
var ruleSources = map[string]ruleSource{
	"ubl":                    {"rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch", "EN16931", "1.3.16", "ubl", nil, false},
	"cii":                    {"rulesets/en16931/1.3.16/cii/schematron/EN16931-CII-validation.sch", "EN16931", "1.3.16", "cii", nil, false},
	"en16931-ubl":            {"rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch", "EN16931", "1.3.16", "ubl", nil, false},
	"en16931-cii":            {"rulesets/en16931/1.3.16/cii/schematron/EN16931-CII-validation.sch", "EN16931", "1.3.16", "cii", nil, false},
	"ro-cius-ubl":            {"rulesets/ro-cius/1.0.9/EN16931-CIUS_RO-UBL-validation.sch", "RO_CIUS", "1.0.9", "ubl", nil, false},
	"order-x-basic":          {"rulesets/order-x/1.0/basic/SCRDMCCBDACIOMessageStructure_100pD20B_BASIC.sch", "Order-X", "1.0", "basic", nil, false},
	"order-x-comfort":        {"rulesets/order-x/1.0/comfort/SCRDMCCBDACIOMessageStructure_100pD20B_COMFORT.sch", "Order-X", "1.0", "comfort", nil, false},
	"order-x-extended":       {"rulesets/order-x/1.0/extended/SCRDMCCBDACIOMessageStructure_100pD20B_EXTENDED.sch", "Order-X", "1.0", "extended", nil, false},
	"peppol-cen-ubl":         {"rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-UBL.sch", "CEN-EN16931 (Peppol)", "3.0.19", "ubl", nil, false},
	"peppol-only-ubl":        {"rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-UBL.sch", "Peppol BIS Billing", "3.0.19", "ubl", xslfunc.Peppol, false},
	"peppol-cen-cii":         {"rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-CII.sch", "CEN-EN16931 (Peppol)", "3.0.19", "cii", nil, false},
	"peppol-only-cii":        {"rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-CII.sch", "Peppol BIS Billing", "3.0.19", "cii", xslfunc.Peppol, false},
	"peppol-cen-ubl-3.0.21":  {"rulesets/peppol-bis-billing/3.0.21/sch/CEN-EN16931-UBL.sch", "CEN-EN16931 (Peppol)", "3.0.21", "ubl", nil, false},
	"peppol-only-ubl-3.0.21": {"rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL.sch", "Peppol BIS Billing", "3.0.21", "ubl", xslfunc.Peppol, false},
	"peppol-sb-ubl-3.0.21":   {"rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL-SB.sch", "Peppol BIS Self-Billing", "3.0.21", "ubl", xslfunc.Peppol, false},
	"br-fr-en16931-ubl":      {main: "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/EN16931-UBL-validation-preprocessed.sch", name: "BR-FR EN16931 base", version: "1.4.0.03", syntax: "ubl"},
	"br-fr-flux2-ubl":        {main: "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/BR-FR-Flux2-Schematron-UBL.sch", name: "BR-FR Flux 2", version: "1.4.0.03", syntax: "ubl", xslFunctions: true},
	"br-fr-cdar":             {main: "rulesets/br-fr/1.4.0.03/CDAR/schematron/BR-FR-CDV-Schematron-CDAR.sch", name: "BR-FR CDAR", version: "1.4.0.03", syntax: "cdar", xslFunctions: true},
	"xrechnung-only-ubl":     {"rulesets/xrechnung/2.5.0/ubl/XRechnung-UBL-validation.sch", "XRechnung", "3.0.2", "ubl", xslfunc.XRechnung, false},
	"xrechnung-only-cii":     {"rulesets/xrechnung/2.5.0/cii/XRechnung-CII-validation.sch", "XRechnung", "3.0.2", "cii", xslfunc.XRechnung, false},
	"factur-x-minimum":       {"rulesets/factur-x/1.09.2/MINIMUM/FACTUR-X_MINIMUM.sch", "Factur-X MINIMUM", "1.09.2", "cii", nil, false},
	"factur-x-basic-wl":      {"rulesets/factur-x/1.09.2/BASIC-WL/FACTUR-X_BASIC-WL.sch", "Factur-X BASIC-WL", "1.09.2", "cii", nil, false},
	"factur-x-basic":         {"rulesets/factur-x/1.09.2/BASIC/FACTUR-X_BASIC.sch", "Factur-X BASIC", "1.09.2", "cii", nil, false},
	"factur-x-en16931":       {"rulesets/factur-x/1.09.2/EN16931/FACTUR-X_EN16931.sch", "Factur-X EN16931", "1.09.2", "cii", nil, false},
	"factur-x-extended":      {"rulesets/factur-x/1.09.2/EXTENDED/FACTUR-X_EXTENDED.sch", "Factur-X EXTENDED", "1.09.2", "cii", nil, false},
}

// stagedSets are the multi-stage rule sets of the reference: the stages run
// in order on one document and their findings are concatenated.
var stagedSets = map[string][]string{
	"peppol-ubl":           {"peppol-cen-ubl", "peppol-only-ubl"},
	"peppol-cii":           {"peppol-cen-cii", "peppol-only-cii"},
	"xrechnung-ubl":        {"en16931-ubl", "xrechnung-only-ubl"},
	"peppol-ubl-3.0.21":    {"peppol-cen-ubl-3.0.21", "peppol-only-ubl-3.0.21"},
	"br-fr-ubl":            {"br-fr-en16931-ubl", "br-fr-flux2-ubl"},
	"peppol-ubl-sb-3.0.21": {"peppol-cen-ubl-3.0.21", "peppol-sb-ubl-3.0.21"},
	"xrechnung-cii":        {"en16931-cii", "xrechnung-only-cii"},
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
func (h *harness) ruleset(t *testing.T, key string) *engine.Ruleset {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	src, ok := ruleSources[key]
	if !ok {
		t.Fatalf("no rule source %q", key)
	}
	if rs, ok := h.sets[src.main]; ok {
		return rs
	}
	var fns *vm.Functions
	if src.functions != nil {
		fns = src.functions()
	}
	if src.xslFunctions {
		var err error
		if fns, err = xslfunc.FromSchematron(h.shared, src.main, nil); err != nil {
			t.Fatal(err)
		}
	}
	u, err := compiler.Compile(context.Background(), compiler.Config{Root: h.shared, Main: src.main,
		Name: src.name, Version: src.version, Syntax: src.syntax, Package: "p", Func: "generated", Functions: fns}, "lets", nopWriter{})
	if err != nil {
		t.Fatal(err)
	}
	opts := []engine.Option{engine.WithDocumentRoot(h.shared)}
	if fns != nil {
		opts = append(opts, engine.WithFunctions(fns))
	}
	rs, err := engine.Load(u.Tables, opts...)
	if err != nil {
		t.Fatal(err)
	}
	h.sets[src.main] = rs
	return rs
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func (h *harness) validate(t *testing.T, rs *engine.Ruleset, data []byte) ([]engine.Finding, error) {
	t.Helper()
	return h.validateStages(t, []*engine.Ruleset{rs}, data)
}

// stages returns the rule sets of a (possibly multi-stage) reference set.
func (h *harness) stages(t *testing.T, key string) []*engine.Ruleset {
	t.Helper()
	keys, ok := stagedSets[key]
	if !ok {
		keys = []string{key}
	}
	var out []*engine.Ruleset
	for _, k := range keys {
		out = append(out, h.ruleset(t, k))
	}
	return out
}

// validateStages runs each stage on the document and concatenates the
// findings; an aborted stage contributes one stage-error entry, and the
// later stages still run, as in the reference.
func (h *harness) validateStages(t *testing.T, stages []*engine.Ruleset, data []byte) ([]engine.Finding, error) {
	t.Helper()
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		return nil, err
	}
	var all []engine.Finding
	for _, rs := range stages {
		got, err := rs.Validate(context.Background(), doc)
		if err != nil {
			got = StageErrorFindings(err)
		}
		all = append(all, got...)
	}
	return all, nil
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
