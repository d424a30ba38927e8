package en16931

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
)

func sharedDir(t *testing.T) string {
	return testshared.Dir(t)
}

// TestGeneratedTablesUpToDate fails when a generated file is missing, when
// its sha256 stamp does not match the current Schematron sources, or when
// regenerating it now would produce different bytes (compiler changed).
func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := sharedDir(t)
	for syntax, fn := range map[string]string{"ubl": "generatedUBL", "cii": "generatedCII"} {
		tb, err := Set{}.Tables(syntax)
		if err != nil {
			t.Error(err)
			continue
		}
		if tb.Source != Sources()[syntax] {
			t.Errorf("%s: generated from %s, want %s", syntax, tb.Source, Sources()[syntax])
		}
		if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_"+syntax+".go", "en16931", fn, tb, nil); err != nil {
			t.Error(err)
		}
	}
}

func TestTablesLoad(t *testing.T) {
	for syntax := range Sources() {
		tb, err := Set{}.Tables(syntax)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Name != "EN16931" || tb.Version != "1.3.16" || tb.Syntax != syntax || len(tb.Checks) < 500 {
			t.Fatalf("%s tables: %s %s %s, %d checks", syntax, tb.Name, tb.Version, tb.Syntax, len(tb.Checks))
		}
	}
	if _, err := (Set{}).Tables("xml"); err == nil {
		t.Fatal("unknown syntax accepted")
	}
}

// TestTablesAreStaticData: the generated tables are a package-level literal
// the linker lays out, so getting them allocates only the returned copy (a
// function building the literal at each call allocated ~17,000 objects per
// catalog at start-up).
func TestTablesAreStaticData(t *testing.T) {
	for _, syntax := range []string{"ubl", "cii"} {
		allocs := testing.AllocsPerRun(10, func() {
			if _, err := (Set{}).Tables(syntax); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 1 {
			t.Errorf("%s: %v allocations per Tables call, want 1", syntax, allocs)
		}
	}
}
