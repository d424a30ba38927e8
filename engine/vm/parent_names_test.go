package vm_test

import (
	"context"
	"slices"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestParentNames checks the load-time claim of ParentNames (a node can
// match only below the listed parents) against Matches on every element and
// attribute of a document, and which patterns make no claim.
func TestParentNames(t *testing.T) {
	d := parse(t, `<a x="1"><b y="2"><a/><c><b n="1"/></c></b><c x="3"><b/></c><b/></a>`)
	ctx := context.Background()
	for _, c := range []struct {
		pat     string
		parents []string // nil with claim=false
		root    bool
		claim   bool
	}{
		{"b", nil, false, false},
		{"//b", nil, false, false},
		{"a//b", nil, false, false},
		{"*/b", nil, false, false},
		{"c/b", []string{"c"}, false, true},
		{"c/b[@n] | a/b", []string{"c", "a"}, false, true},
		{"/a", nil, true, true},
		{"/a | c/b", []string{"c"}, true, true},
		{"/ | c/b", []string{"c"}, false, true},
		{"a/@x", []string{"a"}, false, true},
		{"c/@x | b/@y", []string{"c", "b"}, false, true},
		{"b/c | b", nil, false, false},
		{"a/b//c/b", []string{"c"}, false, true},
	} {
		pt, err := xpath.CompilePattern(c.pat, &xpath.StaticContext{})
		if err != nil {
			t.Fatalf("%s: %v", c.pat, err)
		}
		names, root, ok := pt.ParentNames()
		var got []string
		for _, q := range names {
			got = append(got, q.Local)
		}
		if ok != c.claim || root != c.root || !slices.Equal(got, c.parents) {
			t.Errorf("%s: ParentNames() = %v, %v, %v; want %v, %v, %v", c.pat, got, root, ok, c.parents, c.root, c.claim)
			continue
		}
		if !ok {
			continue
		}
		venv := &vm.Env{Doc: d}
		for n := xmltree.NodeID(1); int(n) < d.Len(); n++ {
			if k := d.Kind(n); k != xmltree.KindElement && k != xmltree.KindAttribute {
				continue
			}
			p := d.Parent(n)
			allowed := d.Kind(p) == xmltree.KindDocument && root ||
				d.Kind(p) == xmltree.KindElement && slices.Contains(got, d.NameLocal(d.Name(p)))
			if allowed {
				continue
			}
			if m, err := pt.Matches(ctx, venv, n); err != nil || m {
				t.Errorf("%s: node %d (parent %d) is outside the claim but Matches = %v, %v", c.pat, n, p, m, err)
			}
		}
	}
}
