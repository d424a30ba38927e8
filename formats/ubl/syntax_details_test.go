package ubl

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// paymentMeansDoc is a minimal UBL invoice with the given cac:PaymentMeans.
func paymentMeansDoc(means ...string) string {
	return `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
 <cbc:ID>1</cbc:ID><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>` + strings.Join(means, "") + `</Invoice>`
}

func readString(t *testing.T, s string) *ReadResult {
	t.Helper()
	doc, err := xmltree.Parse([]byte(s), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestPaymentMeansOneGroup: BT-81..BT-83 spread over several
// cac:PaymentMeans (text and payment id on one only, as in
// ubl-tc434-example1) are one BG-16; a conflicting value is not carried.
func TestPaymentMeansOneGroup(t *testing.T) {
	first := `<cac:PaymentMeans><cbc:PaymentMeansCode name="Transfer">30</cbc:PaymentMeansCode><cbc:PaymentID>R1</cbc:PaymentID>
  <cac:PayeeFinancialAccount><cbc:ID>A1</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>`
	second := `<cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>
  <cac:PayeeFinancialAccount><cbc:ID>A2</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>`
	res := readString(t, paymentMeansDoc(first, second))
	pi := res.Invoice.PaymentInstructions
	if len(res.Unconsumed) != 0 || pi == nil || pi.MeansCode != "30" || pi.MeansText != "Transfer" || pi.RemittanceInformation != "R1" ||
		len(pi.CreditTransfers) != 2 || pi.CreditTransfers[1].AccountID != "A2" {
		t.Fatalf("unconsumed %v, BG-16 %+v", res.Unconsumed, pi)
	}
	// The same with the text and payment id on the second only.
	res = readString(t, paymentMeansDoc(strings.Replace(second, "A2", "A0", 1), first))
	if pi := res.Invoice.PaymentInstructions; len(res.Unconsumed) != 0 || pi.MeansText != "Transfer" || pi.RemittanceInformation != "R1" {
		t.Errorf("text on the second: unconsumed %v, BG-16 %+v", res.Unconsumed, pi)
	}
	for name, conflicting := range map[string]string{
		"code":       strings.Replace(second, ">30<", ">58<", 1),
		"text":       strings.Replace(second, "<cbc:PaymentMeansCode>", `<cbc:PaymentMeansCode name="Other">`, 1),
		"payment id": strings.Replace(second, "</cbc:PaymentMeansCode>", "</cbc:PaymentMeansCode><cbc:PaymentID>R2</cbc:PaymentID>", 1),
	} {
		res := readString(t, paymentMeansDoc(first, conflicting))
		if len(res.Unconsumed) != 1 || res.Unconsumed[0].Path != "/Invoice[1]/PaymentMeans[2]" || len(res.Warnings) != 1 {
			t.Errorf("conflicting %s: unconsumed %v warnings %v", name, res.Unconsumed, res.Warnings)
		}
		if n := len(res.Invoice.PaymentInstructions.CreditTransfers); n != 1 {
			t.Errorf("conflicting %s: %d credit transfers carried, want 1", name, n)
		}
	}
}

// TestPaymentMeansTextOnce: BT-82, BT-83 and a credit note's BT-9 are
// written on the first cac:PaymentMeans only (UBL-SR-44/45/46).
func TestPaymentMeansTextOnce(t *testing.T) {
	for _, code := range []model.DocumentTypeCode{"380", "381"} {
		inv := fullInvoice()
		inv.TypeCode = code
		var buf bytes.Buffer
		if err := Write(&buf, inv, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, el := range []string{`name="SEPA credit transfer"`, "<cbc:PaymentID>", "<cbc:PaymentDueDate>"} {
			want := 1
			if el == "<cbc:PaymentDueDate>" && code == "380" {
				want = 0
			}
			if n := strings.Count(out, el); n != want {
				t.Errorf("type %s: %s written %d times, want %d", code, el, n, want)
			}
		}
		if n := strings.Count(out, "<cac:PaymentMeans>"); n != 2 {
			t.Errorf("type %s: %d cac:PaymentMeans, want one per credit transfer (2)", code, n)
		}
	}
}

// TestWriteRefusesWhatUBLCannotHold: instead of XSD-invalid XML or a
// silently altered document, Write fails with ErrNotWritable naming the term.
func TestWriteRefusesWhatUBLCannotHold(t *testing.T) {
	for name, c := range map[string]struct {
		edit func(*model.Invoice)
		bt   string
	}{
		"gross price without discount": {func(inv *model.Invoice) { inv.Lines[0].PriceDiscount = nil }, "BT-148"},
		"VAT breakdown without BT-110": {func(inv *model.Invoice) { inv.Totals.TaxAmount = nil }, "BT-110"},
		"project name":                 {func(inv *model.Invoice) { inv.ProjectName = "Bridge" }, "BT-11"},
		"gross base quantity": {func(inv *model.Invoice) {
			inv.Lines[0].GrossBaseQuantity = model.Dec(model.MustParseDecimal("12"))
		}, "BT-148"},
		"department contact": {func(inv *model.Invoice) { inv.Buyer.Contact.NameIsDepartment = true }, "BT-56"},
		"proprietary account": {func(inv *model.Invoice) {
			inv.PaymentInstructions.CreditTransfers[1].ProprietaryAccountID = true
		}, "BT-84"},
	} {
		inv := fullInvoice()
		if inv.Lines[0].GrossPrice == nil {
			t.Fatal("fullInvoice has no gross price on line 1")
		}
		c.edit(inv)
		err := Write(&bytes.Buffer{}, inv, WriteOptions{})
		if !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), c.bt) {
			t.Errorf("%s: err = %v, want ErrNotWritable naming %s", name, err, c.bt)
		}
	}
}

// TestReadDerivesGrossPrice: a price discount without gross price (UBL
// allows cbc:BaseAmount to be absent) gets BT-148 = BT-146 + BT-147.
func TestReadDerivesGrossPrice(t *testing.T) {
	inv := fullInvoice()
	var buf bytes.Buffer
	if err := Write(&buf, inv, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	l := inv.Lines[0]
	base := `<cbc:BaseAmount currencyID="EUR">` + l.GrossPrice.String() + `</cbc:BaseAmount>`
	if !strings.Contains(buf.String(), base) {
		t.Fatalf("written line lacks %s", base)
	}
	res := readString(t, strings.Replace(buf.String(), base, "", 1))
	got := res.Invoice.Lines[0]
	if want := l.NetPrice.Add(*l.PriceDiscount); got.GrossPrice == nil || !got.GrossPrice.Equal(want) {
		t.Errorf("BT-148 = %v, want %s", got.GrossPrice, want)
	}
}

// TestUBLOnlyDetailsKept: BT-32 under a tax scheme other than FC and a card
// network id other than NA are carried (model fields without a BT) and
// written back unchanged, not rewritten as FC / NA.
func TestUBLOnlyDetailsKept(t *testing.T) {
	inv := fullInvoice()
	inv.Seller.TaxRegistrationScheme = "LOC"
	inv.PaymentInstructions.Card.NetworkID = "VISA"
	out := roundTrip(t, "UBL-only details", inv)
	for _, want := range []string{"<cbc:ID>LOC</cbc:ID>", "<cbc:NetworkID>VISA</cbc:NetworkID>"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
	// The defaults are written as FC / NA and read back as absent.
	inv = fullInvoice()
	out = roundTrip(t, "defaults", inv)
	for _, want := range []string{"<cbc:ID>" + taxRegScheme + "</cbc:ID>", "<cbc:NetworkID>" + cardNetworkNA + "</cbc:NetworkID>"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
	inv.Seller.TaxRegistrationID = ""
	inv.Seller.TaxRegistrationScheme = "LOC"
	if err := Write(&bytes.Buffer{}, inv, WriteOptions{}); !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), "BT-32") {
		t.Errorf("scheme without BT-32: err = %v", err)
	}
}
