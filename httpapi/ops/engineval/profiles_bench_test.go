//go:build unix

package engineval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/rulesets"

	"github.com/einvoice-dev/einvoice/internal/benchcpu"
	"github.com/einvoice-dev/einvoice/internal/profilecases"
)

// profileFor returns the case's default-version profile and two separate
// parses of its document (the Schematron benchmark alternates them, so
// every op sees a document the previous op did not: the vm's
// per-document memos are cold, as in a service).
func profileFor(t testing.TB, c profilecases.Case) (*rulesets.Profile, [2]*xmltree.Document) {
	t.Helper()
	p, ok := testValidator.catalog.Profile(c.Syntax, c.Profile)
	if !ok {
		t.Fatalf("profile %s/%s not in the catalog", c.Syntax, c.Profile)
	}
	data := corpus(t, c.Doc)
	var docs [2]*xmltree.Document
	for i := range docs {
		d, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", c.Doc, err)
		}
		docs[i] = d
	}
	return p, docs
}

// TestProfileBenchCases proves every benchmarked document is a valid
// example of its profile (whole validation: XSD and every rule set), and
// names the .sch stages the profile ran on it, in order: the reference
// runs exactly these (scripts/profilebench.sh reads them with
// PROFILEBENCH_LIST=1).
func TestProfileBenchCases(t *testing.T) {
	list := os.Getenv("PROFILEBENCH_LIST") != ""
	for _, c := range profilecases.Cases {
		rep, err := svc().Validate(context.Background(), ops.ValidateRequest{Syntax: c.Syntax, Profile: c.Profile, Body: corpus(t, c.Doc)})
		if err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
		if rep.Valid == (c.Findings != "") || !rep.Complete {
			t.Errorf("%s: %s: valid %v, complete %v, want valid %v: %+v", c.Name(), c.Doc, rep.Valid, rep.Complete, c.Findings == "", rep)
			continue
		}
		p, docs := profileFor(t, c)
		res, err := p.Validate(context.Background(), docs[0])
		if err != nil || !res.Complete || len(res.Rulesets) == 0 {
			t.Fatalf("%s: rule sets: %v %+v", c.Name(), err, res)
		}
		stages := make([]string, len(res.Rulesets))
		for i, rs := range res.Rulesets {
			src := rs.Tables().Source
			if !strings.HasSuffix(src, ".sch") {
				t.Fatalf("%s: rule set %s has no .sch source (%q)", c.Name(), rs.Label(), src)
			}
			if _, err := os.Stat(filepath.Join(shared(), filepath.FromSlash(src))); err != nil {
				t.Fatalf("%s: %v", c.Name(), err)
			}
			stages[i] = src
		}
		if list {
			fmt.Printf("PROFILE %s %s %s %s\n", c.Name(), p.Version, "corpus/"+c.Doc, strings.Join(stages, " "))
		}
	}
}

// BenchmarkProfiles measures, per profile on its example document:
//   - Schematron: the warm Schematron step of the profile (scenario
//     selection and its rule sets in order), parse excluded, on a document
//     the previous op did not see (BenchmarkEN16931UBLSchematronFresh's
//     method);
//   - Whole: the whole validation through ops.Service (parse, XSD, rule
//     sets, report).
//
// Both report cpu-ns/op (process CPU time per op: run with -cpu 1 on a
// shared machine) and min-ns/op (the fastest single op).
func BenchmarkProfiles(b *testing.B) {
	ctx := context.Background()
	for _, c := range profilecases.Cases {
		b.Run(c.Name()+"/Schematron", func(b *testing.B) {
			p, docs := profileFor(b, c)
			i := 0
			benchcpu.Loop(b, func() {
				i++
				if res, err := p.Validate(ctx, docs[i&1]); err != nil || !res.Complete {
					b.Fatal(err, res)
				}
			})
		})
		b.Run(c.Name()+"/Whole", func(b *testing.B) {
			req := ops.ValidateRequest{Syntax: c.Syntax, Profile: c.Profile, Body: corpus(b, c.Doc)}
			s := svc()
			b.SetBytes(int64(len(req.Body)))
			benchcpu.Loop(b, func() {
				if rep, err := s.Validate(ctx, req); err != nil || !rep.Complete || rep.Valid != (c.Findings == "") {
					b.Fatal(err, rep)
				}
			})
		})
	}
}

// BenchmarkProfileStages runs each rule set of each profile alone on the
// profile's two documents in turn, as BenchmarkProfiles does:
// ProfileStages/<profile>/<n> is the profile's n-th stage (0 the EN 16931
// base, 1 the profile's own rule set), for the time of one stage. Each
// step runs inside stageStep, so that callgrind can count the steps and
// nothing of the setup (the profile's first validation, which may compile
// its rule sets):
//
//	valgrind --tool=callgrind --toggle-collect='github.com/einvoice-dev/einvoice/httpapi/ops/engineval.stageStep' \
//	  engineval.test -test.run '^$' -test.bench '^BenchmarkProfileStages$/^ubl_br_fr$/^1$' -test.benchtime 100x
//
// counts 101 steps (the benchmark's first run of one, then 100). In this
// package's test binary such counts are not repeatable (the validator's
// background goroutines and the runtime's, switching stacks on callgrind's
// threads, fall inside the toggle by chance: runs of one binary differed by
// up to 3x), so compare the median of several runs; the engine package's
// benchmarks (engine.(*Ruleset).Validate) repeat to 0.05 %.
func BenchmarkProfileStages(b *testing.B) {
	ctx := context.Background()
	for _, c := range profilecases.Cases {
		b.Run(c.Name(), func(b *testing.B) {
			p, docs := profileFor(b, c)
			res, err := p.Validate(ctx, docs[0])
			if err != nil || !res.Complete {
				b.Fatal(err, res)
			}
			for i, rs := range res.Rulesets {
				b.Run(fmt.Sprint(i), func(b *testing.B) {
					b.ReportAllocs()
					stageLoop(ctx, b, rs, docs, b.N)
				})
			}
		})
	}
}

// stageLoop validates docs in turn with rs, n times.
func stageLoop(ctx context.Context, b *testing.B, rs *engine.Ruleset, docs [2]*xmltree.Document, n int) {
	for i := range n {
		if err := stageStep(ctx, rs, docs[i&1]); err != nil {
			b.Fatal(err)
		}
	}
}

// stageStep is one step of stageLoop.
//
//go:noinline
func stageStep(ctx context.Context, rs *engine.Ruleset, doc *xmltree.Document) error {
	_, err := rs.Validate(ctx, doc)
	return err
}
