package xsd

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// sharedDir returns the read-only official data tree: $EINVOICE_SHARED, or
// ../shared next to the repository root (the directory holding go.mod).
func sharedDir(tb testing.TB) string {
	return testshared.Dir(tb)
}

func sharedPath(tb testing.TB, rel ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{sharedDir(tb)}, rel...)...)
}

const (
	ublInvoiceRel    = "rulesets/ubl/2.1/maindoc/UBL-Invoice-2.1.xsd"
	ublCreditNoteRel = "rulesets/ubl/2.1/maindoc/UBL-CreditNote-2.1.xsd"
	ciiSchemaRel     = "rulesets/en16931/1.3.16/cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd"
	fatturaPARel     = "rulesets/fatturapa/1.2.2/Schema_del_file_xml_FatturaPA_v1.2.2.xsd"
	fatturaPACatRel  = "rulesets/fatturapa/1.2.2/catalog.xml"
	ublExample1Rel   = "corpus/en16931/ubl/examples/ubl-tc434-example1.xml"
)

// mustLoad loads a schema from the shared tree, with optional catalogs.
func mustLoad(tb testing.TB, rel string, catalogs ...string) *Schema {
	tb.Helper()
	var opts Options
	for _, c := range catalogs {
		opts.CatalogFiles = append(opts.CatalogFiles, sharedPath(tb, c))
	}
	s, err := Load(sharedPath(tb, rel), opts)
	if err != nil {
		tb.Fatalf("Load(%s): %v", rel, err)
	}
	tb.Cleanup(s.Close)
	return s
}

// corpusFiles lists the *.xml files of a shared corpus folder, failing when
// there are fewer than min (so a moved folder cannot make a test vacuous).
func corpusFiles(tb testing.TB, rel string, min int) []string {
	tb.Helper()
	files, err := filepath.Glob(sharedPath(tb, rel, "*.xml"))
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	if len(files) < min {
		tb.Fatalf("%s: %d xml files, want at least %d", rel, len(files), min)
	}
	return files
}

func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// rootName returns the local name of the document element.
func rootName(tb testing.TB, doc []byte) string {
	tb.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			tb.Fatal("no root element")
		}
		if err != nil {
			tb.Fatal(err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
}

// validateFile validates one file and fails the test on an engine error.
func validateFile(tb testing.TB, s *Schema, path string) []Error {
	tb.Helper()
	errs, err := s.Validate(context.Background(), readFile(tb, path))
	if err != nil {
		tb.Fatalf("Validate(%s): %v", filepath.Base(path), err)
	}
	checkWellFormedFindings(tb, errs)
	return errs
}

// checkWellFormedFindings asserts the invariants every finding keeps.
func checkWellFormedFindings(tb testing.TB, errs []Error) {
	tb.Helper()
	for _, e := range errs {
		switch e.Level {
		case LevelWarning, LevelError, LevelFatal:
		default:
			tb.Errorf("finding %v: bad level %q", e, e.Level)
		}
		if e.Message == "" || strings.TrimSpace(e.Message) != e.Message {
			tb.Errorf("finding %v: message not cleaned: %q", e, e.Message)
		}
		if e.Line < 0 || e.Col < 0 {
			tb.Errorf("finding %v: negative position", e)
		}
	}
}

// writeFiles creates files (path relative to dir -> content) under dir.
func writeFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}
