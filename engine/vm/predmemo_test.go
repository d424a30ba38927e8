package vm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestPredicateMemo evaluates programs and patterns that share memoised
// predicates (same fingerprint, used more than once in the catalog) with
// one Env over two documents, and checks the values: a memo keyed wrongly
// (by slot only, or kept across documents) gives other counts.
func TestPredicateMemo(t *testing.T) {
	sc, progs := compileShared(t, "count(a[normalize-space(b) = 'x'])",
		"string-join(for $a in a[normalize-space(b) = 'x'] return string($a/@n), ',')", "count(a[normalize-space(b) = 'y'])")
	count, again, other := progs[0], progs[1], progs[2]
	pt, err := xpath.CompilePattern("a[normalize-space(b) = 'x']", sc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	env := &vm.Env{}
	for _, c := range []struct {
		doc, count, again, other string
		matches                  []bool // per a element
	}{
		{`<r><a n="1"><b>x</b></a><a n="2"><b> y</b></a><a n="3"><b>x </b></a></r>`, "2", "1,3", "1", []bool{true, false, true}},
		{`<r><a n="1"><b>y</b></a><a n="2"><b>x</b></a></r>`, "1", "2", "1", []bool{false, true}},
	} {
		d := parse(t, c.doc)
		env.Doc = d
		for _, p := range []struct {
			prog *vm.Program
			want string
		}{{count, c.count}, {again, c.again}, {other, c.other}, {count, c.count}} {
			got, err := p.prog.EvalString(ctx, env, d.Root())
			if err != nil || got != p.want {
				t.Errorf("%s on %s: %q, %v; want %q", p.prog.Source(), c.doc, got, err, p.want)
			}
		}
		i := 0
		for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
			if d.Kind(n) != xmltree.KindElement || d.NameLocal(d.Name(n)) != "a" {
				continue
			}
			ok, err := pt.Matches(ctx, env, n)
			if err != nil || ok != c.matches[i] {
				t.Errorf("pattern on a #%d of %s: %v, %v", i+1, c.doc, ok, err)
			}
			i++
		}
	}
}

// TestNodePathMemo: a relative path used twice in the catalog is memoised
// per focus node; evaluated from different nodes and documents with one Env
// it must keep the values apart.
func TestNodePathMemo(t *testing.T) {
	cat := vm.NewCatalog()
	sc := &xpath.StaticContext{Catalog: cat}
	p1 := compile(t, "string-join(b/c/string(.), '+')", sc)
	p2 := compile(t, "count(b/c/string(.))", sc)
	env := &vm.Env{}
	for _, c := range []struct {
		doc  string
		want []string // p1 then p2, per a element
	}{
		{`<r><a><b><c>1</c></b></a><a><b><c>2</c><c>3</c></b></a></r>`, []string{"1", "1", "2+3", "2"}},
		{`<r><a><b><c>4</c></b><b><c>5</c></b></a></r>`, []string{"4+5", "2"}},
	} {
		d := parse(t, c.doc)
		env.Doc = d
		var got []string
		for rep := 0; rep < 2; rep++ {
			got = evalOnA(t, env, d, p1, p2)
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("%s (pass %d): %q, want %q", c.doc, rep+1, got, c.want)
			}
		}
	}
}

// TestMemoAcrossCatalogs: one Env evaluating programs of two catalogs on
// one document must not mix their memo slots (slot 1 of each catalog is a
// different predicate / path).
func TestMemoAcrossCatalogs(t *testing.T) {
	d := parse(t, `<r><a><b>x</b><c>1</c></a><a><b>y</b><c>2</c></a></r>`)
	var progs []*vm.Program
	for _, src := range []string{"string-join(a[normalize-space(b) = 'x']/c, ',')", "string-join(a[normalize-space(b) = 'y']/c, ',')"} {
		cat := vm.NewCatalog()
		for i := 0; i < 2; i++ { // used twice: memoised
			progs = append(progs, compile(t, src, &xpath.StaticContext{Catalog: cat}))
		}
	}
	env := &vm.Env{Doc: d}
	want := []string{"1", "1", "2", "2"}
	for round := 0; round < 2; round++ {
		for i, p := range progs {
			got, err := p.EvalString(context.Background(), env, d.Root())
			if err != nil || got != want[i] {
				t.Fatalf("round %d, %s: %q, %v; want %s", round, p.Source(), got, err, want[i])
			}
		}
	}
}

// TestNodeCallMemo: a built-in call that reads the document from the focus
// node (normalize-space(b)), used twice in the catalog, is memoised per
// focus node; from different nodes and documents with one Env the values
// must stay apart, and a call of the position is never memoised.
func TestNodeCallMemo(t *testing.T) {
	cat := vm.NewCatalog()
	sc := &xpath.StaticContext{Catalog: cat}
	p1 := compile(t, "normalize-space(b) = 'x'", sc)
	p2 := compile(t, "concat(normalize-space(b), '|', position())", sc)
	if p1.Root().Args[0].NodeSlot == 0 {
		t.Fatalf("normalize-space(b) has no node memo slot")
	}
	env := &vm.Env{}
	for _, c := range []struct {
		doc  string
		want []string // p1 then p2, per a element
	}{
		{`<r><a><b> x </b></a><a><b>y</b></a></r>`, []string{"true", "x|1", "false", "y|1"}},
		{`<r><a><b>y </b></a><a><b>x</b></a></r>`, []string{"false", "y|1", "true", "x|1"}},
	} {
		d := parse(t, c.doc)
		env.Doc = d
		got := evalOnA(t, env, d, p1, p2)
		if strings.Join(got, ";") != strings.Join(c.want, ";") {
			t.Errorf("%s: got %v, want %v", c.doc, got, c.want)
		}
	}
}

