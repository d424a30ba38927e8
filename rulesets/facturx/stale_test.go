package facturx

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
)

func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := testshared.Dir(t)
	funcs := map[string]string{"minimum": "generatedMinimum", "basic_wl": "generatedBasicWL", "basic": "generatedBasic",
		"en16931": "generatedEN16931", "extended": "generatedExtended"}
	for key := range Profiles() {
		tb, err := Set{}.Tables(key)
		if err != nil {
			t.Error(err)
			continue
		}
		if tb.Source != Source(key) || len(tb.Documents) != 1 {
			t.Errorf("%s: from %s with documents %v", key, tb.Source, tb.Documents)
		}
		if _, err := os.Stat(filepath.Join(shared, XSD(key))); err != nil {
			t.Errorf("%s: XSD: %v", key, err)
		}
		if err := compiler.VerifyGenerated(context.Background(), shared, "zz_generated_"+key+".go", "facturx", funcs[key], tb, nil); err != nil {
			t.Error(err)
		}
	}
}
