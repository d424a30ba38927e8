package xpath

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// benchExprs are real rule shapes from the EN 16931 UBL rule set (the
// evaluator benchmarks on them live in engine/vm/vm_bench_test.go).
var benchExprs = []string{
	"exists(cbc:IssueDate)",
	"cbc:InvoiceTypeCode = '380'",
	"contains(' AED AFN ALL EUR USD ', concat(' ', normalize-space(cbc:DocumentCurrencyCode), ' '))",
	"xs:decimal(cac:LegalMonetaryTotal/cbc:LineExtensionAmount) = (round(sum(cac:InvoiceLine/xs:decimal(cbc:LineExtensionAmount)) * 10 * 10) div 100)",
	"every $l in cac:InvoiceLine satisfies exists($l/cbc:ID)",
	"not(cbc:IssueDate) or matches(normalize-space(cbc:IssueDate), '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')",
	"not(cac:InvoicePeriod/cbc:EndDate) or (xs:date(cac:InvoicePeriod/cbc:EndDate) >= xs:date(cac:InvoicePeriod/cbc:StartDate))",
}

func BenchmarkCompile(b *testing.B) {
	sc := ublContext()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range benchExprs {
			if _, err := Compile(c, sc); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkFastPaths compares each rewritten rule shape with the same
// expression compiled without rewrites (the justification for the
// specialised ops), on the Invoice element of ubl-tc434-example1.xml.
func BenchmarkFastPaths(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		b.Fatal(err)
	}
	d, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	root := rootElement(d)
	ctx := context.Background()
	for _, c := range []struct{ name, expr string }{
		{"exists", "exists(cbc:IssueDate)"},
		{"child-eq", "cbc:InvoiceTypeCode = '380'"},
		{"codelist", "contains(' AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD EUR USD ', concat(' ', normalize-space(cbc:DocumentCurrencyCode), ' '))"},
		{"descendant", "count(//cbc:ID[. != ''])"},
		{"position", "cac:InvoiceLine[1]/cbc:ID"},
	} {
		for _, opt := range []bool{true, false} {
			p, err := compile(c.expr, ublContext(), opt)
			if err != nil {
				b.Fatal(err)
			}
			name := c.name + "/plain"
			if opt {
				name = c.name + "/optimized"
			}
			b.Run(name, func(b *testing.B) {
				env := &vm.Env{Doc: d}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := p.EvalBool(ctx, env, root); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEN16931UBLExample runs every rule of the preprocessed EN 16931
// UBL Schematron (979 asserts; first matching rule per pattern and node,
// found by trying each rule's pattern, without the engine's name index) over
// ubl-tc434-example1.xml.
func BenchmarkEN16931UBLExample(b *testing.B) {
	patterns := ublSchematron(b)
	data, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		b.Fatal(err)
	}
	d, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if fired, _ := runSmoke(b, patterns, d); len(fired) != 0 {
			b.Fatalf("unexpected findings %v", fired)
		}
	}
}
