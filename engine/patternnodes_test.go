package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestPatternNodes: the elements and attributes of several names come out
// in document order, each once, whether one list, the sort or the bitset
// makes them, and names absent from the document add nothing.
func TestPatternNodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	names := []string{"a", "b", "c", "d", "e"}
	sorted, marked := 0, 0
	for round := range 300 {
		// A document of up to ~3,000 elements under one root, with a few
		// of them (sparse) or many named by the first names.
		var b strings.Builder
		b.WriteString("<r>")
		n := 1 + rng.IntN(3000)
		sparse := round%3 == 0
		for range n {
			name := "x"
			if sparse && rng.IntN(200) == 0 || !sparse && rng.IntN(1+round%40) == 0 {
				name = names[rng.IntN(len(names)-1)] // never "e"
			}
			if rng.IntN(10) == 0 {
				fmt.Fprintf(&b, `<%s b="1"><c/></%s>`, name, name)
			} else {
				fmt.Fprintf(&b, "<%s/>", name)
			}
		}
		b.WriteString("</r>")
		doc, err := xmltree.Parse([]byte(b.String()), xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		pick := rng.IntN(1 << len(names))
		var qs []int32
		st := &state{qID: make([]xmltree.NameID, len(names))}
		want := []xmltree.NodeID{}
		for q, nm := range names {
			id, ok := doc.LookupName("", nm)
			if !ok {
				id = -1
			}
			st.qID[q] = id
			if pick&(1<<q) != 0 {
				qs = append(qs, int32(q))
			}
		}
		for node := xmltree.NodeID(0); int(node) < doc.Len(); node++ {
			if k := doc.Kind(node); k != xmltree.KindElement && k != xmltree.KindAttribute {
				continue
			}
			for _, q := range qs {
				if doc.Name(node) == st.qID[q] {
					want = append(want, node)
				}
			}
		}
		total := 0
		for _, q := range qs {
			if id := st.qID[q]; id >= 0 {
				total += len(doc.Named(id, false)) + len(doc.Named(id, true))
			}
		}
		if total > 0 && total*8 < (doc.Len()+63)/64 {
			sorted++
		} else if total > 0 {
			marked++
		}
		v := &validation{st: st, doc: doc}
		got := append([]xmltree.NodeID{}, v.patternNodes(qs)...)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (%d nodes, names %v): got %v, want %v", round, doc.Len(), qs, got, want)
		}
	}
	if sorted < 10 || marked < 10 {
		t.Fatalf("%d rounds took the sort path, %d the bitset", sorted, marked)
	}
}
