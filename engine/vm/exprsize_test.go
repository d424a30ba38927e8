package vm

import (
	"testing"
	"unsafe"
)

// TestExprSize keeps an Expr at three cache lines. The nodes of a tree are
// carved out of one slab (CloneExpr, ExprArena), so at a multiple of 64
// bytes each node starts a line of its own and the fields the evaluator
// reads first (Op, the slots, Args) share that line. An 8-byte field added
// at the end of the 256-byte node of earlier sessions (264 bytes) made the
// EN 16931 CII step about 8 % slower; the fields few nodes have went to
// ExprAux (256 -> 192 bytes: 8.7 MB less live heap in the idle server). A
// field that every rule set's tree needs must take the place of another,
// or go to ExprAux when few nodes need it.
func TestExprSize(t *testing.T) {
	if s := unsafe.Sizeof(Expr{}); s != 192 {
		t.Errorf("vm.Expr is %d bytes, want 192", s)
	}
}
