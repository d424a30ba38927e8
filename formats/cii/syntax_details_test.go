package cii

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// TestTaxPointDateCodeTranslated: the model's BT-8 (UNTDID 2005, UBL's
// list) is written as the UNTDID 2475 code CII uses and read back as the
// model's; a code outside the pairs is refused by Write.
func TestTaxPointDateCodeTranslated(t *testing.T) {
	for model2005, cii2475 := range map[string]string{"3": "5", "35": "29", "432": "72"} {
		inv := fullInvoice()
		inv.TaxPointDate, inv.TaxPointDateCode = nil, model2005
		res, out := writeRead(t, inv)
		if want := "<ram:DueDateTypeCode>" + cii2475 + "</ram:DueDateTypeCode>"; !bytes.Contains(out, []byte(want)) {
			t.Errorf("BT-8 %s: output lacks %s", model2005, want)
		}
		if got := res.Invoice.TaxPointDateCode; got != model2005 {
			t.Errorf("BT-8 %s read back as %q", model2005, got)
		}
	}
	inv := fullInvoice()
	inv.TaxPointDate, inv.TaxPointDateCode = nil, "5"
	if err := Write(&bytes.Buffer{}, inv, WriteOptions{}); !errors.Is(err, ErrNotRepresentable) || !strings.Contains(err.Error(), "BT-8") {
		t.Errorf("BT-8 5 (a CII code in the model): err = %v, want ErrNotRepresentable naming BT-8", err)
	}
}

