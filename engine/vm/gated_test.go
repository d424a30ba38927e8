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

// TestContextShortcuts: the engine's two shortcuts past Matches agree with
// it on every element and attribute: MatchPlainIn for a pattern of named
// child steps without predicates (the first possibly after //), and
// MatchGatedIn, on the nodes whose gate holds (NameGated), for a pattern
// of one step whose only predicate is its gate. The prefix x is bound to
// another namespace inside q, so a gate that holds for the spelling x:ID
// does not make q's x:ID match x:*; the patterns that have no shortcut are
// listed too.
func TestContextShortcuts(t *testing.T) {
	d := parse(t, `<r xmlns:x="urn:x" xmlns:y="urn:y"><a><b/><x:ID/></a><c><b c="1"/></c><x:ID/>`+
		`<y:ID/><x:aID/><q xmlns:x="urn:other"><x:ID/><a><b/></a></q><b/></r>`)
	cat := vm.NewCatalog()
	sc := &xpath.StaticContext{Catalog: cat, Namespaces: map[string]string{"x": "urn:x"}}
	ctx := context.Background()
	for _, c := range []struct {
		pat          string
		plain, gated bool
	}{
		{"a/b", true, false},
		{"//a/b", true, false},
		{"/r/a/b", true, false},
		{"//b", true, false},
		{"/r", true, false},
		{"q/a/b", true, false},
		{"a//b", false, false},
		{"c/b[@c]", false, false},
		{"a/b | c/b", false, false},
		{"x:*[ends-with(name(), 'ID')]", false, true},
		{"//x:*[ends-with(name(), 'ID')]", false, true},
		{"//*[ends-with(name(), 'ID')]", false, true},
		{"//x:ID[starts-with(name(), 'x:')]", false, true},
		// a gate without a frame-free form (a regular expression on the
		// name): MatchGatedIn does not evaluate it
		{"//*[matches(name(), 'I[D]$')]", false, true},
		{"/x:*[ends-with(name(), 'ID')]", false, false},
		{"a/x:*[ends-with(name(), 'ID')]", false, false},
		{"//x:*[ends-with(name(), 'ID') and parent::a]", false, false},
		{"//x:*[ends-with(name(), 'ID')][1]", false, false},
	} {
		pt, err := xpath.CompilePattern(c.pat, sc)
		if err != nil {
			t.Fatalf("%s: %v", c.pat, err)
		}
		if got := pt.PlainContext(); got != c.plain {
			t.Errorf("%s: PlainContext %v, want %v", c.pat, got, c.plain)
		}
		if got := pt.GateDecides(); got != c.gated {
			t.Errorf("%s: GateDecides %v, want %v", c.pat, got, c.gated)
		}
		env := &vm.Env{Doc: d}
		env.CatalogIDs(cat)
		fx := env.Fast(cat)
		matched := 0
		eachElementOrAttr(d, func(n xmltree.NodeID) {
			want, err := pt.Matches(ctx, env, n)
			if err != nil {
				t.Fatalf("%s: node %d: %v", c.pat, n, err)
			}
			if want {
				matched++
			}
			if c.plain {
				if got := pt.MatchPlainIn(fx, n); got != want {
					t.Errorf("%s: node %d (%s): MatchPlainIn %v, Matches %v", c.pat, n, d.QualifiedName(n), got, want)
				}
			}
			if c.gated && pt.NameVerdict(ctx, env, n) == vm.NameGated {
				if got := pt.MatchGatedIn(fx, n); got != want {
					t.Errorf("%s: node %d (%s): MatchGatedIn %v, Matches %v", c.pat, n, d.QualifiedName(n), got, want)
				}
			}
		})
		if matched == 0 && (c.plain || c.gated) {
			t.Errorf("%s: matches no node: the comparison is vacuous", c.pat)
		}
	}
}
