package rocius

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
)

func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := os.Getenv("EINVOICE_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared")
	}
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
