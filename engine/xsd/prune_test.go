package xsd

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// instanceOf lists the element names and xsi:type use of doc, as a caller
// of Options.Instance does (with encoding/xml here; engineval reads its
// parse tree).
func instanceOf(tb testing.TB, doc []byte) *Instance {
	tb.Helper()
	in := &Instance{Elements: map[string]bool{}}
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err != nil {
			return in // a broken variant: the names read so far
		}
		if se, ok := tok.(xml.StartElement); ok {
			in.Elements[se.Name.Local] = true
			for _, a := range se.Attr {
				in.XsiType = in.XsiType || (a.Name.Space == "http://www.w3.org/2001/XMLSchema-instance" && a.Name.Local == "type")
			}
		}
	}
}

// TestPrunedSameFindingsAsFull: every UBL invoice and credit note and every
// EN 16931 CII document of the corpora, and broken variants of them (an
// unknown element, a bad date, an element of the other document type, a
// missing mandatory element), gets exactly the findings, lines and messages
// from a schema compiled for it (Options.Instance) that it gets from the
// whole schema; and that schema was pruned.
func TestPrunedSameFindingsAsFull(t *testing.T) {
	full := map[string]*Schema{
		"Invoice":              mustLoad(t, ublInvoiceRel),
		"CreditNote":           mustLoad(t, ublCreditNoteRel),
		"CrossIndustryInvoice": mustLoad(t, ciiSchemaRel),
	}
	rel := map[string]string{"Invoice": ublInvoiceRel, "CreditNote": ublCreditNoteRel, "CrossIndustryInvoice": ciiSchemaRel}
	var files []string
	for _, dir := range []string{"corpus/en16931", "corpus/peppol-bis-billing", "corpus/xrechnung", "corpus/ro-cius", "corpus/br-fr"} {
		_ = filepath.WalkDir(sharedPath(t, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".xml") {
				files = append(files, p)
			}
			return nil
		})
	}
	checked := map[string]int{}
	for n, f := range files {
		doc := readFile(t, f)
		root := rootName(t, doc)
		s := full[root]
		if s == nil {
			continue
		}
		variants := [][]byte{doc}
		if n%3 == 0 { // a third of the documents: each variant costs a compile
			if root == "CrossIndustryInvoice" {
				variants = append(variants,
					bytes.Replace(doc, []byte("</ram:TypeCode>"), []byte("</ram:TypeCode><ram:Unknown>x</ram:Unknown>"), 1),
					bytes.Replace(doc, []byte(`<udt:DateTimeString format="102">`), []byte(`<udt:DateTimeString format="102">2024-13-45x`), 1),
					bytes.Replace(doc, []byte("<ram:TypeCode>"), []byte("<ram:ExemptionReason>x</ram:ExemptionReason><ram:TypeCode>"), 1),
					removeFirst(doc, "ram:SellerTradeParty"))
			} else {
				variants = append(variants,
					bytes.Replace(doc, []byte("</cbc:IssueDate>"), []byte("</cbc:IssueDate><cbc:Unknown>x</cbc:Unknown>"), 1),
					bytes.Replace(doc, []byte("<cbc:IssueDate>"), []byte("<cbc:IssueDate>2024-13-45x"), 1),
					bytes.Replace(doc, []byte("<cbc:ID>"), []byte("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode><cbc:ID>"), 1),
					bytes.Replace(doc, []byte("<cac:AccountingSupplierParty>"), []byte("<cac:AccountingSupplierParty><cac:Shipment/>"), 1),
					removeFirst(doc, "cac:AccountingSupplierParty"))
			}
		}
		for i, v := range variants {
			want, err := s.Validate(context.Background(), v)
			if err != nil {
				t.Fatalf("%s variant %d: %v", f, i, err)
			}
			p, err := Load(sharedPath(t, rel[root]), Options{Instance: instanceOf(t, v)})
			if err != nil {
				t.Fatalf("%s variant %d: pruned load: %v", f, i, err)
			}
			got, err := p.Validate(context.Background(), v)
			pruned := p.Pruned()
			p.Close()
			if err != nil {
				t.Fatalf("%s variant %d, pruned: %v", f, i, err)
			}
			if !pruned {
				t.Errorf("%s variant %d: the schema was not pruned", f, i)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s variant %d:\n pruned: %v\n full:   %v", f, i, got, want)
			}
			if len(want) > 0 {
				checked["invalid"]++
			}
		}
		checked[root]++
	}
	if checked["Invoice"] < 50 || checked["CreditNote"] < 5 || checked["CrossIndustryInvoice"] < 10 || checked["invalid"] < 100 {
		t.Fatalf("too few documents compared: %v", checked)
	}
	t.Logf("compared: %v", checked)
}

