package orderx

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/engine"
)

// Sources lists the main Schematron file of each profile, relative to the
// shared directory.
func Sources() map[string]string {
	return map[string]string{
		"basic":    "rulesets/order-x/1.0/basic/SCRDMCCBDACIOMessageStructure_100pD20B_BASIC.sch",
		"comfort":  "rulesets/order-x/1.0/comfort/SCRDMCCBDACIOMessageStructure_100pD20B_COMFORT.sch",
		"extended": "rulesets/order-x/1.0/extended/SCRDMCCBDACIOMessageStructure_100pD20B_EXTENDED.sch",
	}
}

// Set gives access to the generated tables (see package en16931 for the
// pattern: generated files add methods, Tables reports them missing).
type Set struct{}

// Tables returns the generated tables of a profile (basic, comfort, extended).
func (s Set) Tables(profile string) (*engine.Tables, error) {
	var t *engine.Tables
	switch profile {
	case "basic":
		if g, ok := any(s).(interface{ generatedBasic() *engine.Tables }); ok {
			t = g.generatedBasic()
		}
	case "comfort":
		if g, ok := any(s).(interface{ generatedComfort() *engine.Tables }); ok {
			t = g.generatedComfort()
		}
	case "extended":
		if g, ok := any(s).(interface{ generatedExtended() *engine.Tables }); ok {
			t = g.generatedExtended()
		}
	default:
		return nil, fmt.Errorf("orderx: unknown profile %q", profile)
	}
	if t == nil {
		return nil, fmt.Errorf("orderx: generated tables for %s are missing: run `make generate` (go run ./tools/rulegen)", profile)
	}
	return t, nil
}
