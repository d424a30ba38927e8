package rocius

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/engine"
)

// Source is the main Schematron file, relative to the shared directory.
const Source = "rulesets/ro-cius/1.0.9/EN16931-CIUS_RO-UBL-validation.sch"

// Set gives access to the generated tables (see package en16931 for the
// pattern: generated files add methods, Tables reports them missing).
type Set struct{}

// Tables returns the generated UBL tables.
func (s Set) Tables(syntax string) (*engine.Tables, error) {
	if syntax != "ubl" {
		return nil, fmt.Errorf("rocius: unknown syntax %q", syntax)
	}
	g, ok := any(s).(interface{ generatedUBL() *engine.Tables })
	if !ok {
		return nil, fmt.Errorf("rocius: generated tables for ubl are missing: run `make generate` (go run ./tools/rulegen)")
	}
	return g.generatedUBL(), nil
}