// A small schema set: what is pruned and what is kept.
func TestPruneSet(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.xsd": `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:c="urn:c" xmlns:m="urn:m" targetNamespace="urn:m" elementFormDefault="qualified">
  <xs:import namespace="urn:c" schemaLocation="common.xsd"/>
  <xs:element name="Root" type="m:RootType"/>
  <!-- <xs:element name="Commented" type="c:GoneType"/> -->
  <xs:complexType name="RootType"><xs:sequence>
    <xs:element ref="c:Used"/><xs:element ref="c:Absent" minOccurs="0"/>
    <xs:element name="Local" type="c:LocalType" minOccurs="0"/>
  </xs:sequence></xs:complexType>
</xs:schema>`,
		"common.xsd": `<?xml version="1.0"?>
<schema xmlns="http://www.w3.org/2001/XMLSchema" xmlns:c="urn:c" targetNamespace="urn:c">
  <element name="Used" type="c:UsedType"/>
  <element
     name="Absent"
     type='c:AbsentType'/>
  <element name="Head" type="c:HeadType"/>
  <element name="Member" type="c:MemberType" substitutionGroup="c:Head"/>
  <element name="Fixed" type="c:FixedType" fixed="x"/>
  <complexType name="UsedType"><simpleContent><extension base="c:BaseType"/></simpleContent></complexType>
  <complexType name="BaseType"><simpleContent><extension base="string"/></simpleContent></complexType>
  <complexType name="AbsentType"><sequence><element name="Inner" type="c:InnerType"/></sequence></complexType>
  <complexType name="InnerType"/>
  <complexType name="LocalType"/>
  <complexType name="HeadType"/>
  <complexType name="MemberType"><complexContent><extension base="c:HeadType"/></complexContent></complexType>
  <complexType name="FixedType" mixed="true"/>
  <complexType name="GoneType"/>
</schema>`,
	})
	main := filepath.Join(dir, "main.xsd")
	same := func(p string) (string, bool) { return p, true }
	ov, err := pruneSet([]string{main}, &Instance{Elements: map[string]bool{"Root": true, "Used": true}}, same)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ov[main]; !ok {
		t.Fatalf("main.xsd not rewritten (Local is absent): %v", keys(ov))
	}
	common := string(ov[filepath.Join(dir, "common.xsd")])
	for _, want := range []string{
		`<element name="Used" type="c:UsedType"/>`, `name="UsedType"`, `name="BaseType"`, // used, and its base
		"type='anyType'",                                                     // Absent, with its own quotes and the document's (default) XSD prefix
		`name="HeadType"`, `name="MemberType"`, `substitutionGroup="c:Head"`, // substitution groups are kept
		`name="FixedType"`, `fixed="x"`, // so is a value constraint
	} {
		if !strings.Contains(common, want) {
			t.Errorf("common.xsd lacks %s:\n%s", want, common)
		}
	}
	for _, gone := range []string{"AbsentType", "InnerType", "LocalType", "GoneType"} {
		if strings.Contains(common, `name="`+gone+`"`) {
			t.Errorf("common.xsd still defines %s:\n%s", gone, common)
		}
	}
	if m := string(ov[main]); !strings.Contains(m, `name="Local" type="xs:anyType"`) || !strings.Contains(m, `name="RootType"`) {
		t.Errorf("main.xsd:\n%s", m)
	}
	// The pruned set compiles, and validates its instance as the whole one.
	doc := []byte(`<Root xmlns="urn:m" xmlns:c="urn:c"><c:Used>v</c:Used></Root>`)
	for _, inst := range []*Instance{nil, instanceOf(t, doc)} {
		s, err := Load(main, Options{Instance: inst})
		if err != nil {
			t.Fatal(err)
		}
		errs, err := s.Validate(context.Background(), doc)
		if err != nil || len(errs) != 0 || s.Pruned() != (inst != nil) {
			t.Errorf("instance %v: pruned %v, %v %v", inst != nil, s.Pruned(), errs, err)
		}
		s.Close()
	}
}

// Where the pruner steps aside.
func TestPruneStepsAside(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"redefine.xsd":  `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:redefine schemaLocation="base.xsd"/></xs:schema>`,
		"base.xsd":      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>`,
		"unbound.xsd":   `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><q:element name="a" type="b"/></xs:schema>`,
		"unclosed.xsd":  `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:complexType name="T">`,
		"notschema.xsd": `<xs:element xmlns:xs="http://www.w3.org/2001/XMLSchema"/>`,
		"elsewhere.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:include schemaLocation="http://example.com/x.xsd"/></xs:schema>`,
	})
	inst := &Instance{Elements: map[string]bool{}}
	same := func(p string) (string, bool) { return p, !strings.HasPrefix(p, "http:") }
	for _, name := range []string{"redefine.xsd", "unbound.xsd", "unclosed.xsd", "notschema.xsd", "elsewhere.xsd"} {
		if _, err := pruneSet([]string{filepath.Join(dir, name)}, inst, same); !errors.Is(err, errNoPrune) {
			t.Errorf("%s: %v, want errNoPrune", name, err)
		}
	}
	if _, err := pruneSet([]string{filepath.Join(dir, "base.xsd")}, &Instance{Elements: map[string]bool{}, XsiType: true}, same); !errors.Is(err, errNoPrune) {
		t.Errorf("xsi:type: %v, want errNoPrune", err)
	}
	// The UBL xmldsig schema has a DTD: read for its references, not rewritten.
	ov, err := pruneSet([]string{sharedPath(t, ublInvoiceRel)}, instanceOf(t, readFile(t, sharedPath(t, ublExample1Rel))), func(p string) (string, bool) { return p, true })
	if err != nil {
		t.Fatal(err)
	}
	for p := range ov {
		if strings.Contains(p, "xmldsig") {
			t.Errorf("%s was rewritten", p)
		}
	}
	if len(ov) < 2 {
		t.Errorf("UBL: only %v rewritten", keys(ov))
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// BenchmarkLoadUBLInvoicePruned is BenchmarkLoadUBLInvoice compiled for
// example 1 (Options.Instance): what a one-document CLI run pays.
func BenchmarkLoadUBLInvoicePruned(b *testing.B) {
	inst := instanceOf(b, readFile(b, sharedPath(b, ublExample1Rel)))
	path := sharedPath(b, ublInvoiceRel)
	b.ReportAllocs()
	for b.Loop() {
		s, err := Load(path, Options{Instance: inst})
		if err != nil || !s.Pruned() {
			b.Fatal(err)
		}
		s.Close()
	}
}
