package conformance

// Shared pieces of the oracle tests (oracle_*_test.go): the rule sets under
// test, the corpus, the running reference, our engine behind one adapter
// function, and the comparison.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/conformance/mutate"
	"github.com/einvoice-dev/einvoice/conformance/oracle"
	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/rulesets"
)

// oracleSyntax is one rule set compared against the reference.
type oracleSyntax struct {
	name     string // "ubl" / "cii": the rulesets catalog syntax
	sch      string // main Schematron, relative to the shared dir
	codes    string // code-list Schematron (mutation code lists)
	examples string // valid examples, relative to the shared dir
	config   string // vefa testSet configuration of its unit tests
	expected string // expected results directory name
}

var oracleSyntaxes = []oracleSyntax{
	{
		name:     "ubl",
		sch:      "rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch",
		codes:    "rulesets/en16931/1.3.16/ubl/schematron/codelist/EN16931-UBL-codes.sch",
		examples: "corpus/en16931/ubl/examples",
		config:   "tc434-ubl",
		expected: "en16931-ubl",
	},
	{
		name:     "cii",
		sch:      "rulesets/en16931/1.3.16/cii/schematron/EN16931-CII-validation.sch",
		codes:    "rulesets/en16931/1.3.16/cii/schematron/codelist/EN16931-CII-codes.sch",
		examples: "corpus/en16931/cii/examples",
		config:   "tc434-cii",
		expected: "en16931-cii",
	},
}

func (s oracleSyntax) stage() string { return filepath.Base(s.sch) }

// requireOracle skips the test when Java or Maven is missing, unless
// EINVOICE_REQUIRE_ORACLE=1 (CI), where it fails.
func requireOracle(t testing.TB) {
	t.Helper()
	if err := oracle.Available(oracle.Options{}); err != nil {
		if os.Getenv("EINVOICE_REQUIRE_ORACLE") == "1" {
			t.Fatalf("EINVOICE_REQUIRE_ORACLE=1 but %v", err)
		}
		t.Skipf("reference oracle unavailable (set EINVOICE_REQUIRE_ORACLE=1 to fail instead): %v", err)
	}
}

func mustShared(t testing.TB) string {
	t.Helper()
	dir, err := SharedDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("shared data: %v (set EINVOICE_SHARED)", err)
	}
	return dir
}

// oraclePool keeps one warm reference process per syntax for the whole
// test binary: starting one compiles the Schematron (seconds with the
// stylesheet cache, minutes without), so the calibration, diff and fuzz
// tests share it. The processes exit when the test binary does (their stdin
// closes). Test-only state.
var oraclePool = struct {
	mu   sync.Mutex
	byID map[string]*pooledOracle
}{byID: map[string]*pooledOracle{}}

type pooledOracle struct {
	o      *oracle.Oracle
	err    error
	stderr *lockedBuffer
}

