package conformance

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
	"github.com/einvoice-dev/einvoice/rulesets/en16931"
)

// UBL 2.1 main document schemas, relative to the shared directory.
const (
	ublInvoiceXSD    = "rulesets/ubl/2.1/maindoc/UBL-Invoice-2.1.xsd"
	ublCreditNoteXSD = "rulesets/ubl/2.1/maindoc/UBL-CreditNote-2.1.xsd"
)

// ublCheck validates UBL documents against the UBL 2.1 XSD (Invoice or
// CreditNote by root) and the EN 16931 UBL rules (generated tables).
type ublCheck struct {
	invoice, creditNote *xsd.Schema
	rules               *engine.Ruleset
}

func newUBLCheck(t *testing.T) *ublCheck {
	t.Helper()
	shared, err := SharedDir()
	if err != nil {
		t.Fatal(err)
	}
	c := &ublCheck{}
	for _, s := range []struct {
		dst  **xsd.Schema
		path string
	}{{&c.invoice, ublInvoiceXSD}, {&c.creditNote, ublCreditNoteXSD}} {
		schema, err := xsd.Load(filepath.Join(shared, s.path), xsd.Options{})
		if err != nil {
			t.Fatalf("load %s: %v", s.path, err)
		}
		t.Cleanup(schema.Close)
		*s.dst = schema
	}
	tables, err := en16931.Set{}.Tables("ubl")
	if err != nil {
		t.Fatal(err)
	}
	if c.rules, err = engine.Load(tables); err != nil {
		t.Fatal(err)
	}
	return c
}

// fatal returns the XSD errors and fatal EN 16931 findings of data.
func (c *ublCheck) fatal(t *testing.T, data []byte) []string {
	t.Helper()
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		return []string{"parse: " + err.Error()}
	}
	schema := c.invoice
	if doc.NameLocal(doc.Name(doc.Root())) == "CreditNote" {
		schema = c.creditNote
	}
	var out []string
	xerrs, err := schema.Validate(context.Background(), data)
	if err != nil {
		return []string{"XSD: " + err.Error()}
	}
	for _, e := range xerrs {
		if e.Level != xsd.LevelWarning {
			out = append(out, "XSD "+e.String())
		}
	}
	findings, err := c.rules.Validate(context.Background(), doc)
	if err != nil {
		return append(out, "rules: "+err.Error())
	}
	for _, f := range findings {
		if f.Flag == "fatal" {
			out = append(out, fmt.Sprintf("%s at %s: %s", f.RuleID, f.Location, f.Message))
		}
	}
	return out
}

// ublRuleOf is the rule id of a fatal() entry (the whole entry for XSD).
func ublRuleOf(p string) string {
	if strings.HasPrefix(p, "XSD") {
		return p
	}
	id, _, _ := strings.Cut(p, " ")
	return id
}

// TestFormatsUBLWrittenDocumentsConform writes 200 random models and every
// round-tripped UBL example with formats/ubl and requires the UBL 2.1 XSD
// and the EN 16931 rules to report no fatal finding (a corpus example that
// is itself not conformant may keep its own findings but gain none).
func TestFormatsUBLWrittenDocumentsConform(t *testing.T) {
	c := newUBLCheck(t)
	failed := 0
	report := func(t *testing.T, name string, data []byte, allowed map[string]bool) {
		var probs []string
		for _, p := range c.fatal(t, data) {
			if !allowed[ublRuleOf(p)] {
				probs = append(probs, p)
			}
		}
		if len(probs) > 0 {
			failed++
			t.Errorf("%s: %d fatal findings:\n  %s", name, len(probs), strings.Join(probs, "\n  "))
		}
	}

	t.Run("random", func(t *testing.T) {
		credit := 0
		for i := range 200 {
			inv := model.RandomInvoice(rand.New(rand.NewPCG(uint64(i), 2101)), model.RandomOptions{})
			if inv.TypeCode.IsCreditNote() {
				credit++
			}
			var buf bytes.Buffer
			if err := ubl.Write(&buf, inv, ubl.WriteOptions{}); err != nil {
				t.Errorf("random %d: %v", i, err)
				continue
			}
			report(t, fmt.Sprintf("random %d (type %s)", i, inv.TypeCode), buf.Bytes(), nil)
		}
		if credit == 0 {
			t.Error("no credit note among the random models")
		}
	})

	t.Run("corpus", func(t *testing.T) {
		shared, err := SharedDir()
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, pat := range []string{
			"corpus/en16931/ubl/examples/*.xml",
			"corpus/en16931/ubl/examples/*.XML",
			"corpus/peppol-bis-billing/3.0.19/examples/*.xml",
			"corpus/xrechnung-testsuite/technical-cases/*/*_ubl.xml",
		} {
			m, _ := filepath.Glob(filepath.Join(shared, pat))
			files = append(files, m...)
		}
		sort.Strings(files)
		if len(files) == 0 {
			t.Fatal("no UBL examples found")
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			src := map[string]bool{}
			for _, p := range c.fatal(t, data) {
				src[ublRuleOf(p)] = true
			}
			res, err := ubl.Read(doc)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			var buf bytes.Buffer
			if err := ubl.Write(&buf, res.Invoice, ubl.WriteOptions{}); err != nil {
				t.Errorf("%s: write: %v", f, err)
				continue
			}
			report(t, filepath.Base(f)+" (round-tripped)", buf.Bytes(), src)
			if len(src) > 0 {
				t.Logf("%s: the source itself has fatal findings %v", filepath.Base(f), src)
			}
		}
	})
	t.Logf("documents with new fatal findings: %d", failed)
}

// TestFormatsUBLGoldensValidXSD: the writer's golden outputs (which set
// every field of the model) are valid for the UBL 2.1 XSD. Their amounts are
// hand-made, so only the schema is checked here.
func TestFormatsUBLGoldensValidXSD(t *testing.T) {
	c := newUBLCheck(t)
	files, err := filepath.Glob("../formats/ubl/testdata/*.golden.xml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		schema := c.invoice
		if bytes.Contains(data, []byte("<CreditNote ")) {
			schema = c.creditNote
		}
		xerrs, err := schema.Validate(context.Background(), data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, e := range xerrs {
			t.Errorf("%s: XSD %s", filepath.Base(f), e)
		}
	}
}

// TestFormatsUBLCheckIsNotVacuous: the check above reports a written
// document that lost its issue date (XSD and BR-03).
func TestFormatsUBLCheckIsNotVacuous(t *testing.T) {
	c := newUBLCheck(t)
	inv := model.RandomInvoice(rand.New(rand.NewPCG(1, 1)), model.RandomOptions{})
	var buf bytes.Buffer
	if err := ubl.Write(&buf, inv, ubl.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if probs := c.fatal(t, good); len(probs) != 0 {
		t.Fatalf("written document has findings: %v", probs)
	}
	tag := "<cbc:IssueDate>" + inv.IssueDate.String() + "</cbc:IssueDate>"
	bad := bytes.Replace(good, []byte(tag), nil, 1)
	if bytes.Equal(bad, good) {
		t.Fatalf("%s not found in the written document", tag)
	}
	probs := c.fatal(t, bad)
	var xsdErr, br03 bool
	for _, p := range probs {
		xsdErr = xsdErr || strings.HasPrefix(p, "XSD")
		br03 = br03 || ublRuleOf(p) == "BR-03"
	}
	if !xsdErr || !br03 {
		t.Fatalf("missing issue date not reported by XSD and BR-03: %v", probs)
	}
}
