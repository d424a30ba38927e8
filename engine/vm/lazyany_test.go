package vm_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestAnyNodeAsTheReference: whether a path selects a node is decided as
// the reference's iterators decide it (lazyany.go): the first node found
// ends the evaluation, so an error in the predicates of later nodes is not
// raised; an error met before any node is. The shape is BR-CO-04's on a
// line with two tax categories, the second with two tax schemes (its
// predicate a sequence of two booleans: FORG0006). A general comparison
// of such a path with constants stops at its first match.
func TestAnyNodeAsTheReference(t *testing.T) {
	const (
		okFirst  = `<l><i><c><s><id>VAT</id></s><id>S</id></c><c><s><id>VAT</id></s><s><id>VAT</id></s><id>Z</id></c></i></l>`
		errFirst = `<l><i><c><s><id>VAT</id></s><s><id>VAT</id></s><id>Z</id></c><c><s><id>VAT</id></s><id>S</id></c></i></l>`
		noneOK   = `<l><i><c><s><id>GST</id></s><id>S</id></c><c><s><id>VAT</id></s><s><id>VAT</id></s><id>Z</id></c></i></l>`
		noID     = `<l><i><c><s><id>VAT</id></s></c><c><s><id>VAT</id></s><s><id>VAT</id></s><id>Z</id></c></i></l>`
	)
	path := "i/c[s/(normalize-space(upper-case(id)) = 'VAT')]/id"
	for _, c := range []struct {
		expr, doc string
		want      bool
		code      string // "no error" or the error's code
	}{
		{"(" + path + ")", okFirst, true, "no error"},
		{"exists(" + path + ")", okFirst, true, "no error"},
		{"not(" + path + ")", okFirst, false, "no error"},
		{"empty(" + path + ")", okFirst, false, "no error"},
		{"boolean(/l[" + path + "])", okFirst, true, "no error"},
		{"(" + path + ")", errFirst, false, "FORG0006"},
		{"exists(" + path + ")", errFirst, false, "FORG0006"},
		// the first category fails the predicate without an error: the
		// second is evaluated, and raises
		{"(" + path + ")", noneOK, false, "FORG0006"},
		// the first category passes but has no id: the second is reached
		{"(" + path + ")", noID, false, "FORG0006"},
		// a later step's predicate: i/c is found, its id's predicate errs
		// only on the second category's id
		{"(i/c/id[../s/(. = 'x') or true()])", okFirst, true, "no error"},
		// a general comparison with constants: the first match ends it
		{path + " = 'S'", okFirst, true, "no error"},
		{path + " = ('Q', 'S')", okFirst, true, "no error"},
		{path + " != 'Q'", okFirst, true, "no error"},
		{path + " = 'Z'", okFirst, false, "FORG0006"}, // S does not match: the second category errs
		{path + " = 'S'", errFirst, false, "FORG0006"},
		// expression steps are evaluated whole, as before: the error stays
		{"(i/c/(s/(normalize-space(id) = 'VAT')))", okFirst, false, "FORG0006"},
	} {
		for _, cat := range []*vm.Catalog{nil, vm.NewCatalog()} {
			p, err := xpath.Compile(c.expr, &xpath.StaticContext{Catalog: cat})
			if err != nil {
				t.Fatalf("%s: %v", c.expr, err)
			}
			env := &vm.Env{Doc: parse(t, c.doc)}
			got, err := p.EvalBool(context.Background(), env, 1)
			if code(err) != c.code || got != c.want {
				t.Errorf("%s on %s = %v, %v; want %v, %q", c.expr, c.doc, got, err, c.want, c.code)
			}
		}
	}
}

// TestGeneralComparisonOrder: a comparison of a sequence with a single
// operand evaluates the single one first, as the reference does
// (cardinality.go): an empty sequence side does not spare the single side's
// error, an empty single side spares the sequence side's, and the sequence
// side is pulled until its first match.
func TestGeneralComparisonOrder(t *testing.T) {
	const doc = `<r><c>1</c><c>2</c><l><p>1</p></l><l><p>5</p><p>6</p></l></r>`
	for _, c := range []struct {
		expr string
		want bool
		code string
	}{
		// many = one: the single side (two c: XPTY0004) raises though b is empty
		{"b = xs:decimal(c)", false, "XPTY0004"},
		{"xs:decimal(c) = b", false, "XPTY0004"},
		// the single side empty: the sequence side's error is never met
		{"xs:decimal(nothing) = l/xs:decimal(p)", false, "no error"},
		{"l/xs:decimal(p) = xs:decimal(nothing)", false, "no error"},
		// pulled until the first match: the second l's two p never cast
		{"sum(c) - 2 = l[xs:decimal(p) > 0]/p", true, "no error"},
		{"l[xs:decimal(p) > 0]/p = sum(c) - 2", true, "no error"},
		// no match in the first l: the second is reached, and raises
		{"sum(c) = l[xs:decimal(p) > 0]/p", false, "XPTY0004"},
		// both sides sequences: the left whole, then the right (unchanged;
		// the reference alternates between the two, not reproduced)
		{"c = l/p", true, "no error"},
		{"l[xs:decimal(p) > 0]/p = c", false, "XPTY0004"},
	} {
		p, err := xpath.Compile(c.expr, &xpath.StaticContext{Namespaces: map[string]string{"xs": "http://www.w3.org/2001/XMLSchema"}})
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		got, err := p.EvalBool(context.Background(), &vm.Env{Doc: parse(t, doc)}, 1)
		if code(err) != c.code || got != c.want {
			t.Errorf("%s = %v, %v; want %v, %q", c.expr, got, err, c.want, c.code)
		}
	}
}
