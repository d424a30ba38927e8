package ubl

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// roundTrip writes inv, reads it back and fails on unconsumed nodes,
// warnings or model differences.
func roundTrip(t *testing.T, name string, inv *model.Invoice) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, inv, WriteOptions{}); err != nil {
		t.Fatalf("%s: write: %v", name, err)
	}
	doc, err := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
	if err != nil {
		t.Fatalf("%s: parse written: %v\n%s", name, err, buf.String())
	}
	res, err := Read(doc)
	if err != nil {
		t.Fatalf("%s: read: %v", name, err)
	}
	if len(res.Unconsumed) != 0 || len(res.Warnings) != 0 {
		t.Errorf("%s: unconsumed %v warnings %v", name, res.Unconsumed, res.Warnings)
	}
	if res.CreditNote != inv.TypeCode.IsCreditNote() {
		t.Errorf("%s: CreditNote = %v for type code %s", name, res.CreditNote, inv.TypeCode)
	}
	if d := Diff(inv, res.Invoice); len(d) != 0 {
		t.Errorf("%s: model changed:\n  %s", name, strings.Join(d, "\n  "))
	}
	return buf.Bytes()
}

// withDefaults sets what Write supplies for an absent BT-24.
func withDefaults(inv *model.Invoice) *model.Invoice {
	if inv.ProcessControl == nil {
		inv.ProcessControl = &model.ProcessControl{SpecificationID: DefaultSpecificationID}
	}
	return inv
}

func TestRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	credit := 0
	for i := range 300 {
		inv := withDefaults(model.RandomInvoice(r, model.RandomOptions{}))
		if inv.TypeCode.IsCreditNote() {
			credit++
		}
		roundTrip(t, inv.ID, inv)
		if t.Failed() {
			t.Fatalf("stopped at invoice %d", i)
		}
	}
	if credit == 0 {
		t.Error("no credit note among the random invoices")
	}
}

// TestFullModelRoundTrip sets every field of the model once.
func TestFullModelRoundTrip(t *testing.T) {
	for _, tc := range []model.DocumentTypeCode{"380", "381"} {
		inv := fullInvoice()
		inv.TypeCode = tc
		roundTrip(t, "full-"+string(tc), inv)
	}
}

func TestDetectAndNotUBL(t *testing.T) {
	for _, src := range []string{`<Invoice/>`, `<x:Invoice xmlns:x="urn:other"/>`, `<CrossIndustryInvoice xmlns="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>`} {
		doc, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if Detect(doc) {
			t.Errorf("%s detected as UBL", src)
		}
		if _, err := Read(doc); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
	doc, _ := xmltree.Parse([]byte(`<CreditNote xmlns="`+NSCreditNote+`"><Foo/></CreditNote>`), xmltree.DefaultLimits())
	res, err := Read(doc)
	if err != nil || !res.CreditNote || len(res.Unconsumed) != 1 || res.Unconsumed[0].Path != "/CreditNote[1]/Foo[1]" {
		t.Fatalf("minimal credit note: %+v %v", res, err)
	}
}

// TestReaderReportsWhatItCannotCarry checks the honesty rules: foreign
// currencies, unparseable values, unknown elements and attributes stay
// unconsumed, with the business term they belong to.
func TestReaderReportsWhatItCannotCarry(t *testing.T) {
	src := `<Invoice xmlns="` + NSInvoice + `" xmlns:cac="` + NSCAC + `" xmlns:cbc="` + NSCBC + `">
<cbc:ID>1</cbc:ID>
<cbc:IssueDate>2024-02-30</cbc:IssueDate>
<cbc:InvoiceTypeCode listID="UNCL1001">380</cbc:InvoiceTypeCode>
<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>S</cbc:RegistrationName></cac:PartyLegalEntity><cbc:WebsiteURI>x</cbc:WebsiteURI></cac:Party></cac:AccountingSupplierParty>
<cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="USD">1.00</cbc:PayableAmount><cbc:TaxExclusiveAmount currencyID="EUR">abc</cbc:TaxExclusiveAmount></cac:LegalMonetaryTotal>
<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity><cac:Item><cbc:Name>n</cbc:Name><cbc:Name>second</cbc:Name></cac:Item></cac:InvoiceLine>
</Invoice>`
	doc, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"/Invoice[1]/IssueDate[1]":                                       "BT-2",
		"/Invoice[1]/InvoiceTypeCode[1]/@listID":                         "BT-3",
		"/Invoice[1]/AccountingSupplierParty[1]/Party[1]/WebsiteURI[1]":  "BG-4",
		"/Invoice[1]/LegalMonetaryTotal[1]/PayableAmount[1]/@currencyID": "BT-115",
		"/Invoice[1]/LegalMonetaryTotal[1]/TaxExclusiveAmount[1]":        "BT-109",
		"/Invoice[1]/InvoiceLine[1]/Item[1]/Name[2]":                     "BT-153",
	}
	got := map[string]string{}
	for _, u := range res.Unconsumed {
		got[u.Path] = u.BT
	}
	if len(got) != len(want) {
		t.Errorf("unconsumed %v\nwant %v", got, want)
	}
	for p, bt := range want {
		if g, ok := got[p]; !ok || g != bt {
			t.Errorf("%s: got %q (present %v), want %q", p, g, ok, bt)
		}
	}
	if len(res.Warnings) < 4 {
		t.Errorf("warnings %v", res.Warnings)
	}
	inv := res.Invoice
	if inv.Totals.PayableAmount == nil || inv.Totals.PayableAmount.String() != "1.00" || inv.Totals.TaxExclusiveAmount != nil {
		t.Errorf("totals %+v", inv.Totals)
	}
	if inv.Lines[0].Item.Name != "n" || inv.Lines[0].Quantity.String() != "2" || inv.Lines[0].UnitCode != "C62" {
		t.Errorf("line %+v", inv.Lines[0])
	}
}

func TestWriteErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, nil, WriteOptions{}); err == nil {
		t.Error("nil invoice written")
	}
	inv := fullInvoice()
	inv.TypeCode = "381"
	inv.PaymentInstructions = nil
	if err := Write(&buf, inv, WriteOptions{}); err == nil {
		t.Error("credit note with due date and no payment means written")
	}
	inv.PaymentInstructions = &model.PaymentInstructions{DirectDebit: &model.DirectDebit{CreditorID: "DE98ZZZ09999999999"}}
	if err := Write(&buf, inv, WriteOptions{}); err == nil {
		t.Error("credit note with due date and only BT-90 written")
	}
	inv = fullInvoice()
	inv.Seller.Name = "bad\x00name"
	if err := Write(&buf, inv, WriteOptions{}); err == nil {
		t.Error("NUL written")
	}
}

// TestTaxTotalWithoutMonetaryTotal: BT-110 and BT-111 are carried even
// when cac:LegalMonetaryTotal is missing.
func TestTaxTotalWithoutMonetaryTotal(t *testing.T) {
	src := `<Invoice xmlns="` + NSInvoice + `" xmlns:cac="` + NSCAC + `" xmlns:cbc="` + NSCBC + `">
<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>SEK</cbc:TaxCurrencyCode>
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">1.50</cbc:TaxAmount></cac:TaxTotal>
<cac:TaxTotal><cbc:TaxAmount currencyID="SEK">16.00</cbc:TaxAmount></cac:TaxTotal>
<cac:TaxTotal><cbc:TaxAmount currencyID="USD">2.00</cbc:TaxAmount></cac:TaxTotal>
</Invoice>`
	doc, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	tot := res.Invoice.Totals
	if tot == nil || tot.TaxAmount == nil || tot.TaxAmount.String() != "1.50" || tot.TaxAmountInTaxCurrency == nil || tot.TaxAmountInTaxCurrency.String() != "16.00" {
		t.Fatalf("totals %+v", tot)
	}
	if len(res.Unconsumed) != 1 || res.Unconsumed[0].Path != "/Invoice[1]/TaxTotal[3]" || res.Unconsumed[0].BT != "BT-110" {
		t.Fatalf("unconsumed %+v", res.Unconsumed)
	}
}

// TestSecondDirectDebitNotCarried: a second, different BT-90 or mandate is
// left unconsumed instead of overwriting the first.
func TestSecondDirectDebitNotCarried(t *testing.T) {
	src := `<Invoice xmlns="` + NSInvoice + `" xmlns:cac="` + NSCAC + `" xmlns:cbc="` + NSCBC + `">
<cac:AccountingSupplierParty><cac:Party><cac:PartyIdentification><cbc:ID schemeID="SEPA">C1</cbc:ID></cac:PartyIdentification></cac:Party></cac:AccountingSupplierParty>
<cac:PayeeParty><cac:PartyIdentification><cbc:ID schemeID="SEPA">C2</cbc:ID></cac:PartyIdentification><cac:PartyName><cbc:Name>P</cbc:Name></cac:PartyName></cac:PayeeParty>
<cac:PaymentMeans><cbc:PaymentMeansCode>59</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M1</cbc:ID></cac:PaymentMandate></cac:PaymentMeans>
<cac:PaymentMeans><cbc:PaymentMeansCode>59</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M2</cbc:ID></cac:PaymentMandate></cac:PaymentMeans>
</Invoice>`
	doc, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	dd := res.Invoice.PaymentInstructions.DirectDebit
	if dd.CreditorID != "C1" || dd.MandateReference != "M1" {
		t.Errorf("direct debit %+v", dd)
	}
	var paths []string
	for _, u := range res.Unconsumed {
		paths = append(paths, u.Path+" "+u.BT)
	}
	want := []string{"/Invoice[1]/PayeeParty[1]/PartyIdentification[1] BT-60", "/Invoice[1]/PaymentMeans[2]/PaymentMandate[1] BG-19"}
	if strings.Join(paths, ",") != strings.Join(want, ",") {
		t.Errorf("unconsumed %v, want %v", paths, want)
	}
}
