package vm

import (
	"testing"
	"unsafe"
)

// TestExprSize keeps an Expr at four cache lines. The nodes of a tree are
// carved out of one slab (CloneExpr), so at 256 bytes each node starts a
// line of its own and the fields the evaluator reads first (Op, the slots,
// Args) share that line. An 8-byte field added at the end (264 bytes) made
// the EN 16931 CII step about 8 % slower: a field that every rule set's
// tree needs must take the place of another.
func TestExprSize(t *testing.T) {
	if s := unsafe.Sizeof(Expr{}); s != 256 {
		t.Errorf("vm.Expr is %d bytes, want 256", s)
	}
}
