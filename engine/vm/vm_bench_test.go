package vm_test

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// Real rule shapes from the EN 16931 UBL rule set, evaluated with the
// invoice element of ubl-tc434-example1.xml as context.
var benchExprs = []struct{ name, expr string }{
	{"overhead", "true()"}, // the fixed cost of one EvalBool (frame acquire/release, one call)
	{"exists", "exists(cbc:IssueDate)"},
	{"child-eq", "cbc:InvoiceTypeCode = '380'"},
	{"codelist", "(some $c in cbc:InvoiceTypeCode satisfies contains(' 80 82 84 130 202 203 204 211 295 325 326 380 383 384 385 386 387 388 389 390 393 394 395 456 457 527 575 623 633 751 780 875 876 877 935 ', concat(' ', normalize-space($c), ' ')))"},
	{"codelist-ctx", "contains(' AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM EUR USD ', concat(' ', normalize-space(cbc:DocumentCurrencyCode), ' '))"},
	{"count", "count(cac:InvoiceLine) >= 1"},
	{"sum-decimal", "xs:decimal(cac:LegalMonetaryTotal/cbc:LineExtensionAmount) = (round(sum(cac:InvoiceLine/xs:decimal(cbc:LineExtensionAmount)) * 10 * 10) div 100)"},
	{"every-line", "every $l in cac:InvoiceLine satisfies exists($l/cbc:ID)"},
	{"matches", "not(cbc:IssueDate) or matches(normalize-space(cbc:IssueDate), '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')"},
	{"descendant", "not(//cbc:IdentificationCode[not(normalize-space(.) = ('AD','AE','AT','DE','FR'))])"},
	{"date-compare", "not(cac:InvoicePeriod/cbc:EndDate) or (xs:date(cac:InvoicePeriod/cbc:EndDate) >= xs:date(cac:InvoicePeriod/cbc:StartDate))"},
}

func loadExample(b *testing.B) *xmltree.Document {
	b.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		b.Fatalf("example: %v", err)
	}
	d, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkEvalRuleShapes(b *testing.B) {
	d := loadExample(b)
	root := rootElement(d)
	ctx := context.Background()
	for _, c := range benchExprs {
		p, err := xpath.Compile(c.expr, ublContext())
		if err != nil {
			b.Fatalf("%s: %v", c.expr, err)
		}
		b.Run(c.name, func(b *testing.B) {
			env := &vm.Env{Doc: d}
			if _, err := p.EvalBool(ctx, env, root); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.EvalBool(ctx, env, root); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPatternMatch(b *testing.B) {
	d := loadExample(b)
	ctx := context.Background()
	pt, err := xpath.CompilePattern("cac:InvoiceLine | cac:CreditNoteLine", ublContext())
	if err != nil {
		b.Fatal(err)
	}
	env := &vm.Env{Doc: d}
	b.ReportAllocs()
	for b.Loop() {
		for n := 0; n < d.Len(); n++ {
			if _, err := pt.Matches(ctx, env, xmltree.NodeID(n)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func sharedDir() string {
	return testshared.Path()
}

func ublContext() *xpath.StaticContext {
	return &xpath.StaticContext{Namespaces: map[string]string{
		"cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
		"cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
		"ubl": "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
	}}
}

func rootElement(d *xmltree.Document) xmltree.NodeID {
	for c := d.FirstChild(0); c != xmltree.None; c = d.NextSibling(c) {
		if d.Kind(c) == xmltree.KindElement {
			return c
		}
	}
	return xmltree.None
}
