package xsd

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// ublSet is the UBL Invoice and CreditNote schemas compiled as one set.
func ublSet(tb testing.TB) *Schema {
	tb.Helper()
	s, err := LoadSet([]Import{
		{Namespace: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", Path: sharedPath(tb, ublInvoiceRel)},
		{Namespace: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2", Path: sharedPath(tb, ublCreditNoteRel)},
	}, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// TestLoadSetSameFindingsAsEachSchema: every UBL invoice and credit note of
// the corpora, and broken variants of each (an unknown element, a missing
// mandatory one, a bad date, a credit note element in an invoice), gets
// exactly the findings, lines and messages from the set that it gets from
// the schema of its own root element.
func TestLoadSetSameFindingsAsEachSchema(t *testing.T) {
	inv := mustLoad(t, ublInvoiceRel)
	cn := mustLoad(t, ublCreditNoteRel)
	set := ublSet(t)
	var files []string
	for _, dir := range []string{"corpus/en16931/ubl", "corpus/peppol-bis-billing", "corpus/xrechnung", "corpus/ro-cius", "corpus/br-fr"} {
		_ = filepath.WalkDir(sharedPath(t, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".xml") {
				files = append(files, p)
			}
			return nil
		})
	}
	checked := map[string]int{}
	for _, f := range files {
		doc := readFile(t, f)
		root := rootName(t, doc)
		s := inv
		switch root {
		case "Invoice":
		case "CreditNote":
			s = cn
		default:
			continue
		}
		variants := [][]byte{doc,
			bytes.Replace(doc, []byte("</cbc:IssueDate>"), []byte("</cbc:IssueDate><cbc:Unknown>x</cbc:Unknown>"), 1),
			bytes.Replace(doc, []byte("<cbc:IssueDate>"), []byte("<cbc:IssueDate>2024-13-45x"), 1),
			bytes.Replace(doc, []byte("<cbc:ID>"), []byte("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode><cbc:ID>"), 1),
			removeFirst(doc, "cac:AccountingSupplierParty"),
		}
		for i, v := range variants {
			want, err := s.Validate(context.Background(), v)
			if err != nil {
				t.Fatalf("%s variant %d: %v", f, i, err)
			}
			got, err := set.Validate(context.Background(), v)
			if err != nil {
				t.Fatalf("%s variant %d, set: %v", f, i, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s variant %d:\n set:  %v\n %s: %v", f, i, got, root, want)
			}
			if len(want) > 0 {
				checked["invalid"]++
			}
		}
		checked[root]++
	}
	if checked["Invoice"] < 50 || checked["CreditNote"] < 5 || checked["invalid"] < 100 {
		t.Fatalf("too few documents compared: %v", checked)
	}
	t.Logf("compared: %v", checked)
}

// removeFirst drops the first element named name (start tag to end tag).
func removeFirst(doc []byte, name string) []byte {
	i := bytes.Index(doc, []byte("<"+name+">"))
	end := []byte("</" + name + ">")
	j := bytes.Index(doc, end)
	if i < 0 || j < i {
		return doc
	}
	return append(append([]byte{}, doc[:i]...), doc[j+len(end):]...)
}

func TestLoadSetRefusals(t *testing.T) {
	invPath := sharedPath(t, ublInvoiceRel)
	for name, imports := range map[string][]Import{
		"none":            nil,
		"no namespace":    {{Path: invPath}},
		"same namespace":  {{Namespace: "urn:a", Path: invPath}, {Namespace: "urn:a", Path: sharedPath(t, ublCreditNoteRel)}},
		"wrong namespace": {{Namespace: "urn:not-the-target-namespace", Path: invPath}},
		"missing file":    {{Namespace: "urn:a", Path: invPath + ".missing"}},
		"outside root":    {{Namespace: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", Path: invPath}, {Namespace: "urn:x", Path: sharedPath(t, ciiSchemaRel)}},
	} {
		if s, err := LoadSet(imports, Options{}); err == nil {
			s.Close()
			t.Errorf("%s: LoadSet succeeded", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// BenchmarkLoadUBLSet: the UBL Invoice and CreditNote schemas as one set,
// to compare with two BenchmarkLoadUBLInvoice-sized compiles.
func BenchmarkLoadUBLSet(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ublSet(b).Close()
	}
}
