package peppol

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
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
		if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_"+key+".go", "peppol", funcs()[key], tb, xslfunc.Peppol()); err != nil {
			t.Error(err)
		}
		if _, err := engine.Load(tb, engine.WithFunctions(xslfunc.Peppol())); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
}
