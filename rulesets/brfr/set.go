package brfr

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
)

// Sources lists the main Schematron file of each key, relative to the
// shared directory.
func Sources() map[string]string {
	return map[string]string{
		"en16931_ubl":  "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/EN16931-UBL-validation-preprocessed.sch",
		"flux2_ubl":    "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/BR-FR-Flux2-Schematron-UBL.sch",
		"en16931_cii":  "rulesets/br-fr/1.4.0.03/CII/EN16931/schematron/EN16931-CII-validation-preprocessed.sch",
		"flux2_cii":    "rulesets/br-fr/1.4.0.03/CII/EN16931/schematron/BR-FR-Flux2-Schematron-CII.sch",
		"extended_ubl": "rulesets/br-fr/1.4.0.03/UBL/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-UBL.sch",
		"extended_cii": "rulesets/br-fr/1.4.0.03/CII/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-CII.sch",
		"cdar":         "rulesets/br-fr/1.4.0.03/CDAR/schematron/BR-FR-CDV-Schematron-CDAR.sch",
	}
}

func funcs() map[string]string {
	return map[string]string{"en16931_ubl": "generatedEN16931UBL", "flux2_ubl": "generatedFlux2UBL",
		"en16931_cii": "generatedEN16931CII", "flux2_cii": "generatedFlux2CII",
		"extended_ubl": "generatedExtendedUBL", "extended_cii": "generatedExtendedCII", "cdar": "generatedCDAR"}
}

// HasFunctions says whether a key's source declares xsl:functions (Flux 2
// and CDAR; the EN 16931 and EXTENDED-CTC-FR bases declare none).
func HasFunctions(key string) bool {
	return key == "flux2_ubl" || key == "flux2_cii" || key == "cdar"
}

// Functions compiles the xsl:functions of a key's source (nil registry for
// a source that declares none) from its generated tables, where rulegen
// copied the definitions: a load does not read the .sch again. (The shared
// directory parameter stays for the catalog's per-set function hook, which
// other sets use.)
func Functions(_, key string) (*vm.Functions, error) {
	if !HasFunctions(key) {
		return nil, nil
	}
	t, err := Set{}.Tables(key)
	if err != nil {
		return nil, err
	}
	return xslfunc.FromTables(t)
}

// Set gives access to the generated tables (see package en16931 for the
// pattern: generated files add methods, Tables reports them missing).
type Set struct{}

// Tables returns the generated tables of a key (see Sources).
func (s Set) Tables(key string) (*engine.Tables, error) {
	var t *engine.Tables
	switch key {
	case "en16931_ubl":
		if g, ok := any(s).(interface{ generatedEN16931UBL() *engine.Tables }); ok {
			t = g.generatedEN16931UBL()
		}
	case "flux2_ubl":
		if g, ok := any(s).(interface{ generatedFlux2UBL() *engine.Tables }); ok {
			t = g.generatedFlux2UBL()
		}
	case "en16931_cii":
		if g, ok := any(s).(interface{ generatedEN16931CII() *engine.Tables }); ok {
			t = g.generatedEN16931CII()
		}
	case "flux2_cii":
		if g, ok := any(s).(interface{ generatedFlux2CII() *engine.Tables }); ok {
			t = g.generatedFlux2CII()
		}
	case "extended_ubl":
		if g, ok := any(s).(interface{ generatedExtendedUBL() *engine.Tables }); ok {
			t = g.generatedExtendedUBL()
		}
	case "extended_cii":
		if g, ok := any(s).(interface{ generatedExtendedCII() *engine.Tables }); ok {
			t = g.generatedExtendedCII()
		}
	case "cdar":
		if g, ok := any(s).(interface{ generatedCDAR() *engine.Tables }); ok {
			t = g.generatedCDAR()
		}
	default:
		return nil, fmt.Errorf("brfr: unknown key %q", key)
	}
	if t == nil {
		return nil, fmt.Errorf("brfr: generated tables for %s are missing: run `make generate` (go run ./tools/rulegen)", key)
	}
	return t, nil
}
