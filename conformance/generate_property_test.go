package conformance

// Property test of generation (issue 5): random canonical-model invoices go
// through ops.Generate (validate=false, the API's own code path), and every
// output must be free of fatal findings for OUR validator (the full profile:
// XSD and every rule set) AND give exactly the reference oracle's findings
// for the EN 16931 Schematron of its syntax (the stylesheets wired in
// oracle_helpers_test.go), with no fatal one there either.

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/einvoice-dev/einvoice/conformance/oracle"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
)

// generateModels is the number of random models per profile:
// EINVOICE_GENERATE_MODELS, else the caller's n (50 with -short).
func generateModels(t *testing.T, n int) int {
	t.Helper()
	if testing.Short() {
		n = 50
	}
	if s := os.Getenv("EINVOICE_GENERATE_MODELS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("EINVOICE_GENERATE_MODELS=%q: want a positive integer", s)
		}
		n = v
	}
	return n
}

func TestGenerateProperty(t *testing.T) {
	shared := mustShared(t)
	n := generateModels(t, 1000) // issue 5: at least 1,000 per profile
	v, err := engineval.New(shared)
	if err != nil {
		t.Fatalf("engine validator: %v", err)
	}
	defer v.Close()
	svc := &ops.Service{Validator: v}
	ctx := context.Background()
	bySyntax := map[string]oracleSyntax{}
	for _, s := range oracleSyntaxes {
		bySyntax[s.name] = s
	}
	for _, c := range []struct{ syntax, profile string }{{"ubl", "en16931"}, {"ubl", "peppol"}, {"cii", "en16931"}} {
		t.Run(c.syntax+"_"+c.profile, func(t *testing.T) {
			s := bySyntax[c.syntax]
			ref := sharedOracle(t, shared, s)
			ours := newOurValidator(t, s)
			failures, findings := 0, 0
			for i := range n {
				seed := uint64(i)
				inv := model.RandomInvoice(rand.New(rand.NewPCG(seed, 0x9e37)), model.RandomOptions{})
				b, err := model.EncodeInvoice(inv)
				if err != nil {
					t.Fatalf("seed %d: encode: %v", seed, err)
				}
				body := append(append([]byte(`{"invoice":`), b...), '}')
				res, err := svc.Generate(ctx, ops.GenerateRequest{Syntax: c.syntax, Profile: c.profile, Validate: false, Body: body})
				if err != nil {
					t.Fatalf("seed %d: generate: %v", seed, err)
				}
				name := c.syntax + "-" + c.profile + "-" + strconv.Itoa(i) + ".xml"
				var problems []string
				if res.Report == nil || res.Report.Counts.Fatal > 0 || !res.Report.Valid {
					for _, f := range res.Report.Findings {
						if f.Flag == "fatal" {
							problems = append(problems, "ours (full profile): "+f.RuleID+" "+f.Location+" "+f.Message)
						}
					}
					if len(problems) == 0 {
						problems = append(problems, "ours: report not valid (incomplete)")
					}
				}
				fired, parseErr := ours.validate(ctx, res.XML)
				r, err := ref.Validate(ctx, name, res.XML)
				if err != nil {
					t.Fatalf("seed %d: oracle: %v", seed, err)
				}
				if d := disagreement(name, fired, parseErr, r); d != "" {
					problems = append(problems, "ours != reference: "+d)
				}
				var nf int
				problems, nf = referenceFatals(r, problems)
				findings += nf
				if len(problems) > 0 {
					failures++
					if failures <= 5 {
						t.Errorf("seed %d (%s): %v\n%s", seed, name, problems, res.XML)
					}
				}
			}
			t.Logf("%d models, %d failing, %d reference findings (non-fatal)", n, failures, findings)
			if failures > 0 {
				t.Errorf("%d of %d generated documents failed", failures, n)
			}
		})
	}
}

// referenceFatals appends to problems every fatal finding and stage error the
// reference reported in r, and returns how many findings r has in all.
func referenceFatals(r *oracle.Result, problems []string) ([]string, int) {
	for _, f := range r.Fired {
		if f.Flag == "fatal" || f.Kind == "stage-error" {
			problems = append(problems, "reference: "+fmtFinding(f))
		}
	}
	return problems, len(r.Fired)
}
