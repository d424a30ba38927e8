// Package profilecases owns the list of the profiles of DECISIONS.md with
// one example document each from ../shared/corpus: the documents the
// profile benchmarks run (httpapi/ops/engineval's BenchmarkProfiles and
// scripts/profilebench.sh against the reference, issue 4; rulesets'
// BenchmarkProfileSteps, the rule sets alone for callgrind). Imported by
// tests and benchmarks only.
package profilecases

// Case is one profile with one example document of it.
type Case struct {
	Syntax, Profile string
	Doc             string // relative to shared/corpus
	// Findings, when set, says why the document is not valid for the
	// profile: the corpus has no valid example of it (the benchmarks then
	// still run every rule set, and check the report is complete).
	Findings string
}

// Name is the case's benchmark name, syntax_profile.
func (c Case) Name() string { return c.Syntax + "_" + c.Profile }

// Cases are the profiles in the order the profile tables list them.
var Cases = []Case{
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
