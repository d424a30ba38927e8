package vm

// memoTable is the per-document table of the per-node memos (predmemo.go):
// an open-addressing hash table keyed by (slot, node), cheaper than a Go
// map for these dense integer keys (one multiply to hash, no per-entry
// allocation, and a reset is one clear of the key array). It holds at most
// maxPredMemo entries; Put beyond that is ignored (the value is then
// recomputed, as for a miss).
type memoTable[V any] struct {
	keys []uint64 // 0: empty; else memoKey
	vals []V
	n    int
}

func memoKey(slot, node int32) uint64 { return uint64(uint32(slot))<<32 | uint64(uint32(node)) }

// slot returns the index of key k, or of the empty place where it goes.
func (t *memoTable[V]) slot(k uint64) int {
	mask := len(t.keys) - 1
	i := int((k * 0x9E3779B97F4A7C15) >> 40 & uint64(mask))
	for t.keys[i] != 0 && t.keys[i] != k {
		i = (i + 1) & mask
	}
	return i
}

// Get returns the value of (slot, node).
func (t *memoTable[V]) Get(slot, node int32) (V, bool) {
	var zero V
	if t.n == 0 {
		return zero, false
	}
	i := t.slot(memoKey(slot, node))
	if t.keys[i] == 0 {
		return zero, false
	}
	return t.vals[i], true
}

// Put sets the value of (slot, node); slot must be > 0.
func (t *memoTable[V]) Put(slot, node int32, v V) {
	if t.n >= maxPredMemo {
		return
	}
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	k := memoKey(slot, node)
	i := t.slot(k)
	if t.keys[i] == 0 {
		t.keys[i] = k
		t.n++
	}
	t.vals[i] = v
}

func (t *memoTable[V]) grow() {
	keys, vals := t.keys, t.vals
	size := max(2*len(keys), 256)
	t.keys, t.vals = make([]uint64, size), make([]V, size)
	for i, k := range keys {
		if k != 0 {
			j := t.slot(k)
			t.keys[j], t.vals[j] = k, vals[i]
		}
	}
}

// maxKeptMemoTable is the table size Reset keeps for the next document.
const maxKeptMemoTable = 1 << 13

// Reset empties the table, keeping its arrays unless they grew large.
func (t *memoTable[V]) Reset() {
	if len(t.keys) > maxKeptMemoTable {
		*t = memoTable[V]{}
		return
	}
	if t.n > 0 {
		clear(t.keys)
		clear(t.vals)
	}
	t.n = 0
}

// Len returns the number of entries.
func (t *memoTable[V]) Len() int { return t.n }
