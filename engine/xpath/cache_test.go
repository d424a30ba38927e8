package xpath

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestCacheSharesParsing: a second compilation of the same expression in
// the same scope reuses the parsed tree, yet each program gets its own
// copy (its own catalog slots, path killers pointing into its own tree),
// and results equal an uncached compilation.
func TestCacheSharesParsing(t *testing.T) {
	d := parseDoc(t, testDoc)
	root := rootElement(d)
	exprs := []string{
		"count(cac:InvoiceLine[cbc:LineExtensionAmount > 1]) = 2",
		"not(cac:Delivery/cac:DeliveryParty/cbc:X)",
		"every $l in cac:InvoiceLine satisfies exists($l/cbc:ID)",
		"sum(cac:InvoiceLine/cbc:LineExtensionAmount[@currencyID = 'EUR'])",
		"cac:AllowanceCharge/cbc:ChargeIndicator = false()",
		"string-join(for $n in cbc:Note return upper-case($n), ',')",
	}
	cache := NewCache()
	ctx := context.Background()
	var first []*vm.Program
	for round := range 2 {
		cat := vm.NewCatalog()
		if round == 1 {
			// a different catalog numbers the names differently
			sc := ublContext()
			sc.Catalog = cat
			if _, err := Compile("cbc:Unrelated/cac:Other", sc); err != nil {
				t.Fatal(err)
			}
		}
		for i, src := range exprs {
			sc := ublContext()
			sc.Catalog, sc.Cache = cat, cache
			p, err := Compile(src, sc)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			plain, err := Compile(src, ublContext())
			if err != nil {
				t.Fatal(err)
			}
			got, errA := p.EvalString(ctx, &vm.Env{Doc: d}, root)
			want, errB := plain.EvalString(ctx, &vm.Env{Doc: d}, root)
			if got != want || code(errA) != code(errB) {
				t.Errorf("round %d %s: cached %q/%v, uncached %q/%v", round, src, got, errA, want, errB)
			}
			checkKillers(t, p.Root())
			if round == 0 {
				first = append(first, p)
			} else if p.Root() == first[i].Root() {
				t.Errorf("%s: two programs share one tree", src)
			}
		}
	}
	// A repeat in the same catalog shares the program itself.
	sc := ublContext()
	sc.Catalog, sc.Cache = vm.NewCatalog(), cache
	a, errA := Compile(exprs[0], sc)
	b, errB := Compile(exprs[0], sc)
	if errA != nil || errB != nil || a != b {
		t.Errorf("same catalog: programs %p and %p (%v, %v); want one", a, b, errA, errB)
	}
	hits, misses := cache.Stats()
	if hits -= 2; hits != len(exprs) || misses != len(exprs) {
		t.Errorf("hits %d, misses %d; want %d each", hits, misses, len(exprs))
	}
	// The first programs still evaluate (the second round did not
	// re-annotate their trees).
	for i, p := range first {
		if _, err := p.EvalString(ctx, &vm.Env{Doc: d}, root); err != nil {
			t.Errorf("%s after reuse: %v", exprs[i], err)
		}
	}
}

// checkKillers fails when a path killer of e's tree is not the test of one
// of that path's own steps (a copy pointing into the cached tree).
func checkKillers(t *testing.T, e *vm.Expr) {
	t.Helper()
	if e == nil {
		return
	}
	for _, k := range e.Kills() {
		found := false
		for _, a := range e.Args {
			found = found || &a.Test == k
		}
		if !found {
			t.Errorf("path killer %s:%s is not one of the path's steps", k.Space, k.Local)
		}
	}
	for _, a := range e.Args {
		checkKillers(t, a)
	}
	for _, p := range e.Preds {
		checkKillers(t, p)
	}
	for _, b := range e.Bindings() {
		checkKillers(t, b.In)
	}
}

