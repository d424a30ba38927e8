package orderx

import (
	"regexp"
	"testing"
)

// Every Order-X check gets a non-empty id, unique within its set, equal on
// every load, and equal across profiles for the same check.
func TestDerivedIDs(t *testing.T) {
	form := regexp.MustCompile(`^OX-[0-9a-f]{8}(-[0-9]+)?$`)
	byCheck := map[string]string{} // context+test -> id, across profiles
	for p := range Sources() {
		a, err := Set{}.Tables(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Set{}.Tables(p)
		ids := map[string]bool{}
		for _, r := range a.Rules {
			for i := r.FirstCheck; i < r.FirstCheck+r.NumChecks; i++ {
				c := a.Checks[i]
				if !form.MatchString(c.ID) {
					t.Fatalf("%s: check %d id %q", p, i, c.ID)
				}
				if ids[c.ID] {
					t.Fatalf("%s: duplicate id %s", p, c.ID)
				}
				ids[c.ID] = true
				if b.Checks[i].ID != c.ID {
					t.Fatalf("%s: id of check %d not stable: %s then %s", p, i, c.ID, b.Checks[i].ID)
				}
				k := r.Context + "|" + c.Kind.String() + "|" + c.Test
				if prev, ok := byCheck[k]; ok && prev[:11] != c.ID[:11] {
					t.Fatalf("%s: same check, ids %s and %s", p, prev, c.ID)
				}
				byCheck[k] = c.ID
			}
		}
		if len(ids) == 0 {
			t.Fatalf("%s: no checks", p)
		}
	}
}
