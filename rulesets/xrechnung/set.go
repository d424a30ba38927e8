package xrechnung

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/engine"
)

// Sources lists the main Schematron file of each syntax, relative to the
// shared directory.
func Sources() map[string]string {
	return map[string]string{
		"ubl": "rulesets/xrechnung/2.5.0/ubl/XRechnung-UBL-validation.sch",
		"cii": "rulesets/xrechnung/2.5.0/cii/XRechnung-CII-validation.sch",
	}
}

// Set gives access to the generated tables (see package en16931 for the
// pattern: generated files add methods, Tables reports them missing).
type Set struct{}

// Tables returns the generated tables of a syntax (ubl, cii).
func (s Set) Tables(syntax string) (*engine.Tables, error) {
	var t *engine.Tables
	switch syntax {
	case "ubl":
		if g, ok := any(s).(interface{ generatedUBL() *engine.Tables }); ok {
			t = g.generatedUBL()
		}
	case "cii":
		if g, ok := any(s).(interface{ generatedCII() *engine.Tables }); ok {
			t = g.generatedCII()
		}
	default:
		return nil, fmt.Errorf("xrechnung: unknown syntax %q", syntax)
	}
	if t == nil {
		return nil, fmt.Errorf("xrechnung: generated tables for %s are missing: run `make generate` (go run ./tools/rulegen)", syntax)
	}
	return t, nil
}
