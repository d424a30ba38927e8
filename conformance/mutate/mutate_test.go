package mutate

import (
	"bytes"
	"encoding/xml"
	"errors"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sharedDir is $EINVOICE_SHARED or ../shared next to the repository root.
func sharedDir(t testing.TB) string {
	return testshared.Dir(t)
}

const ublCodes = "rulesets/en16931/1.3.16/ubl/schematron/codelist/EN16931-UBL-codes.sch"

func ublSource(t testing.TB) (*Document, []byte) {
	t.Helper()
	shared := sharedDir(t)
	cl, err := Harvest(filepath.Join(shared, ublCodes))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(shared, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse("ubl-tc434-example1.xml", src, cl)
	if err != nil {
		t.Fatal(err)
	}
	return d, src
}

func wellFormed(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func TestHarvestOfficialCodeLists(t *testing.T) {
	cl, err := Harvest(filepath.Join(sharedDir(t), ublCodes))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ key, code string }{
		{"@currencyID", "EUR"},
		{"Amount/@currencyID", "USD"},
		{"DocumentCurrencyCode", "EUR"},
		{"InvoiceTypeCode", "380"},
		{"CreditNoteTypeCode", "381"},
		{"IdentificationCode", "DE"},
		{"PaymentMeansCode", "58"},
		{"ID/@schemeID", "0088"},
		{"@unitCode", "C62"},
	}
	for _, c := range cases {
		found := false
		for _, l := range cl.Lists(c.key) {
			found = found || slices.Contains(l, c.code)
		}
		if !found {
			t.Errorf("code list for %s lacks %s (lists: %d)", c.key, c.code, len(cl.Lists(c.key)))
		}
	}
	if cl.Len() < 15 {
		t.Errorf("only %d code lists harvested", cl.Len())
	}
}

func TestParseCodeListsSynthetic(t *testing.T) {
	sch := []byte(`<schema xmlns="http://purl.oclc.org/dsdl/schematron"><pattern>
	<rule context="a:X | b:Y[@k]"><assert test="contains(' P Q R ', concat(' ', normalize-space(.), ' '))">m</assert></rule>
	<rule context="c:Z"><assert test="contains( ' 1 2 ', concat(' ', normalize-space(@unit), ' '))">m</assert></rule>
	</pattern></schema>`)
	cl := ParseCodeLists(sch)
	if got := cl.Lists("X"); len(got) != 1 || !slices.Equal(got[0], []string{"P", "Q", "R"}) {
		t.Errorf("X: %v", got)
	}
	if got := cl.Lists("Y"); len(got) != 1 {
		t.Errorf("Y: %v", got)
	}
	if got := cl.Lists("Z/@unit"); len(got) != 1 || !slices.Equal(got[0], []string{"1", "2"}) {
		t.Errorf("Z/@unit: %v", got)
	}
	if got := cl.Lists("Z"); got != nil {
		t.Errorf("Z must have no element list: %v", got)
	}
}

func TestMutateDeterministicAndWellFormed(t *testing.T) {
	d, src := ublSource(t)
	paths := map[string]bool{}
	for _, p := range d.Paths() {
		paths[p] = true
	}
	ops := map[Op]int{}
	names := map[string]bool{}
	for seed := uint64(1); seed <= 3000; seed++ {
		m := d.Mutate(seed)
		again := d.Mutate(seed)
		if m.Name != again.Name || !bytes.Equal(m.Data, again.Data) {
			t.Fatalf("seed %d not deterministic: %s vs %s", seed, m.Name, again.Name)
		}
		if !strings.HasPrefix(m.Name, "ubl-tc434-example1.xml#") || !strings.Contains(m.Name, ":"+string(m.Op)+":"+m.Path) {
			t.Fatalf("bad name %q", m.Name)
		}
		elemPath := m.Path
		if i := strings.Index(elemPath, "/@"); i >= 0 {
			elemPath = elemPath[:i]
		}
		if !paths[elemPath] {
			t.Fatalf("%s: path %s not in the source", m.Name, elemPath)
		}
		if err := wellFormed(m.Data); err != nil {
			t.Fatalf("%s: not well-formed: %v", m.Name, err)
		}
		if bytes.Equal(m.Data, src) && m.Op != OpCode && m.Op != OpAttr {
			t.Errorf("%s: mutant equals its source", m.Name)
		}
		ops[m.Op]++
		names[m.Name] = true
	}
	for _, w := range weights {
		if ops[w.op] == 0 {
			t.Errorf("operation %s never chosen in 3000 seeds: %v", w.op, ops)
		}
	}
	if len(names) < 1000 {
		t.Errorf("only %d distinct mutants of 3000", len(names))
	}
}

func TestMutateOperations(t *testing.T) {
	src := []byte(`<?xml version="1.0"?>
<r xmlns:c="urn:c"><c:Amount currencyID="EUR">10.50</c:Amount><c:IssueDate>2024-01-31</c:IssueDate><c:Percent>19</c:Percent><c:TypeCode>380</c:TypeCode><c:L/></r>`)
	cl := ParseCodeLists([]byte(`<rule context="c:TypeCode"><assert test="contains(' 380 381 ', concat(' ', normalize-space(.), ' '))"/></rule>
<rule context="c:Amount"><assert test="contains(' EUR USD ', concat(' ', normalize-space(@currencyID), ' '))"/></rule>`))
	d, err := Parse("t.xml", src, cl)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"/r[1]/Amount[1]": true, "/r[1]/IssueDate[1]": true, "/r[1]/Percent[1]": true,
		"/r[1]/TypeCode[1]": true, "/r[1]/L[1]": true, "/r[1]/Amount[1]/@currencyID": true,
	}
	seen := map[Op]bool{}
	for seed := uint64(0); seed < 400; seed++ {
		m := d.Mutate(seed)
		if !want[m.Path] {
			t.Fatalf("%s: unexpected path", m.Name)
		}
		if err := wellFormed(m.Data); err != nil {
			t.Fatalf("%s: %v\n%s", m.Name, err, m.Data)
		}
		s := string(m.Data)
		switch m.Op {
		case OpRemove:
			if strings.Count(s, "<c:") != 4 {
				t.Errorf("%s: %s", m.Name, s)
			}
		case OpDuplicate:
			if strings.Count(s, "<c:") != 6 {
				t.Errorf("%s: %s", m.Name, s)
			}
		case OpCode:
			if m.Path != "/r[1]/TypeCode[1]" || !strings.Contains(s, "<c:TypeCode>"+escapeText(m.Value)+"</c:TypeCode>") {
				t.Errorf("%s: %s", m.Name, s)
			}
		case OpAmount:
			if m.Path != "/r[1]/Amount[1]" || strings.Contains(s, ">10.50<") && m.Value != "10.50" {
				t.Errorf("%s: %s", m.Name, s)
			}
		case OpDate:
			if m.Path != "/r[1]/IssueDate[1]" || strings.Contains(s, ">2024-01-31<") {
				t.Errorf("%s: %s", m.Name, s)
			}
		case OpPercent:
			if m.Path != "/r[1]/Percent[1]" || strings.Contains(s, ">19<") {
				t.Errorf("%s: %s", m.Name, s)
			}
		case OpAttr:
			if !strings.Contains(s, `currencyID="`+escapeAttr(m.Value)+`"`) {
				t.Errorf("%s: %s", m.Name, s)
			}
		}
		seen[m.Op] = true
	}
	for _, w := range weights {
		if !seen[w.op] {
			t.Errorf("operation %s never applied", w.op)
		}
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	for _, in := range []string{"", "<a>", "<a></b>", "text", "<a x=1/>"} {
		if _, err := Parse("bad", []byte(in), nil); !errors.Is(err, ErrNotXML) {
			t.Errorf("Parse(%q) = %v, want ErrNotXML", in, err)
		}
	}
}

func TestMutateMulti(t *testing.T) {
	d, src := ublSource(t)
	steps := map[int]int{}
	for seed := uint64(1); seed <= 300; seed++ {
		m := d.MutateMulti(seed, 3)
		again := d.MutateMulti(seed, 3)
		if m.Name != again.Name || !bytes.Equal(m.Data, again.Data) {
			t.Fatalf("seed %d not deterministic", seed)
		}
		if err := wellFormed(m.Data); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		n := 1 // each later step starts with "+<op>:/"
		for _, w := range weights {
			n += strings.Count(m.Name, "+"+string(w.op)+":/")
		}
		steps[n]++
		if !strings.HasPrefix(m.Name, "ubl-tc434-example1.xml#") || bytes.Equal(m.Data, src) && m.Op != OpCode && m.Op != OpAttr && n == 1 {
			t.Fatalf("%s: bad mutant", m.Name)
		}
	}
	if steps[1] == 0 || steps[2] == 0 || steps[3] == 0 || steps[4] != 0 {
		t.Errorf("step counts %v, want 1..3 each present", steps)
	}
	if one := d.MutateMulti(5, 1); strings.Count(one.Name, ":/") != 1 {
		t.Errorf("maxOps 1 gave %s", one.Name)
	}
}
