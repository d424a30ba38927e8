package rulesets

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestFastAgreesProfiles: for every profile's rule sets, on the documents
// of its corpus, every check and rule context with a frame-free evaluation
// gives the interpreter's answer on every element and attribute
// (engine.Ruleset.FastAgrees, the schema and pattern lets bound), and a
// good share of them are decided that way. The engine's own test covers
// the EN 16931 examples; the profiles' sets have their own constructs
// (boolean(), matches(), comparisons of two paths, lets).
func TestFastAgreesProfiles(t *testing.T) {
	cat := catalogT(t)
	ctx := context.Background()
	for _, c := range []struct{ syntax, profile, dir string }{
		{"ubl", "peppol", "peppol-bis-billing/3.0.21/examples"},
		{"ubl", "xrechnung", "xrechnung-testsuite/technical-cases/cius"},
		{"cii", "xrechnung", "xrechnung-testsuite/technical-cases/cius"},
		{"ubl", "ro_cius", "ro-cius/1.0.9"},
		{"ubl", "br_fr", "br-fr/akretion"},
		{"cii", "br_fr", "factur-x/akretion"},
		{"cii", "peppol", "en16931/cii/examples"},
		{"cii", "facturx_en16931", "factur-x/1.09.2/phive-test-files/en16931"},
	} {
		p, ok := cat.Profile(c.syntax, c.profile)
		if !ok {
			t.Fatalf("no profile %s/%s", c.syntax, c.profile)
		}
		files, err := filepath.Glob(filepath.Join(sharedDir(), "corpus", c.dir, "*.xml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no documents (%v)", c.dir, err)
		}
		decided, docs := 0, 0
		for _, f := range files {
			doc := readDoc(t, filepath.ToSlash(filepath.Join("corpus", c.dir, filepath.Base(f))), nil)
			if root := doc.NameLocal(doc.Name(doc.Root())); (c.syntax == "cii") != strings.Contains(root, "CrossIndustry") {
				continue // the other syntax's documents of a shared folder
			}
			res := validate(t, p, doc)
			docs++
			for _, rs := range res.Rulesets {
				n, err := rs.FastAgrees(ctx, doc)
				if err != nil {
					t.Errorf("%s/%s %s: %v", c.syntax, c.profile, filepath.Base(f), err)
				}
				decided += n
			}
		}
		if docs == 0 || decided == 0 {
			t.Errorf("%s/%s: %d documents, %d evaluations decided without a frame", c.syntax, c.profile, docs, decided)
		}
	}
}
