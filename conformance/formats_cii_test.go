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
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/rulesets/en16931"
)

const ciiXSDPath = "rulesets/en16931/1.3.16/cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd"

// ciiCheck validates CII documents against the CII D16B XSD and the
// EN 16931 CII rules (generated tables).
type ciiCheck struct {
	schema *xsd.Schema
	rules  *engine.Ruleset
}

func newCIICheck(t *testing.T) *ciiCheck {
	t.Helper()
	shared, err := SharedDir()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := xsd.Load(filepath.Join(shared, ciiXSDPath), xsd.Options{})
	if err != nil {
		t.Fatalf("load CII XSD: %v", err)
	}
	t.Cleanup(schema.Close)
	tables, err := en16931.Set{}.Tables("cii")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := engine.Load(tables)
	if err != nil {
		t.Fatal(err)
	}
	return &ciiCheck{schema: schema, rules: rs}
}

// fatal returns the XSD errors and fatal rule findings of data.
func (c *ciiCheck) fatal(t *testing.T, data []byte) []string {
	t.Helper()
	var out []string
	xerrs, err := c.schema.Validate(context.Background(), data)
	if err != nil {
		return []string{"XSD: " + err.Error()}
	}
	for _, e := range xerrs {
		if e.Level != "warning" {
			out = append(out, "XSD "+e.String())
		}
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		return append(out, "parse: "+err.Error())
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

// ruleOf is the rule id of a fatal() entry ("XSD" for schema errors).
func ruleOf(p string) string {
	if strings.HasPrefix(p, "XSD") {
		return p
	}
	id, _, _ := strings.Cut(p, " ")
	return id
}

// TestFormatsCIIWrittenDocumentsConform writes 200 random models and every
// round-tripped CII example with formats/cii and requires the CII D16B XSD
// and the EN 16931 rules to report no fatal finding.
func TestFormatsCIIWrittenDocumentsConform(t *testing.T) {
	c := newCIICheck(t)
	failed := 0
	report := func(name string, data []byte) {
		if probs := c.fatal(t, data); len(probs) > 0 {
			failed++
			t.Errorf("%s: %d fatal findings:\n  %s", name, len(probs), strings.Join(probs, "\n  "))
		}
	}

	t.Run("random", func(t *testing.T) {
		for i := range 200 {
			inv := model.RandomInvoice(rand.New(rand.NewPCG(uint64(i), 16931)), model.RandomOptions{})
			var buf bytes.Buffer
			if err := cii.Write(&buf, inv, cii.WriteOptions{}); err != nil {
				t.Errorf("random %d: %v", i, err)
				continue
			}
			report(fmt.Sprintf("random %d (type %s)", i, inv.TypeCode), buf.Bytes())
		}
	})

	t.Run("corpus", func(t *testing.T) {
		shared, err := SharedDir()
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, pat := range []string{
			"corpus/en16931/cii/examples/*.xml",
			"corpus/factur-x/1.09.2/phive-test-files/en16931/*.xml",
			"corpus/xrechnung-testsuite/technical-cases/*/*uncefact*.xml",
		} {
			m, _ := filepath.Glob(filepath.Join(shared, pat))
			files = append(files, m...)
		}
		sort.Strings(files)
		if len(files) == 0 {
			t.Fatal("no CII examples found")
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
			// A source that is itself not conformant may keep its own fatal
			// findings after the round trip, but must gain none.
			srcProbs := map[string]bool{}
			for _, p := range c.fatal(t, data) {
				srcProbs[ruleOf(p)] = true
			}
			res, err := cii.Read(doc)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			var buf bytes.Buffer
			if err := cii.Write(&buf, res.Invoice, cii.WriteOptions{}); err != nil {
				t.Errorf("%s: write: %v", f, err)
				continue
			}
			var probs []string
			for _, p := range c.fatal(t, buf.Bytes()) {
				if !srcProbs[ruleOf(p)] {
					probs = append(probs, p)
				}
			}
			if len(probs) > 0 {
				failed++
				t.Errorf("%s (round-tripped): %d new fatal findings:\n  %s", filepath.Base(f), len(probs), strings.Join(probs, "\n  "))
			} else if len(srcProbs) > 0 {
				t.Logf("%s: keeps the source's own fatal findings %v and adds none", filepath.Base(f), srcProbs)
			}
		}
	})
	t.Logf("documents with fatal findings: %d", failed)
}

// TestFormatsCIIGoldensConform: the writer's golden outputs (the full one
// sets every field CII can carry) pass the CII D16B XSD and the EN 16931
// rules. The Factur-X MINIMUM and BASIC WL views (view_*.golden.xml) are not
// EN 16931 invoices (no lines, by design of those profiles): the cii package
// checks them against their own XSDs and TestGenerateProperty against the
// reference's rules of their profile.
func TestFormatsCIIGoldensConform(t *testing.T) {
	c := newCIICheck(t)
	files, err := filepath.Glob("../formats/cii/testdata/*.golden.xml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "view_") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.fatal(t, data) {
			t.Errorf("%s: %s", filepath.Base(f), p)
		}
	}
}