// TestCacheKeysScopeAndFunctions: another scope (namespaces, variables)
// parses again; a tree that calls a registry function is reused only with
// that registry.
func TestCacheKeysScopeAndFunctions(t *testing.T) {
	cache := NewCache()
	mk := func(fns *vm.Functions, vars map[string]int) *StaticContext {
		sc := ublContext()
		sc.Cache, sc.Functions, sc.Variables = cache, fns, vars
		return sc
	}
	reg := func(val string) *vm.Functions {
		f := vm.NewFunctions()
		f.Register("urn:f", "v", 0, func(context.Context, *xmltree.Document, []xdm.Sequence) (xdm.Sequence, error) {
			return xdm.Sequence{xdm.String(val)}, nil
		})
		return f
	}
	a, b := reg("a"), reg("b")
	ctxA := mk(a, nil)
	ctxA.Namespaces["f"] = "urn:f"
	ctxB := mk(b, nil)
	ctxB.Namespaces["f"] = "urn:f"
	d := parseDoc(t, testDoc)
	for _, c := range []struct {
		sc   *StaticContext
		want string
	}{{ctxA, "a"}, {ctxB, "b"}, {ctxA, "a"}} {
		p, err := Compile("f:v()", c.sc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.EvalString(context.Background(), &vm.Env{Doc: d}, rootElement(d))
		if err != nil || got != c.want {
			t.Errorf("f:v() = %q, %v; want %q (the registry of its own context)", got, err, c.want)
		}
	}
	// Namespaces: cbc bound to another URI finds nothing.
	for _, c := range []struct {
		uri  string
		want string
	}{{nsCBC, "INV-1"}, {"urn:other", ""}, {nsCBC, "INV-1"}} {
		sc := mk(nil, nil)
		sc.Namespaces["cbc"] = c.uri
		p, err := Compile("string(cbc:ID)", sc)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := p.EvalString(context.Background(), &vm.Env{Doc: d}, rootElement(d)); err != nil || got != c.want {
			t.Errorf("string(cbc:ID) with cbc = %s: %q, %v; want %q", c.uri, got, err, c.want)
		}
	}
	// Variables: $x is slot 0 in one scope and slot 1 in another.
	for _, slot := range []int{0, 1, 0} {
		p, err := Compile("$x", mk(nil, map[string]int{"x": slot, "y": 1 - slot}))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.VarSlots(); len(got) != 1 || got[0] != slot {
			t.Errorf("$x with $x at slot %d reads slots %v", slot, got)
		}
	}
	// Constants: the same expression and slot with another constant value
	// (two versions of a code list), or none, compiles again.
	one, two := xdm.Sequence{xdm.String("A")}, xdm.Sequence{xdm.String("B")}
	for _, c := range []struct {
		val  xdm.Sequence
		want string
	}{{one, "A"}, {two, "B"}, {nil, "var"}, {one, "A"}} {
		sc := mk(nil, map[string]int{"x": 0})
		if c.val != nil {
			sc.Constants = map[int]xdm.Sequence{0: c.val}
		}
		p, err := Compile("string($x)", sc)
		if err != nil {
			t.Fatal(err)
		}
		env := &vm.Env{Doc: d, Vars: []xdm.Sequence{{xdm.String("var")}}}
		if got, err := p.EvalString(context.Background(), env, rootElement(d)); err != nil || got != c.want {
			t.Errorf("string($x) with constant %v: %q, %v; want %q", c.val, got, err, c.want)
		}
	}
}

// TestCacheSharesRegexes: a literal pattern is compiled once per cache,
// whatever expression holds it; other flags are another pattern, and a bad
// pattern stays a compile error.
func TestCacheSharesRegexes(t *testing.T) {
	cache := NewCache()
	compileIn := func(src string) *vm.Program {
		t.Helper()
		sc := ublContext()
		sc.Catalog, sc.Cache = vm.NewCatalog(), cache
		p, err := Compile(src, sc)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return p
	}
	re := func(p *vm.Program) *vm.Regex { return p.Root().Args[0].Regex() }
	a := compileIn("not(matches(cbc:ID, '^[0-9]+$'))")
	b := compileIn("not(matches(cbc:Note, '^[0-9]+$'))")
	c := compileIn("not(matches(cbc:Note, '^[0-9]+$', 'i'))")
	if re(a) == nil || re(a) != re(b) {
		t.Errorf("one pattern in two expressions: %p and %p, want one shared", re(a), re(b))
	}
	if re(c) == nil || re(c) == re(a) {
		t.Errorf("other flags share the pattern's regex (%p)", re(c))
	}
	sc := ublContext()
	sc.Cache = cache
	for range 2 {
		if _, err := Compile("matches(cbc:ID, '(')", sc); err == nil {
			t.Error("a bad pattern compiled through the cache")
		}
	}
}

// TestCachePlansSharedSubexpressionsOnce: a program wrapped from a cache
// entry (a copy of a tree planned once, vm.PlanShared) shares exactly the
// subexpressions that a direct compilation (vm.NewProgramShared) shares,
// in the interpreter (Expr.CSE) and in the frame-free test (Expr.NumShare,
// FastShares), for every expression of the rule sets, on a miss and on a
// hit in another catalog.
func TestCachePlansSharedSubexpressionsOnce(t *testing.T) {
	exprs, funcs := collectRuleSetExpressions(t, filepath.Join(sharedDir(), "rulesets"))
	cache := NewCache()
	shared, fastShared := 0, 0
	for _, x := range exprs {
		if x.pattern || strings.TrimSpace(x.src) == "" {
			continue
		}
		mk := func(cat *vm.Catalog, c *Cache) *StaticContext {
			sc := &StaticContext{Namespaces: x.ns, Variables: map[string]int{}, Functions: funcs, Catalog: cat, Cache: c}
			for _, m := range varRef.FindAllStringSubmatch(x.src, -1) {
				sc.Variables[m[1]] = len(sc.Variables)
			}
			return sc
		}
		want, err := Compile(x.src, mk(vm.NewCatalog(), nil))
		if err != nil {
			continue // TestCompileAllRuleSetExpressions reports these
		}
		for round := range 2 { // a miss, then a hit in another catalog
			got, err := Compile(x.src, mk(vm.NewCatalog(), cache))
			if err != nil {
				t.Fatalf("%q round %d: %v", x.src, round, err)
			}
			if got.SharedSubexpressions() != want.SharedSubexpressions() || got.FastShares() != want.FastShares() || !sameCSE(got.Root(), want.Root()) {
				t.Errorf("%q round %d: %d shared subexpressions and %d frame-free, direct compile %d and %d, or different nodes", x.src, round,
					got.SharedSubexpressions(), got.FastShares(), want.SharedSubexpressions(), want.FastShares())
			}
		}
		if want.SharedSubexpressions() > 0 {
			shared++
		}
		if want.FastShares() > 0 {
			fastShared++
		}
	}
	if shared < 100 || fastShared < 100 {
		t.Fatalf("only %d expressions share subexpressions, %d in the frame-free test: the test does not exercise the plan", shared, fastShared)
	}
}

// sameCSE reports whether two trees of one expression have the same shape
// and the same shared-subexpression slots (CSE, NumShare) node by node.
func sameCSE(a, b *vm.Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Op != b.Op || a.CSE != b.CSE || a.NumShare != b.NumShare || len(a.Args) != len(b.Args) || len(a.Preds) != len(b.Preds) || len(a.Bindings()) != len(b.Bindings()) {
		return false
	}
	for i := range a.Args {
		if !sameCSE(a.Args[i], b.Args[i]) {
			return false
		}
	}
	for i := range a.Preds {
		if !sameCSE(a.Preds[i], b.Preds[i]) {
			return false
		}
	}
	for i := range a.Bindings() {
		if !sameCSE(a.Bindings()[i].In, b.Bindings()[i].In) {
			return false
		}
	}
	return true
}

// TestPatternDispatchKey: which rule contexts start with K = 'literal'
// (vm.Pattern.DispatchKey), and what DispatchValues gives for a node.
func TestPatternDispatchKey(t *testing.T) {
	for _, tc := range []struct {
		src, lit string
		ok       bool
	}{
		{"cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'S'][cac:TaxScheme]", "S", true},
		{"'S' = normalize-space(cbc:ID)", "", false}, // not a pattern step
		{"cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'E'] | cac:CreditNoteLine/cac:Item/cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'E']", "E", true},
		{"cac:A[normalize-space(cbc:ID) = 'E'] | cac:B[normalize-space(cbc:ID) = 'S']", "", false}, // two literals
		{"cac:A[normalize-space(cbc:ID) = 'E'] | cac:B", "", false},
		{"cac:TaxCategory[cbc:ID = 'S']", "S", true},                    // the child-equals form
		{"cac:TaxCategory[normalize-space(cbc:ID) = $code]", "", false}, // a variable
		{"cac:TaxCategory[position() = 1][cbc:ID = 'S']", "", false},    // positional
		{"cac:TaxCategory[cbc:Percent = 1]", "", false},                 // not a string literal
		{"cac:TaxCategory", "", false},
	} {
		sc := ublContext()
		sc.Variables = map[string]int{"code": 0}
		pt, err := CompilePattern(tc.src, sc)
		if err != nil {
			if !tc.ok {
				continue
			}
			t.Fatalf("%s: %v", tc.src, err)
		}
		_, lit, ok := pt.DispatchKey()
		if ok != tc.ok || lit != tc.lit {
			t.Errorf("%s: DispatchKey = %q, %v; want %q, %v", tc.src, lit, ok, tc.lit, tc.ok)
		}
	}
	a, _ := CompilePattern("cac:TaxCategory[normalize-space(cbc:ID) = 'S']", ublContext())
	b, _ := CompilePattern("cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'Z'][cac:TaxScheme]", ublContext())
	ka, _, _ := a.DispatchKey()
	kb, _, _ := b.DispatchKey()
	if ka != kb {
		t.Errorf("the same K has two keys: %q, %q", ka, kb)
	}
	d := parseDoc(t, `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
	xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
	xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
	<cac:TaxCategory><cbc:ID> S </cbc:ID></cac:TaxCategory>
	<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:ID>Z</cbc:ID></cac:TaxCategory>
	<cac:TaxCategory/></Invoice>`)
	var cats []xmltree.NodeID
	for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
		if d.Kind(n) == xmltree.KindElement && d.NameLocal(d.Name(n)) == "TaxCategory" {
			cats = append(cats, n)
		}
	}
	env := &vm.Env{Doc: d}
	for i, want := range []struct {
		vals []string
		ok   bool
	}{{[]string{"S"}, true}, {nil, false}, {[]string{""}, true}} {
		vals, ok := a.DispatchValues(context.Background(), env, cats[i], nil)
		if ok != want.ok || !slices.Equal(vals, want.vals) {
			t.Errorf("category %d: DispatchValues = %q, %v; want %q, %v (two cbc:ID raise XPTY0004; none gives '')", i, vals, ok, want.vals, want.ok)
		}
	}
}
