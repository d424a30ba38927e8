package vm_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestValueIndex checks the value-indexed steps over a registered document
// against the same filter written so that it is not indexed
// ([@value = $v and true()]): string, untyped and
// several values, values absent from the list, duplicates in the list, a
// numeric value (general comparison by number: the index must step aside),
// (errors, as FORG0001 for "A" = 5, included), a second predicate (positions count in the filtered sequence), and the
// same lookup repeated (the cached index).
func TestValueIndex(t *testing.T) {
	fs := vm.NewFunctions()
	fs.RegisterDocument("db.xml", parse(t, `<db><cl id="1"><e value="A"/><e value="B"/><e value="5.0"/><e value="A" n="2"/><e/><e value=" A"/></cl><cl id="2"><e><value>B</value></e><e><value>C</value><value>A</value></e></cl></db>`))
	sc := &xpath.StaticContext{Variables: map[string]int{"v": 0}, Functions: fs}
	main := parse(t, `<inv><c>A</c><c>B</c></inv>`)
	env := &vm.Env{Doc: main, Vars: make([]xdm.Sequence, 1)}
	eval := evaluator(t, sc, env)
	for _, v := range []xdm.Sequence{
		{xdm.String("A")},
		{xdm.Untyped("B")},
		{xdm.String("B"), xdm.String("A")},
		{xdm.String("Z")},
		{xdm.String(" A")},
		{xdm.Integer(5)},
		nil,
		{xdm.NodeItem(2)}, // <c>A</c> of the validated document, atomized
	} {
		env.Vars[0] = v
		for _, c := range []struct{ indexed, plain string }{
			{"string-join(for $e in document('db.xml')/db/cl[@id=1]/e[@value=$v] return concat($e/@value, ':', $e/@n), ',')",
				"string-join(for $e in document('db.xml')/db/cl[@id=1]/e[@value=$v and true()] return concat($e/@value, ':', $e/@n), ',')"},
			{"count(document('db.xml')/db/cl[@id=1]/e[$v=@value])", "count(document('db.xml')/db/cl[@id=1]/e[$v=@value and true()])"},
			{"count(document('db.xml')/db/cl[@id=1]/e[@value=$v][2])", "count(document('db.xml')/db/cl[@id=1]/e[@value=$v and true()][2])"},
			{"count(document('db.xml')/db/cl[@id=2]/e[value=$v])", "count(document('db.xml')/db/cl[@id=2]/e[value=$v and true()])"},
			{"count(document('db.xml')/db/cl[@id=1]/e[@value=$v])", "count(document('db.xml')/db/cl[@id=1]/e[@value=$v and true()])"},
		} {
			if a, b := eval(c.indexed), eval(c.plain); a != b {
				t.Errorf("$v=%v: %s = %q but %s = %q", v, c.indexed, a, c.plain, b)
			}
		}
	}
}

// TestValueIndexNumeric: a numeric value against untypedAtomic keys (the
// code list's cl[@id=8]) goes through the index by xs:double, and must say
// exactly what the comparison does: keys with blanks, leading zeros,
// exponents, -0, NaN and INF; integer, decimal and double values, NaN,
// zero, several values, and a value mixing a string and a number. A list
// with a key that does not cast (the second document) must raise the
// comparison's FORG0001 as the scan does.
func TestValueIndexNumeric(t *testing.T) {
	fs := vm.NewFunctions()
	fs.RegisterDocument("num.xml", parse(t, `<db><cl id="1"/><cl id=" 2 "/><cl id="03"/><cl id="4.0"/><cl id="5e0"/><cl id="-0"/><cl id="NaN"/><cl id="INF"/><cl/><cl id="4"/><cl><id>6</id></cl><cl><id>6.0</id><id>7</id></cl></db>`))
	fs.RegisterDocument("bad.xml", parse(t, `<db><cl id="1"/><cl id="x"/><cl id="3"/></db>`))
	sc := &xpath.StaticContext{Variables: map[string]int{"v": 0}, Functions: fs}
	env := &vm.Env{Doc: parse(t, `<inv/>`), Vars: make([]xdm.Sequence, 1)}
	eval := evaluator(t, sc, env)
	four, _ := xdm.ParseDecimal("4.00")
	hits := 0
	for _, v := range []xdm.Sequence{
		{xdm.Integer(1)}, {xdm.Integer(2)}, {xdm.Integer(3)}, {xdm.Dec(four)}, {xdm.Double(5)},
		{xdm.Integer(0)}, {xdm.Double(math.Copysign(0, -1))}, {xdm.Double(math.NaN())}, {xdm.Double(math.Inf(1))},
		{xdm.Integer(6)}, {xdm.Integer(7)}, {xdm.Integer(8)}, {xdm.Integer(1), xdm.Integer(3)},
		{xdm.String("1"), xdm.Integer(3)}, {xdm.Untyped(" 2 ")}, nil,
	} {
		env.Vars[0] = v
		for _, doc := range []string{"num.xml", "bad.xml"} {
			for _, c := range []struct{ indexed, plain string }{
				{"string-join(for $c in document('" + doc + "')/db/cl[@id=$v] return string($c/@id), '|')",
					"string-join(for $c in document('" + doc + "')/db/cl[@id=$v and true()] return string($c/@id), '|')"},
				{"count(document('" + doc + "')/db/cl[id=$v])", "count(document('" + doc + "')/db/cl[id=$v and true()])"},
				{"count(document('" + doc + "')/db/cl[$v=@id][1])", "count(document('" + doc + "')/db/cl[$v=@id and true()][1])"},
			} {
				a, b := eval(c.indexed), eval(c.plain)
				if a != b {
					t.Errorf("$v=%v: %s = %q but %s = %q", v, c.indexed, a, c.plain, b)
				}
				if a != "" && a != "0" && !strings.HasPrefix(a, "error") {
					hits++
				}
			}
		}
	}
	if hits < 15 {
		t.Fatalf("only %d lookups found something: the test would not see a wrong index", hits)
	}
}

// evaluator compiles and evaluates expressions as strings, a dynamic error
// as "error CODE" (so that the indexed and the plain form can be compared
// on errors too).
func evaluator(t *testing.T, sc *xpath.StaticContext, env *vm.Env) func(string) string {
	return func(src string) string {
		t.Helper()
		p, err := xpath.Compile(src, sc)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		s, err := p.EvalString(context.Background(), env, 0)
		var xe *xdm.Error
		if errors.As(err, &xe) {
			return "error " + xe.Code
		}
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return s
	}
}
