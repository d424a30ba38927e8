package vm

import "math/bits"

// codeSet is a code list's set of values (Expr.Set) for the frame-free
// tests: the rule sets look up a currency, a country, a unit code on
// every amount, party and line (~100 lookups an EN 16931 document), and a
// string map costs a hash of the string and a probe. The values of at
// most 8 bytes (almost all codes) are packed into a uint64, little
// endian, and held in an open-addressing table; longer ones stay in a
// map. XML text has no NUL character, so packing without the length
// keeps distinct values distinct, and no value packs to 0 (an empty
// slot).
type codeSet struct {
	tab   []uint64 // power of two, at most half full
	shift uint
	long  map[string]struct{}
}

// newCodeSet returns the codeSet of set.
func newCodeSet(set map[string]struct{}) *codeSet {
	n := 8
	for n < 2*len(set) {
		n *= 2
	}
	cs := &codeSet{tab: make([]uint64, n), shift: uint(64 - bits.TrailingZeros(uint(n)))}
	for s := range set {
		k, ok := packCode(s)
		if !ok {
			if cs.long == nil {
				cs.long = map[string]struct{}{}
			}
			cs.long[s] = struct{}{}
			continue
		}
		i := cs.slot(k)
		for cs.tab[i] != 0 && cs.tab[i] != k {
			i = (i + 1) & uint64(len(cs.tab)-1)
		}
		cs.tab[i] = k
	}
	return cs
}

// packCode packs a value of 1 to 8 bytes without NUL; ok=false otherwise.
func packCode(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 8 {
		return 0, false
	}
	var k uint64
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == 0 {
			return 0, false
		}
		k = k<<8 | uint64(s[i])
	}
	return k, true
}

func (cs *codeSet) slot(k uint64) uint64 { return (k * 0x9E3779B97F4A7C15) >> cs.shift }

// has reports whether s is in the set.
func (cs *codeSet) has(s string) bool {
	k, ok := packCode(s)
	if !ok {
		_, in := cs.long[s]
		return in
	}
	mask := uint64(len(cs.tab) - 1)
	for i := cs.slot(k); ; i = (i + 1) & mask {
		switch cs.tab[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}
