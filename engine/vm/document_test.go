package vm_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestDocumentFunction evaluates the Factur-X code-list lookups against the
// official code DB registered as a second document.
func TestDocumentFunction(t *testing.T) {
	const dbName = "FACTUR-X_BASIC-WL_codedb.xml"
	data, err := os.ReadFile(filepath.Join(sharedDir(), "rulesets", "factur-x", "1.09.2", "BASIC-WL", dbName))
	if err != nil {
		t.Fatal(err)
	}
	fs := vm.NewFunctions()
	fs.RegisterDocument(dbName, parse(t, string(data)))
	sc := &xpath.StaticContext{Variables: map[string]int{"codeValue1": 0, "codes": 1}, Functions: fs}
	main := parse(t, `<inv><p>urn:factur-x.eu:1p0:basicwl</p><p>nope</p></inv>`)
	env := &vm.Env{Doc: main, Vars: make([]xdm.Sequence, 2)}
	ctx := context.Background()
	eval := func(src string) (string, error) {
		t.Helper()
		p, err := xpath.Compile(src, sc)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return p.EvalString(ctx, env, 0)
	}
	env.Vars[0] = xdm.Sequence{xdm.String("urn:factur-x.eu:1p0:basicwl")}
	for _, c := range []struct{ expr, want string }{
		{"string-length($codeValue1)=0 or document('" + dbName + "')/codedb/cl[@id=1]/enumeration[@value=$codeValue1]", "true"},
		{"exists(document('" + dbName + "')/codedb/cl[@id=1]/enumeration[@value='nope'])", "false"},
		{"count(document('" + dbName + "')/codedb/cl[@id=1]/enumeration) > 1", "true"},
		// predicates mixing both documents: the context is the code DB, $-bound and /-rooted paths too
		{"count(/inv/p[. = document('" + dbName + "')//enumeration/@value])", "1"},
		{"count(document('" + dbName + "')//enumeration[@value = $codeValue1])", "1"},
		{"name(document('" + dbName + "')/*)", "codedb"},
		{"local-name(root(document('" + dbName + "')//cl[1])/*)", "codedb"},
		{"count(/inv/p | document('" + dbName + "')//cl[@id=1])", "3"},
		{"(/inv/p | document('" + dbName + "')//cl[@id=1])[1] is /inv/p[1]", "true"},
		{"document('" + dbName + "')//cl[1] is document('" + dbName + "')//cl[1]", "true"},
		{"document('" + dbName + "') is /", "false"},
		{"document('" + dbName + "')/codedb/cl[1]/ancestor::*[1] instance of element(codedb)", "true"},
		{"string(/inv/p[1])", "urn:factur-x.eu:1p0:basicwl"},
	} {
		got, err := eval(c.expr)
		if err != nil || got != c.want {
			t.Errorf("%s = %q (%v), want %q", c.expr, got, err, c.want)
		}
	}
	// A let evaluated by one program and used by another keeps its nodes.
	let, err := xpath.Compile("document('"+dbName+"')/codedb/cl[@id=1]/enumeration", sc)
	if err != nil {
		t.Fatal(err)
	}
	env.Vars[1], err = let.Eval(ctx, env, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := eval("/inv/p[1] = $codes/@value"); err != nil || got != "true" {
		t.Errorf("let across programs: %q %v", got, err)
	}
	_, err = eval("document('missing.xml')")
	var xe *xdm.Error
	if !errors.As(err, &xe) || xe.Code != "FODC0002" {
		t.Errorf("missing document: %v", err)
	}
}
