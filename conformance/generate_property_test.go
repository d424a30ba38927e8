package conformance

// Property test of generation (issue 5): for every profile of
// generate/ubl and generate/cii, random canonical-model invoices valid for
// that profile (model.RandomInvoice with the profile's RandomOptions) go
// through ops.Generate (validate=false, the API's own code path). Every
// output must be free of fatal findings for OUR validator (the full
// profile: XSD and every rule set), free of fatal findings for the
// reference oracle running ALL the .sch stages of the profile (the sets of
// oracle_diff_sets_test.go, one warm process per set), and our findings per
// stage must equal the reference's (TestOracleDiff's disagreement).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/conformance/oracle"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/internal/benchcpu"
	"github.com/einvoice-dev/einvoice/rulesets"
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

// generateCase is one profile of generate/ubl or generate/cii, the
// reference set that judges its output and the random models valid for it.
type generateCase struct {
	syntax, profile string
	set             string // an oracleSets name
	opts            model.RandomOptions
	// refused, when set, says why no model can give a valid document of
	// the profile today: every output must then be refused by our gate
	// (and still give the reference's findings); a document that passes
	// fails the test, so the case is revisited when the gap closes.
	refused string
}

func (c generateCase) name() string { return c.syntax + "_" + c.profile }

// generateCases lists every profile of wire.UBLProfiles and
// wire.CIIProfiles (TestGenerateCasesCoverProfiles checks it). The
// reference set is the one of the rule sets our catalog's default version
// of the profile runs.
var generateCases = []generateCase{
	{syntax: "ubl", profile: "en16931", set: "en16931-ubl"},
	{syntax: "ubl", profile: "peppol", set: "peppol-3.0.21-ubl"},
	{syntax: "ubl", profile: "xrechnung", set: "xrechnung-ubl", opts: model.RandomOptions{Profile: model.RandomXRechnung}},
	{syntax: "ubl", profile: "ro_cius", set: "ro-cius", opts: model.RandomOptions{Profile: model.RandomROCIUS}},
	{syntax: "ubl", profile: "br_fr", set: "br-fr-ubl", opts: model.RandomOptions{Profile: model.RandomBRFR}},
	{syntax: "cii", profile: "en16931", set: "en16931-cii"},
	{syntax: "cii", profile: "xrechnung", set: "xrechnung-cii", opts: model.RandomOptions{Profile: model.RandomXRechnung}},
	{syntax: "cii", profile: "peppol", set: "peppol-3.0.19-cii"},
	{syntax: "cii", profile: "br_fr", set: "br-fr-cii", opts: model.RandomOptions{Profile: model.RandomBRFR}},
	// MINIMUM and BASIC WL have no lines: the generator writes the
	// profile's view of the full model (cii.ProfileView) and reports what
	// it dropped; the view must pass us and the reference like any other.
	{syntax: "cii", profile: "facturx_minimum", set: "factur-x-minimum"},
	{syntax: "cii", profile: "facturx_basicwl", set: "factur-x-basic-wl"},
	{syntax: "cii", profile: "facturx_basic", set: "factur-x-basic", opts: model.RandomOptions{Profile: model.RandomFacturXBasic}},
	{syntax: "cii", profile: "facturx_en16931", set: "factur-x-en16931"},
	{syntax: "cii", profile: "facturx_extended", set: "factur-x-extended"},
}

// TestGenerateCasesCoverProfiles (no Java): every generate profile has a
// case, and every case names a reference set.
func TestGenerateCasesCoverProfiles(t *testing.T) {
	have := map[string]bool{}
	for _, c := range generateCases {
		have[c.name()] = true
		if _, ok := oracleSetNamed(c.set); !ok {
			t.Errorf("%s: no oracle set %q", c.name(), c.set)
		}
	}
	for syntax, profiles := range map[string]string{"ubl": wire.UBLProfiles, "cii": wire.CIIProfiles} {
		for _, p := range strings.Split(profiles, ",") {
			if !have[syntax+"_"+p] {
				t.Errorf("generate profile %s/%s has no property test case", syntax, p)
			}
		}
	}
}

func TestGenerateProperty(t *testing.T) {
	// The four reference-driven tests run side by side: each is mostly one JVM
	// and our engine on one core, and CI has two (make test stays under 25 min).
	t.Parallel()
	requireOracle(t)
	shared := mustShared(t)
	n := generateModels(t, 1000) // issue 5: at least 1,000 per profile
	v, err := engineval.New(shared)
	if err != nil {
		t.Fatalf("engine validator: %v", err)
	}
	defer v.Close()
	svc := &ops.Service{Validator: v}
	cat := loadCatalog(t, shared)
	// Two profiles at a time (-test.parallel, default GOMAXPROCS): each
	// reference is one single-threaded request stream, so one profile at a
	// time leaves a core idle while the reference works; each profile's
	// reference compiles while the other profile runs.
	t.Run("profiles", func(t *testing.T) {
		for _, c := range generateCases {
			t.Run(c.name(), func(t *testing.T) {
				t.Parallel()
				runGenerateCase(t, shared, svc, cat, c, n)
			})
		}
	})
}

