package xrechnung

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
)

func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := testshared.Dir(t)
	funcs := map[string]string{"ubl": "generatedUBL", "cii": "generatedCII"}
	for syntax, main := range Sources() {
		tb, err := Set{}.Tables(syntax)
		if err != nil {
			t.Error(err)
			continue
		}
		if tb.Source != main || tb.Name != "XRechnung" {
			t.Errorf("%s: %s from %s", syntax, tb.Name, tb.Source)
		}
		if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_"+syntax+".go", "xrechnung", funcs[syntax], tb, xslfunc.XRechnung()); err != nil {
			t.Error(err)
		}
	}
}
