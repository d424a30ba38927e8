package vm_test

import (
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestMemoSlotsShareEqualPaths: absolute paths share memo slots exactly
// when their fingerprints are equal. A fingerprint that drops a constant,
// a comparison operator, a node test or an instance-of type merges paths
// that differ; one that is not canonical splits equal ones.
func TestMemoSlotsShareEqualPaths(t *testing.T) {
	cat := vm.NewCatalog()
	sc := &xpath.StaticContext{Catalog: cat}
	compile(t, "//a[b = '1']/c", sc)
	base := cat.MemoSlots()
	if base == 0 {
		t.Fatal("no memo slot for //a[b = '1']/c")
	}
	for _, same := range []string{"//a[b = '1']/c", "count(//a[b = '1']/c)", "exists(//a[b='1']/c)"} {
		compile(t, same, sc)
		if got := cat.MemoSlots(); got != base {
			t.Errorf("%s: %d memo slots, want %d (shared)", same, got, base)
		}
	}
	n := base
	for _, other := range []string{"//a[b = '2']/c", "//a[b != '1']/c", "//a[d = '1']/c", "//a[b = '1']/e",
		"//a[b instance of xs:string]/c", "//a[b instance of xs:integer]/c", "//a[b = 1]/c", "//a[b = 1.0]/c",
		"//a[b + 1 > 2]/c", "//a[b + 3 > 2]/c"} {
		compile(t, other, sc)
		got := cat.MemoSlots()
		if got <= n {
			t.Errorf("%s: %d memo slots after %d, want a new one", other, got, n)
		}
		n = got
	}
}
