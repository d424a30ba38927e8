package vm_test

import (
	"context"
	"errors"
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
	ctx := context.Background()
	eval := func(src string) string {
		t.Helper()
		p, err := xpath.Compile(src, sc)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		s, err := p.EvalString(ctx, env, 0)
		var xe *xdm.Error
		if errors.As(err, &xe) {
			return "error " + xe.Code
		}
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return s
	}
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