// sharedOracle returns the warm reference for one syntax, starting it on
// first use. A broken process (after a cancelled request) is replaced.
func sharedOracle(t testing.TB, shared string, s oracleSyntax) *oracle.Oracle {
	t.Helper()
	requireOracle(t)
	oraclePool.mu.Lock()
	defer oraclePool.mu.Unlock()
	key := filepath.Join(shared, s.sch)
	if p, ok := oraclePool.byID[key]; ok && p.err == nil && p.o.Usable() {
		return p.o
	}
	p := &pooledOracle{stderr: &lockedBuffer{}}
	t0 := time.Now()
	p.o, p.err = oracle.Start(context.Background(), oracle.Options{Sch: []string{key}, Stderr: p.stderr})
	if p.err != nil {
		t.Fatalf("start oracle: %v\n%s", p.err, p.stderr.String())
	}
	oraclePool.byID[key] = p
	t.Logf("oracle %s ready in %v; %s", s.name, time.Since(t0).Round(time.Millisecond), strings.TrimSpace(p.stderr.String()))
	return p.o
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// lockedBufferMax bounds the kept stderr (Saxon warns on every recovered
// pattern error; a long fuzz run would otherwise grow it without limit).
const lockedBufferMax = 64 << 10

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len()+len(p) > lockedBufferMax {
		keep := l.b.String()
		if cut := len(keep) + len(p) - lockedBufferMax/2; cut < len(keep) {
			keep = keep[cut:]
		} else {
			keep = ""
		}
		l.b.Reset()
		l.b.WriteString(keep)
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// corpusDoc is one document of the corpus: a file, or a document embedded in
// a vefa testSet (Name then ends in "#<test index>").
type corpusDoc struct {
	Name string // relative to the directory holding shared/
	Data []byte
}

// corpusDocs returns the examples and every embedded unit-test document of a
// syntax, in a stable order.
func corpusDocs(t testing.TB, shared string, s oracleSyntax) (examples, units []corpusDoc) {
	t.Helper()
	root := filepath.Dir(filepath.Clean(shared))
	rel := func(p string) string {
		r, err := filepath.Rel(root, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	files, err := filepath.Glob(filepath.Join(shared, s.examples, "*"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	for _, f := range files {
		if !strings.EqualFold(filepath.Ext(f), ".xml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, corpusDoc{rel(f), data})
	}
	err = filepath.WalkDir(filepath.Join(shared, "corpus/en16931/test"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".xml") {
			return err
		}
		ts, err := ReadTestSet(p)
		if err != nil {
			return err
		}
		if ts.Configuration != s.config {
			return nil
		}
		for _, u := range ts.Tests {
			units = append(units, corpusDoc{rel(p) + "#" + strconv.Itoa(u.Index), u.Document})
		}
		return nil
	})
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	if len(examples) == 0 || len(units) == 0 {
		t.Fatalf("corpus for %s: %d examples, %d unit-test documents: wrong EINVOICE_SHARED?", s.name, len(examples), len(units))
	}
	return examples, units
}

// ourValidator is the adapter to our engine: the one place the harness
// touches the engine, rulesets and xmltree packages. It answers in the
// oracle's shape (stage = the .sch file name).
type ourValidator struct {
	rs     []*engine.Ruleset
	stages []string // the reference's stage (.sch file name) of each rule set
	// docs counts the validated documents: every fastEvery-th one also
	// goes through engine.Ruleset.FastAgrees (the frame-free evaluation
	// of the simplest checks against the interpreter, on every node).
	docs atomic.Int64
}

// fastEvery samples the documents checked with FastAgrees (about 17 ms
// each for EN 16931: every mutant would double the run).
const fastEvery = 16

func newOurValidator(t testing.TB, s oracleSyntax) *ourValidator {
	t.Helper()
	cat, err := rulesets.Load()
	if err != nil {
		t.Fatalf("our engine: %v", err)
	}
	p, ok := cat.Profile(s.name, "en16931")
	if !ok {
		t.Fatalf("our engine: no en16931 profile for %s", s.name)
	}
	v := &ourValidator{rs: p.Rulesets}
	for range p.Rulesets {
		v.stages = append(v.stages, s.stage())
	}
	return v
}

// validate returns our findings, or a non-empty parse error (the oracle's
// Result.Error counterpart).
func (v *ourValidator) validate(ctx context.Context, data []byte) (fired []oracle.Finding, parseErr string) {
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		return nil, err.Error()
	}
	for i, rs := range v.rs {
		fs, err := rs.Validate(ctx, doc)
		if err != nil {
			code := "ERROR"
			var ee *engine.EvalError
			if errors.As(err, &ee) && ee.Code() != "" {
				code = ee.Code()
			}
			fired = append(fired, oracle.Finding{ID: code, Kind: "stage-error", Text: err.Error(), Stage: v.stages[i]})
			continue
		}
		for _, f := range fs {
			fired = append(fired, oracle.Finding{ID: f.RuleID, Flag: f.Flag, Kind: f.Kind, Loc: f.Location, Text: f.Message, Stage: v.stages[i]})
		}
	}
	if v.docs.Add(1)%fastEvery == 1 {
		// A disagreement is reported as a finding the reference cannot
		// have, with the document, like any other difference.
		for i, rs := range v.rs {
			if _, err := rs.FastAgrees(ctx, doc); err != nil {
				fired = append(fired, oracle.Finding{ID: "FAST-PATH", Kind: "fast-path-disagreement", Text: err.Error(), Stage: v.stages[i]})
			}
		}
	}
	return fired, ""
}

// compareFired compares our findings with the reference's, in order: id,
// flag, kind, location and message. A stage-error entry compares on kind and
// stage only: which dynamic error aborts a stage first depends on the
// evaluation order, which the two reference implementations do not share
// (the ISO skeleton, which made the expected files, runs pattern after
// pattern; SchXslt 1.10 runs all patterns in one document-order pass and
// reorders the report), and message texts differ between XPath
// implementations. Differing error codes are reported by stageErrorNote.
// It returns one line per difference, at most limit lines.
func compareFired(ours, ref []oracle.Finding, limit int) []string {
	var out []string
	n := max(len(ours), len(ref))
	for i := 0; i < n && len(out) < limit; i++ {
		switch {
		case i >= len(ours):
			out = append(out, "missing "+fmtFinding(ref[i]))
		case i >= len(ref):
			out = append(out, "extra   "+fmtFinding(ours[i]))
		default:
			o, r := ours[i], ref[i]
			same := o.Kind == r.Kind && o.Stage == r.Stage
			if same && r.Kind != "stage-error" {
				same = o.ID == r.ID && o.Flag == r.Flag && o.Loc == r.Loc && o.Text == r.Text
			}
			if !same {
				out = append(out, fmt.Sprintf("#%d\n\t\tours: %s\n\t\tref:  %s", i, fmtFinding(o), fmtFinding(r)))
			}
		}
	}
	if len(out) == limit && n > limit {
		out = append(out, "…")
	}
	return out
}

// stageErrorNote describes stage errors both sides raised with different
// codes ("" if none): logged, not failed (see compareFired).
func stageErrorNote(name string, ours []oracle.Finding, ref *oracle.Result) string {
	if ref == nil || len(ours) != len(ref.Fired) {
		return ""
	}
	var notes []string
	for i, r := range ref.Fired {
		if o := ours[i]; r.Kind == "stage-error" && o.Kind == r.Kind && o.ID != r.ID {
			notes = append(notes, fmt.Sprintf("stage %s: ours %s (%s), reference %s (%s)", r.Stage, o.ID, o.Text, r.ID, r.Text))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return name + ": both aborted, different first error: " + strings.Join(notes, "; ")
}

func fmtFinding(f oracle.Finding) string {
	return fmt.Sprintf("%s %s %s %s %q", f.ID, f.Flag, f.Kind, f.Loc, f.Text)
}

// disagreement compares one document; "" when both sides agree.
func disagreement(name string, ours []oracle.Finding, ourErr string, ref *oracle.Result) string {
	switch {
	case ourErr != "" && ref.Error != "":
		return ""
	case ourErr != "" || ref.Error != "":
		return fmt.Sprintf("%s: parse disagreement:\n\tours: %q\n\tref:  %q", name, ourErr, ref.Error)
	}
	if d := compareFired(ours, ref.Fired, 20); len(d) > 0 {
		return fmt.Sprintf("%s: %d ours vs %d ref findings:\n\t%s", name, len(ours), len(ref.Fired), strings.Join(d, "\n\t"))
	}
	return ""
}

// mutationSources parses the valid examples of a syntax for mutation.
func mutationSources(t testing.TB, shared string, s oracleSyntax, examples []corpusDoc) []*mutate.Document {
	t.Helper()
	cl, err := mutate.Harvest(filepath.Join(shared, s.codes))
	if err != nil {
		t.Fatal(err)
	}
	var out []*mutate.Document
	for _, e := range examples {
		d, err := mutate.Parse(filepath.Base(e.Name), e.Data, cl)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// mutantAt returns the mutant for a seed: 1 to 3 chained operations on a
// source document chosen by the seed too, so "<seed>" alone reproduces it.
func mutantAt(srcs []*mutate.Document, seed uint64) mutate.Mutant {
	return srcs[seed%uint64(len(srcs))].MutateMulti(seed, 3)
}