// TestFocusCallMemoInPredicates: normalize-space(.) in a predicate (the
// nine VAT-category filters cbc:ID[normalize-space(.) = 'S'] of EN 16931)
// is memoised per node, once for all the predicates that share it; the
// same call in a check's own test is not (its store would seldom be read).
// The values stay apart per node and per document.
func TestFocusCallMemoInPredicates(t *testing.T) {
	_, progs := compileShared(t, "string-join(b[normalize-space(.) = 'x']/@n, ',')",
		"string-join(b[normalize-space(.) = 'y']/@n, ',')", "normalize-space(.) = 'x'")
	px, py, top := progs[0], progs[1], progs[2]
	for _, c := range []struct {
		p    *vm.Program
		memo bool
	}{{px, true}, {py, true}, {top, false}} {
		call := findCall(c.p.Root(), "normalize-space")
		if call == nil {
			t.Fatalf("%s: no normalize-space call in the compiled tree", c.p.Source())
		}
		if (call.NodeSlot > 0) != c.memo {
			t.Errorf("%s: node memo slot %d, want memoised %v", c.p.Source(), call.NodeSlot, c.memo)
		}
	}
	env := &vm.Env{}
	for _, c := range []struct {
		doc  string
		want []string // px then py, per a element
	}{
		{`<r><a><b n="1"> x </b><b n="2">y</b><b n="3">x</b></a><a><b n="4">y </b></a></r>`, []string{"1,3", "2", "", "4"}},
		{`<r><a><b n="1">y</b><b n="2"> x</b></a><a><b n="3">x</b><b n="4">z</b></a></r>`, []string{"2", "1", "3", ""}},
	} {
		d := parse(t, c.doc)
		env.Doc = d
		for round := 0; round < 2; round++ { // the second round reads the memo
			if got := evalOnA(t, env, d, px, py); strings.Join(got, ";") != strings.Join(c.want, ";") {
				t.Errorf("%s, round %d: got %v, want %v", c.doc, round, got, c.want)
			}
		}
	}
}

// compileShared compiles srcs with one static context whose catalog they
// share (their memo slots are numbered together).
func compileShared(t *testing.T, srcs ...string) (*xpath.StaticContext, []*vm.Program) {
	t.Helper()
	sc := &xpath.StaticContext{Catalog: vm.NewCatalog()}
	progs := make([]*vm.Program, len(srcs))
	for i, src := range srcs {
		progs[i] = compile(t, src, sc)
	}
	return sc, progs
}

// findCall returns the first call of the built-in name in e, depth first.
func findCall(e *vm.Expr, name string) *vm.Expr {
	if e == nil {
		return nil
	}
	if e.Op == vm.OpCall && e.Builtin != nil && e.Builtin.Name == name {
		return e
	}
	for _, c := range append(append([]*vm.Expr{}, e.Args...), e.Preds...) {
		if f := findCall(c, name); f != nil {
			return f
		}
	}
	return nil
}

// TestNormalizeSpaceEBV: the effective boolean value of normalize-space
// (not(normalize-space()), [normalize-space(b)]) is computed by a scan for
// a non-whitespace character; it must agree with the length of the
// normalized string, raise the same errors, and see the context item when
// called without an argument.
func TestNormalizeSpaceEBV(t *testing.T) {
	d := parse(t, "<r><a><b>x</b></a><a><b> \t\n </b></a><a><b/></a><a/><a><b> y </b></a><a><b>1</b><b>2</b></a><a>text</a><a> </a></r>")
	ctx := context.Background()
	env := &vm.Env{Doc: d}
	sc := &xpath.StaticContext{}
	for _, c := range [][2]string{
		{"not(normalize-space(b))", "string-length(normalize-space(b)) = 0"},
		{"boolean(normalize-space(b))", "string-length(normalize-space(b)) > 0"},
		{"not(normalize-space())", "string-length(normalize-space(string(.))) = 0"},
		{"count(.[normalize-space(b)])", "count(.[string-length(normalize-space(b)) > 0])"},
	} {
		fast, slow := compile(t, c[0], sc), compile(t, c[1], sc)
		for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
			if d.Kind(n) != xmltree.KindElement || d.NameLocal(d.Name(n)) != "a" {
				continue
			}
			a, errA := fast.EvalString(ctx, env, n)
			b, errB := slow.EvalString(ctx, env, n)
			if a != b || (errA == nil) != (errB == nil) {
				t.Errorf("%s on node %d: %q, %v; %s: %q, %v", c[0], n, a, errA, c[1], b, errB)
			}
		}
	}
}

// evalOnA evaluates each program on every element named a of d, in
// document order, and returns the string values (programs inner).
func evalOnA(t *testing.T, env *vm.Env, d *xmltree.Document, progs ...*vm.Program) []string {
	t.Helper()
	var got []string
	for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
		if d.Kind(n) != xmltree.KindElement || d.NameLocal(d.Name(n)) != "a" {
			continue
		}
		for _, p := range progs {
			s, err := p.EvalString(context.Background(), env, n)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
	}
	return got
}
