package engineval

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/rulesets"
)

// TestLazyEqualsEager proves that a lazy validator (the CLI's) gives the same
// reports as the eager one, including when many goroutines hit a profile and
// schema that are not compiled yet, and that Warm then compiles the rest.
// The lazy one compiles each UBL schema alone, the eager one the UBL set
// (schemaSets): the XSD findings of invoices and credit notes, valid or
// not, must not tell them apart.
func TestLazyEqualsEager(t *testing.T) {
	lazy, err := New(shared(), Lazy())
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	cases := []ops.ValidateRequest{
		{Syntax: "ubl", Profile: "en16931", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")},
		{Syntax: "cii", Profile: "en16931", Body: corpus(t, "en16931/cii/examples/CII_example1.xml")},
		{Syntax: "ubl", Profile: "en16931", Body: []byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`)},
		{Syntax: "ubl", Profile: "en16931", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-creditnote1.xml")},
		{Syntax: "ubl", Profile: "peppol", Body: []byte(`<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"><InvoiceTypeCode/></CreditNote>`)},
	}
	canon := func(v *Validator, req ops.ValidateRequest) string {
		rep, err := (&ops.Service{Validator: v}).Validate(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", req.Syntax, err)
		}
		rep.DurationMS = 0
		b, _ := json.Marshal(rep)
		return string(b)
	}
	for _, req := range cases {
		want := canon(testValidator, req)
		var wg sync.WaitGroup
		got := make([]string, 8)
		for i := range got {
			wg.Add(1)
			go func() { defer wg.Done(); got[i] = canon(lazy, req) }()
		}
		wg.Wait()
		for _, g := range got {
			if g != want {
				t.Fatalf("lazy report differs:\n got %s\nwant %s", g, want)
			}
		}
	}
	// Warm switches the collector off while it compiles and restores the
	// process's own setting afterwards (an operator's GOGC=150 here).
	prev := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prev)
	if err := lazy.Warm(context.Background()); err != nil {
		t.Fatalf("warm: %v", err)
	}
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("after Warm GOGC is %d, want the 150 set before", got)
	}
	if lazy.sets != nil || testValidator.sets == nil {
		t.Fatalf("schema sets: lazy %v, eager %v; want none and some", lazy.sets, testValidator.sets)
	}
	for _, r := range lazy.roots {
		if e := lazy.schemas[r.Path]; e == nil || e.s == nil {
			t.Errorf("after Warm the lazy validator has no schema %s", r.Path)
		}
		if e := testValidator.schemas[testValidator.schemaKey(r.Path)]; e == nil || e.s == nil {
			t.Errorf("the eager validator has no schema for %s", r.Path)
		}
	}
}

// TestWarmGC: the collector is off during the warm-up, and the setting
// before it (a value, or off) is back afterwards.
func TestWarmGC(t *testing.T) {
	prev := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prev)
	restore := warmGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("during the warm-up GOGC is %d, want off", got)
	}
	restore()
	if got := debug.SetGCPercent(-1); got != 150 {
		t.Errorf("after the warm-up GOGC is %d, want 150", got)
	}
	warmGC()()
	if got := debug.SetGCPercent(150); got != -1 {
		t.Errorf("an operator's GOGC=off became %d", got)
	}
}

