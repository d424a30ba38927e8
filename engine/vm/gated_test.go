package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestMatchesGated: wherever NameVerdict says a node's gate holds,
// MatchesGated (which skips the gate) gives Matches' answer and raises
// where Matches raises; NameCannot nodes never match; and each gated
// pattern is found gated on some node, so the comparison is not vacuous.
func TestMatchesGated(t *testing.T) {
	d := parse(t, `<r><aAmount>1</aAmount><PriceAmount>2</PriceAmount>`+
		`<p><q/><bAmount c="1">x</bAmount></p><p><cAmount c="1">3</cAmount></p>`+
		`<ID>7</ID><xID>no</xID><aX>1</aX><bX>one</bX><abc/></r>`)
	ctx := context.Background()
	for _, c := range []struct {
		pat   string
		gated bool // some node gets NameGated
	}{
		// the gate is the leftmost conjuncts; the rest reads the tree
		{"*[ends-with(name(), 'Amount') and not(ends-with(name(), 'PriceAmount')) and not(ancestor::p/q)]", true},
		// the gate is the whole first predicate
		{"*[ends-with(name(), 'ID')]", true},
		// a conjunct after the gate, then a second predicate
		{"*[ends-with(name(), 'Amount') and number(.) > 0][@c]", true},
		// the conjunct after the gate raises an error on bX
		{"*[ends-with(name(), 'X') and xs:integer(.) = 1]", true},
		// an "or" gate, and a gate under a parent step
		{"*[starts-with(name(), 'a') or ends-with(name(), 'c')]", true},
		{"p/*[ends-with(name(), 'Amount') and @c = '1']", true},
		// several alternatives: never gated, still filtered by name
		{"*[ends-with(name(), 'ID')] | *[ends-with(name(), 'X')]", false},
	} {
		pt, err := xpath.CompilePattern(c.pat, &xpath.StaticContext{})
		if err != nil {
			t.Fatalf("%s: %v", c.pat, err)
		}
		env := &vm.Env{Doc: d}
		sawGated := false
		for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
			if k := d.Kind(n); k != xmltree.KindElement && k != xmltree.KindAttribute {
				continue
			}
			want, wantErr := pt.Matches(ctx, env, n)
			switch pt.NameVerdict(ctx, env, n) {
			case vm.NameCannot:
				if want || wantErr != nil {
					t.Errorf("%s: node %s: NameCannot, but Matches says %v, %v", c.pat, d.QualifiedName(n), want, wantErr)
				}
			case vm.NameGated:
				sawGated = true
				got, err := pt.MatchesGated(ctx, env, n)
				if got != want || (err == nil) != (wantErr == nil) {
					t.Errorf("%s: node %s: MatchesGated %v, %v; Matches %v, %v", c.pat, d.QualifiedName(n), got, err, want, wantErr)
				}
			}
		}
		if sawGated != c.gated {
			t.Errorf("%s: NameGated on some node: %v, want %v", c.pat, sawGated, c.gated)
		}
	}
}
