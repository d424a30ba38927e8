package brfr

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
	"github.com/einvoice-dev/einvoice/engine"
)

func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := os.Getenv("EINVOICE_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared")
	}
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
