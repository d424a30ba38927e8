package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/pdf/facturx"
)

var pdfCT = withHeader("Content-Type", "application/pdf")

// corpusPDFFiles lists every PDF in ../shared/corpus/pdf.
func corpusPDFFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	root := filepath.Join(testshared.Dir(t), "corpus", "pdf")
	_ = filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() && strings.HasSuffix(p, ".pdf") {
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatalf("no PDFs under %s", root)
	}
	return out
}

// pdfdetach runs poppler's pdfdetach: the listed names, and the saved
// bytes of each.
func pdfdetach(t *testing.T, file string) (names []string, data map[string][]byte) {
	t.Helper()
	out, err := exec.Command("pdfdetach", "-list", file).Output()
	if err != nil {
		t.Fatalf("pdfdetach -list %s: %v (poppler-utils: scripts/deps.sh)", file, err)
	}
	data = map[string][]byte{}
	for _, l := range strings.Split(string(out), "\n") {
		i := strings.Index(l, ": ")
		if i <= 0 || strings.Contains(l, "embedded files") {
			continue
		}
		names = append(names, l[i+2:])
		dst := filepath.Join(t.TempDir(), "f")
		if err := exec.Command("pdfdetach", "-save", l[:i], "-o", dst, file).Run(); err != nil {
			t.Fatalf("pdfdetach -save %s %s: %v", l[:i], file, err)
		}
		b, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		data[l[i+2:]] = b
	}
	return names, data
}

func isInvoiceName(n string) bool {
	switch strings.ToLower(n) {
	case "factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml":
		return true
	}
	return false
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestExtractXMLCorpus: extract/xml returns the embedded XML byte for byte
// (sha256 equal to pdfdetach -save) for every corpus PDF with one, and a
// 422 for the others.
func TestExtractXMLCorpus(t *testing.T) {
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	n := 0
	for _, f := range corpusPDFFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		names, data := pdfdetach(t, f)
		w := do(t, s, "POST", "/v1/extract/xml", body, key, pdfCT)
		var want string
		for _, nm := range names {
			if isInvoiceName(nm) && want == "" {
				want = nm
			}
		}
		if want == "" {
			if w.Code != http.StatusUnprocessableEntity && !strings.HasSuffix(f, "corruptedV2PDF.pdf") {
				t.Errorf("%s: no invoice XML per pdfdetach, got %d %s", filepath.Base(f), w.Code, w.Body.String())
			}
			continue
		}
		if w.Code != http.StatusOK {
			t.Errorf("%s: %d %s", filepath.Base(f), w.Code, w.Body.String())
			continue
		}
		got := w.Header().Get(HeaderEmbeddedFile)
		if sha(w.Body.Bytes()) != sha(data[got]) {
			t.Errorf("%s: %s sha256 %s, pdfdetach saves %s", filepath.Base(f), got, sha(w.Body.Bytes()), sha(data[got]))
		}
		if strings.HasSuffix(f, "corruptedV2PDF.pdf") != (w.Header().Get(HeaderReconstructed) == "true") {
			t.Errorf("%s: %s %q", filepath.Base(f), HeaderReconstructed, w.Header().Get(HeaderReconstructed))
		}
		if w.Header().Get(HeaderFlavour) == "" || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/xml") {
			t.Errorf("%s: headers %v", filepath.Base(f), w.Header())
		}
		n++
	}
	if n < 15 {
		t.Errorf("only %d corpus PDFs had an invoice XML", n)
	}
}

