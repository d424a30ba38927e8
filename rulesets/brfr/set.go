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
		"en16931_ubl": "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/EN16931-UBL-validation-preprocessed.sch",
		"flux2_ubl":   "rulesets/br-fr/1.4.0.03/UBL/EN16931/schematron/BR-FR-Flux2-Schematron-UBL.sch",
		"cdar":        "rulesets/br-fr/1.4.0.03/CDAR/schematron/BR-FR-CDV-Schematron-CDAR.sch",
	}
}

func funcs() map[string]string {
	return map[string]string{"en16931_ubl": "generatedEN16931UBL", "flux2_ubl": "generatedFlux2UBL", "cdar": "generatedCDAR"}
}

// Functions compiles the xsl:functions of a key's source (nil registry for
// the EN 16931 copy, which declares none).
func Functions(shared, key string) (*vm.Functions, error) {
	if key == "en16931_ubl" {
		return nil, nil
	}
	src, ok := Sources()[key]
	if !ok {
		return nil, fmt.Errorf("brfr: unknown key %q", key)
	}
	return xslfunc.FromSchematron(shared, src, nil)
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
