package peppol

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/engine"
)

// Sources lists the main Schematron file of each key, relative to the
// shared directory.
func Sources() map[string]string {
	return map[string]string{
		"cen_ubl":        "rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-UBL.sch",
		"ubl":            "rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-UBL.sch",
		"cen_cii":        "rulesets/peppol-bis-billing/3.0.19/sch/CEN-EN16931-CII.sch",
		"cii":            "rulesets/peppol-bis-billing/3.0.19/sch/PEPPOL-EN16931-CII.sch",
		"cen_ubl_3_0_21": "rulesets/peppol-bis-billing/3.0.21/sch/CEN-EN16931-UBL.sch",
		"ubl_3_0_21":     "rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL.sch",
		"ubl_sb_3_0_21":  "rulesets/peppol-bis-billing/3.0.21/sch/PEPPOL-EN16931-UBL-SB.sch",
	}
}

// funcs maps each key to the generated method name.
func funcs() map[string]string {
	return map[string]string{
		"cen_ubl": "generatedCENUBL", "ubl": "generatedUBL", "cen_cii": "generatedCENCII", "cii": "generatedCII",
		"cen_ubl_3_0_21": "generatedCENUBL3021", "ubl_3_0_21": "generatedUBL3021", "ubl_sb_3_0_21": "generatedUBLSB3021",
	}
}

// Set gives access to the generated tables (see package en16931 for the
// pattern: generated files add methods, Tables reports them missing).
type Set struct{}

// Tables returns the generated tables of a key (see Sources).
func (s Set) Tables(key string) (*engine.Tables, error) {
	var t *engine.Tables
	switch key {
	case "cen_ubl":
		if g, ok := any(s).(interface{ generatedCENUBL() *engine.Tables }); ok {
			t = g.generatedCENUBL()
		}
	case "ubl":
		if g, ok := any(s).(interface{ generatedUBL() *engine.Tables }); ok {
			t = g.generatedUBL()
		}
	case "cen_cii":
		if g, ok := any(s).(interface{ generatedCENCII() *engine.Tables }); ok {
			t = g.generatedCENCII()
		}
	case "cii":
		if g, ok := any(s).(interface{ generatedCII() *engine.Tables }); ok {
			t = g.generatedCII()
		}
	case "cen_ubl_3_0_21":
		if g, ok := any(s).(interface{ generatedCENUBL3021() *engine.Tables }); ok {
			t = g.generatedCENUBL3021()
		}
	case "ubl_3_0_21":
		if g, ok := any(s).(interface{ generatedUBL3021() *engine.Tables }); ok {
			t = g.generatedUBL3021()
		}
	case "ubl_sb_3_0_21":
		if g, ok := any(s).(interface{ generatedUBLSB3021() *engine.Tables }); ok {
			t = g.generatedUBLSB3021()
		}
	default:
		return nil, fmt.Errorf("peppol: unknown key %q", key)
	}
	if t == nil {
		return nil, fmt.Errorf("peppol: generated tables for %s are missing: run `make generate` (go run ./tools/rulegen)", key)
	}
	return t, nil
}
