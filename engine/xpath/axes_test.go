package xpath

import (
	"context"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

const axisDoc = `<r a="1" b="2"><x id="x1"><y id="y1"/><y id="y2">t<z id="z1"/></y></x><!--c--><x id="x2"><?pi data?><y id="y3"/></x>text</r>`

// ids returns the @id values (or kind names) of the nodes an expression
// selects from the context chosen by ctxExpr, in result order.
func axisEval(t *testing.T, d *xmltree.Document, ctxExpr, expr string) string {
	t.Helper()
	env := &vm.Env{Doc: d}
	ctx := context.Background()
	const describe = "(if ($n/@id) then string($n/@id) else if ($n instance of attribute()) then name($n) else if ($n instance of element()) then name($n) else if ($n instance of text()) then concat('text:', $n) else if ($n instance of comment()) then 'comment' else if ($n instance of processing-instruction()) then 'pi' else 'doc')"
	node := xmltree.NodeID(0)
	if ctxExpr != "" {
		p, err := Compile(ctxExpr, nil)
		if err != nil {
			t.Fatalf("%s: %v", ctxExpr, err)
		}
		s, err := p.Eval(ctx, env, 0)
		if err != nil || len(s) != 1 {
			t.Fatalf("context %s: %v %v", ctxExpr, s, err)
		}
		node = xmltree.NodeID(s[0].Node)
	}
	src := "string-join(for $n in (" + expr + ") return " + describe + ", ' ')"
	if raw, ok := strings.CutPrefix(expr, "raw:"); ok {
		src = raw
	}
	p, err := Compile(src, nil)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	s, err := p.EvalString(ctx, env, node)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func TestAxes(t *testing.T) {
	d := parseDoc(t, axisDoc)
	for _, c := range []struct{ ctx, expr, want string }{
		{"", "/r/x", "x1 x2"},
		{"", "//y", "y1 y2 y3"},
		{"", "//y[1]", "y1 y3"},
		{"", "(//y)[1]", "y1"},
		{"", "/descendant::y[1]", "y1"},
		{"", "//y[last()]", "y2 y3"},
		{"", "/r/@*", "a b"},
		{"", "/r/@b", "b"},
		{"", "/r/node()", "x1 comment x2 text:text"},
		{"", "/r/text()", "text:text"},
		{"", "/r/comment()", "comment"},
		{"", "//processing-instruction()", "pi"},
		{"", "//processing-instruction('pi')", "pi"},
		{"", "raw:count(//node())", "11"},
		{"", "raw:count(//*)", "7"},
		{"//y[@id='y2']", "child::node()", "text:t z1"},
		{"//y[@id='y2']", "..", "x1"},
		{"//y[@id='y2']", "parent::x", "x1"},
		{"//y[@id='y2']", "parent::y", ""},
		{"//y[@id='y2']", "..[@id = 'x1']", "x1"}, {"//y[@id='y2']", "..[@id = 'x2']", ""},
		{"//y[@id='y2']", ".[@id = 'y2']", "y2"}, {"", "//div | //if | //text", ""},
		{"//z", "ancestor::*", "r x1 y2"},
		{"//z", "ancestor::*[1]", "y2"},
		{"//z", "ancestor-or-self::*[2]", "y2"},
		{"//z", "ancestor::node()", "doc r x1 y2"},
		{"//y[@id='y1']", "following-sibling::*", "y2"},
		{"//y[@id='y2']", "preceding-sibling::*", "y1"},
		{"//y[@id='y2']", "following::*", "x2 y3"},
		{"//y[@id='y3']", "preceding::*", "x1 y1 y2 z1"},
		{"//y[@id='y3']", "preceding::*[1]", "z1"},
		{"//y[@id='y3']", "preceding::node()", "x1 y1 y2 text:t z1 comment pi"},
		{"//x[@id='x1']", "descendant::*", "y1 y2 z1"},
		{"//x[@id='x1']", "descendant-or-self::*", "x1 y1 y2 z1"},
		{"//x[@id='x1']", "self::x", "x1"},
		{"//x[@id='x1']", "self::y", ""},
		{"//x[@id='x1']", ".//z", "z1"},
		{"//x[@id='x1']", "*/*", "z1"},
		{"//x[@id='x1']", "y[2]/preceding-sibling::y[1]", "y1"},
		{"//y[@id='y1']", "@id/..", "y1"},
		{"//y[@id='y1']", "@id/following::*[1]", "y2"},
		{"//y[@id='y1']", "@id/following-sibling::node()", ""},
		{"", "//x/y[2] | //y[1]", "y1 y2 y3"},
		{"", "(//x/(y|*))[3]", "y3"},
		{"", "raw://x/count(y)", "2 1"},
		{"", "/r/x[y/z]", "x1"},
		{"", "/r/x[not(y/z)]/y", "y3"},
		{"", "//*[@id = ('y1', 'z1')]", "y1 z1"},
		{"", "//y[@id='y2']/z/ancestor::x/following-sibling::x", "x2"},
		{"", "/", "doc"},
		{"", "/*", "r"},
		{"", "root(//z)", "doc"},
	} {
		if got := axisEval(t, d, c.ctx, c.expr); got != c.want {
			t.Errorf("[%s] %s = %q, want %q", c.ctx, c.expr, got, c.want)
		}
	}
}

// TestPatterns: with and without a catalog (names compared by id or
// looked up).
func TestPatterns(t *testing.T) {
	for _, cat := range []*vm.Catalog{nil, vm.NewCatalog()} {
		testPatterns(t, cat)
	}
}

func testPatterns(t *testing.T, cat *vm.Catalog) {
	d := parseDoc(t, testDoc)
	sc := ublContext()
	sc.Catalog = cat
	sc.Variables = map[string]int{"flag": 0}
	env := &vm.Env{Doc: d}
	ctx := context.Background()
	// Reference: node N matches P iff N is in root(N)//(P); compute that set
	// with the expression evaluator and compare with Pattern.Matches on every node.
	for _, c := range []struct {
		pattern, equiv string
		wantCount      int
	}{
		{"cac:InvoiceLine", "//cac:InvoiceLine", 3},
		{"cac:InvoiceLine/cbc:ID", "//cac:InvoiceLine/cbc:ID", 3},
		{"/ubl:Invoice/cbc:ID", "/ubl:Invoice/cbc:ID", 1},
		{"/ubl:Invoice/cac:InvoiceLine/cbc:ID", "/ubl:Invoice/cac:InvoiceLine/cbc:ID", 3},
		{"/ubl:Invoice/cac:InvoiceLine/cbc:LineExtensionAmount/@currencyID", "/ubl:Invoice/cac:InvoiceLine/cbc:LineExtensionAmount/@currencyID", 3},
		{"/cn:CreditNote/cac:InvoiceLine/cbc:ID", "/cn:CreditNote/cac:InvoiceLine/cbc:ID", 0},
		{"//ubl:Invoice/cac:InvoiceLine[cbc:ID = '3']/cbc:ID", "//ubl:Invoice/cac:InvoiceLine[cbc:ID = '3']/cbc:ID", 1},
		{"cac:InvoiceLine/cbc:ID/@schemeID", "//cac:InvoiceLine/cbc:ID/@schemeID", 0},
		{"/ubl:Invoice//cbc:ID", "/ubl:Invoice//cbc:ID", 4},
		{"//cbc:ID", "//cbc:ID", 4},
		{"cbc:ID", "//cbc:ID", 4},
		{"ubl:Invoice", "//ubl:Invoice", 1},
		{"/", "/", 1},
		{"cac:InvoiceLine[2]", "//cac:InvoiceLine[2]", 1},
		{"cac:InvoiceLine[cbc:ID = '3']/cbc:LineExtensionAmount", "//cac:InvoiceLine[cbc:ID='3']/cbc:LineExtensionAmount", 1},
		{"cbc:LineExtensionAmount/@currencyID", "//cbc:LineExtensionAmount/@currencyID", 3},
		{"@currencyID", "//@currencyID", 4},
		{"*[@currencyID='USD']", "//*[@currencyID='USD']", 1},
		{"cbc:Note[last()]", "//cbc:Note[last()]", 1},
		{"cbc:ID | cbc:Note", "//(cbc:ID | cbc:Note)", 6},
		{"(/ubl:Invoice | /cn:CreditNote)[$flag]/cac:InvoiceLine", "(/ubl:Invoice)[$flag]/cac:InvoiceLine", 3},
		{"(cac:InvoiceLine | cac:AllowanceCharge)/cbc:*", "//(cac:InvoiceLine | cac:AllowanceCharge)/cbc:*", 8},
		{"text()", "//text()", -1},
		{"node()", "//node()", -1},
		{"cac:*", "//cac:*", 4},
		{"*:ID", "//*:ID", 4},
		{"child::cbc:Note", "//cbc:Note", 2},
		{"ubl:Invoice/*[1]", "/ubl:Invoice/*[1]", 1},
		// error-free predicates: the parent step is tested first
		{"cac:InvoiceLine/cbc:LineExtensionAmount[@currencyID]", "//cac:InvoiceLine/cbc:LineExtensionAmount[@currencyID]", 3},
		{"cac:AllowanceCharge/cbc:LineExtensionAmount[@currencyID]", "//cac:AllowanceCharge/cbc:LineExtensionAmount[@currencyID]", 0},
	} {
		sc.Namespaces["cn"] = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
		pt, err := CompilePattern(c.pattern, sc)
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		ref, err := Compile(c.equiv, sc)
		if err != nil {
			t.Fatalf("%s: %v", c.equiv, err)
		}
		env.Vars = []xdmSeq{trueSeq()}
		want, err := ref.Eval(ctx, env, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.equiv, err)
		}
		if c.wantCount >= 0 && len(want) != c.wantCount {
			t.Errorf("reference %s selects %d nodes, want %d", c.equiv, len(want), c.wantCount)
		}
		in := map[int32]bool{}
		for _, it := range want {
			in[it.Node] = true
		}
		for n := 0; n < d.Len(); n++ {
			got, err := pt.Matches(ctx, env, xmltree.NodeID(n))
			if err != nil {
				t.Fatalf("%s on %d: %v", c.pattern, n, err)
			}
			if got != in[int32(n)] {
				t.Errorf("pattern %s on %s: got %v, want %v", c.pattern, d.Path(xmltree.NodeID(n)), got, !got)
			}
		}
	}
	// With $flag false the parenthesised branch matches nothing.
	pt, err := CompilePattern("(/ubl:Invoice | /cn:CreditNote)[$flag]/cac:InvoiceLine", sc)
	if err != nil {
		t.Fatal(err)
	}
	env.Vars = []xdmSeq{falseSeq()}
	for n := 0; n < d.Len(); n++ {
		if ok, _ := pt.Matches(ctx, env, xmltree.NodeID(n)); ok {
			t.Errorf("matched %s with $flag false", d.Path(xmltree.NodeID(n)))
		}
	}
	names, anyNode := mustPattern(t, "cac:InvoiceLine | cbc:ID", sc).ElementNames()
	if len(names) != 2 || anyNode || names[0].Local != "InvoiceLine" || names[1].Space != nsCBC {
		t.Errorf("ElementNames = %v %v", names, anyNode)
	}
	if _, anyNode := mustPattern(t, "cac:X | @y", sc).ElementNames(); !anyNode {
		t.Errorf("attribute pattern must report any")
	}
	for _, bad := range []string{"ancestor::x", "key('k', 1)", "x[", "(x | y)[1]", "x +"} {
		if _, err := CompilePattern(bad, sc); err == nil {
			t.Errorf("pattern %q compiled", bad)
		}
	}
}

func mustPattern(t *testing.T, src string, sc *StaticContext) *vm.Pattern {
	t.Helper()
	p, err := CompilePattern(src, sc)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKeywordNames checks that operator and keyword names are element
// names where the grammar expects a step.
func TestKeywordNames(t *testing.T) {
	d := parseDoc(t, `<r><div>1</div><if>2</if><text>3</text><and>4</and><or>5</or><mod>6</mod><to>7</to><return>8</return></r>`)
	for _, c := range []struct{ expr, want string }{
		{"/r/div + /r/if", "3"},
		{"/r/text * 2", "6"},
		{"/r/div div /r/text", "0.3333333333333333"}, // untypedAtomic operands are doubles,
		{"/r/and and /r/or", "true"},
		{"/r/mod mod 4", "2"},
		{"for $x in /r/to return $x + /r/return", "15"},
		{"count(/r/text/text())", "1"},
		{"/r/child::if", "2"},
	} {
		got, err := evalString(t, d, c.expr, 0)
		if err != nil || got != c.want {
			t.Errorf("%s = %q (%v), want %q", c.expr, got, err, c.want)
		}
	}
}
