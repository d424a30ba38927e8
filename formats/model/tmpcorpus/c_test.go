package tmpcorpus

import (
	"os"
	"path/filepath"
	"testing"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/corpus/en16931/ubl/examples/*")
	more, _ := filepath.Glob("/work/shared/corpus/*/ubl/*.xml")
	files = append(files, more...)
	n, same := 0, 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		doc, err := xmltree.Parse(b, xmltree.Limits{})
		if err != nil {
			continue
		}
		res, err := ubl.Read(doc)
		if err != nil || res.Invoice.Totals == nil {
			continue
		}
		orig := res.Invoice
		enc, _ := model.EncodeInvoice(orig)
		c, _, _, err := model.DecodeInvoice(enc)
		if err != nil {
			t.Logf("%s: decode of canonical form: %v", filepath.Base(f), err)
			continue
		}
		for i := range c.Lines {
			c.Lines[i].NetAmount = nil
		}
		paid, rnd := c.Totals.PaidAmount, c.Totals.RoundingAmount
		c.Totals = &model.Totals{PaidAmount: paid, RoundingAmount: rnd}
		for i := range c.VATBreakdown {
			c.VATBreakdown[i].TaxableAmount, c.VATBreakdown[i].TaxAmount = nil, nil
		}
		n++
		if _, err := c.Complete(); err != nil {
			t.Logf("%s: %v", filepath.Base(f), err)
			continue
		}
		d := model.Diff(orig, c)
		if len(d) == 0 {
			same++
		} else {
			var vals []string
			for _, p := range d {
				vals = append(vals, p)
			}
			t.Logf("%s: differs at %s", filepath.Base(f), strings.Join(vals, " "))
			for i := range orig.Lines {
				if !orig.Lines[i].NetAmount.Equal(*c.Lines[i].NetAmount) {
					l := orig.Lines[i]
					t.Logf("   line %d: orig %s computed %s qty %s price %v base %v allow %d charge %d", i, l.NetAmount, c.Lines[i].NetAmount, l.Quantity, l.NetPrice, l.BaseQuantity, len(l.Allowances), len(l.Charges))
				}
			}
		}
	}
	t.Logf("%d read, %d recomputed identically", n, same)
}
