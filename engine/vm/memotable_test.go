package vm

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestMemoTable checks the per-node memo table against a map: distinct
// (slot, node) keys that collide in the low bits, growth, overwrite,
// reset, and the entry limit.
func TestMemoTable(t *testing.T) {
	var tb memoTable[int]
	want := map[[2]int32]int{}
	for slot := int32(1); slot <= 40; slot++ {
		for node := int32(0); node < 300; node += 3 {
			v := int(slot)*1000 + int(node)
			tb.Put(slot, node, v)
			want[[2]int32{slot, node}] = v
		}
	}
	tb.Put(7, 9, -1)
	want[[2]int32{7, 9}] = -1
	if tb.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", tb.Len(), len(want))
	}
	for k, v := range want {
		if got, ok := tb.Get(k[0], k[1]); !ok || got != v {
			t.Fatalf("Get%v = %d, %v; want %d", k, got, ok, v)
		}
	}
	for _, k := range [][2]int32{{1, 1}, {41, 0}, {2, 301}, {0, 0}} {
		if _, ok := tb.Get(k[0], k[1]); ok {
			t.Fatalf("Get%v found an entry never put", k)
		}
	}
	tb.Reset()
	if _, ok := tb.Get(1, 0); ok || tb.Len() != 0 {
		t.Fatalf("after Reset: entry found or Len %d", tb.Len())
	}
	for i := int32(0); i < maxPredMemo+10; i++ {
		tb.Put(1, i, 1)
	}
	if tb.Len() != maxPredMemo {
		t.Fatalf("Len = %d beyond the limit %d", tb.Len(), maxPredMemo)
	}
	if _, ok := tb.Get(1, maxPredMemo+5); ok {
		t.Fatalf("an entry beyond the limit was kept")
	}
	tb.Reset()
	if len(tb.keys) > maxKeptMemoTable {
		t.Fatalf("Reset kept %d slots", len(tb.keys))
	}
}

// TestPosGroupFew: posFlush's grouping of a few keys gives the map the
// sort gives (each key's positions in order, repeats dropped), on pairs of
// one to posFewKeys+1 distinct keys, a node adding several keys or one key
// twice.
func TestPosGroupFew(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"S", "Z", "25", "VAT", "E"}
	for round := range 500 {
		d := 1 + round%len(keys)
		var ps []keyPos
		for i := range 1 + rng.IntN(40) {
			for range 1 + rng.IntN(3) { // one node, one or more items
				ps = append(ps, keyPos{key: keys[rng.IntN(d)], i: int32(i)})
			}
		}
		few := map[string][]int32{}
		ok := posGroupFew(slices.Clone(ps), few, make([]int32, 0, len(ps)))
		if ok != (len(distinctKeys(ps)) <= posFewKeys) {
			t.Fatalf("round %d: posGroupFew = %v with %d keys", round, ok, len(distinctKeys(ps)))
		}
		if !ok {
			continue
		}
		// posFlush's sort path, on a copy.
		byKey := slices.Clone(ps)
		slices.SortStableFunc(byKey, func(a, b keyPos) int { return strings.Compare(a.key, b.key) })
		sorted := map[string][]int32{}
		for _, p := range byKey {
			if l := sorted[p.key]; len(l) == 0 || l[len(l)-1] != p.i {
				sorted[p.key] = append(l, p.i)
			}
		}
		if !maps.EqualFunc(few, sorted, slices.Equal) {
			t.Fatalf("round %d: %v, sorted %v", round, few, sorted)
		}
	}
}

func distinctKeys(ps []keyPos) map[string]bool {
	m := map[string]bool{}
	for _, p := range ps {
		m[p.key] = true
	}
	return m
}
