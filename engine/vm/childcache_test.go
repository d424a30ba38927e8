package vm

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestChildCache: the cache answers as firstTwoNamed, the walk it
// replaces, for every element and every name (a sample of them in a
// document of many names) of documents whose nodes have repeated names,
// text and comments between children, a child nested in a child of the
// same name, no children at all, and (the first) more distinct children
// than a new table holds; each document asked in a random order, so that
// absent names are asked before and after their node is entered. A table
// grown past childCacheMax is not kept for the next document.
func TestChildCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var k childCache
	for round, wide := range []int{2 * childCacheMax, 3, 0, 40, 600} {
		var b strings.Builder
		b.WriteString("<r>")
		fmt.Fprintf(&b, "<p>")
		for i := range wide {
			fmt.Fprintf(&b, "<c%d/> <!-- x -->", i)
		}
		b.WriteString("</p>")
		for range 1 + rng.IntN(6) {
			b.WriteString("<q>t")
			for range rng.IntN(12) {
				name := []string{"a", "b", "c"}[rng.IntN(3)]
				fmt.Fprintf(&b, "<%s>v<%s/></%s> ", name, name, name)
			}
			b.WriteString("</q>")
		}
		b.WriteString("<e/></r>")
		d, err := xmltree.Parse([]byte(b.String()), xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		type ask struct {
			n  xmltree.NodeID
			id xmltree.NameID
		}
		var asks []ask
		for n := range xmltree.NodeID(d.Len()) {
			if k := d.Kind(n); k != xmltree.KindElement && k != xmltree.KindDocument {
				continue
			}
			if d.NameCount() <= 100 {
				for id := range xmltree.NameID(d.NameCount()) {
					asks = append(asks, ask{n, id})
				}
				continue
			}
			// Many names: some of n's children's (the walk firstTwoNamed
			// takes is as long as the child is far), and a few others.
			for c := d.FirstChildElement(n); c != xmltree.None; c = d.NextSiblingElement(c) {
				if rng.IntN(100) == 0 {
					asks = append(asks, ask{n, d.Name(c)})
				}
			}
			for range 20 {
				asks = append(asks, ask{n, xmltree.NameID(rng.IntN(d.NameCount()))})
			}
		}
		rng.Shuffle(len(asks), func(i, j int) { asks[i], asks[j] = asks[j], asks[i] })
		for _, a := range asks {
			f1, s1 := k.children(d, a.n, a.id)
			f2, s2 := firstTwoNamed(d, a.n, a.id)
			if f1 != f2 || s1 != s2 {
				t.Fatalf("round %d: children(%d, %s) = %d, %d; want %d, %d", round, a.n, d.NameLocal(a.id), f1, s1, f2, s2)
			}
		}
		if round == 0 && len(k.entries) <= childCacheMax {
			t.Fatalf("a node of %d children: table of %d entries", wide, len(k.entries))
		}
		if round == 1 && len(k.entries) != childCacheMin {
			t.Errorf("after a table of more than %d entries, the next document's has %d, want %d", childCacheMax, len(k.entries), childCacheMin)
		}
	}
}