// TestExtractAttachmentsCorpus: every file pdfdetach lists is listed, with
// the same sha256, and include_content carries the bytes.
func TestExtractAttachmentsCorpus(t *testing.T) {
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	for _, f := range corpusPDFFiles(t) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		names, data := pdfdetach(t, f)
		w := do(t, s, "POST", "/v1/extract/attachments?include_content=true", body, key, pdfCT)
		if w.Code != http.StatusOK {
			t.Errorf("%s: %d %s", filepath.Base(f), w.Code, w.Body.String())
			continue
		}
		var res wire.Attachments
		mustJSON(t, w.Body.Bytes(), &res)
		got := map[string]wire.Attachment{}
		for _, a := range res.Attachments {
			if a.Origin == "pdf" {
				got[a.Name] = a
			}
			raw, err := base64.StdEncoding.DecodeString(a.ContentBase64)
			if err != nil || sha(raw) != a.SHA256 || len(raw) != a.Size {
				t.Errorf("%s: %s: content_base64 does not match sha256/size", filepath.Base(f), a.Name)
			}
		}
		for _, nm := range names {
			a, ok := got[nm]
			if !ok {
				t.Errorf("%s: pdfdetach lists %q, we do not", filepath.Base(f), nm)
				continue
			}
			if a.SHA256 != sha(data[nm]) {
				t.Errorf("%s: %s sha256 differs from pdfdetach's", filepath.Base(f), nm)
			}
		}
	}
}

// minimalPDF writes a one-page PDF (Helvetica, WinAnsi) showing lines and
// embedding files (name, relationship, data) in the name tree and /AF,
// plus optional file-attachment annotations.
func minimalPDF(lines []string, files [][3]string, annots [][2]string) []byte {
	var objs []string
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	add("") // 1 catalog
	add("") // 2 pages
	add("") // 3 page
	var content strings.Builder
	content.WriteString("BT /F1 11 Tf 14 TL 50 780 Td\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) Tj T*\n", strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(l))
	}
	content.WriteString("ET")
	c := add(fmt.Sprintf("<</Length %d>>\nstream\n%s\nendstream", content.Len(), content.String()))
	fnt := add("<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding>>")
	var names, af strings.Builder
	for _, f := range files {
		ef := add(fmt.Sprintf("<</Type /EmbeddedFile /Subtype /text#2Fxml /Length %d>>\nstream\n%s\nendstream", len(f[2]), f[2]))
		fs := add(fmt.Sprintf("<</Type /Filespec /F (%s) /UF (%s) /AFRelationship /%s /EF <</F %d 0 R /UF %d 0 R>>>>", f[0], f[0], f[1], ef, ef))
		fmt.Fprintf(&names, "(%s) %d 0 R ", f[0], fs)
		fmt.Fprintf(&af, "%d 0 R ", fs)
	}
	var annotRefs strings.Builder
	for _, a := range annots {
		ef := add(fmt.Sprintf("<</Type /EmbeddedFile /Length %d>>\nstream\n%s\nendstream", len(a[1]), a[1]))
		fs := add(fmt.Sprintf("<</Type /Filespec /F (%s) /EF <</F %d 0 R>>>>", a[0], ef))
		an := add(fmt.Sprintf("<</Type /Annot /Subtype /FileAttachment /Rect [10 10 30 30] /FS %d 0 R>>", fs))
		fmt.Fprintf(&annotRefs, "%d 0 R ", an)
	}
	objs[0] = fmt.Sprintf("<</Type /Catalog /Pages 2 0 R /Names <</EmbeddedFiles <</Names [%s]>>>> /AF [%s]>>", names.String(), af.String())
	objs[1] = "<</Type /Pages /Kids [3 0 R] /Count 1>>"
	objs[2] = fmt.Sprintf("<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R /Resources <</Font <</F1 %d 0 R>>>> /Annots [%s]>>", c, fnt, annotRefs.String())
	return pdftestgen.Classic(objs, "")
}

