package brfr

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
	"github.com/einvoice-dev/einvoice/engine"
)

func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := testshared.Dir(t)
	for key, main := range Sources() {
		tb, err := Set{}.Tables(key)
		if err != nil {
			t.Error(err)
			continue
		}
		if tb.Source != main {
			t.Errorf("%s: generated from %s, want %s", key, tb.Source, main)
		}
		fns, err := Functions(shared, key)
		if err != nil {
			t.Fatal(err)
		}
		if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_"+key+".go", "brfr", funcs()[key], tb, fns); err != nil {
			t.Error(err)
		}
		var opts []engine.Option
		if fns != nil {
			opts = append(opts, engine.WithFunctions(fns))
		}
		if _, err := engine.Load(tb, opts...); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
}
