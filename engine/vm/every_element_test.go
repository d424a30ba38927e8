package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestMatchesEveryElement checks the load-time claim "every element named q
// matches" against Matches on a document with the names in several
// positions, and that patterns with predicates, several steps or an
// absolute single step are not claimed.
func TestMatchesEveryElement(t *testing.T) {
	d := parse(t, `<a><b><a/><c><b n="1"/></c></b><c/><b/></a>`)
	ctx := context.Background()
	env := &vm.Env{Doc: d}
	for _, c := range []struct {
		pat  string
		want map[string]bool // local name -> claimed
	}{
		{"b", map[string]bool{"b": true}},
		{"a | b", map[string]bool{"a": true, "b": true}},
		{"//b", map[string]bool{"b": true}},
		{"/a", map[string]bool{}},
		{"c/b", map[string]bool{}},
		{"b[@n]", map[string]bool{}},
		{"b | c/a", map[string]bool{"b": true}},
		{"@b", map[string]bool{}},
		{"*", map[string]bool{}},
	} {
		pt, err := xpath.CompilePattern(c.pat, &xpath.StaticContext{})
		if err != nil {
			t.Fatalf("%s: %v", c.pat, err)
		}
		for _, local := range []string{"a", "b", "c"} {
			got := pt.MatchesEveryElement(xdm.QName{Local: local})
			if got != c.want[local] {
				t.Errorf("%s: MatchesEveryElement(%s) = %v, want %v", c.pat, local, got, c.want[local])
			}
			if !got {
				continue
			}
			for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
				if d.Kind(n) != xmltree.KindElement || d.NameLocal(d.Name(n)) != local {
					continue
				}
				ok, err := pt.Matches(ctx, env, n)
				if err != nil || !ok {
					t.Errorf("%s claimed for %s but node %d: %v, %v", c.pat, local, n, ok, err)
				}
			}
		}
	}
}
