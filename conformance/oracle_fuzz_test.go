package conformance

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/conformance/mutate"
)

var (
	oracleDuration = flag.Duration("oracle.duration", 0, "TestOracleFuzz: how long to generate mutants (0: the test is not run)")
	oracleSeed     = flag.Uint64("oracle.seed", 0, "TestOracleFuzz: first seed (0: derived from the clock, printed)")
)

// TestOracleFuzz is the differential fuzzer ("make fuzz-oracle"): it keeps
// generating mutants of the valid examples with fresh seeds (even seeds
// UBL, odd CII), for -oracle.duration, and stops at the first disagreement
// between our engine and the reference, printing it (mutant name with its
// seed, rule, both answers). Reproduce a reported mutant with
// -oracle.seed=<seed> or with TestOracleDiff (EINVOICE_ORACLE_SEED=<seed>
// EINVOICE_ORACLE_MUTANTS=1); with EINVOICE_ORACLE_DUMP=<dir> the mutant
// is also written to <dir>/<syntax>-<seed>.xml.
//
//	go test -count=1 -timeout 0 -run '^TestOracleFuzz$' ./conformance -oracle.duration=10m
func TestOracleFuzz(t *testing.T) {
	if *oracleDuration <= 0 {
		t.Skip("on demand: pass -oracle.duration=10m (make fuzz-oracle)")
	}
	shared := mustShared(t)
	seed := *oracleSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("first seed %d", seed)
	type side struct {
		s    oracleSyntax
		run  *diffRun
		srcs []*mutate.Document
	}
	var sides []*side
	for _, s := range oracleSyntaxes {
		examples, _ := corpusDocs(t, shared, s)
		sides = append(sides, &side{
			s:    s,
			run:  newDiffRun(t, sharedOracle(t, shared, s), newOurValidator(t, s)),
			srcs: mutationSources(t, shared, s, examples),
		})
	}
	ctx := context.Background()
	deadline := time.Now().Add(*oracleDuration)
	n := 0
	for ; time.Now().Before(deadline); seed++ {
		sd := sides[seed%uint64(len(sides))] // the seed alone picks syntax, source and mutation
		n++
		m := mutantAt(sd.srcs, seed)
		if d := sd.run.check(ctx, m.Name, m.Data); d != "" {
			if dir := os.Getenv("EINVOICE_ORACLE_DUMP"); dir != "" {
				p := filepath.Join(dir, fmt.Sprintf("%s-%d.xml", sd.s.name, seed))
				if err := os.WriteFile(p, m.Data, 0o644); err != nil {
					t.Errorf("dump: %v", err)
				} else {
					t.Logf("the mutant is in %s", p)
				}
			}
			t.Fatalf("first disagreement after %d mutants (%s, seed %d); reproduce with -oracle.seed=%d", n, sd.s.name, seed, seed)
		}
	}
	for _, sd := range sides {
		sd.run.summary(sd.s.name)
	}
	t.Logf("%d mutants in %v, no disagreement; next seed %d", n, *oracleDuration, seed)
}
