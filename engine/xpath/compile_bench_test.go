package xpath

import "testing"

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
