package xslfunc

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
	"github.com/einvoice-dev/einvoice/internal/concurrenttest"
)

// A hand-written schema exercising what the compiler supports: params of
// each type, chained variables (one with a prefixed name), a function
// calling another, an element() param used in a path.
const testSch = `<schema xmlns="http://purl.oclc.org/dsdl/schematron" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:t="urn:test" queryBinding="xslt2">
  <ns prefix="a" uri="urn:a"/>
  <xsl:function name="t:in-list" as="xs:boolean">
    <xsl:param name="code" as="xs:string?"/>
    <xsl:variable name="t:codes" as="xs:string" select="'X Y  Z'"/>
    <xsl:variable name="list" select="tokenize($t:codes, '\s+')"/>
    <xsl:sequence select="$code = $list"/>
  </xsl:function>
  <xsl:function name="t:both" as="xs:boolean">
    <xsl:param name="a" as="xs:string"/>
    <xsl:param name="b" as="xs:string?"/>
    <xsl:sequence select="t:in-list($a) and t:in-list($b)"/>
  </xsl:function>
  <xsl:function name="t:short" as="xs:boolean">
    <xsl:param name="s" as="xs:string"/>
    <xsl:variable name="max" select="3"/>
    <xsl:variable name="n" select="string-length($s)"/>
    <xsl:sequence select="$n le $max"/>
  </xsl:function>
  <xsl:function name="t:echo">
    <xsl:param name="s" as="xs:string"/>
    <xsl:sequence select="$s"/>
  </xsl:function>
  <xsl:function name="t:has-id" as="xs:boolean">
    <xsl:param name="e" as="element()?"/>
    <xsl:sequence select="exists($e/a:ID)"/>
  </xsl:function>
  <!-- <xsl:function name="t:commented" as="xs:boolean"><xsl:choose/></xsl:function> -->
</schema>`

func eval(t *testing.T, fs *vm.Functions, doc *xmltree.Document, expr string) (xdm.Sequence, error) {
	t.Helper()
	p, err := xpath.Compile(expr, &xpath.StaticContext{Namespaces: map[string]string{"t": "urn:test", "a": "urn:a"}, Functions: fs})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return p.Eval(context.Background(), &vm.Env{Doc: doc}, doc.Root())
}

