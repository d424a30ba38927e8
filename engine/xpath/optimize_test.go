package xpath

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestRewritesPreserveResults compiles every EN 16931 UBL rule-set
// expression with and without the fast-path rewrites and checks both give
// the same result (or the same error code) on the official UBL examples,
// with every element of each example as context.
func TestRewritesPreserveResults(t *testing.T) {
	exprs, funcs := collectRuleSetExpressions(t, filepath.Join(sharedDir(), "rulesets"))
	ubl := filepath.Join("en16931", "1.3.16", "ubl") + string(filepath.Separator)
	examples := []string{"ubl-tc434-example1.xml", "ubl-tc434-creditnote1.xml"}
	type pair struct{ src, opt, plain *vm.Program }
	var progs []pair
	// The optimized programs also share a name catalog (names resolved per
	// document through it); the plain ones resolve each test on its own.
	cat := vm.NewCatalog()
	for _, x := range exprs {
		if x.pattern || strings.TrimSpace(x.src) == "" || !strings.Contains(x.file, ubl) {
			continue
		}
		sc := &StaticContext{Namespaces: x.ns, Variables: map[string]int{}, Functions: funcs}
		for _, m := range varRef.FindAllStringSubmatch(x.src, -1) {
			sc.Variables[m[1]] = len(sc.Variables)
		}
		if len(sc.Variables) > 0 {
			continue // needs let values; covered by the Schematron engine tests
		}
		osc := *sc
		osc.Catalog = cat
		o, err := compile(x.src, &osc, true)
		if err != nil {
			t.Fatalf("%s: %v", x.src, err)
		}
		p, err := compile(x.src, sc, false)
		if err != nil {
			t.Fatalf("%s: %v", x.src, err)
		}
		progs = append(progs, pair{p, o, p})
	}
	if len(progs) < 500 {
		t.Fatalf("only %d expressions", len(progs))
	}
	ctx := context.Background()
	checked := 0
	for _, ex := range examples {
		data, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", ex))
		if err != nil {
			t.Fatal(err)
		}
		d, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		envA, envB := &vm.Env{Doc: d}, &vm.Env{Doc: d}
		for n := 0; n < d.Len(); n++ {
			node := xmltree.NodeID(n)
			// every element would take too long on a shared machine: sample
			if d.Kind(node) != xmltree.KindElement || (n%5 != 0 && node != rootElement(d)) {
				continue
			}
			for _, pr := range progs {
				a, errA := pr.opt.EvalString(ctx, envA, node)
				b, errB := pr.plain.EvalString(ctx, envB, node)
				if code(errA) != code(errB) || a != b {
					t.Errorf("%s at %s: optimized %q/%v, plain %q/%v", pr.src.Source(), d.Path(node), a, errA, b, errB)
				}
				checked++
			}
		}
	}
	t.Logf("%d expressions, %d evaluations compared", len(progs), checked)
}

func code(err error) string {
	if err == nil {
		return ""
	}
	if xe, ok := err.(*xdm.Error); ok {
		return xe.Code
	}
	return err.Error()
}

func TestRewriteShapes(t *testing.T) {
	sc := ublContext()
	for _, c := range []struct {
		expr string
		op   vm.Op
	}{
		{"1 + 2 * 3", vm.OpConst},
		{"('A', 'B', 'C')", vm.OpConst},
		{"upper-case(concat('a', 'b'))", vm.OpConst},
		{"xs:integer('x')", vm.OpCast},  // would raise: left for run time
		{"current-date()", vm.OpCall},   // not deterministic
		{"exists(cbc:ID)", vm.OpExists}, // early exit
		{"not(cbc:ID)", vm.OpNot},       //
		{"count(cbc:ID)", vm.OpCount},   //
		{"cbc:ID = 'x'", vm.OpChildEq},  // direct scan
		{"@currencyID = 'EUR'", vm.OpChildEq},
		{"cbc:ID = ('a', 'b', 'c', 'd')", vm.OpGenCmp},
		{"contains(' A B ', concat(' ', normalize-space(.), ' '))", vm.OpCodeSet},
		{"contains(' A  B ', concat(' ', normalize-space(.), ' '))", vm.OpCall}, // not normalised: kept
		{"not(contains(normalize-space(@currencyID), ' ')) and contains(' A B ', concat(' ', normalize-space(@currencyID), ' '))", vm.OpCodeToken},
		{"not(contains(normalize-space(@schemeID), ' ')) and contains(' A B ', concat(' ', normalize-space(@currencyID), ' '))", vm.OpAnd}, // another value: kept
		{"//cbc:ID", vm.OpPath},
		{"string-length(substring-after(cbc:Amount,'.'))<=2", vm.OpLenAfter},
		{"string-length(substring-after(cbc:Amount,'.')) = 2.0", vm.OpGenCmp}, // not an integer literal: kept
		{"normalize-space(cbc:ID) != ''", vm.OpBlankCmp},
		{"normalize-space(cbc:ID) != 'x'", vm.OpGenCmp},
		{"some $c in ('A', 'B') satisfies @currencyID = $c", vm.OpGenCmp},
		{"some $c in ('A', 'B') satisfies cbc:ID = $c", vm.OpSome}, // several items: the pairs' order could differ
		{"some $c in ('A', 'B') satisfies @currencyID[. != ''] = $c", vm.OpSome},
	} {
		p, err := Compile(c.expr, sc)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := p.Root().Op; got != c.op {
			t.Errorf("%s: root op %d, want %d", c.expr, got, c.op)
		}
	}
	p, _ := Compile("cbc:ID = ('a', 'b', 'c', 'd')", sc)
	if p.Root().Set == nil {
		t.Errorf("string-list comparison has no set")
	}
	// A variable known at compile time (a let folded to a code list) is
	// the list itself: the comparison against it is a set lookup, and the
	// some-quantifier over it (PEPPOL-EN16931-CL007) too.
	codes := xdm.Sequence{xdm.String("EUR"), xdm.String("USD"), xdm.String("GBP"), xdm.String("SEK")}
	csc := ublContext()
	csc.Variables = map[string]int{"codes": 0, "other": 1}
	csc.Constants = map[int]xdm.Sequence{0: codes}
	for _, expr := range []string{"@currencyID = $codes", "some $c in $codes satisfies @currencyID = $c"} {
		p, err := Compile(expr, csc)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if r := p.Root(); r.Op != vm.OpGenCmp || r.Set == nil || len(p.VarSlots()) != 0 {
			t.Errorf("%s with a constant $codes: op %d, set %v, reads slots %v; want a set lookup reading no variable", expr, r.Op, r.Set != nil, p.VarSlots())
		}
	}
	if p, _ := Compile("@currencyID = $other", csc); p.Root().Set != nil || len(p.VarSlots()) != 1 {
		t.Errorf("@currencyID = $other (not a constant) must read its variable")
	}
	p, _ = Compile("//cbc:ID[. = 'x']", sc)
	if args := p.Root().Args; len(args) != 2 || args[1].Axis != vm.AxisDescendant {
		t.Errorf("//cbc:ID[p] not rewritten to descendant::")
	}
	p, _ = Compile("//cbc:ID[1]", sc)
	if args := p.Root().Args; len(args) != 3 {
		t.Errorf("//cbc:ID[1] must keep descendant-or-self::node()/child:: (positional)")
	}
}

