package rocius

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
)

func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := testshared.Dir(t)
	tb, err := Set{}.Tables("ubl")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Source != Source || tb.Name != "RO_CIUS" || tb.Version != "1.0.9" {
		t.Fatalf("tables %s %s from %s", tb.Name, tb.Version, tb.Source)
	}
	if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_ubl.go", "rocius", "generatedUBL", tb, nil); err != nil {
		t.Fatal(err)
	}
}
