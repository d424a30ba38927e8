package cii

import (
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

const miniCII = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
 xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
 xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="x y">
 <rsm:ExchangedDocumentContext>
  <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
 </rsm:ExchangedDocumentContext>
 <rsm:ExchangedDocument>
  <ram:ID>A1</ram:ID><ram:TypeCode>381</ram:TypeCode>
  <ram:IssueDateTime><udt:DateTimeString format="102">20240229</udt:DateTimeString></ram:IssueDateTime>
  <ram:CopyIndicator><udt:Indicator>true</udt:Indicator></ram:CopyIndicator>
 </rsm:ExchangedDocument>
 <rsm:SupplyChainTradeTransaction>
  <ram:IncludedSupplyChainTradeLineItem>
   <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
   <ram:SpecifiedTradeProduct><ram:Name>Thing</ram:Name><ram:TradeName>Extra</ram:TradeName></ram:SpecifiedTradeProduct>
   <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>1,5</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
   <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
   <ram:SpecifiedLineTradeSettlement>
    <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
    <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount currencyID="USD">3.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
   </ram:SpecifiedLineTradeSettlement>
  </ram:IncludedSupplyChainTradeLineItem>
  <ram:ApplicableHeaderTradeAgreement>
   <ram:SellerTradeParty><ram:Name>S</ram:Name><ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:SellerTradeParty>
   <ram:BuyerTradeParty><ram:Name>B</ram:Name><ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress></ram:BuyerTradeParty>
  </ram:ApplicableHeaderTradeAgreement>
  <ram:ApplicableHeaderTradeDelivery/>
  <ram:ApplicableHeaderTradeSettlement>
   <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
   <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="610">202403</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
  </ram:ApplicableHeaderTradeSettlement>
 </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`

func parse(t *testing.T, s string) *xmltree.Document {
	t.Helper()
	doc, err := xmltree.Parse([]byte(s), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestReadReportsWhatItDoesNotCarry: unknown elements, malformed values,
// foreign currencies and other date formats are listed with their path and
// business term; what is carried is read.
func TestReadReportsWhatItDoesNotCarry(t *testing.T) {
	res, err := Read(parse(t, miniCII))
	if err != nil {
		t.Fatal(err)
	}
	inv := res.Invoice
	if inv.ID != "A1" || inv.TypeCode != "381" || inv.IssueDate.String() != "2024-02-29" || inv.CurrencyCode != "EUR" {
		t.Errorf("header: %q %q %s %q", inv.ID, inv.TypeCode, inv.IssueDate, inv.CurrencyCode)
	}
	if len(inv.Lines) != 1 || inv.Lines[0].Quantity.String() != "2" || inv.Lines[0].UnitCode != "C62" || inv.Lines[0].NetAmount.String() != "3.00" {
		t.Fatalf("line: %+v", inv.Lines)
	}
	if inv.Lines[0].NetPrice != nil {
		t.Errorf("malformed price was read: %v", inv.Lines[0].NetPrice)
	}
	if inv.DueDate != nil {
		t.Errorf("date in format 610 was read as %v", inv.DueDate)
	}
	want := map[string]string{
		"/CrossIndustryInvoice[1]/ExchangedDocument[1]/CopyIndicator[1]":                                                                                                                                              "",
		"/CrossIndustryInvoice[1]/SupplyChainTradeTransaction[1]/IncludedSupplyChainTradeLineItem[1]/SpecifiedTradeProduct[1]/TradeName[1]":                                                                           "BG-31",
		"/CrossIndustryInvoice[1]/SupplyChainTradeTransaction[1]/IncludedSupplyChainTradeLineItem[1]/SpecifiedLineTradeAgreement[1]/NetPriceProductTradePrice[1]/ChargeAmount[1]":                                     "BT-146",
		"/CrossIndustryInvoice[1]/SupplyChainTradeTransaction[1]/IncludedSupplyChainTradeLineItem[1]/SpecifiedLineTradeSettlement[1]/SpecifiedTradeSettlementLineMonetarySummation[1]/LineTotalAmount[1]/@currencyID": "BT-131",
		"/CrossIndustryInvoice[1]/SupplyChainTradeTransaction[1]/ApplicableHeaderTradeSettlement[1]/SpecifiedTradePaymentTerms[1]/DueDateDateTime[1]":                                                                 "BT-9",
	}
	got := map[string]string{}
	for _, u := range res.Unconsumed {
		got[u.Path] = u.BT
		if u.Line <= 0 {
			t.Errorf("%s: no line", u.Path)
		}
	}
	for p, bt := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("not reported as unconsumed: %s", p)
		} else if g != bt {
			t.Errorf("%s: BT %q, want %q", p, g, bt)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("unexpectedly unconsumed: %s", p)
		}
	}
	if len(res.Warnings) != 2 || !strings.Contains(strings.Join(res.Warnings, "\n"), "1,5") {
		t.Errorf("warnings: %q", res.Warnings)
	}
}

func TestReadRejectsOtherSyntaxes(t *testing.T) {
	doc := parse(t, `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`)
	if Detect(doc) {
		t.Error("Detect accepted a UBL invoice")
	}
	if _, err := Read(doc); !errors.Is(err, ErrNotCII) {
		t.Errorf("Read(UBL) error = %v, want ErrNotCII", err)
	}
	if !Detect(parse(t, miniCII)) {
		t.Error("Detect refused a CII invoice")
	}
	if Detect(nil) {
		t.Error("Detect(nil)")
	}
}

// TestReadEmptyElementsAreAbsent: empty elements are consumed as absent
// values (as formats/ubl does), so both readers give the same model.
func TestReadEmptyElementsAreAbsent(t *testing.T) {
	src := strings.Replace(miniCII, `<ram:ApplicableHeaderTradeDelivery/>`,
		`<ram:ApplicableHeaderTradeDelivery><ram:ShipToTradeParty><ram:ID/><ram:Name/></ram:ShipToTradeParty></ram:ApplicableHeaderTradeDelivery>`, 1)
	src = strings.Replace(src, `<ram:SellerTradeParty><ram:Name>S</ram:Name>`,
		`<ram:SellerTradeParty><ram:Name>S</ram:Name><ram:SpecifiedLegalOrganization><ram:ID/></ram:SpecifiedLegalOrganization><ram:DefinedTradeContact><ram:PersonName/><ram:EmailURIUniversalCommunication><ram:URIID/></ram:EmailURIUniversalCommunication></ram:DefinedTradeContact>`, 1)
	src = strings.Replace(src, `<ram:LineTotalAmount currencyID="USD">3.00</ram:LineTotalAmount>`, `<ram:LineTotalAmount/>`, 1)
	res, err := Read(parse(t, src))
	if err != nil {
		t.Fatal(err)
	}
	inv := res.Invoice
	if inv.Delivery != nil || inv.Seller.LegalRegistrationID != nil || inv.Seller.Contact != nil || inv.Lines[0].NetAmount != nil {
		t.Errorf("empty elements read as values: delivery %+v legal %+v contact %+v net %v",
			inv.Delivery, inv.Seller.LegalRegistrationID, inv.Seller.Contact, inv.Lines[0].NetAmount)
	}
	for _, u := range res.Unconsumed {
		if strings.Contains(u.Path, "ShipTo") || strings.Contains(u.Path, "SellerTradeParty") || strings.Contains(u.Path, "LineTotalAmount") {
			t.Errorf("empty element left unconsumed: %s", u.Path)
		}
	}
}
