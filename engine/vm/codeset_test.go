package vm

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCodeSet: codeSet.has answers as the map it is made from, on the
// members and on near misses: a byte changed, added or removed, 8 and 9
// byte values (packed, and kept in the map), prefixes, multibyte
// characters, NUL and the empty string.
func TestCodeSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := "ABCZ019é \x00"
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for round := range 200 {
		set := map[string]struct{}{}
		for range rng.IntN(1 + round*2) {
			set[word(1+rng.IntN(10))] = struct{}{}
		}
		cs := newCodeSet(set)
		probes := []string{"", "\x00", "A", "AB", "ABCDEFGH", "ABCDEFGHI", "é"}
		for s := range set {
			probes = append(probes, s, s+"A", s[:len(s)-1], s+"\x00")
			b := []byte(s)
			b[rng.IntN(len(b))] ^= 1
			probes = append(probes, string(b))
		}
		for range 50 {
			probes = append(probes, word(rng.IntN(11)))
		}
		for _, p := range probes {
			_, want := set[p]
			if got := cs.has(p); got != want {
				t.Fatalf("round %d: has(%q) = %v, want %v (set of %d)", round, p, got, want, len(set))
			}
		}
	}
}
