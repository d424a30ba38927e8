package conformance

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/conformance/oracle"
)

// TestOracleCalibration proves the oracle is the reference: it must
// reproduce every line of the expected results (made with Saxon-HE 9.9.1.5)
// exactly: the examples and, as a much stronger check (most examples fire
// nothing), every embedded unit-test document with all its findings.
func TestOracleCalibration(t *testing.T) {
	shared := mustShared(t)
	for _, s := range oracleSyntaxes {
		t.Run(s.name, func(t *testing.T) {
			o := sharedOracle(t, shared, s)
			ctx := context.Background()
			root := shared // expected "file" paths are relative to shared/
			for _, corpus := range []string{"examples", "unit-tests"} {
				lines, err := ReadExpected(filepath.Join(shared, "conformance/expected", s.expected, corpus+".jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				if len(lines) == 0 {
					t.Fatalf("%s/%s: no expected lines", s.expected, corpus)
				}
				testSets := map[string]*TestSet{}
				fired := 0
				for _, l := range lines {
					name := l.File
					var data []byte
					if l.Index > 0 { // a unit test: the document embedded in test number Index
						ts, ok := testSets[l.File]
						if !ok {
							if ts, err = ReadTestSet(filepath.Join(root, l.File)); err != nil {
								t.Fatal(err)
							}
							testSets[l.File] = ts
						}
						if l.Index > len(ts.Tests) {
							t.Fatalf("%s: no test %d", l.File, l.Index)
						}
						data = ts.Tests[l.Index-1].Document
						name = l.File + "#" + l.Test
					} else if data, err = os.ReadFile(filepath.Join(root, l.File)); err != nil {
						t.Fatal(err)
					}
					got, err := o.Validate(ctx, name, data)
					if err != nil {
						t.Fatal(err)
					}
					if got.Error != "" {
						t.Errorf("%s: oracle error %s", name, got.Error)
						continue
					}
					want := make([]oracle.Finding, len(l.Fired))
					for i, f := range l.Fired {
						want[i] = oracle.Finding{ID: f.ID, Flag: f.Flag, Kind: f.Kind, Loc: f.Loc, Text: f.Text, Stage: f.Stage}
					}
					fired += len(want)
					if d := exactDiff(got.Fired, want, 10); len(d) > 0 {
						t.Errorf("%s: oracle differs from the expected result:\n\t%s", name, joinLines(d))
					}
				}
				t.Logf("%s/%s: %d documents, %d expected findings compared", s.expected, corpus, len(lines), fired)
			}
		})
	}
}

// exactDiff compares every field, stage errors included.
func exactDiff(got, want []oracle.Finding, limit int) []string {
	var out []string
	for i := 0; i < max(len(got), len(want)) && len(out) < limit; i++ {
		switch {
		case i >= len(got):
			out = append(out, "missing "+fmtFinding(want[i]))
		case i >= len(want):
			out = append(out, "extra   "+fmtFinding(got[i]))
		case got[i] != want[i]:
			out = append(out, "got  "+fmtFinding(got[i])+" ["+got[i].Stage+"]\n\twant "+fmtFinding(want[i])+" ["+want[i].Stage+"]")
		}
	}
	return out
}

func joinLines(s []string) string {
	out := ""
	for i, l := range s {
		if i > 0 {
			out += "\n\t"
		}
		out += l
	}
	return out
}
