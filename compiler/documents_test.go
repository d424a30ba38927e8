package compiler

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

func TestDocumentsCollectedAndLoaded(t *testing.T) {
	u, err := Compile(context.Background(), Config{Root: "testdata", Main: "docs.sch", Name: "D", Version: "1", Syntax: "x", Package: "p", Func: "f"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Tables.Documents) != 1 || u.Tables.Documents[0] != (engine.DocumentRef{URI: "sub/codes.xml", Path: "sub/codes.xml"}) {
		t.Fatalf("documents %+v", u.Tables.Documents)
	}
	if !strings.Contains(string(u.Output), `Documents: []engine.DocumentRef{`) {
		t.Fatal("documents not emitted")
	}
	if _, err := engine.Load(u.Tables); err == nil {
		t.Fatal("Load without a document root succeeded")
	}
	rs, err := engine.Load(u.Tables, engine.WithDocumentRoot("testdata"))
	if err != nil {
		t.Fatal(err)
	}
	for c, fires := range map[string]bool{"A": false, "Z": true} {
		doc, err := xmltree.Parse([]byte(`<x c="`+c+`"/>`), xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		fs, err := rs.Validate(context.Background(), doc)
		if err != nil || (len(fs) == 1) != fires {
			t.Fatalf("code %s: %v %v", c, fs, err)
		}
	}
	_, err = Compile(context.Background(), Config{Root: "testdata", Main: "missingdoc.sch", Package: "p", Func: "f"}, "", nil)
	var ce *Error
	if !errors.As(err, &ce) || ce.Construct != "document()" || ce.Line != 4 {
		t.Fatalf("missing document: %v", err)
	}
}
