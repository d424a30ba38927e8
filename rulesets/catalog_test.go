package rulesets

import (
	"bytes"
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

func TestCatalog(t *testing.T) {
	c, err := Load(WithShared(sharedDir()))
	if err != nil {
		t.Fatal(err)
	}
	pu, ok := c.Profile(SyntaxUBL, "")
	if !ok || pu.Name != "peppol" || pu.Version != "3.0.21" || len(pu.Rulesets) != 2 || pu.Rulesets[1].Label() != "Peppol BIS Billing 3.0.21" {
		t.Fatalf("default UBL profile: %+v", pu)
	}
	ubl, ok := c.Profile(SyntaxUBL, "en16931")
	if !ok || ubl.Name != "en16931" || len(ubl.Rulesets) != 1 || ubl.Rulesets[0].Label() != "EN16931 1.3.16" || ubl.Rulesets[0].Syntax != "ubl" {
		t.Fatalf("default UBL profile: %+v", ubl)
	}
	cii, ok := c.Profile(SyntaxCII, "en16931")
	if !ok || cii.Rulesets[0].Syntax != "cii" {
		t.Fatalf("CII profile: %+v", cii)
	}
	if _, ok := c.Profile(SyntaxUBL, "nope"); ok {
		t.Fatal("unknown profile found")
	}
	if got := c.Profiles(SyntaxUBL); !reflect.DeepEqual(got, []string{"br_fr", "br_fr_extended", "en16931", "peppol", "ro_cius", "xrechnung"}) {
		t.Fatalf("profiles %v", got)
	}
	if got := c.Profiles(SyntaxOrderX); !reflect.DeepEqual(got, []string{"basic", "comfort", "extended"}) {
		t.Fatalf("profiles %v", got)
	}
	ro, _ := c.Profile(SyntaxUBL, "ro_cius")
	ox, _ := c.Profile(SyntaxOrderX, "")
	if ro.Rulesets[0].Label() != "RO_CIUS 1.0.9" || ox.Name != "basic" || ox.Rulesets[0].Label() != "Order-X 1.0" {
		t.Fatalf("ro_cius %v, orderx default %v", ro.Rulesets[0].Label(), ox.Name)
	}
	if n := len(c.Rulesets()); n != 27 {
		t.Fatalf("%d distinct rule sets, want 27", n)
	}
	xu, _ := c.Profile(SyntaxUBL, "xrechnung")
	if len(xu.Rulesets) != 2 || xu.Rulesets[0] != ubl.Rulesets[0] || xu.Rulesets[1].Label() != "XRechnung 3.0.2" {
		t.Fatalf("xrechnung profile does not share the EN 16931 set: %v", xu.Rulesets)
	}
	shared := testshared.Dir(t)
	for _, x := range append(append(ubl.XSD, cii.XSD...), ox.XSD...) {
		if _, err := os.Stat(filepath.Join(shared, x.Path)); err != nil {
			t.Errorf("XSD root %s: %v", x.Path, err)
		}
	}
	// The UBL set validates a CreditNote too, and catches a broken one.
	data, err := os.ReadFile(filepath.Join(shared, "corpus/en16931/ubl/examples/ubl-tc434-creditnote1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	fs, err := ubl.Rulesets[0].Validate(context.Background(), doc)
	if err != nil || len(fs) != 0 {
		t.Fatalf("valid credit note: %v %v", fs, err)
	}
	doc, err = xmltree.Parse([]byte(`<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	fs, err = ubl.Rulesets[0].Validate(context.Background(), doc)
	if err != nil || len(fs) == 0 || fs[0].RuleID != "BR-01" || fs[0].Location != "/CreditNote[1]" {
		t.Fatalf("empty credit note: %v %v", fs, err)
	}
}

func TestCatalogFacturX(t *testing.T) {
	shared := testshared.Dir(t)
	c, err := Load(WithShared(shared))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"br_fr", "br_fr_extended", "en16931", "facturx_basic", "facturx_basicwl", "facturx_en16931", "facturx_extended", "facturx_minimum", "peppol", "xrechnung"}
	if got := c.Profiles(SyntaxCII); !reflect.DeepEqual(got, want) {
		t.Fatalf("CII profiles %v, want %v", got, want)
	}
	p, _ := c.Profile(SyntaxCII, "facturx_extended")
	if len(p.Rulesets) != 1 || p.Rulesets[0].Label() != "Factur-X EXTENDED 1.09.2" {
		t.Fatalf("facturx_extended: %v", p.Rulesets)
	}
	if _, err := os.Stat(filepath.Join(shared, p.XSD[0].Path)); err != nil {
		t.Fatal(err)
	}
	// The code list database is used: an unknown currency fires.
	data, err := os.ReadFile(filepath.Join(shared, "corpus/factur-x/akretion/factur-x-extended.xml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	base, err := p.Rulesets[0].Validate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte("<ram:InvoiceCurrencyCode>EUR<"), []byte("<ram:InvoiceCurrencyCode>XYZ<"), 1)
	if bytes.Equal(bad, data) {
		t.Fatal("fixture has no EUR InvoiceCurrencyCode")
	}
	doc, err = xmltree.Parse(bad, xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Rulesets[0].Validate(context.Background(), doc)
	if err != nil || len(got) <= len(base) {
		t.Fatalf("unknown currency: %d findings (was %d), %v", len(got), len(base), err)
	}
}

// TestCompileCacheShares: identical expressions of different rule sets
// (the EN 16931 base in Peppol, XRechnung, BR-FR and Factur-X; the
// Factur-X and Order-X profiles) are parsed once per catalog load.
func TestCompileCacheShares(t *testing.T) {
	c := catalogT(t)
	hits, misses := c.compileHits, c.compileMisses
	t.Logf("compilations: %d, parsed: %d, shared: %d (%.0f%%)", hits+misses, misses, hits, 100*float64(hits)/float64(hits+misses))
	if hits < misses {
		t.Fatalf("compile cache shared %d of %d compilations; expected at least half", hits, hits+misses)
	}
}

// TestCompileTasks: one task per distinct rule set, largest first; once
// they have run, every profile is assembled from compiled sets (nothing
// left to compile) and equals the eager catalog's.
func TestCompileTasks(t *testing.T) {
	c, err := Load(WithShared(sharedDir()), WithLazy())
	if err != nil {
		t.Fatal(err)
	}
	tasks := c.CompileTasks()
	order := c.largestFirst()
	if len(tasks) != len(c.jobs) || len(order) != len(c.jobs) {
		t.Fatalf("%d tasks, %d ordered, %d rule sets", len(tasks), len(order), len(c.jobs))
	}
	cost := func(j *job) int { return len(j.t.Checks) + len(j.t.Lets) }
	for i := 1; i < len(order); i++ {
		if cost(order[i]) > cost(order[i-1]) {
			t.Fatalf("task %d (%s, %d) after a smaller one (%s, %d)", i, order[i].t.Name, cost(order[i]), order[i-1].t.Name, cost(order[i-1]))
		}
	}
	if order[0].t.Name != "Factur-X EXTENDED" {
		t.Errorf("largest rule set: %s", order[0].t.Name)
	}
	for _, task := range tasks {
		task()
	}
	for _, j := range c.jobs {
		if j.rs == nil && j.err == nil {
			t.Fatalf("%s %s %s not compiled by its task", j.t.Name, j.t.Version, j.t.Syntax)
		}
	}
	eager := catalogT(t)
	for k, p := range c.profiles {
		p.ensure()
		e := eager.profiles[k]
		if (p.Err == nil) != (e.Err == nil) || len(p.Rulesets) != len(e.Rulesets) {
			t.Fatalf("profile %v: %d sets (err %v), eager %d (err %v)", k, len(p.Rulesets), p.Err, len(e.Rulesets), e.Err)
		}
		for i := range p.Rulesets {
			if p.Rulesets[i].Label() != e.Rulesets[i].Label() || p.Rulesets[i].Syntax != e.Rulesets[i].Syntax {
				t.Fatalf("profile %v set %d: %s, eager %s", k, i, p.Rulesets[i].Label(), e.Rulesets[i].Label())
			}
		}
	}
}
