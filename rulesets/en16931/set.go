package en16931

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/engine"
)

// Set gives access to the generated tables. The generated files add methods
// to it; when a file is missing the method is absent, which Tables detects
// at run time (so the package builds before `make generate` and fails loudly
// instead of silently validating nothing).
type Set struct{}

// Sources lists the main Schematron file of each syntax, relative to the
// shared directory (used by the staleness test and by rulegen's table).
func Sources() map[string]string {
	return map[string]string{
		"ubl": "rulesets/en16931/1.3.16/ubl/schematron/EN16931-UBL-validation.sch",
		"cii": "rulesets/en16931/1.3.16/cii/schematron/EN16931-CII-validation.sch",
	}
}

// Tables returns the generated tables for a syntax ("ubl" or "cii").
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
		return nil, fmt.Errorf("en16931: unknown syntax %q", syntax)
	}
	if t == nil {
		return nil, fmt.Errorf("en16931: generated tables for %s are missing: run `make generate` (go run ./tools/rulegen)", syntax)
	}
	return t, nil
}
