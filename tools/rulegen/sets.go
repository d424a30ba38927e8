package main

import (
	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
)

// ruleSet is one row of the generation table: a Schematron source compiled
// into one generated file of one rule-set package.
type ruleSet struct {
	Set    string // package directory under -out and Go package name
	Syntax string // ubl, cii, or a flavour (Order-X profile)
	// Key names the generated file zz_generated_<Key>.go; "" means Syntax.
	Key     string
	Name    string // rule set name as reported, e.g. "EN16931"
	Version string
	Main    string // main .sch, relative to the shared directory
	Phase   string // "" = the schema's default (#ALL unless defaultPhase)
	Func    string // generated method on the package's Set type
	// Functions names the xsl:function group the set needs ("" = none);
	// see functionGroups.
	Functions string
}

// ruleSets is the generation table. The modular sources (abstract patterns,
// includes) are compiled, never the preprocessed copies.
func ruleSets() []ruleSet {
	return []ruleSet{
		{Set: "en16931", Syntax: "ubl", Name: "EN16931", Version: "1.3.16",
			Main: "rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch", Func: "generatedUBL"},
		{Set: "en16931", Syntax: "cii", Name: "EN16931", Version: "1.3.16",
			Main: "rulesets/en16931/1.3.16/cii/schematron/EN16931-CII-validation.sch", Func: "generatedCII"},
		{Set: "rocius", Syntax: "ubl", Name: "RO_CIUS", Version: "1.0.9",
			Main: "rulesets/ro-cius/1.0.9/EN16931-CIUS_RO-UBL-validation.sch", Func: "generatedUBL"},
		{Set: "orderx", Syntax: "basic", Name: "Order-X", Version: "1.0",
			Main: "rulesets/order-x/1.0/basic/SCRDMCCBDACIOMessageStructure_100pD20B_BASIC.sch", Func: "generatedBasic"},
		{Set: "orderx", Syntax: "comfort", Name: "Order-X", Version: "1.0",
			Main: "rulesets/order-x/1.0/comfort/SCRDMCCBDACIOMessageStructure_100pD20B_COMFORT.sch", Func: "generatedComfort"},
		{Set: "orderx", Syntax: "extended", Name: "Order-X", Version: "1.0",
			Main: "rulesets/order-x/1.0/extended/SCRDMCCBDACIOMessageStructure_100pD20B_EXTENDED.sch", Func: "generatedExtended"},
		// Peppol BIS Billing 3.0.19: its own copy of the EN 16931 rules
		// (CEN-EN16931-*, 1.3.14.1) and the Peppol rules, which call u:*.
		{Set: "peppol", Syntax: "ubl", Key: "cen_ubl", Name: "CEN-EN16931 (Peppol)", Version: "3.0.19",
			Main: "rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-UBL.sch", Func: "generatedCENUBL"},
		{Set: "peppol", Syntax: "ubl", Key: "ubl", Name: "Peppol BIS Billing", Version: "3.0.19",
			Main: "rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-UBL.sch", Func: "generatedUBL", Functions: "peppol"},
		{Set: "peppol", Syntax: "cii", Key: "cen_cii", Name: "CEN-EN16931 (Peppol)", Version: "3.0.19",
			Main: "rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-CII.sch", Func: "generatedCENCII"},
		{Set: "peppol", Syntax: "cii", Key: "cii", Name: "Peppol BIS Billing", Version: "3.0.19",
			Main: "rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-CII.sch", Func: "generatedCII", Functions: "peppol"},
		// Peppol BIS Billing 3.0.21 (May 2026, UBL only): CEN-EN16931-UBL.sch
		// is EN 16931 1.3.16 preprocessed; PEPPOL-EN16931-UBL-SB.sch holds the
		// self-billing rules (Peppol Self-Billing 3.0.2 of the same release),
		// applied instead of PEPPOL-EN16931-UBL.sch to self-billing documents.
		{Set: "peppol", Syntax: "ubl", Key: "cen_ubl_3_0_21", Name: "CEN-EN16931 (Peppol)", Version: "3.0.21",
			Main: "rulesets/peppol-bis-billing/3.0.21/sch/CEN-EN16931-UBL.sch", Func: "generatedCENUBL3021"},
		{Set: "peppol", Syntax: "ubl", Key: "ubl_3_0_21", Name: "Peppol BIS Billing", Version: "3.0.21",
			Main: "rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL.sch", Func: "generatedUBL3021", Functions: "peppol"},
		{Set: "peppol", Syntax: "ubl", Key: "ubl_sb_3_0_21", Name: "Peppol BIS Self-Billing", Version: "3.0.21",
			Main: "rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL-SB.sch", Func: "generatedUBLSB3021", Functions: "peppol"},
		// XRechnung 2.5.0 (XRechnung 3.0.2), applied after EN 16931 1.3.16.
		{Set: "xrechnung", Syntax: "ubl", Name: "XRechnung", Version: "3.0.2",
			Main: "rulesets/xrechnung/2.5.0/ubl/XRechnung-UBL-validation.sch", Func: "generatedUBL", Functions: "xrechnung"},
		{Set: "xrechnung", Syntax: "cii", Name: "XRechnung", Version: "3.0.2",
			Main: "rulesets/xrechnung/2.5.0/cii/XRechnung-CII-validation.sch", Func: "generatedCII", Functions: "xrechnung"},
		// Factur-X 1.09.2 (ZUGFeRD 2.5.2), one set per profile; each loads
		// its FACTUR-X_<P>_codedb.xml with document() (read at Load).
		{Set: "facturx", Syntax: "cii", Key: "minimum", Name: "Factur-X MINIMUM", Version: "1.09.2",
			Main: "rulesets/factur-x/1.09.2/MINIMUM/FACTUR-X_MINIMUM.sch", Func: "generatedMinimum"},
		{Set: "facturx", Syntax: "cii", Key: "basic_wl", Name: "Factur-X BASIC-WL", Version: "1.09.2",
			Main: "rulesets/factur-x/1.09.2/BASIC-WL/FACTUR-X_BASIC-WL.sch", Func: "generatedBasicWL"},
		{Set: "facturx", Syntax: "cii", Key: "basic", Name: "Factur-X BASIC", Version: "1.09.2",
			Main: "rulesets/factur-x/1.09.2/BASIC/FACTUR-X_BASIC.sch", Func: "generatedBasic"},
		{Set: "facturx", Syntax: "cii", Key: "en16931", Name: "Factur-X EN16931", Version: "1.09.2",
			Main: "rulesets/factur-x/1.09.2/EN16931/FACTUR-X_EN16931.sch", Func: "generatedEN16931"},
		{Set: "facturx", Syntax: "cii", Key: "extended", Name: "Factur-X EXTENDED", Version: "1.09.2",
			Main: "rulesets/factur-x/1.09.2/EXTENDED/FACTUR-X_EXTENDED.sch", Func: "generatedExtended"},
		// BR-FR 1.4.0.03 (France CTC, FNFE-MPE): UBL in the EN16931 profile =
		// the package's EN 16931 copy, then the Flux 2 rules whose custom:*
		// xsl:functions are compiled from the same file (group "xsl").
		{Set: "brfr", Syntax: "ubl", Key: "en16931_ubl", Name: "BR-FR EN16931 base", Version: "1.4.0.03",
			Main: "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/EN16931-UBL-validation-preprocessed.sch", Func: "generatedEN16931UBL"},
		{Set: "brfr", Syntax: "ubl", Key: "flux2_ubl", Name: "BR-FR Flux 2", Version: "1.4.0.03",
			Main: "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/BR-FR-Flux2-Schematron-UBL.sch", Func: "generatedFlux2UBL", Functions: "xsl"},
		{Set: "brfr", Syntax: "cii", Key: "en16931_cii", Name: "BR-FR EN16931 base", Version: "1.4.0.03",
			Main: "rulesets/br-fr/1.4.0.03/CII/EN16931/schematron/EN16931-CII-validation-preprocessed.sch", Func: "generatedEN16931CII"},
		{Set: "brfr", Syntax: "cii", Key: "flux2_cii", Name: "BR-FR Flux 2", Version: "1.4.0.03",
			Main: "rulesets/br-fr/1.4.0.03/CII/EN16931/schematron/BR-FR-Flux2-Schematron-CII.sch", Func: "generatedFlux2CII", Functions: "xsl"},
		// EXTENDED-CTC-FR: the extended base, then Flux 2 (the EXTENDED-CTC-FR
		// folder's Flux 2 files are byte-identical to the EN16931 ones).
		{Set: "brfr", Syntax: "ubl", Key: "extended_ubl", Name: "BR-FR EXTENDED-CTC-FR", Version: "1.4.0.03",
			Main: "rulesets/br-fr/1.4.0.03/UBL/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-UBL.sch", Func: "generatedExtendedUBL"},
		{Set: "brfr", Syntax: "cii", Key: "extended_cii", Name: "BR-FR EXTENDED-CTC-FR", Version: "1.4.0.03",
			Main: "rulesets/br-fr/1.4.0.03/CII/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-CII.sch", Func: "generatedExtendedCII"},
		{Set: "brfr", Syntax: "cdar", Key: "cdar", Name: "BR-FR CDAR", Version: "1.4.0.03",
			Main: "rulesets/br-fr/1.4.0.03/CDAR/schematron/BR-FR-CDV-Schematron-CDAR.sch", Func: "generatedCDAR", Functions: "xsl"},
	}
}

// functionGroups maps a group name to a constructor of the extension function
// registry it needs, given the shared directory and the row's main .sch.
// The Peppol / XRechnung u:* functions are Go code in rulesets/xslfunc (one
// file per function, tested against the reference); group "xsl" compiles
// the xsl:function definitions of the main file itself (BR-FR custom:*)
// with xslfunc.FromSchematron, so no official code is copied. EN 16931,
// RO_CIUS and Order-X need none.
func functionGroups() map[string]func(shared, main string) (*vm.Functions, error) {
	return map[string]func(shared, main string) (*vm.Functions, error){
		"":          func(string, string) (*vm.Functions, error) { return nil, nil },
		"peppol":    func(string, string) (*vm.Functions, error) { return xslfunc.Peppol(), nil },
		"xrechnung": func(string, string) (*vm.Functions, error) { return xslfunc.XRechnung(), nil },
		"xsl": func(shared, main string) (*vm.Functions, error) {
			return xslfunc.FromSchematron(shared, main, nil)
		},
	}
}
