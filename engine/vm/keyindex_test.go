package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestKeyedMemoPoints: absolute paths whose last memoised step filters by
// "key = literal" give, through the shared key index, what they give
// without any memo (no catalog): the same values and the same errors, on
// documents where the index applies and where it must step aside; and so
// do the predicate-free paths memoised for their length.
func TestKeyedMemoPoints(t *testing.T) {
	exprs := []string{
		"count(//t[normalize-space(id) = 'A'])",
		"count(//t[normalize-space(id) = 'B'])",
		"count(//t[normalize-space(id) = 'Z'])",
		"count(//t[normalize-space(id) = ('A', 'B')])",
		"string-join(//t[normalize-space(id) = 'A'][@x = '1']/@n, ',')",
		"string-join(//t[normalize-space(id) = 'B'][xs:decimal(@n) > 1]/@n, ',')",
		"count(//t/id[normalize-space(.) = 'A'])",
		"count(//t/id[normalize-space(.) = 'B'])",
		"count(//t[id = 'A'])",
		"count(//t[id = 'B'])",
		"count(//t[@x = '1'])",
		"count(//t[@x = '2'])",
		"count(//t[@n = 2])",
		"count(//t[@n = 3.0])",
		"count(//t[string(@n) = 2])",
		"count(//t[xs:decimal(@n) = '2'])",
		"count(//t[xs:string(xs:decimal(@n)) = '2'])",
		"count(//s//t[id = 'A'][@x = '1'])",
		"count(//s//t[id = 'B'][@x = '1'])",
		"count(/r/s/t[normalize-space(id) = 'A'][@x = '1'])",
		"count(/r/s/t[normalize-space(id) = 'B'][@x = '1'])",
		"exists(//t[normalize-space(id) = 'A']) and not(//t[normalize-space(id) = 'C'])",
		// plain paths of minMemoSteps steps or more are memoised too
		"string-join(/r/s/t/@n, ',')",
		"count(/r/s/t/id) + count(/r/s)",
		// nested contexts on an axis whose union is not in visiting order:
		// the error of the node visited first must be the one raised
		"count(//s/following-sibling::t[id = 'A'][(1 div xs:decimal(@n)) > 0])",
	}
	docs := []string{
		`<r><s><t x="1" n="1"><id> A </id></t><t x="2" n="2"><id>B</id></t><t x="1" n="3"><id>A</id><id>B</id></t></s></r>`,
		`<r><s><t x="1" n="1"><id>A</id><s><t x="1" n="2"><id>A</id></t></s></t></s><s><t n="2.0" x="1"><id>B</id></t></s></r>`,
		`<r><s><t x="1" n="one"><id>A</id></t><t x="1" n="2"><id>B</id></t></s></r>`,
		`<r><s><t x="1"><id/></t></s></r>`,
		`<r/>`,
		`<r><s><s/><t n="x"><id>A</id></t></s><t n="0"><id>A</id></t></r>`,
		// one node under one key twice: selected once
		`<r><s><t x="1" n="1"><id>A</id><id> A</id><id>B</id></t><t n="2" x="1"><id>A</id></t></s></r>`,
	}
	ctx := context.Background()
	cat := vm.NewCatalog()
	keyed := make([]*vm.Program, len(exprs))
	plain := make([]*vm.Program, len(exprs))
	for i, src := range exprs {
		var err error
		if keyed[i], err = xpath.Compile(src, &xpath.StaticContext{Catalog: cat}); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if plain[i], err = xpath.Compile(src, &xpath.StaticContext{}); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if cat.KeySlots() < 4 {
		t.Fatalf("%d key slots: the keyed steps were not recognised", cat.KeySlots())
	}
	plainCat := vm.NewCatalog()
	if _, err := xpath.Compile("count(/r/s/t/id)", &xpath.StaticContext{Catalog: plainCat}); err != nil || plainCat.MemoSlots() != 1 {
		t.Fatalf("/r/s/t/id: %d memo slots (%v), want 1", plainCat.MemoSlots(), err)
	}
	env, ref := &vm.Env{}, &vm.Env{}
	for round := range 2 {
		for di, doc := range docs {
			env.Doc, ref.Doc = parse(t, doc), parse(t, doc)
			for i, src := range exprs {
				got, gerr := keyed[i].EvalString(ctx, env, 0)
				want, werr := plain[i].EvalString(ctx, ref, 0)
				if gerr != nil || werr != nil {
					if code(gerr) != code(werr) {
						t.Errorf("round %d doc %d: %s: error %v, want %v", round, di, src, gerr, werr)
					}
					continue
				}
				if got != want {
					t.Errorf("round %d doc %d: %s = %q, want %q", round, di, src, got, want)
				}
			}
		}
	}
}

func code(err error) string {
	if err == nil {
		return "no error"
	}
	if xe, ok := err.(*xdm.Error); ok {
		return string(xe.Code)
	}
	return err.Error()
}