// TestSchemaSets: of the catalog's schemas only UBL's Invoice and
// CreditNote (one directory, two namespaces) compile as a set; the
// Factur-X, Order-X and CII schemas (one namespace in several files) each
// stay alone.
func TestSchemaSets(t *testing.T) {
	const inv, cn = "rulesets/ubl/2.1/maindoc/UBL-Invoice-2.1.xsd", "rulesets/ubl/2.1/maindoc/UBL-CreditNote-2.1.xsd"
	sets := testValidator.sets
	if len(sets) != 2 || sets[inv] == nil || sets[inv] != sets[cn] || len(sets[inv].imports) != 2 || sets[inv].key != cn {
		t.Fatalf("sets = %v, want only the UBL Invoice and CreditNote schemas, as one", sets)
	}
	if s := testValidator.schemas[cn]; s == nil || s.s == nil || testValidator.schemas[inv] != nil {
		t.Fatalf("the UBL set is not one compiled schema: %v", testValidator.schemas)
	}
	// A file named with two namespaces never joins a set, nor do files of
	// one namespace.
	got := schemaSets([]rulesets.XSDRoot{
		{Namespace: "urn:a", Local: "A", Path: "d/a.xsd"}, {Namespace: "urn:b", Local: "B", Path: "d/a.xsd"},
		{Namespace: "urn:c", Local: "C", Path: "d/c.xsd"},
		{Namespace: "urn:x", Local: "X", Path: "e/x1.xsd"}, {Namespace: "urn:x", Local: "X", Path: "e/x2.xsd"},
		{Namespace: "urn:p", Local: "P", Path: "f/p.xsd"}, {Namespace: "urn:q", Local: "Q", Path: "f/q.xsd"},
	})
	if len(got) != 2 || got["f/p.xsd"] == nil || got["f/p.xsd"] != got["f/q.xsd"] {
		t.Fatalf("schemaSets = %v, want only f/p.xsd and f/q.xsd as one set", got)
	}
}

// TestLazyMissingShared fails at New, not on the first document.
func TestLazyMissingShared(t *testing.T) {
	if _, err := New(t.TempDir(), Lazy()); err == nil {
		t.Fatal("New with an empty shared directory succeeded")
	}
}

// TestSchemaPerDocumentEqualsShared: a validator that compiles each
// document's schema pruned for it (SchemaPerDocument, the one-file CLI)
// gives the reports of the shared one, valid or not, and its schemas were
// pruned.
func TestSchemaPerDocumentEqualsShared(t *testing.T) {
	v, err := New(shared(), Lazy(), SchemaPerDocument())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ex1 := corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")
	cases := []ops.ValidateRequest{
		{Syntax: "ubl", Profile: "en16931", Body: ex1},
		{Syntax: "ubl", Profile: "en16931", Body: bytes.Replace(ex1, []byte("</cbc:IssueDate>"), []byte("</cbc:IssueDate><cac:Shipment/>"), 1)},
		{Syntax: "ubl", Profile: "en16931", Body: []byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`)},
		{Syntax: "ubl", Profile: "peppol", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-creditnote1.xml")},
		{Syntax: "cii", Profile: "en16931", Body: corpus(t, "en16931/cii/examples/CII_example1.xml")},
		{Syntax: "cii", Profile: "facturx_basic", Body: corpus(t, "factur-x/1.09.2/phive-test-files/basic/factur-x-1.xml")},
	}
	for _, req := range cases {
		canon := func(v *Validator) string {
			rep, err := (&ops.Service{Validator: v}).Validate(context.Background(), req)
			if err != nil {
				t.Fatalf("%s/%s: %v", req.Syntax, req.Profile, err)
			}
			rep.DurationMS = 0
			b, _ := json.Marshal(rep)
			return string(b)
		}
		if got, want := canon(v), canon(testValidator); got != want {
			t.Errorf("%s/%s: per-document schema report differs:\n got %s\nwant %s", req.Syntax, req.Profile, got, want)
		}
		doc, err := xmltree.Parse(req.Body, xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		root := doc.Name(doc.Root())
		ds := v.startDocSchema(req, doc.NameSpace(root), doc.NameLocal(root), doc)
		if ds == nil {
			t.Fatalf("%s/%s: no per-document schema", req.Syntax, req.Profile)
		}
		if s, err := ds.wait(); err != nil || !s.Pruned() {
			t.Errorf("%s/%s: per-document schema not pruned (%v)", req.Syntax, req.Profile, err)
		}
		ds.close()
		// Validate took the per-document schema: no shared one was
		// compiled (or prefetched) for it.
		v.mu.Lock()
		shared := len(v.schemas)
		v.mu.Unlock()
		if shared != 0 {
			t.Errorf("%s/%s: %d shared schemas compiled beside the per-document one", req.Syntax, req.Profile, shared)
		}
	}
}
