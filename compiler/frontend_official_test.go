package compiler

import (
	"context"
	"testing"
)

// officialMains are the main Schematron files of the rule sets the project
// will carry (MANIFEST.md). The front end (load .. lets) must accept all of
// them, so that each later rule set is one row in rulegen's table.
var officialMains = []string{
	"rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-UBL.sch",
	"rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-CII.sch",
	"rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-UBL.sch",
	"rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-CII.sch",
	"rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL.sch",
	"rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL-SB.sch",
	"rulesets/xrechnung/2.5.0/ubl/XRechnung-UBL-validation.sch",
	"rulesets/xrechnung/2.5.0/cii/XRechnung-CII-validation.sch",
	"rulesets/ro-cius/1.0.9/EN16931-CIUS_RO-UBL-validation.sch",
	"rulesets/br-fr/1.4.0.03/CDAR/schematron/BR-FR-CDV-Schematron-CDAR.sch",
	"rulesets/br-fr/1.4.0.03/CII/EXTENDED-CTC-FR/schematron/BR-FR-Flux2-Schematron-CII.sch",
	"rulesets/br-fr/1.4.0.03/CII/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-CII.sch",
	"rulesets/factur-x/1.09.2/MINIMUM/FACTUR-X_MINIMUM.sch",
	"rulesets/factur-x/1.09.2/BASIC-WL/FACTUR-X_BASIC-WL.sch",
	"rulesets/factur-x/1.09.2/BASIC/FACTUR-X_BASIC.sch",
	"rulesets/factur-x/1.09.2/EN16931/FACTUR-X_EN16931.sch",
	"rulesets/factur-x/1.09.2/EXTENDED/FACTUR-X_EXTENDED.sch",
	"rulesets/order-x/1.0/basic/SCRDMCCBDACIOMessageStructure_100pD20B_BASIC.sch",
	"rulesets/order-x/1.0/comfort/SCRDMCCBDACIOMessageStructure_100pD20B_COMFORT.sch",
	"rulesets/order-x/1.0/extended/SCRDMCCBDACIOMessageStructure_100pD20B_EXTENDED.sch",
}

func TestFrontEndAcceptsOfficialRuleSets(t *testing.T) {
	shared := sharedDir(t)
	for _, main := range officialMains {
		u, err := Compile(context.Background(), Config{Root: shared, Main: main, Package: "p", Func: "f"}, "lets", discardWriter{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(u.Tables.Checks) == 0 {
			t.Errorf("%s: no checks", main)
		}
		t.Logf("%-75s %3d patterns %4d rules %4d checks %3d lets", main, len(u.Tables.Patterns), len(u.Tables.Rules), len(u.Tables.Checks), len(u.Tables.Lets))
	}
}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
