package facturx

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/engine"
)

// Profiles lists the keys with their folder name in the official package.
func Profiles() map[string]string {
	return map[string]string{
		"minimum":  "MINIMUM",
		"basic_wl": "BASIC-WL",
		"basic":    "BASIC",
		"en16931":  "EN16931",
		"extended": "EXTENDED",
	}
}

// Source returns the main Schematron file of a key, relative to the shared
// directory.
func Source(key string) string {
	p := Profiles()[key]
	return "rulesets/factur-x/1.09.2/" + p + "/FACTUR-X_" + p + ".sch"
}

// XSD returns the profile XSD of a key, relative to the shared directory.
func XSD(key string) string {
	p := Profiles()[key]
	return "rulesets/factur-x/1.09.2/" + p + "/FACTUR-X_" + p + ".xsd"
}

// Set gives access to the generated tables (see package en16931 for the
// pattern: generated files add methods, Tables reports them missing).
type Set struct{}

// Tables returns the generated tables of a profile key.
func (s Set) Tables(key string) (*engine.Tables, error) {
	var t *engine.Tables
	switch key {
	case "minimum":
		if g, ok := any(s).(interface{ generatedMinimum() *engine.Tables }); ok {
			t = g.generatedMinimum()
		}
	case "basic_wl":
		if g, ok := any(s).(interface{ generatedBasicWL() *engine.Tables }); ok {
			t = g.generatedBasicWL()
		}
	case "basic":
		if g, ok := any(s).(interface{ generatedBasic() *engine.Tables }); ok {
			t = g.generatedBasic()
		}
	case "en16931":
		if g, ok := any(s).(interface{ generatedEN16931() *engine.Tables }); ok {
			t = g.generatedEN16931()
		}
	case "extended":
		if g, ok := any(s).(interface{ generatedExtended() *engine.Tables }); ok {
			t = g.generatedExtended()
		}
	default:
		return nil, fmt.Errorf("facturx: unknown profile %q", key)
	}
	if t == nil {
		return nil, fmt.Errorf("facturx: generated tables for %s are missing: run `make generate` (go run ./tools/rulegen)", key)
	}
	return t, nil
}
