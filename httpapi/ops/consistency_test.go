package ops

import (
	"math/big"
	"strings"
	"testing"
	"time"
)

func TestAmountMatcher(t *testing.T) {
	cases := []struct {
		amount string
		line   string
		want   string // "" = no match
	}{
		{"1234.56", "Total 1.234,56 EUR", "1.234,56"},
		{"1234.56", "Total 1,234.56", "1,234.56"},
		{"1234.56", "Total 1 234,56 €", "1 234,56"},
		{"1234.56", "Total 1\u202f234,56 €", "1\u202f234,56"},
		{"1234.56", "Total 1'234.56", "1'234.56"},
		{"1234.56", "Total 1234.56", "1234.56"},
		{"1234.50", "Total 1234,5", "1234,5"},
		{"-233.47", "Total TTC -233,47 €", "233,47"},
		{"1234.56", "Qty 2 1.234,56", "1.234,56"},
		{"1234.56", "Total 1.234,65", ""},
		{"1234.56", "Total 12.345,60", ""},
		{"100.00", "Seite 100 von 3", "100"},
		{"1005.55", "Rechnungssumme brutto 1.005,55", "1.005,55"},
		{"1000", "1.000", "1.000"},
		{"1", "1.001", ""},
	}
	for _, c := range cases {
		a, _ := new(big.Rat).SetString(c.amount)
		got, ok := amountMatcher(a)(c.line)
		if (c.want != "") != ok || got != c.want {
			t.Errorf("%s in %q: got %q %v, want %q", c.amount, c.line, got, ok, c.want)
		}
	}
}

func TestDateMatcher(t *testing.T) {
	d := time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)
	m := dateMatcher(d)
	for _, line := range []string{
		"Datum: 31.12.2026", "Date 2026-12-31", "31/12/2026", "12/31/2026", "31-12-2026", "31.12.26",
		"20261231", "31 December 2026", "December 31, 2026", "Dec 31st, 2026", "31. Dezember 2026",
		"31 décembre 2026", "le 31 dec. 2026",
	} {
		if _, ok := m(line); !ok {
			t.Errorf("%q not matched", line)
		}
	}
	for _, line := range []string{"30.12.2026", "2026-12-30", "31.11.2026", "12.31.2026", "31 November 2026", "131.12.2026x"} {
		if got, ok := m(line); ok {
			t.Errorf("%q matched as %q", line, got)
		}
	}
	// Day and month both <= 12: "/" is read both ways, "." only day first.
	m = dateMatcher(time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC))
	if _, ok := m("03/04/2026"); !ok {
		t.Error("US 03/04/2026 not matched")
	}
	if _, ok := m("03.04.2026"); ok {
		t.Error("03.04.2026 (3 April) matched 4 March")
	}
}

func TestIDAndCurrencyMatchers(t *testing.T) {
	id := idMatcher("RE-2017/505")
	if _, ok := id("Rechnung # RE-2017/505 von"); !ok {
		t.Error("id not found")
	}
	if _, ok := id("Rechnung RE-2017/5051"); ok {
		t.Error("id found inside a longer number")
	}
	num := idMatcher("471102")
	if _, ok := num("Nr. 1471102"); ok {
		t.Error("numeric id found inside a longer number")
	}
	cur := currencyMatcher("EUR")
	for _, l := range []string{"Betrag in EUR", "12,00 €"} {
		if _, ok := cur(l); !ok {
			t.Errorf("currency not found in %q", l)
		}
	}
	if _, ok := cur("EURO-PALETTE"); ok {
		t.Error("EUR found inside a word")
	}
}

func TestReadCIIHeaderAndBG24(t *testing.T) {
	const ubl = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
<cac:AdditionalDocumentReference><cbc:ID>D1</cbc:ID><cbc:DocumentDescription>Delivery note</cbc:DocumentDescription>
<cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf">JVBERi0=</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>
<cac:AdditionalDocumentReference><cbc:ID>D2</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>https://example.com</cbc:URI></cac:ExternalReference></cac:Attachment></cac:AdditionalDocumentReference>
<cac:AdditionalDocumentReference><cbc:ID>D3</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="text/csv" filename="a.csv">
YSxi
</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>
</Invoice>`
	docs := SupportingDocuments([]byte(ubl))
	if len(docs) != 2 || docs[0].Name != "D1" || docs[0].Description != "Delivery note" || string(docs[0].Data) != "%PDF-" ||
		docs[1].Name != "a.csv" || docs[1].MIME != "text/csv" || string(docs[1].Data) != "a,b" || !strings.Contains(docs[1].Path, "[3]") {
		t.Fatalf("UBL BG-24: %+v", docs)
	}
	if g := guidelineID([]byte(ubl)); g != "urn:cen.eu:en16931:2017" {
		t.Errorf("UBL guideline %q", g)
	}
}

// FuzzExtractParsers feeds untrusted XML and text to the readers of
// extract and consistency: they must not panic or hang.
func FuzzExtractParsers(f *testing.F) {
	f.Add([]byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><fx:DocumentFileName xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">factur-x.xml</fx:DocumentFileName></x:xmpmeta>`), "Total 1.234,56 EUR 31.12.2026")
	f.Add([]byte(`<r><AdditionalReferencedDocument><IssuerAssignedID>1</IssuerAssignedID><AttachmentBinaryObject mimeCode="a">QUJD</AttachmentBinaryObject></AdditionalReferencedDocument></r>`), "12/31/2026 1'234.56")
	f.Fuzz(func(t *testing.T, doc []byte, line string) {
		_ = readXMP(doc)
		_ = guidelineID(doc)
		_ = SupportingDocuments(doc)
		_ = readCIIHeader(doc)
		a, _ := new(big.Rat).SetString("1234.56")
		_, _ = amountMatcher(a)(line)
		_, _ = dateMatcher(time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC))(line)
		_, _ = idMatcher("INV-1")(line)
		_, _ = currencyMatcher("EUR")(line)
		for _, n := range numberRe.FindAllString(line, 8) {
			_ = readNumber(n)
		}
	})
}