// runGenerateCase checks n random models of one case against the reference
// of its set.
func runGenerateCase(t *testing.T, shared string, svc *ops.Service, cat *rulesets.Catalog, c generateCase, n int) {
	set, _ := oracleSetNamed(c.set)
	ref := (<-startSet(shared, set)).use(t, set.name)
	ours := newStagedValidator(t, cat, set)
	t0, cpu0 := time.Now(), benchcpu.Process()
	var refMS float64
	failures, findings := 0, 0
	for k := range n {
		seed := uint64(k)
		problems, nf, ms, xml := checkGenerated(t, svc, ours, ref, c, seed)
		refMS += ms
		if c.refused != "" {
			problems = expectRefused(problems)
		}
		findings += nf
		if len(problems) > 0 {
			failures++
			if failures <= 5 {
				t.Errorf("seed %d (%s): %s\n%s", seed, c.name(), strings.Join(problems, "\n\t"), xml)
			}
		}
	}
	what := "failing"
	if c.refused != "" {
		what = "not as expected (every document refused: " + c.refused + ")"
	}
	// Wall time swings with the machine's load; the process's CPU time
	// (this profile's alone with -test.parallel 1) and the reference's own
	// Schematron time do not.
	t.Logf("%s: %d models, %d %s, %d reference findings; %v wall, ours %.1f ms CPU/doc, reference %.1f ms/doc",
		c.name(), n, failures, what, findings, time.Since(t0).Round(time.Millisecond),
		float64(benchcpu.Process()-cpu0)/float64(time.Millisecond)/float64(n), refMS/float64(n))
	if failures > 0 {
		t.Errorf("%d of %d generated documents failed", failures, n)
	}
}

// checkGenerated generates the model of one seed for c and compares the
// output: it returns the problems (none when the document passes), the
// number of reference findings, the reference's Schematron time (ms) and
// the document.
func checkGenerated(t *testing.T, svc *ops.Service, ours *stagedValidator, ref *oracle.Oracle, c generateCase, seed uint64) (problems []string, findings int, refMS float64, xml []byte) {
	t.Helper()
	ctx := context.Background()
	inv := model.RandomInvoice(rand.New(rand.NewPCG(seed, 0x9e37)), c.opts)
	b, err := model.EncodeInvoice(inv)
	if err != nil {
		t.Fatalf("seed %d: encode: %v", seed, err)
	}
	body := append(append([]byte(`{"invoice":`), b...), '}')
	res, err := svc.Generate(ctx, ops.GenerateRequest{Syntax: c.syntax, Profile: c.profile, Validate: false, Body: body})
	if err != nil {
		return []string{fmt.Sprintf("generate: %v", err)}, 0, 0, body
	}
	if res.Report == nil || res.Report.Counts.Fatal > 0 || !res.Report.Valid {
		if res.Report != nil {
			for _, f := range res.Report.Findings {
				if f.Flag == wire.FlagFatal {
					problems = append(problems, "ours (full profile): "+f.RuleID+" "+f.Location+" "+f.Message)
				}
			}
		}
		if len(problems) == 0 {
			problems = append(problems, "ours: report missing or not valid (incomplete)")
		}
	}
	name := c.name() + "-" + strconv.FormatUint(seed, 10) + ".xml"
	type ourRes struct {
		fired []oracle.Finding
		perr  string
	}
	ch := make(chan ourRes, 1)
	go func() { // our stages run while the reference does
		f, p := ours.validate(ctx, res.XML)
		ch <- ourRes{f, p}
	}()
	r, err := ref.Validate(ctx, name, res.XML)
	our := <-ch
	if err != nil {
		t.Fatalf("seed %d: oracle: %v", seed, err)
	}
	if d := disagreement(name, our.fired, our.perr, r); d != "" {
		problems = append(problems, "ours != reference: "+d)
	}
	problems, findings = referenceFatals(r, problems)
	return problems, findings, r.MS, res.XML
}

// expectRefused turns the problems of a document of a refused case into
// the problems of that case: our gate must have refused it (an "ours (full
// profile)" problem) and our stages must still agree with the reference.
func expectRefused(problems []string) []string {
	var out []string
	refused := false
	for _, p := range problems {
		switch {
		case strings.HasPrefix(p, "ours (full profile): "):
			refused = true
		case strings.HasPrefix(p, "ours != reference: "), strings.HasPrefix(p, "generate: "):
			out = append(out, p)
		}
	}
	if !refused {
		out = append(out, "our gate accepted a document of a profile marked refused: the gap is closed, update the case")
	}
	return out
}

// referenceFatals appends to problems every rejecting finding the reference
// reported in r - flag fatal or error, an assert without a flag (the
// Factur-X and Order-X rule sets have none; our validator counts them fatal,
// engineval.normFlag) - and every stage error, and returns how many
// findings r has in all.
func referenceFatals(r *oracle.Result, problems []string) ([]string, int) {
	for _, f := range r.Fired {
		if f.Flag == "fatal" || f.Flag == "error" || (f.Flag == "" && f.Kind == "assert") || f.Kind == "stage-error" {
			problems = append(problems, "reference: "+fmtFinding(f))
		}
	}
	return problems, len(r.Fired)
}
