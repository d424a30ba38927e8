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
)

// profileCase is one profile of DECISIONS.md with one valid example
// document of it from ../shared/corpus (issue 4: a speed table per profile
// against the reference, scripts/profilebench.sh).
type profileCase struct {
	syntax, profile string
	doc             string // relative to shared/corpus
	// findings, when set, says why the document is not valid for the
	// profile: the corpus has no valid example of it (the benchmark then
	// still runs every rule set, and checks the report is complete).
	findings string
}

var profileCases = []profileCase{
	{"ubl", "peppol", "peppol-bis-billing/3.0.21/examples/base-example.xml", ""},
	{"ubl", "xrechnung", "xrechnung-testsuite/technical-cases/cius/01.01_comprehensive_test_ubl.xml", ""},
	{"ubl", "ro_cius", "ro-cius/1.0.9/ubl_b2g_example1.xml", ""},
	{"ubl", "br_fr", "br-fr/akretion/ubl-21-en16931.xml", ""},
	{"ubl", "en16931", "en16931/ubl/examples/ubl-tc434-example1.xml", ""},
	{"cii", "en16931", "en16931/cii/examples/CII_example1.xml", ""},
	{"cii", "xrechnung", "xrechnung-testsuite/technical-cases/cius/01.01_comprehensive_test_uncefact.xml", ""},
	{"cii", "peppol", "en16931/cii/examples/CII_example1.xml",
		"no Peppol-valid CII invoice in the corpus (only unit-test fragments): EN 16931 example 1, 9 Peppol findings"},
	{"cii", "br_fr", "factur-x/akretion/factur-x-en16931.xml", ""},
	{"cii", "facturx_minimum", "factur-x/1.09.2/phive-test-files/minimum/factur-x-1.xml", ""},
	{"cii", "facturx_basicwl", "factur-x/1.09.2/phive-test-files/basicwl/factur-x-1.xml", ""},
	{"cii", "facturx_basic", "factur-x/1.09.2/phive-test-files/basic/factur-x-1.xml", ""},
	{"cii", "facturx_en16931", "factur-x/1.09.2/phive-test-files/en16931/factur-x-1.xml", ""},
	{"cii", "facturx_extended", "factur-x/1.09.2/phive-test-files/extended/factur-x-1.xml", ""},
	{"orderx", "basic", "order-x/akretion/order-x-basic.xml", ""},
	{"orderx", "comfort", "order-x/akretion/order-x-comfort.xml", ""},
	// The corpus's one EXTENDED Order-X (horstoeko) fails the EXTENDED
	// XSD; the COMFORT example is a valid EXTENDED order.
	{"orderx", "extended", "order-x/akretion/order-x-comfort.xml", ""},
}

func (c profileCase) name() string { return c.syntax + "_" + c.profile }

// profileFor returns the case's default-version profile and two separate
// parses of its document (the Schematron benchmark alternates them, so
// every op sees a document the previous op did not: the vm's
// per-document memos are cold, as in a service).
func profileFor(t testing.TB, c profileCase) (*rulesets.Profile, [2]*xmltree.Document) {
	t.Helper()
	p, ok := testValidator.catalog.Profile(c.syntax, c.profile)
	if !ok {
		t.Fatalf("profile %s/%s not in the catalog", c.syntax, c.profile)
	}
	data := corpus(t, c.doc)
	var docs [2]*xmltree.Document
	for i := range docs {
		d, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", c.doc, err)
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
	for _, c := range profileCases {
		rep, err := svc().Validate(context.Background(), ops.ValidateRequest{Syntax: c.syntax, Profile: c.profile, Body: corpus(t, c.doc)})
		if err != nil {
			t.Fatalf("%s: %v", c.name(), err)
		}
		if rep.Valid == (c.findings != "") || !rep.Complete {
			t.Errorf("%s: %s: valid %v, complete %v, want valid %v: %+v", c.name(), c.doc, rep.Valid, rep.Complete, c.findings == "", rep)
			continue
		}
		p, docs := profileFor(t, c)
		res, err := p.Validate(context.Background(), docs[0])
		if err != nil || !res.Complete || len(res.Rulesets) == 0 {
			t.Fatalf("%s: rule sets: %v %+v", c.name(), err, res)
		}
		stages := make([]string, len(res.Rulesets))
		for i, rs := range res.Rulesets {
			src := rs.Tables().Source
			if !strings.HasSuffix(src, ".sch") {
				t.Fatalf("%s: rule set %s has no .sch source (%q)", c.name(), rs.Label(), src)
			}
			if _, err := os.Stat(filepath.Join(shared(), filepath.FromSlash(src))); err != nil {
				t.Fatalf("%s: %v", c.name(), err)
			}
			stages[i] = src
		}
		if list {
			fmt.Printf("PROFILE %s %s %s %s\n", c.name(), p.Version, "corpus/"+c.doc, strings.Join(stages, " "))
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
	for _, c := range profileCases {
		b.Run(c.name()+"/Schematron", func(b *testing.B) {
			p, docs := profileFor(b, c)
			i := 0
			benchcpu.Loop(b, func() {
				i++
				if res, err := p.Validate(ctx, docs[i&1]); err != nil || !res.Complete {
					b.Fatal(err, res)
				}
			})
		})
		b.Run(c.name()+"/Whole", func(b *testing.B) {
			req := ops.ValidateRequest{Syntax: c.syntax, Profile: c.profile, Body: corpus(b, c.doc)}
			s := svc()
			b.SetBytes(int64(len(req.Body)))
			benchcpu.Loop(b, func() {
				if rep, err := s.Validate(ctx, req); err != nil || !rep.Complete || rep.Valid != (c.findings == "") {
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
	for _, c := range profileCases {
		b.Run(c.name(), func(b *testing.B) {
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
