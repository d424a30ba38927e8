package corpuscheck

import (
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

// sharedDir locates the official data: EINVOICE_SHARED or ../shared next to the repo.
func sharedDir() string {
	return testshared.Path()
}

// calcKnownDifferences lists corpus documents whose own totals differ from
// the EN 16931 calculation, with the reason; the test fails if one of them
// starts to match (so the list cannot go stale).
var calcKnownDifferences = map[string]string{
	"en16931/cii/examples/huf_example_cii.xml": "rounds the VAT to whole forints (18679.00 for 69180 × 27 % = 18678.60; BR-CO-17 allows ±1)",
}

// TestCompleteReproducesOfficialExamples reads the official valid UBL and
// CII examples with the syntax readers, removes every total and VAT
// breakdown amount, recomputes them with Complete from the examples' own
// lines, allowances and charges (line net amounts kept: EN 16931 does not
// tie BT-131 to quantity × price) and requires the examples' values back.
func TestCompleteReproducesOfficialExamples(t *testing.T) {
	var files []string
	for _, g := range []string{
		"corpus/en16931/ubl/examples/*.xml", "corpus/en16931/cii/examples/*.xml",
		"corpus/peppol-bis-billing/*/examples/*.xml", "corpus/peppol-bis-billing/*/self-billing-examples/*.xml",
		// XRechnung sub invoice lines (BG-DEX-01): the totals are those of
		// the lines alone (the model's sub-lines never enter them).
		"corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-02-some-invoicelines-with-sub.xml",
		"corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-02-check-0-values.xml",
	} {
		m, err := filepath.Glob(filepath.Join(sharedDir(), g))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 30 {
		t.Fatalf("only %d corpus files found under %s", len(files), sharedDir())
	}
	checked := 0
	for _, f := range files {
		name := filepath.ToSlash(strings.TrimPrefix(f, filepath.Join(sharedDir(), "corpus")+string(filepath.Separator)))
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := xmltree.Parse(data, xmltree.Limits{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var orig *model.Invoice
		if ur, err := ubl.Read(doc); err == nil {
			orig = ur.Invoice
		} else if cr, err := cii.Read(doc); err == nil {
			orig = cr.Invoice
		} else {
			continue // neither syntax (e.g. another document type)
		}
		if orig.Totals == nil {
			t.Errorf("%s: no totals read", name)
			continue
		}
		b, err := model.EncodeInvoice(orig)
		if err != nil {
			t.Fatal(err)
		}
		c, _, ps, err := model.DecodeInvoice(b)
		if err != nil {
			if _, known := calcKnownDifferences[name]; !known {
				t.Errorf("%s: its canonical JSON does not decode: %v", name, ps)
			}
			continue
		}
		c.Totals = &model.Totals{PaidAmount: c.Totals.PaidAmount, RoundingAmount: c.Totals.RoundingAmount,
			TaxAmountInTaxCurrency: c.Totals.TaxAmountInTaxCurrency}
		// BT-107/BT-108 given as 0 without allowances/charges stay as given.
		if len(c.Allowances) == 0 {
			c.Totals.AllowanceTotal = orig.Totals.AllowanceTotal
		}
		if len(c.Charges) == 0 {
			c.Totals.ChargeTotal = orig.Totals.ChargeTotal
		}
		for i := range c.VATBreakdown {
			c.VATBreakdown[i].TaxableAmount, c.VATBreakdown[i].TaxAmount = nil, nil
		}
		checked++
		_, err = c.Complete()
		if err == nil && orig.Totals.TaxAmount == nil && c.Totals.TaxAmount.IsZero() {
			c.Totals.TaxAmount = nil // BT-110 is 0..1: a source may omit a zero VAT total
		}
		diff := model.Diff(orig, c)
		reason, known := calcKnownDifferences[name]
		switch {
		case known && err == nil && len(diff) == 0:
			t.Errorf("%s now matches; remove it from calcKnownDifferences (%s)", name, reason)
		case known:
		case err != nil:
			t.Errorf("%s: %v", name, err)
		case len(diff) > 0:
			t.Errorf("%s: recomputed values differ at %v", name, diff)
		}
	}
	if checked < 30 {
		t.Errorf("only %d examples checked", checked)
	}
	t.Logf("%d official examples recomputed", checked)
}
