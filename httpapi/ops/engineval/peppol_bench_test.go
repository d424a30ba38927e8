//go:build unix

package engineval

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/benchcpu"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
)

// peppolCurrencyRule is the Peppol 3.0.21 assert that makes generate/ubl
// with profile=peppol twice as slow as with en16931 (issue 5, see
// docs/PERFORMANCE.md): for every amount element it iterates over the 180
// ISO 4217 codes of $ISO4217.
const peppolCurrencyRule = "PEPPOL-EN16931-CL007"

// BenchmarkPeppolStages splits the Schematron step of generate/ubl
// profile=peppol on its own 10-line document (the document of
// BenchmarkGenerate in package ops): the EN 16931 copy, the Peppol billing
// rules as shipped, and the Peppol rules with PEPPOL-EN16931-CL007's test
// `some $code in $ISO4217 satisfies @currencyID = $code` replaced by the
// equivalent general comparison `@currencyID = $ISO4217` (a general
// comparison is existential over both sequences: same verdict, same
// findings; the benchmark checks the findings are equal). The difference
// is what the engine would win by evaluating such a quantifier as one
// comparison: the rewrite is the engine's to make, not the rule set's.
func BenchmarkPeppolStages(b *testing.B) {
	doc, docXML := peppolGenerated(b)
	p, ok := testValidator.catalog.Profile("ubl", "peppol")
	if !ok || len(p.Rulesets) < 2 {
		b.Fatal("no peppol profile with two rule sets")
	}
	cen, billing := p.Rulesets[0], p.Rulesets[1]
	t := *billing.Tables()
	t.Checks = append([]engine.Check(nil), t.Checks...)
	found := false
	for i := range t.Checks {
		if t.Checks[i].ID == peppolCurrencyRule {
			if got := strings.Join(strings.Fields(t.Checks[i].Test), " "); got != "some $code in $ISO4217 satisfies @currencyID = $code" {
				b.Fatalf("%s changed: %q", peppolCurrencyRule, got)
			}
			t.Checks[i].Test = "@currencyID = $ISO4217"
			found = true
		}
	}
	if !found {
		b.Fatalf("%s not in %s", peppolCurrencyRule, t.Source)
	}
	rewritten, err := engine.Load(&t, engine.WithFunctions(xslfunc.Peppol()))
	if err != nil {
		b.Fatal(err)
	}
	// Same findings on the document and on a copy with one unknown currency
	// (where CL007 fires).
	bad, err := xmltree.Parse(currencyAttr.ReplaceAll(docXML, []byte(`currencyID="ZZZ"`)), xmltree.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []*xmltree.Document{doc[0], bad} {
		want := peppolFindings(b, billing, d)
		if got := peppolFindings(b, rewritten, d); got != want {
			b.Fatalf("rewritten findings %q, shipped %q", got, want)
		}
	}
	if !strings.Contains(peppolFindings(b, billing, bad), peppolCurrencyRule) {
		b.Fatalf("%s did not fire on an unknown currency", peppolCurrencyRule)
	}
	for _, c := range []struct {
		name string
		rs   *engine.Ruleset
	}{{"cen", cen}, {"peppol_shipped", billing}, {"peppol_cl007_rewritten", rewritten}} {
		b.Run(c.name, func(b *testing.B) {
			i := 0
			benchcpu.Loop(b, func() {
				if _, err := c.rs.Validate(context.Background(), doc[i%2]); err != nil {
					b.Fatal(err)
				}
				i++
			})
		})
	}
}

// peppolGenerated writes the 10-line random invoice of BenchmarkGenerate
// (seed 42) as profile=peppol UBL and parses it twice (alternated, so the
// per-document memos are cold on every op).
func peppolGenerated(b *testing.B) ([2]*xmltree.Document, []byte) {
	inv := model.RandomInvoice(rand.New(rand.NewPCG(42, 7)), model.RandomOptions{Lines: 10})
	body, err := model.EncodeInvoice(inv)
	if err != nil {
		b.Fatal(err)
	}
	res, err := (&ops.Service{}).Generate(context.Background(), ops.GenerateRequest{Syntax: "ubl", Profile: "peppol",
		Body: append(append([]byte(`{"invoice":`), body...), '}')})
	if err != nil {
		b.Fatal(err)
	}
	var docs [2]*xmltree.Document
	for i := range docs {
		if docs[i], err = xmltree.Parse(res.XML, xmltree.DefaultLimits()); err != nil {
			b.Fatal(err)
		}
	}
	return docs, res.XML
}

// currencyAttr matches every currencyID attribute.
var currencyAttr = regexp.MustCompile(`currencyID="[A-Z]{3}"`)

func peppolFindings(b *testing.B, rs *engine.Ruleset, doc *xmltree.Document) string {
	fs, err := rs.Validate(context.Background(), doc)
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.RuleID+"@"+f.Location)
	}
	return strings.Join(ids, " ")
}
