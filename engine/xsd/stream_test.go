package xsd

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestStreamingPassSameFindings holds Validate (the streaming pass, then the
// tree walk for any document it does not find clean) to the tree walk alone,
// over every document of the corpus and broken variants of each (an unknown
// element, a bad date, a misplaced element, a missing mandatory one, the
// document cut in half), each against the schema of its root element and
// against the UBL set: the same findings, lines and messages, and the same
// error. And every document the tree walk finds valid without a finding
// must be clean for the streaming pass, or valid documents would pay for
// both passes unseen.
func TestStreamingPassSameFindings(t *testing.T) {
	ubl := ublSet(t)
	byRoot := map[string]*Schema{
		"Invoice":              ubl,
		"CreditNote":           ubl,
		"CrossIndustryInvoice": mustLoad(t, ciiSchemaRel),
		"FatturaElettronica":   mustLoad(t, fatturaPARel, fatturaPACatRel),
	}
	var files []string
	_ = filepath.WalkDir(sharedPath(t, "corpus"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".xml") {
			if info, err := d.Info(); err == nil && info.Size() < 1<<20 {
				files = append(files, p)
			}
		}
		return nil
	})
	ctx := context.Background()
	counts := map[string]int{}
	for _, f := range files {
		doc := readFile(t, f)
		schemas := []*Schema{ubl}
		if s, ok := byRoot[rootName(t, doc)]; ok && s != ubl {
			schemas = append(schemas, s)
		}
		variants := [][]byte{doc,
			bytes.Replace(doc, []byte("</cbc:IssueDate>"), []byte("</cbc:IssueDate><cbc:Unknown>x</cbc:Unknown>"), 1),
			bytes.Replace(doc, []byte("<cbc:IssueDate>"), []byte("<cbc:IssueDate>2024-13-45x"), 1),
			bytes.Replace(doc, []byte("<cbc:ID>"), []byte("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode><cbc:ID>"), 1),
			removeFirst(doc, "cac:AccountingSupplierParty"),
			doc[:len(doc)/2],
		}
		for _, s := range schemas {
			for i, v := range variants {
				if i > 0 && bytes.Equal(v, doc) {
					continue
				}
				want, wantErr := s.validate(ctx, v, pass{prescan: true})
				got, err := s.validate(ctx, v, pass{prescan: true, stream: true})
				if !errors.Is(err, wantErr) || !reflect.DeepEqual(got, want) {
					t.Errorf("%s variant %d:\n with the streaming pass: %v %v\n tree walk alone:         %v %v", f, i, got, err, want, wantErr)
				}
				clean := s.streamsClean(v)
				switch {
				case wantErr == nil && len(want) == 0 && !clean:
					t.Errorf("%s variant %d: valid without findings, but not clean for the streaming pass", f, i)
				case clean:
					counts["clean"]++
				default:
					counts["tree walk"]++
				}
			}
		}
	}
	if counts["clean"] < 300 || counts["tree walk"] < 1000 {
		t.Fatalf("too few documents of each kind: %v", counts)
	}
	t.Logf("%d files: %v", len(files), counts)
}
