package vm_test

import (
	"context"
	"os"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

func BenchmarkZZLinePath(b *testing.B) {
	d := loadExample(b)
	root := rootElement(d)
	ctx := context.Background()
	lines, _ := xpath.Compile(os.Getenv("ZZCTX"), ublContext())
	env := &vm.Env{Doc: d}
	ls, _ := lines.Eval(ctx, env, root)
	src := os.Getenv("ZZEXPR")
	sc := ublContext()
	sc.Catalog = vm.NewCatalog()
	p, err := xpath.Compile(src, sc)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d nodes", len(ls))
	for b.Loop() {
		for _, l := range ls {
			if _, err := p.Eval(ctx, env, xmltree.NodeID(l.Node)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