const bg24CII = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>INV-2026-0042</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20261231</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeAgreement>
<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>TS-1</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode><ram:Name>Timesheet</ram:Name><ram:AttachmentBinaryObject mimeCode="text/csv" filename="timesheet.csv">aCxtCjEsMgo=</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument>
<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>REF-2</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode></ram:AdditionalReferencedDocument>
</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:DuePayableAmount>1234.50</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`

// TestExtractAttachmentsAnnotationsAndBG24: name tree, annotation and the
// BG-24 document inside the CII are all listed.
func TestExtractAttachmentsAnnotationsAndBG24(t *testing.T) {
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	pdf := minimalPDF([]string{"Invoice INV-2026-0042"}, [][3]string{{"factur-x.xml", "Data", bg24CII}}, [][2]string{{"note.txt", "hello"}})
	w := do(t, s, "POST", "/v1/extract/attachments", pdf, key, pdfCT)
	if w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	var res wire.Attachments
	mustJSON(t, w.Body.Bytes(), &res)
	if len(res.Attachments) != 3 {
		t.Fatalf("want 3 attachments, got %+v", res.Attachments)
	}
	x, a, b := res.Attachments[0], res.Attachments[1], res.Attachments[2]
	if x.Name != "factur-x.xml" || x.Relationship != "Data" || x.MimeType != "text/xml" || x.Origin != "pdf" || x.SHA256 != sha([]byte(bg24CII)) || x.ContentBase64 != "" {
		t.Errorf("factur-x.xml: %+v", x)
	}
	if a.Name != "note.txt" || a.Origin != "pdf" || a.Location != "page 1 annotation" || a.Size != 5 {
		t.Errorf("annotation: %+v", a)
	}
	if b.Name != "timesheet.csv" || b.Origin != "invoice:BG-24" || b.MimeType != "text/csv" || b.Description != "Timesheet" || b.SHA256 != sha([]byte("h,m\n1,2\n")) {
		t.Errorf("BG-24: %+v", b)
	}
	// extract/xml on the same PDF.
	w = do(t, s, "POST", "/v1/extract/xml", pdf, key, pdfCT)
	if w.Code != http.StatusOK || w.Body.String() != bg24CII || w.Header().Get(HeaderFlavour) != "Factur-X" || w.Header().Get(HeaderFlavourProfile) != "EN 16931" || w.Header().Get(HeaderAFRelationship) != "Data" {
		t.Errorf("extract/xml: %d %v", w.Code, w.Header())
	}
}

// TestConsistencyMinimal: a PDF printing the XML's values in German
// formats is consistent; changing the printed amount names the item.
func TestConsistencyMinimal(t *testing.T) {
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	files := [][3]string{{"factur-x.xml", "Data", bg24CII}}
	check := func(lines []string, wantMissing ...string) {
		t.Helper()
		w := do(t, s, "POST", "/v1/pdfa/consistency", minimalPDF(lines, files, nil), key, pdfCT)
		if w.Code != http.StatusOK {
			t.Fatalf("%d %s", w.Code, w.Body.String())
		}
		var res wire.ConsistencyResult
		mustJSON(t, w.Body.Bytes(), &res)
		var missing []string
		for _, it := range res.Items {
			if !it.Found {
				missing = append(missing, it.Name)
			} else if it.Evidence == nil || it.Evidence.Page != 1 {
				t.Errorf("%s found without evidence: %+v", it.Name, it)
			}
		}
		if strings.Join(missing, ",") != strings.Join(wantMissing, ",") || res.Consistent != (len(wantMissing) == 0) {
			t.Errorf("lines %q: missing %v, want %v (%s)", lines, missing, wantMissing, w.Body.String())
		}
	}
	check([]string{"Rechnung Nr. INV-2026-0042", "Datum: 31. Dezember 2026", "Zahlbetrag: 1.234,50 EUR"})
	check([]string{"Invoice INV-2026-0042 of 12/31/2026", "Amount due 1,234.50 \x80"})
	check([]string{"Invoice INV-2026-0042 of 2026-12-31", "Total 1 234,5 EUR"})
	check([]string{"Invoice INV-2026-00421 of 31.12.2026", "Total 1.234,50 EUR"}, "invoice_id")
	check([]string{"Invoice INV-2026-0042 of 30.12.2026", "Total 1.243,50 EUR"}, "issue_date", "payable_amount")
	check([]string{"Invoice INV-2026-0042 of 31.12.2026", "Total 1.234,50"}, "currency")
	// No embedded XML: 422.
	w := do(t, s, "POST", "/v1/pdfa/consistency", minimalPDF([]string{"x"}, nil, nil), key, pdfCT)
	fieldErrors(t, w)
}

// generatedFacturX generates a Factur-X PDF for a random invoice through
// the real route and returns it with the invoice read back from its XML.
func generatedFacturX(t *testing.T, s *Server, seed uint64, opts model.RandomOptions) ([]byte, []byte, *model.Invoice) {
	t.Helper()
	inv := model.RandomInvoice(rand.New(rand.NewPCG(seed, 7)), opts)
	b, err := model.EncodeInvoice(inv)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]json.RawMessage{"invoice": b})
	w := do(t, s, "POST", "/v1/generate/facturx", body, withHeader("x-api-key", goodKey), jsonCT)
	if w.Code != http.StatusOK {
		t.Fatalf("generate/facturx seed %d: %d %s", seed, w.Code, w.Body.String())
	}
	pdf := w.Body.Bytes()
	w = do(t, s, "POST", "/v1/extract/xml", pdf, withHeader("x-api-key", goodKey), pdfCT)
	if w.Code != http.StatusOK {
		t.Fatalf("extract/xml of generated PDF: %d %s", w.Code, w.Body.String())
	}
	xml := w.Body.Bytes()
	doc, err := xmltree.Parse(xml, xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	rd, err := cii.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	return pdf, xml, rd.Invoice
}

func consistency(t *testing.T, s *Server, pdf []byte) wire.ConsistencyResult {
	t.Helper()
	w := do(t, s, "POST", "/v1/pdfa/consistency", pdf, withHeader("x-api-key", goodKey), pdfCT)
	if w.Code != http.StatusOK {
		t.Fatalf("consistency: %d %s", w.Code, w.Body.String())
	}
	var res wire.ConsistencyResult
	mustJSON(t, w.Body.Bytes(), &res)
	return res
}

func notFound(res wire.ConsistencyResult) []string {
	var out []string
	for _, it := range res.Items {
		if !it.Found {
			out = append(out, it.Name)
		}
	}
	return out
}

// TestConsistencyGeneratedFacturX: on PDFs generate/facturx produces (40 random invoices: every VAT category, credit notes) every
// item is found; re-laying out with a changed XML embedded, or with a
// changed page, names the drifting item.
func TestConsistencyGeneratedFacturX(t *testing.T) {
	s, _ := newModelServer(t)
	for seed := uint64(1); seed <= 40; seed++ {
		pdf, xml, inv := generatedFacturX(t, s, seed, model.RandomOptions{Lines: int(seed%5) + 1})
		res := consistency(t, s, pdf)
		if !res.Consistent || res.XMLFile != "factur-x.xml" {
			t.Errorf("seed %d: generated PDF not consistent: %+v", seed, res)
		}
		if seed > 3 {
			continue
		}
		ctx := context.Background()
		when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		// XML drift: the amount in the embedded XML changes, the page does not.
		payable := "<ram:DuePayableAmount>" + inv.Totals.PayableAmount.String() + "</ram:DuePayableAmount>"
		if !bytes.Contains(xml, []byte(payable)) {
			t.Fatalf("seed %d: %s not in the XML", seed, payable)
		}
		xml2 := bytes.Replace(xml, []byte(payable), []byte("<ram:DuePayableAmount>987654.32</ram:DuePayableAmount>"), 1)
		pdf2, err := ops.FacturXPDF(ctx, inv, xml2, facturx.EN16931, when)
		if err != nil {
			t.Fatal(err)
		}
		if got := notFound(consistency(t, s, pdf2)); strings.Join(got, ",") != "payable_amount" {
			t.Errorf("seed %d: XML amount drift: not found %v, want [payable_amount]", seed, got)
		}
		// Page drift: the printed invoice id changes, the XML does not.
		inv2 := *inv
		inv2.ID = inv.ID + "X9"
		if pi := inv.PaymentInstructions; pi != nil && pi.RemittanceInformation == inv.ID {
			// The random invoices quote the id as remittance information.
			pi2 := *pi
			pi2.RemittanceInformation = inv2.ID
			inv2.PaymentInstructions = &pi2
		}
		pdf3, err := ops.FacturXPDF(ctx, &inv2, xml, facturx.EN16931, when)
		if err != nil {
			t.Fatal(err)
		}
		if got := notFound(consistency(t, s, pdf3)); strings.Join(got, ",") != "invoice_id" {
			t.Errorf("seed %d: page id drift: not found %v, want [invoice_id]", seed, got)
		}
	}
}

// TestConvertFromFacturX: facturx-to-cii returns the embedded CII byte for
// byte when it passes the gate; facturx-to-ubl converts it; a PDF without
// XML is a 422.
func TestConvertFromFacturX(t *testing.T) {
	s, _ := newModelServer(t)
	key := withHeader("x-api-key", goodKey)
	pdf, xml, _ := generatedFacturX(t, s, 42, model.RandomOptions{Lines: 3})
	w := do(t, s, "POST", "/v1/convert/facturx-to-cii", pdf, key, pdfCT)
	if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), xml) || w.Header().Get(HeaderEmbeddedFile) != "factur-x.xml" {
		t.Fatalf("facturx-to-cii: %d %s", w.Code, w.Body.String())
	}
	w = do(t, s, "POST", "/v1/convert/facturx-to-ubl", pdf, key, pdfCT)
	if w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte("urn:oasis:names:specification:ubl:schema:xsd:")) {
		t.Fatalf("facturx-to-ubl: %d %s", w.Code, w.Body.String())
	}
	w = do(t, s, "POST", "/v1/convert/facturx-to-ubl", minimalPDF([]string{"x"}, nil, nil), key, pdfCT)
	fieldErrors(t, w)
}

// TestExtractHostile: malformed, encrypted and hostile PDFs are 4xx within
// a time bound through every extract route.
func TestExtractHostile(t *testing.T) {
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	good := minimalPDF([]string{"Invoice"}, [][3]string{{"factur-x.xml", "Data", bg24CII}}, nil)
	var kids strings.Builder
	for i := 0; i < 200_000; i++ {
		kids.WriteString("3 0 R ")
	}
	cases := map[string][]byte{
		"truncated":  good[:len(good)/3],
		"garbage":    []byte("%PDF-1.7\n\x00\xff garbage"),
		"not-pdf":    []byte("hello"),
		"encrypted":  bytes.Replace(good, []byte("/Root 1 0 R"), []byte("/Root 1 0 R /Encrypt <</Filter /Standard>>"), 1),
		"empty-xref": []byte("%PDF-1.4\nxref\n0 0\ntrailer <<>>\nstartxref\n9\n%%EOF"),
		"deep":       []byte("%PDF-1.4\n1 0 obj <</Type /Catalog /A " + strings.Repeat("[", 50000) + ">> endobj\ntrailer <</Root 1 0 R>>\n%%EOF"),
		"prev-loop":  []byte("%PDF-1.4\nxref\n0 1\n0000000000 65535 f \ntrailer <</Root 1 0 R /Prev 9>>\nstartxref\n9\n%%EOF"),
		"pages-kids": []byte("%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [" + kids.String() + "2 0 R]>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF"),
	}
	for name, body := range cases {
		for _, route := range []string{"/v1/extract/xml", "/v1/extract/attachments", "/v1/pdfa/consistency"} {
			start := time.Now()
			w := do(t, s, "POST", route, body, key, pdfCT)
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("%s %s: took %v", name, route, el)
			}
			if w.Code == http.StatusOK && route == "/v1/extract/attachments" && (name == "truncated" || name == "pages-kids") {
				continue // readable enough: an honest (empty) list
			}
			if w.Code < 400 || w.Code >= 500 {
				t.Errorf("%s %s: status %d %s", name, route, w.Code, w.Body.String())
				continue
			}
			if name == "encrypted" && !strings.Contains(w.Body.String(), "encrypted PDFs are not supported") {
				t.Errorf("encrypted %s: %s", route, w.Body.String())
			}
		}
	}
}

// TestExtractMemoryBound: a flate bomb (256 MiB of zeros in a 256 KB
// stream) as page content and as an embedded file stops at the reader's
// decoded-size limit: 422 limit_exceeded, peak heap bounded.
func TestExtractMemoryBound(t *testing.T) {
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	bomb := pdftestgen.DeflatedZeros(256)
	pdf := minimalPDF([]string{"Invoice"}, [][3]string{{"factur-x.xml", "Data", bg24CII}}, nil)
	// Replace the page content and the embedded file with the bomb.
	pdf = bytes.Replace(pdf, []byte("/Type /EmbeddedFile /Subtype /text#2Fxml"), []byte("/Type /EmbeddedFile /Filter /FlateDecode"), 1)
	i := bytes.Index(pdf, []byte("/Filter /FlateDecode /Length "))
	j := bytes.Index(pdf[i:], []byte("stream\n")) + i + len("stream\n")
	k := bytes.Index(pdf[j:], []byte("\nendstream")) + j
	pdf = append(append(append([]byte(nil), pdf[:i]...), fmt.Sprintf("/Filter /FlateDecode /Length %d>>\nstream\n", len(bomb))...), append(append([]byte(nil), bomb...), pdf[k:]...)...)
	for _, route := range []string{"/v1/extract/xml", "/v1/extract/attachments", "/v1/pdfa/consistency"} {
		sampler := startHostileHeapSampler()
		start := time.Now()
		w := do(t, s, "POST", route, pdf, key, pdfCT)
		peak := sampler.stop()
		t.Logf("%s: %d in %v, peak heap +%.1f MiB", route, w.Code, time.Since(start), float64(peak)/(1<<20))
		f := fieldErrors(t, w)
		if f[0]["type"] != wire.TypeLimitExceeded {
			t.Errorf("%s: %v", route, f)
		}
		if peak > 64<<20 {
			t.Errorf("%s: peak heap +%d MiB", route, peak>>20)
		}
	}
}

// TestExtractEncryptedByQpdf: PDFs encrypted by qpdf (RC4 40 and AES-256,
// with and without object streams) are refused with the documented 422.
func TestExtractEncryptedByQpdf(t *testing.T) {
	if _, err := exec.LookPath("qpdf"); err != nil {
		t.Fatalf("qpdf is required (scripts/deps.sh): %v", err)
	}
	s, _ := newTestServer(t, nil)
	key := withHeader("x-api-key", goodKey)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, minimalPDF([]string{"Invoice"}, [][3]string{{"factur-x.xml", "Data", bg24CII}}, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{
		{"--encrypt", "", "owner", "40", "--"},
		{"--encrypt", "user", "owner", "256", "--"},
		{"--object-streams=generate", "--encrypt", "", "owner", "256", "--"},
	} {
		out := filepath.Join(dir, fmt.Sprintf("enc%d.pdf", i))
		cmd := append(append([]string{"--allow-weak-crypto"}, args...), in, out)
		if b, err := exec.Command("qpdf", cmd...).CombinedOutput(); err != nil {
			t.Fatalf("qpdf %v: %v %s", cmd, err, b)
		}
		pdf, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, route := range []string{"/v1/extract/xml", "/v1/extract/attachments", "/v1/pdfa/consistency"} {
			w := do(t, s, "POST", route, pdf, key, pdfCT)
			f := fieldErrors(t, w)
			if f[0]["msg"] != "encrypted PDFs are not supported" {
				t.Errorf("qpdf %v %s: %v", args, route, f)
			}
		}
	}
}
