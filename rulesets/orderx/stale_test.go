package orderx

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
)

func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := testshared.Dir(t)
	funcs := map[string]string{"basic": "generatedBasic", "comfort": "generatedComfort", "extended": "generatedExtended"}
	for profile, main := range Sources() {
		tb, err := Set{}.Tables(profile)
		if err != nil {
			t.Error(err)
			continue
		}
		if tb.Source != main || tb.Name != "Order-X" || tb.QueryBinding != "" {
			t.Errorf("%s: tables %s from %s, queryBinding %q", profile, tb.Name, tb.Source, tb.QueryBinding)
		}
		if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_"+profile+".go", "orderx", funcs[profile], tb, nil); err != nil {
			t.Error(err)
		}
	}
}
