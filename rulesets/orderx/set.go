package orderx

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

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
	deriveIDs(t)
	return t, nil
}

// deriveIDs gives every check without an id (all Order-X 1.0 checks) a
// stable one: "OX-" and the first 8 hex digits of the SHA-256 of its rule's
// context, its kind and its test (NUL-separated). The id depends only on
// what the check tests, not on its position, so it survives reordering and
// is the same in every profile that has the same check; a repeat within one
// set (same context, kind and test) gets "-2", "-3", ... in check order.
// The reference reports these findings without id: the conformance tests
// compile the sources themselves and compare with ids left empty.
func deriveIDs(t *engine.Tables) {
	seen := map[string]int{}
	for _, r := range t.Rules {
		for i := r.FirstCheck; i < r.FirstCheck+r.NumChecks; i++ {
			c := &t.Checks[i]
			if c.ID != "" {
				continue
			}
			sum := sha256.Sum256([]byte(r.Context + "\x00" + c.Kind.String() + "\x00" + c.Test))
			id := "OX-" + hex.EncodeToString(sum[:4])
			seen[id]++
			if n := seen[id]; n > 1 {
				id += "-" + strconv.Itoa(n)
			}
			c.ID = id
		}
	}
}
