package en16931

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/compiler"
)

func sharedDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("EINVOICE_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "rulesets")); err != nil {
		t.Fatalf("shared directory %s: %v (set EINVOICE_SHARED)", dir, err)
	}
	return dir
}

// TestGeneratedTablesUpToDate fails when a generated file is missing, when
// its sha256 stamp does not match the current Schematron sources, or when
// regenerating it now would produce different bytes (compiler changed).
func TestGeneratedTablesUpToDate(t *testing.T) {
	shared := sharedDir(t)
	funcs := map[string]string{"ubl": "generatedUBL", "cii": "generatedCII"}
	for syntax, main := range Sources() {
		path := "zz_generated_" + syntax + ".go"
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v: run `make generate` (go run ./tools/rulegen)", path, err)
			continue
		}
		first, _ := bufio.NewReader(bytes.NewReader(data)).ReadString('\n')
		sha, err := compiler.HashSources(shared, main)
		if err != nil {
			t.Fatal(err)
		}
		if want := compiler.GeneratedHeader(main, sha); strings.TrimSpace(first) != want {
			t.Errorf("%s is stale: header\n\t%s\nwant\n\t%s\nrun `make generate`", path, strings.TrimSpace(first), want)
			continue
		}
		u, err := compiler.Compile(context.Background(), compiler.Config{Root: shared, Main: main, Name: "EN16931", Version: "1.3.16",
			Syntax: syntax, Package: "en16931", Func: funcs[syntax]}, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(u.Output, data) {
			t.Errorf("%s differs from what rulegen produces now: run `make generate`", path)
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
