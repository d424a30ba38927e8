package vm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestIndexedAxesMatchWalks compares the name-index paths of the child,
// descendant, //@, preceding and following steps with equivalent
// expressions that walk (wildcard steps filtered by self::), from every
// element of documents with few and with many (> childIndexMax)
// same-named elements, nested and not.
func TestIndexedAxesMatchWalks(t *testing.T) {
	var many strings.Builder
	many.WriteString(`<r xmlns:p="urn:p">`)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&many, `<p:b x="%d"><p:b y="1"><c x="a"/></p:b>t</p:b><c/>`, i)
	}
	many.WriteString(`<p:b><d><p:b x="z"/></d></p:b></r>`)
	docs := []string{
		`<r xmlns:p="urn:p" x="0"><p:b x="1"><p:b/><c x="2">x</c></p:b><c/><!--c--><d><p:b x="3"/></d></r>`,
		many.String(),
	}
	pairs := [][2]string{
		{"p:b", "*[self::p:b]"},
		{"c", "*[self::c]"},
		{"p:b/p:b", "*[self::p:b]/*[self::p:b]"},
		{"descendant::p:b", "descendant::*[self::p:b]"},
		{"descendant-or-self::c", "descendant-or-self::*[self::c]"},
		{"//@x", "/descendant-or-self::node()/@*[name() = 'x']"},
		{".//@x", "descendant-or-self::node()/@*[name() = 'x']"},
		{"//(p:b|c)", "/descendant-or-self::node()/*[self::p:b or self::c]"},
		{"exists(p:b)", "exists(*[self::p:b])"},
		{"(p:b)[2]", "(*[self::p:b])[2]"},
		{"preceding::p:b", "preceding::*[self::p:b]"},
		{"preceding::c", "preceding::*[self::c]"},
		{"preceding::p:b[1]", "preceding::*[self::p:b][1]"},
		{"exists(preceding::c)", "exists(preceding::*[self::c])"},
		{"following::p:b", "following::*[self::p:b]"},
		{"following::c[1]", "following::*[self::c][1]"},
		{"@x/following::c", "@x/following::*[self::c]"},
		{"@x/preceding::p:b", "@x/preceding::*[self::p:b]"},
		{"count(//p:b[not(preceding::p:b/@x = @x)])", "count(//p:b[not(preceding::*[self::p:b]/@x = @x)])"},
	}
	ns := map[string]string{"p": "urn:p"}
	cat := vm.NewCatalog()
	ctx := context.Background()
	for _, src := range docs {
		d := parse(t, src)
		env := &vm.Env{Doc: d}
		for _, pr := range pairs {
			fast := compile(t, pr[0], &xpath.StaticContext{Namespaces: ns, Catalog: cat})
			slow := compile(t, pr[1], &xpath.StaticContext{Namespaces: ns})
			for n := 0; n < d.Len(); n++ {
				a, errA := fast.Eval(ctx, env, xmltree.NodeID(n))
				b, errB := slow.Eval(ctx, env, xmltree.NodeID(n))
				if fmt.Sprint(a) != fmt.Sprint(b) || (errA == nil) != (errB == nil) {
					t.Fatalf("%s vs %s at node %d: %v/%v, %v/%v", pr[0], pr[1], n, a, errA, b, errB)
				}
			}
		}
	}
}
