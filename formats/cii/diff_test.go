package cii

import (
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// TestModelDiffDetects: the comparison the round-trip tests rely on sees
// changes in nested fields, decimals (value and written scale), slices,
// bytes and the effective VAT category, and ignores code/name spellings of
// the same category.
func TestModelDiffDetects(t *testing.T) {
	cases := map[string]func(*model.Invoice){
		"line category":   func(inv *model.Invoice) { inv.Lines[0].VATCategoryCode = "Z" },
		"decimal scale":   func(inv *model.Invoice) { inv.Lines[0].NetPrice = model.Dec(model.MustParseDecimal("100.0")) },
		"decimal value":   func(inv *model.Invoice) { inv.Totals.PayableAmount = model.Dec(model.MustParseDecimal("1")) },
		"nil pointer":     func(inv *model.Invoice) { inv.Delivery.Address = nil },
		"slice length":    func(inv *model.Invoice) { inv.Notes = inv.Notes[:1] },
		"attachment":      func(inv *model.Invoice) { inv.SupportingDocuments[0].Attachment.Content = []byte("x") },
		"nested string":   func(inv *model.Invoice) { inv.Seller.Address.Line3 = "other" },
		"identifier kind": func(inv *model.Invoice) { inv.Buyer.Identifier.SchemeID = "" },
	}
	for name, mutate := range cases {
		a, b := fullInvoice(), fullInvoice()
		mutate(b)
		if len(modelDiff(a, b)) == 0 {
			t.Errorf("%s: no difference reported", name)
		}
	}
	a, b := fullInvoice(), fullInvoice()
	b.Lines[0].Category = ""
	b.VATBreakdown[1].VATCategoryCode, b.VATBreakdown[1].Category = "", model.CategoryExempt
	if d := modelDiff(a, b); len(d) != 0 {
		t.Errorf("same categories spelled differently reported as %v", d)
	}
}
