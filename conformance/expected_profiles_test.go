package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/rulesets"
)

var catalogOnce sync.Once
var catalogVal *rulesets.Catalog
var catalogErr error

func loadCatalog(t *testing.T, shared string) *rulesets.Catalog {
	t.Helper()
	catalogOnce.Do(func() { catalogVal, catalogErr = rulesets.Load(rulesets.WithShared(shared)) })
	if catalogErr != nil {
		t.Fatal(catalogErr)
	}
	return catalogVal
}

// TestExpectedPeppol3021Profile runs the catalog's default UBL profile
// (Peppol 3.0.21, which picks billing or self-billing rules per document)
// over both 3.0.21 corpora: the findings must equal the reference's run of
// the corresponding rule set, and every example is accepted.
func TestExpectedPeppol3021Profile(t *testing.T) {
	h := newHarness(t)
	c := loadCatalog(t, h.shared)
	p, ok := c.Profile(rulesets.SyntaxUBL, "")
	if !ok || p.Version != "3.0.21" {
		t.Fatalf("default UBL profile %+v", p)
	}
	for _, c := range []struct{ set, scenario string }{
		{"peppol-ubl-3.0.21", "Peppol BIS Billing 3.0.21"},
		{"peppol-ubl-sb-3.0.21", "Peppol BIS Self-Billing 3.0.21"},
	} {
		lines, err := ReadExpected(filepath.Join(h.shared, "conformance", "expected", c.set, "examples.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			doc := parseFile(t, h.shared, l.File)
			res, err := p.Validate(context.Background(), doc)
			if err != nil {
				t.Fatal(err)
			}
			var got []engine.Finding
			for _, f := range res.Findings {
				got = append(got, f.Finding)
			}
			if diff := Diff(got, l.Fired); len(diff) > 0 || res.Scenario != c.scenario || !res.Complete {
				t.Errorf("%s: scenario %q, complete %v, diff:\n%s", l.File, res.Scenario, res.Complete, strings.Join(diff, "\n"))
			}
			if !res.Valid {
				t.Errorf("%s: example rejected: %+v", l.File, res.Errors)
			}
		}
	}
}

// TestXRechnungVerdicts: the KoSIT technical reference messages are valid
// XRechnung (CIUS or CVD): the xrechnung profile, with the official
// validator's scenarios and severity overrides, accepts every one, in the
// scenario of its CustomizationID; the findings before the overrides equal
// the reference's.
func TestXRechnungVerdicts(t *testing.T) {
	h := newHarness(t)
	c := loadCatalog(t, h.shared)
	for _, syntax := range []string{"ubl", "cii"} {
		p, ok := c.Profile(syntax, "xrechnung")
		if !ok {
			t.Fatalf("%s xrechnung: %v", syntax, p.Err)
		}
		lines, err := ReadExpected(filepath.Join(h.shared, "conformance", "expected", "xrechnung-"+syntax, "testsuite-technical.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			res, err := p.Validate(context.Background(), parseFile(t, h.shared, l.File))
			if err != nil {
				t.Fatal(err)
			}
			wantCVD := strings.Contains(l.File, "/cvd/")
			if !res.Valid || strings.Contains(res.Scenario, "CVD") != wantCVD || !strings.Contains(res.Scenario, "XRechnung") {
				t.Errorf("%s: valid=%v scenario %q errors %v", l.File, res.Valid, res.Scenario, res.Errors)
			}
			var got []engine.Finding
			for _, f := range res.Findings {
				if f.DeclaredFlag != "" {
					f.Flag = f.DeclaredFlag
				}
				got = append(got, f.Finding)
			}
			if diff := Diff(got, l.Fired); len(diff) > 0 {
				t.Errorf("%s: %s", l.File, strings.Join(diff, "\n"))
			}
		}
		t.Logf("%s: %d reference messages accepted", syntax, len(lines))
	}
}

func parseFile(t *testing.T, shared, rel string) *xmltree.Document {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(shared, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