// TestFusedOpsSemantics compares each fused op with the plain expression
// on every a element of a document built for its edge cases (padding,
// inner spaces, empty, absent, several separators, multi-byte characters,
// and operands that must raise an error: two items, a typed number); the
// error codes must match too.
func TestFusedOpsSemantics(t *testing.T) {
	for _, c := range []struct {
		doc  string
		op   vm.Op
		srcs []string
	}{
		{`<r><a><b>EUR</b></a><a><b> USD </b></a><a><b>EU R</b></a><a><b>EUR USD</b></a><a><b/></a><a/><a><b>XXX</b></a><a><b>EUR</b><b>USD</b></a></r>`,
			vm.OpCodeToken, []string{"not(contains(normalize-space(b), ' ')) and contains(' EUR USD ', concat(' ', normalize-space(b), ' '))"}},
		{`<r><a><b>12.34</b></a><a><b>12.345</b></a><a><b>12</b></a><a><b>1.2.3</b></a><a><b>1.ééé</b></a><a><b/></a><a/><a><b>1.1</b><b>2.2</b></a><a><b>1.5</b></a></r>`,
			vm.OpLenAfter, []string{"string-length(substring-after(b,'.'))<=2", "string-length(substring-after(b,'.')) > 2",
				"string-length(substring-after(b,'.')) != 0", "string-length(substring-after(xs:decimal(b),'.'))<=2"}},
		{"<r><a><b>x</b></a><a><b> \t\n </b></a><a><b/></a><a/><a><b> y </b></a><a><b>1</b><b>2</b></a><a><b>1.5</b></a></r>",
			vm.OpBlankCmp, []string{"normalize-space(b) != ''", "normalize-space(b) = ''", "'' != normalize-space(b)", "normalize-space(xs:decimal(b)) != ''"}},
		{`<r><a c="EUR"/><a c="X"/><a/><a c=" EUR"/><a c="2"/></r>`,
			vm.OpGenCmp, []string{"some $x in ('EUR', 'USD', 'GBP', 'CHF') satisfies @c = $x", "some $x in ('EUR', 'USD') satisfies $x = @c",
				"some $x in (1, 2) satisfies @c = $x", "some $x in () satisfies @c = $x"}},
	} {
		d, err := xmltree.Parse([]byte(c.doc), xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		env := &vm.Env{Doc: d}
		for _, src := range c.srcs {
			opt, err := compile(src, &StaticContext{}, true)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := compile(src, &StaticContext{}, false)
			if err != nil {
				t.Fatal(err)
			}
			if opt.Root().Op != c.op {
				t.Fatalf("%s: root op %d, want %d", src, opt.Root().Op, c.op)
			}
			for n := xmltree.NodeID(0); int(n) < d.Len(); n++ {
				if d.Kind(n) != xmltree.KindElement || d.NameLocal(d.Name(n)) != "a" {
					continue
				}
				var got [2]string
				for k, p := range []*vm.Program{opt, plain} {
					v, err := p.EvalBool(ctx, env, n)
					switch {
					case err != nil:
						var xe *xdm.Error
						if !errors.As(err, &xe) {
							t.Fatalf("%s: %v", src, err)
						}
						got[k] = "error " + xe.Code
					case v:
						got[k] = "true"
					default:
						got[k] = "false"
					}
				}
				if got[0] != got[1] {
					t.Errorf("%s on node %d: fused %s, plain %s", src, n, got[0], got[1])
				}
			}
		}
	}
}
