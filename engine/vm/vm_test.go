package vm_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

func parse(t testing.TB, src string) *xmltree.Document {
	t.Helper()
	d, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func compile(t testing.TB, src string, sc *xpath.StaticContext) *vm.Program {
	t.Helper()
	p, err := xpath.Compile(src, sc)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p
}

// TestConcurrentPrograms evaluates one Program from many goroutines, each
// with its own Env and document, and checks every result.
func TestConcurrentPrograms(t *testing.T) {
	p := compile(t, "sum(/r/v) * count(//v)", nil)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := g + 1
			var sb strings.Builder
			sb.WriteString("<r>")
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&sb, "<v>%d</v>", i)
			}
			sb.WriteString("</r>")
			d := parse(t, sb.String())
			env := &vm.Env{Doc: d}
			want := fmt.Sprint(n * (n + 1) / 2 * n)
			for range 200 {
				got, err := p.EvalString(context.Background(), env, 0)
				if err != nil || got != want {
					errs <- fmt.Errorf("goroutine %d: got %q %v, want %s", g, got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestEnvReuseAcrossDocuments checks that cached name resolutions do not
// leak from one document to the next when an Env is reused.
func TestEnvReuseAcrossDocuments(t *testing.T) {
	p := compile(t, "count(//b)", nil)
	env := &vm.Env{Doc: parse(t, "<a><b/><b/></a>")}
	if s, _ := p.EvalString(context.Background(), env, 0); s != "2" {
		t.Fatalf("first document: %s", s)
	}
	env.Doc = parse(t, "<x><y/><b/><b/><b/></x>")
	if s, _ := p.EvalString(context.Background(), env, 0); s != "3" {
		t.Fatalf("second document: %s", s)
	}
	env.Doc = parse(t, "<x/>")
	if s, _ := p.EvalString(context.Background(), env, 0); s != "0" {
		t.Fatalf("third document: %s", s)
	}
}

// TestCancellation checks that a long evaluation stops when its context is
// cancelled, with a typed error.
func TestCancellation(t *testing.T) {
	d := parse(t, "<r>"+strings.Repeat("<a><b/></a>", 200)+"</r>")
	p := compile(t, "count(for $x in //* return for $y in //* return $y)", nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Eval(ctx, &vm.Env{Doc: d}, 0)
	var xe *xdm.Error
	if !errors.As(err, &xe) || xe.Code != xdm.ErrCancelled {
		t.Fatalf("got %v, want %s", err, xdm.ErrCancelled)
	}
}

func TestExtensionFunctions(t *testing.T) {
	fs := vm.NewFunctions()
	const ns = "urn:test"
	fs.Register(ns, "double", 1, func(_ context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
		if len(args[0]) != 1 {
			return nil, &xdm.Error{Code: xdm.ErrType, Msg: "one item"}
		}
		it := args[0][0]
		s := it.StringValue()
		if it.IsNode() {
			s = doc.StringValue(xmltree.NodeID(it.Node))
		}
		return xdm.Sequence{xdm.String(s + s)}, nil
	})
	fs.Register(ns, "fail", 0, func(context.Context, *xmltree.Document, []xdm.Sequence) (xdm.Sequence, error) {
		return nil, errors.New("boom")
	})
	sc := &xpath.StaticContext{Namespaces: map[string]string{"u": ns}, Functions: fs}
	d := parse(t, "<r>ab</r>")
	env := &vm.Env{Doc: d}
	if s, err := compile(t, "u:double(/r)", sc).EvalString(context.Background(), env, 0); err != nil || s != "abab" {
		t.Errorf("u:double = %q %v", s, err)
	}
	_, err := compile(t, "u:fail()", sc).Eval(context.Background(), env, 0)
	var xe *xdm.Error
	if !errors.As(err, &xe) || xe.Code != xdm.ErrExternal {
		t.Errorf("u:fail: %v", err)
	}
	if _, err := xpath.Compile("u:double(1, 2)", sc); err == nil {
		t.Errorf("wrong arity compiled")
	}
}

func TestEvalResultOwnership(t *testing.T) {
	d := parse(t, "<r><a>1</a><a>2</a></r>")
	env := &vm.Env{Doc: d}
	p := compile(t, "/r/a", nil)
	first, err := p.Eval(context.Background(), env, 0)
	if err != nil || len(first) != 2 {
		t.Fatal(first, err)
	}
	if _, err := compile(t, "(1 to 100)", nil).Eval(context.Background(), env, 0); err != nil {
		t.Fatal(err)
	}
	if first[0].T != xdm.TNode || first[1].T != xdm.TNode {
		t.Errorf("result of an earlier Eval was overwritten by a later one: %v", first)
	}
}

func TestVarSlots(t *testing.T) {
	sc := &xpath.StaticContext{Variables: map[string]int{"a": 0, "b": 1, "c": 2, "unused": 3}}
	p := compile(t, "for $x in $c return ($x, $a[. = $c], count(//*[@id = $a]))", sc)
	if got := p.VarSlots(); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("VarSlots = %v, want [0 2]", got)
	}
	pt, err := xpath.CompilePattern("x[@id = $b] | y", sc)
	if err != nil {
		t.Fatal(err)
	}
	if got := pt.VarSlots(); !slices.Equal(got, []int{1}) {
		t.Errorf("pattern VarSlots = %v, want [1]", got)
	}
	if got := compile(t, "1 + 1", sc).VarSlots(); len(got) != 0 {
		t.Errorf("constant VarSlots = %v", got)
	}
}