func TestXSLFunctions(t *testing.T) {
	defs, ns, err := ParseXSLFunctions([]byte(testSch))
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 5 || ns["a"] != "urn:a" || defs[0].Space != "urn:test" || len(defs[0].Vars) != 2 || defs[1].Params[1].As != "xs:string?" {
		t.Fatalf("parsed %+v %v", defs, ns)
	}
	fs := vm.NewFunctions()
	if err := CompileXSLFunctions(fs, defs, ns); err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse([]byte(`<a:R xmlns:a="urn:a"><a:ID>1</a:ID><a:C>Y</a:C><a:N/></a:R>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for expr, want := range map[string]bool{
		"t:in-list('X')":         true,
		"t:in-list('W')":         false,
		"t:in-list(())":          false,
		"t:in-list(/a:R/a:C)":    true, // untypedAtomic converted to xs:string
		"t:both('Z', 'X')":       true,
		"t:both('Z', ())":        false,
		"t:has-id(/a:R)":         true,
		"t:has-id(/a:R/a:N)":     false,
		"t:has-id(())":           false,
		"t:in-list(string(1+1))": false,
		"t:short('abc')":         true,
		"t:short('abcd')":        false,
	} {
		got, err := eval(t, fs, doc, expr)
		if err != nil || len(got) != 1 || got[0].T != xdm.TBoolean || got[0].B != want {
			t.Errorf("%s = %v (%v), want %v", expr, got, err, want)
		}
	}
	// A result that is a param's value is the caller's: the next call,
	// which reuses the first call's context, does not change it.
	if got, err := eval(t, fs, doc, "string-join((t:echo('a'), t:echo('b')), ',')"); err != nil || len(got) != 1 || got[0].S != "a,b" {
		t.Errorf("t:echo twice = %v (%v), want a,b", got, err)
	}
	// Function conversion errors, as the reference raises them.
	for _, expr := range []string{"t:in-list((/a:R/a:ID, /a:R/a:C))", "t:both((), 'X')", "t:in-list(1)", "t:has-id('x')"} {
		if _, err := eval(t, fs, doc, expr); err == nil {
			t.Errorf("%s: no type error", expr)
		}
	}
}

// TestXSLFunctionConstants: a variable whose expression folds to a value
// is that value, not evaluated per call, and the variables after it see a
// constant ($list = tokenize($t:codes, ...) folds too); one that reads a
// param is evaluated.
func TestXSLFunctionConstants(t *testing.T) {
	cs := compileTestSch(t)
	inList, short := cs[0], cs[2]
	if len(inList.consts) != 2 || len(inList.consts[0]) != 1 || inList.consts[0][0].S != "X Y  Z" || len(inList.consts[1]) != 3 {
		t.Errorf("t:in-list: constants %v, want 'X Y  Z' and its three tokens", inList.consts)
	}
	if short.consts[0] == nil || short.consts[1] != nil {
		t.Errorf("t:short: constants %v, want $max only", short.consts)
	}
}

func TestXSLFunctionsUnsupported(t *testing.T) {
	for _, body := range []string{
		`<xsl:choose><xsl:when test="1">1</xsl:when></xsl:choose>`,
		`<xsl:param name="p" as="xs:integer"/><xsl:sequence select="1"/>`,
		`<xsl:param name="p"/>`,
		`<xsl:sequence select="1"/><xsl:sequence select="2"/>`,
	} {
		src := `<schema xmlns="http://purl.oclc.org/dsdl/schematron" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:t="urn:test">` +
			`<xsl:function name="t:f" as="xs:boolean">` + body + `</xsl:function></schema>`
		defs, ns, err := ParseXSLFunctions([]byte(src))
		if err == nil {
			err = CompileXSLFunctions(vm.NewFunctions(), defs, ns)
		}
		if !errors.Is(err, ErrXSLFunction) {
			t.Errorf("%s: %v, want ErrXSLFunction", body, err)
		}
	}
}

// TestXSLFunctionsReuseCallContexts: the evaluation contexts of finished
// calls are reused, so calls on another document, nested calls (t:both
// calls t:in-list) and calls from many goroutines at once must each see
// only their own arguments and document.
func TestXSLFunctionsReuseCallContexts(t *testing.T) {
	fs := testFunctions(t)
	withID, err := xmltree.Parse([]byte(`<a:R xmlns:a="urn:a"><a:ID>1</a:ID><a:C>Y</a:C></a:R>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	without, err := xmltree.Parse([]byte(`<a:R xmlns:a="urn:a"><a:C>W</a:C></a:R>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		doc  *xmltree.Document
		expr string
		want bool
	}{
		{withID, "t:has-id(/a:R)", true},
		{without, "t:has-id(/a:R)", false},
		{withID, "t:both(string(/a:R/a:C), 'X')", true},
		{without, "t:both(string(/a:R/a:C), 'X')", false},
		{withID, "t:in-list(/a:R/a:C) and not(t:in-list('W'))", true},
		{without, "t:in-list(/a:R/a:C)", false},
	}
	progs := make([]*vm.Program, len(cases))
	for i, c := range cases {
		if progs[i], err = xpath.Compile(c.expr, &xpath.StaticContext{Namespaces: map[string]string{"t": "urn:test", "a": "urn:a"}, Functions: fs}); err != nil {
			t.Fatal(err)
		}
	}
	concurrenttest.Run(t, 8, 200, func(g, n int) error {
		// Each goroutine has its own Env per document, as each request has.
		i := (g + n) % len(cases)
		c := cases[i]
		got, err := progs[i].EvalBool(context.Background(), &vm.Env{Doc: c.doc}, c.doc.Root())
		if err != nil || got != c.want {
			return fmt.Errorf("%s on document %d: %v, %v; want %v", c.expr, i%2, got, err, c.want)
		}
		return nil
	})
}

// TestXSLFunctionsDropRegisters: a call run by the scalar closures, from
// the interpreter (call) or from a frame-free test (scalarCall), hands its
// context back without the strings of its arguments or its document (the
// document's text, which a pooled context must not keep alive).
func TestXSLFunctionsDropRegisters(t *testing.T) {
	short := compileTestSch(t)[2]
	if short.def.Local != "short" || short.scalarResult == nil {
		t.Fatalf("%s: not t:short run by closures", short.def.Local)
	}
	doc, err := xmltree.Parse([]byte(`<a:R xmlns:a="urn:a"><a:C>abc</a:C></a:R>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	arg := xdm.Sequence{xdm.Untyped(doc.StringValue(doc.Root()))}
	calls := map[string]func() (xdm.Sequence, error){
		"call": func() (xdm.Sequence, error) { return short.call(context.Background(), doc, []xdm.Sequence{arg}) },
		"scalarCall": func() (xdm.Sequence, error) {
			r, ok := short.scalarCall(doc, []xdm.Sequence{arg})
			if !ok {
				return nil, errors.New("no answer")
			}
			return r, nil
		},
	}
	for name, run := range calls {
		// The pool may drop a context at a collection: a few tries.
		given := false
		for try := 0; try < 10 && !given; try++ {
			if r, err := run(); err != nil || len(r) != 1 || !r[0].B {
				t.Fatalf("%s: t:short('abc') = %v, %v", name, r, err)
			}
			env, _ := short.envs.Get().(*callEnv)
			if env == nil {
				continue
			}
			given = true
			for i, v := range env.sc.Val[:short.nSlots] {
				if v != (xdm.Item{}) {
					t.Errorf("%s: register %d kept %v", name, i, v)
				}
			}
			if env.Doc != nil {
				t.Errorf("%s: the context kept its document", name)
			}
		}
		if !given {
			t.Errorf("%s: the pool gave no context back in ten calls", name)
		}
	}
}

// compileTestSch compiles testSch's functions, in their order.
func compileTestSch(t *testing.T) []*compiled {
	t.Helper()
	defs, ns, err := ParseXSLFunctions([]byte(testSch))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := compileAll(vm.NewFunctions(), defs, ns)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestXSLFunctionsFrameFree: a function whose body compiled to scalar
// closures has a context-free form (vm.Functions.RegisterScalar), so a
// test calling it with a frame-free argument is decided without a frame
// (vm.Program.FastVarTest), answering as the interpreter on every node;
// a function with an element() param has none.
func TestXSLFunctionsFrameFree(t *testing.T) {
	fs := testFunctions(t)
	doc, err := xmltree.Parse([]byte(`<a:R xmlns:a="urn:a"><a:ID>1</a:ID><a:C>Y</a:C><a:C>long</a:C><a:N/></a:R>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for expr, fast := range map[string]bool{
		"t:short(normalize-space(.))": true,
		"not(t:short(.)) or a:N":      true,
		"t:has-id(.)":                 false,
	} {
		cat := vm.NewCatalog()
		p, err := xpath.Compile(expr, &xpath.StaticContext{Namespaces: map[string]string{"t": "urn:test", "a": "urn:a"}, Functions: fs, Catalog: cat})
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if _, ok := p.FastVarTest(); ok != fast {
			t.Errorf("%s: frame-free form %v, want %v", expr, ok, fast)
			continue
		}
		env := &vm.Env{Doc: doc}
		env.CatalogIDs(cat)
		decided := 0
		for n := xmltree.NodeID(0); int(n) < doc.Len(); n++ {
			if doc.Kind(n) != xmltree.KindElement {
				continue
			}
			ok, err := p.FastAgrees(context.Background(), env, n)
			if err != nil {
				t.Errorf("%s: %v", expr, err)
			}
			if ok {
				decided++
			}
		}
		if fast && decided == 0 {
			t.Errorf("%s: decided on no node without a frame", expr)
		}
	}
}

// testFunctions compiles testSch's functions into a new registry.
func testFunctions(t *testing.T) *vm.Functions {
	t.Helper()
	defs, ns, err := ParseXSLFunctions([]byte(testSch))
	if err != nil {
		t.Fatal(err)
	}
	fs := vm.NewFunctions()
	if err := CompileXSLFunctions(fs, defs, ns); err != nil {
		t.Fatal(err)
	}
	return fs
}
