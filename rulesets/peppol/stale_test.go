package peppol

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
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
		if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_"+key+".go", "peppol", funcs()[key], tb, xslfunc.Peppol()); err != nil {
			t.Error(err)
		}
		if _, err := engine.Load(tb, engine.WithFunctions(xslfunc.Peppol())); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
}
