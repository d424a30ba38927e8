package cii

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/internal/golden"
	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// facturXSchemas holds the official Factur-X 1.0 XSD of a profile
// directory (MINIMUM, BASIC-WL), loaded once per test binary.
var facturXSchemas sync.Map // dir -> func() (*xsd.Schema, error)

func facturXSchema(dir string) (*xsd.Schema, error) {
	f, _ := facturXSchemas.LoadOrStore(dir, sync.OnceValues(func() (*xsd.Schema, error) {
		root := filepath.Join(testshared.Path(), "rulesets", "factur-x", "1.09.2", dir)
		return xsd.Load(filepath.Join(root, "FACTUR-X_"+dir+".xsd"), xsd.Options{Root: root})
	}))
	return f.(func() (*xsd.Schema, error))()
}

// TestProfileViewFullModel writes the view of a model with every field set
// for MINIMUM and BASIC WL: the document is valid against the profile's
// official XSD, the model is not modified, and the dropped list is exact
// (testdata/view_*.dropped.golden.txt, -update rewrites it; a few entries
// are also checked by hand).
func TestProfileViewFullModel(t *testing.T) {
	for _, c := range []struct {
		view View
		dir  string
		// must and mustNot are entries the dropped list must (not) have.
		must, mustNot []Dropped
	}{
		{ViewBasicWL, "BASIC-WL",
			[]Dropped{{"/lines/0/item/name", "BT-153"}, {"/lines/1/id", "BT-126"}, {"/seller/contact/name", "BT-41"},
				{"/buyer/contact/email", "BT-58"}, {"/tax_point_date", "BT-7"}, {"/totals/rounding_amount", "BT-114"},
				{"/supporting_documents/0/attachment/content", "BT-125"}, {"/payment_instructions/card/primary_account_number", "BT-87"}},
			[]Dropped{{"/buyer/address/city", "BT-52"}, {"/notes/0/text", "BT-22"}, {"/vat_breakdown/0/tax_amount", "BT-117"}}},
		{ViewMinimum, "MINIMUM",
			[]Dropped{{"/lines/0/item/name", "BT-153"}, {"/buyer/address/city", "BT-52"}, {"/buyer/address/country_code", "BT-55"},
				{"/seller/address/city", "BT-37"}, {"/notes/0/text", "BT-22"}, {"/vat_breakdown/0/tax_amount", "BT-117"},
				{"/totals/line_net_total", "BT-106"}, {"/tax_currency_code", "BT-6"}, {"/buyer/vat_id", "BT-48"}},
			[]Dropped{{"/seller/address/country_code", "BT-40"}, {"/seller/vat_id", "BT-31"}, {"/totals/payable_amount", "BT-115"}}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			inv := fullInvoice()
			orig := fullInvoice()
			view, dropped := ProfileView(inv, c.view)
			if !reflect.DeepEqual(inv, orig) {
				t.Fatal("ProfileView modified its input")
			}
			if len(view.Lines) != 0 {
				t.Fatalf("the view has %d lines", len(view.Lines))
			}
			var buf bytes.Buffer
			if err := Write(&buf, view, WriteOptions{Indent: "  "}); err != nil {
				t.Fatal(err)
			}
			s, err := facturXSchema(c.dir)
			if err != nil {
				t.Fatalf("load the %s XSD: %v", c.dir, err)
			}
			errs, err := s.Validate(context.Background(), buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				t.Errorf("XSD: %s", e.String())
			}
			for _, d := range c.must {
				if !slices.Contains(dropped, d) {
					t.Errorf("dropped lacks %v", d)
				}
			}
			for _, d := range c.mustNot {
				if slices.ContainsFunc(dropped, func(x Dropped) bool { return x.Pointer == d.Pointer }) {
					t.Errorf("dropped has %v, which the profile carries", d)
				}
			}
			var lines []string
			for _, d := range dropped {
				lines = append(lines, d.String())
			}
			golden.Check(t, filepath.Join("testdata", "view_"+strings.ToLower(c.dir)+".dropped.golden.txt"), []byte(strings.Join(lines, "\n")+"\n"), *update)
			golden.Check(t, filepath.Join("testdata", "view_"+strings.ToLower(c.dir)+".golden.xml"), buf.Bytes(), *update)
		})
	}
}

// TestProfileViewComplete: every non-zero leaf of the model is either in
// the view or dropped (no pointer twice, one term each); the full view is
// the model; the view of a view drops nothing more.
func TestProfileViewComplete(t *testing.T) {
	for _, v := range []View{ViewBasicWL, ViewMinimum} {
		inv := fullInvoice()
		view, dropped := ProfileView(inv, v)
		got := map[string]bool{}
		for _, d := range dropped {
			if got[d.Pointer] {
				t.Errorf("%v: %s dropped twice", v, d.Pointer)
			}
			got[d.Pointer] = true
			if d.Term == "" || strings.Contains(d.Term, "|") {
				t.Errorf("%v: %s has no single term: %q", v, d.Pointer, d.Term)
			}
		}
		// The full view drops nothing and is the model itself.
		if fv, fd := ProfileView(inv, ViewFull); fv != inv || fd != nil {
			t.Errorf("ViewFull: %p %v", fv, fd)
		}
		// A view of the view drops nothing more.
		if _, again := ProfileView(view, v); len(again) != 0 {
			t.Errorf("%v: the view of the view drops %v", v, again)
		}
	}
}