// TestTaxPointDateCodeUnknownNotCarried: a ram:DueDateTypeCode outside 5,
// 29, 72 is left unconsumed with a warning instead of being copied.
func TestTaxPointDateCodeUnknownNotCarried(t *testing.T) {
	inv := fullInvoice()
	inv.TaxPointDate, inv.TaxPointDateCode = nil, "35"
	_, out := writeRead(t, inv)
	bad := bytes.Replace(out, []byte("<ram:DueDateTypeCode>29<"), []byte("<ram:DueDateTypeCode>99<"), 1)
	res, err := Read(parse(t, string(bad)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Invoice.TaxPointDateCode != "" {
		t.Errorf("unknown BT-8 code carried as %q", res.Invoice.TaxPointDateCode)
	}
	if len(res.Unconsumed) != 1 || !strings.HasSuffix(res.Unconsumed[0].Path, "/DueDateTypeCode[1]") || res.Unconsumed[0].BT != "BT-8" {
		t.Errorf("unconsumed = %v, want the DueDateTypeCode under BT-8", res.Unconsumed)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], `"99"`) {
		t.Errorf("warnings = %v, want one naming the code", res.Warnings)
	}
}

// TestCIIDistinctionsCarried: a department as contact point, a proprietary
// account identifier and a real project name are written and read back as
// such (not rewritten as ram:PersonName, ram:IBANID, "Project reference").
func TestCIIDistinctionsCarried(t *testing.T) {
	inv := fullInvoice()
	inv.Seller.Contact.NameIsDepartment = true
	inv.PaymentInstructions.CreditTransfers[0].ProprietaryAccountID = true
	inv.ProjectName = "Bridge works"
	res, out := writeRead(t, inv)
	for _, want := range []string{
		"<ram:DepartmentName>Jane Seller</ram:DepartmentName>",
		"<ram:PersonName>Bo Buyer</ram:PersonName>",
		"<ram:ProprietaryID>" + inv.PaymentInstructions.CreditTransfers[0].AccountID + "</ram:ProprietaryID>",
		"<ram:Name>Bridge works</ram:Name>",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
	if d := model.Diff(inv, res.Invoice); len(d) > 0 {
		t.Errorf("model differs after write/read at %v", d)
	}
	if len(res.Unconsumed) > 0 {
		t.Errorf("unconsumed: %v", res.Unconsumed)
	}
	// Without a project name the placeholder is written and read as absent.
	inv.ProjectName = ""
	res, out = writeRead(t, inv)
	if !bytes.Contains(out, []byte("<ram:Name>"+projectNamePlaceholder+"</ram:Name>")) || res.Invoice.ProjectName != "" {
		t.Errorf("placeholder project name: read back %q", res.Invoice.ProjectName)
	}
}

// TestReadCompletesPriceAndTotalVAT: a gross price without discount gets
// BT-147 = BT-148 − BT-146, and a document without BT-110 gets the sum of
// BT-117, so that UBL (which needs both) gives the same model.
func TestReadCompletesPriceAndTotalVAT(t *testing.T) {
	inv := fullInvoice()
	l := &inv.Lines[0]
	l.NetPrice, l.GrossPrice, l.PriceDiscount = model.Dec(model.MustParseDecimal("100.00")), model.Dec(model.MustParseDecimal("104.50")), nil
	inv.Totals.TaxAmount = nil
	res, _ := writeRead(t, inv)
	got := res.Invoice
	if p := got.Lines[0].PriceDiscount; p == nil || p.String() != "4.50" {
		t.Errorf("BT-147 = %v, want 4.50", p)
	}
	var sum model.Decimal
	for _, v := range got.VATBreakdown {
		sum = sum.Add(*v.TaxAmount)
	}
	if ta := got.Totals.TaxAmount; ta == nil || !ta.Equal(sum) {
		t.Errorf("BT-110 = %v, want the sum of BT-117 %s", ta, sum)
	}
}

// TestWriteRefusesUBLOnlyDetails: a BT-32 tax scheme other than FC and a
// card network id have no place in CII, and BT-6 equal to BT-5 breaks CII's
// BR-53; Write names them instead of dropping them or writing a
// non-conformant document.
func TestWriteRefusesUBLOnlyDetails(t *testing.T) {
	for bt, edit := range map[string]func(*model.Invoice){
		"BT-32": func(inv *model.Invoice) { inv.Seller.TaxRegistrationScheme = "LOC" },
		"BG-18": func(inv *model.Invoice) { inv.PaymentInstructions.Card.NetworkID = "VISA" },
		"BT-6":  func(inv *model.Invoice) { inv.TaxCurrencyCode = inv.CurrencyCode },
	} {
		inv := fullInvoice()
		if inv.PaymentInstructions.Card == nil {
			t.Fatal("fullInvoice has no card")
		}
		edit(inv)
		if err := Write(&bytes.Buffer{}, inv, WriteOptions{}); !errors.Is(err, ErrNotRepresentable) || !strings.Contains(err.Error(), bt) {
			t.Errorf("%s: err = %v, want ErrNotRepresentable naming it", bt, err)
		}
	}
}

// TestGrossBaseQuantityCarried: a gross price on its own base quantity is
// written and read back as such, and no discount is derived across the two
// base quantities.
func TestGrossBaseQuantityCarried(t *testing.T) {
	inv := fullInvoice()
	l := &inv.Lines[0]
	if l.BaseQuantity == nil || l.GrossPrice == nil {
		t.Fatal("fullInvoice line 1 lacks BT-149 or BT-148")
	}
	l.PriceDiscount = nil
	l.GrossBaseQuantity, l.GrossBaseQuantityUnitCode = model.Dec(model.MustParseDecimal("12")), "C62"
	res, out := writeRead(t, inv)
	if !bytes.Contains(out, []byte(`<ram:BasisQuantity unitCode="C62">12</ram:BasisQuantity>`)) {
		t.Error("gross base quantity not written")
	}
	if d := model.Diff(inv, res.Invoice); len(d) > 0 {
		t.Errorf("model differs after write/read at %v (a discount derived across base quantities?)", d)
	}
	l.GrossPrice = nil
	if err := Write(&bytes.Buffer{}, inv, WriteOptions{}); !errors.Is(err, ErrNotRepresentable) {
		t.Errorf("gross base quantity without BT-148: err = %v", err)
	}
}

// TestPaymentMeansSpread: BT-82 given on a later payment means only is
// carried; a later payment means with another BT-81 is left unconsumed.
func TestPaymentMeansSpread(t *testing.T) {
	inv := fullInvoice()
	if len(inv.PaymentInstructions.CreditTransfers) < 2 || inv.PaymentInstructions.MeansText == "" {
		t.Fatal("fullInvoice needs two credit transfers and BT-82")
	}
	_, out := writeRead(t, inv)
	info := "<ram:Information>" + inv.PaymentInstructions.MeansText + "</ram:Information>"
	if bytes.Count(out, []byte(info)) != 2 {
		t.Fatalf("expected BT-82 on both payment means:\n%s", out)
	}
	res, err := Read(parse(t, strings.Replace(string(out), info, "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Invoice.PaymentInstructions.MeansText != inv.PaymentInstructions.MeansText || len(res.Unconsumed) != 0 {
		t.Errorf("BT-82 on the second only: text %q, unconsumed %v", res.Invoice.PaymentInstructions.MeansText, res.Unconsumed)
	}
	code := "<ram:TypeCode>" + inv.PaymentInstructions.MeansCode + "</ram:TypeCode>"
	i := bytes.LastIndex(out, []byte(code))
	other := string(out[:i]) + "<ram:TypeCode>30</ram:TypeCode>" + string(out[i+len(code):])
	if res, err = Read(parse(t, other)); err != nil {
		t.Fatal(err)
	}
	if len(res.Unconsumed) != 1 || !strings.HasSuffix(res.Unconsumed[0].Path, "/TypeCode[1]") {
		t.Errorf("differing BT-81: unconsumed %v", res.Unconsumed)
	}
}
