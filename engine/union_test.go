package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnionOrder: the union of several names' visit indexes comes out
// ascending, each index once, whether the bitset or the sort makes it.
func TestUnionOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var st state
	sorted := 0
	for round := range 300 {
		n := 1 + rng.IntN(3000)
		sparse := round%3 == 0 // a few nodes in a large document: the sort
		nNames := 1 + rng.IntN(5)
		byName := make([][]int32, nNames)
		var want []int32
		for vi := range n {
			if sparse && rng.IntN(2*n) == 0 || !sparse && rng.IntN(1+round%40) == 0 {
				q := rng.IntN(nNames)
				byName[q] = append(byName[q], int32(vi))
				want = append(want, int32(vi))
			}
		}
		names := make([]int32, nNames)
		for q := range names {
			names[q] = int32(q)
		}
		if len(want)*8 < (n+63)/64 && len(want) > 0 && nNames > 1 {
			sorted++
		}
		// a prefix that sorts after every index must stay where it is
		prefix := []int32{1 << 30}
		got := st.unionOrder(slices.Clone(prefix), byName, names, n)
		if !slices.Equal(got[1:], want) || got[0] != 1<<30 {
			t.Fatalf("round %d (%d nodes, %d names): got %v, want %v", round, n, nNames, got, want)
		}
	}
	if sorted < 10 {
		t.Fatalf("only %d rounds took the sort path", sorted)
	}
}
