package httpapi

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/facturx"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
)

const fxBody = `{"invoice": {"id": "FX-2026-001", "issue_date": "2026-03-15", "type_code": 380, "currency_code": "EUR",
  "seller": {"name": "Ελληνική Λογισμική Α.Ε.", "vat_id": "DE123456789", "address": {"line1": "Hauptstraße 1", "city": "Berlin", "post_code": "10115", "country_code": "DE"}},
  "buyer": {"name": "ООО Покупатель", "address": {"line1": "Rue de la Paix 2", "city": "Paris", "post_code": "75002", "country_code": "FR"}},
  "payment_instructions": {"means_code": "58", "credit_transfers": [{"account_id": "DE02120300000000202051"}]},
  "lines": [{"id": "1", "quantity": "3", "unit_code": "C62", "net_price": "1234.5", "category": "STANDARD", "vat_rate": "19", "item": {"name": "Beratung 日本"}}]}}`

// TestGenerateFacturXRoute: through the real routes, generate/facturx
// answers a PDF/A-3b whose factur-x.xml is byte-identical to what
// generate/cii writes for profile facturx_en16931 and whose text shows the
// invoice; a refused body is the same 422 as generate/cii's.
func TestGenerateFacturXRoute(t *testing.T) {
	s := engineServer(t)
	jsonCT := withHeader("Content-Type", "application/json")
	key := withHeader("x-api-key", goodKey)

	w := keyedOK(t, s, "/v1/generate/facturx", []byte(fxBody))
	h := w.Header()
	if h.Get("Content-Type") != mediaPDF || h.Get(HeaderFacturXLevel) != "EN 16931" || h.Get(HeaderProfile) != ops.FacturXProfile || h.Get(HeaderValidationFindings) == "" {
		t.Errorf("headers %v", h)
	}
	pdf := w.Body.Bytes()
	c := do(t, s, "POST", "/v1/generate/cii?profile=facturx_en16931", []byte(fxBody), jsonCT, key)
	if c.Code != 200 {
		t.Fatalf("generate/cii: %d %s", c.Code, c.Body)
	}
	if got := pdfatest.Detach(t, pdf)[facturx.FileName]; !bytes.Equal(got, c.Body.Bytes()) {
		t.Errorf("factur-x.xml differs from generate/cii's document:\n%s\n%s", got, c.Body)
	}
	text := pdfatest.Text(t, pdf)
	for _, want := range []string{"FX-2026-001", "2026-03-15", "EUR", "4,407.17", "Ελληνική Λογισμική Α.Ε.", "ООО Покупатель", "DE02120300000000202051"} {
		if !bytes.Contains([]byte(text), []byte(want)) {
			t.Errorf("pdftotext does not find %q in:\n%s", want, text)
		}
	}
	verapdftest.AssertPDFA3B(t, pdf)

	bad := bytes.Replace([]byte(fxBody), []byte(`"currency_code": "EUR"`), []byte(`"currency_code": "EURO"`), 1)
	w = do(t, s, "POST", "/v1/generate/facturx", bad, jsonCT, key)
	c = do(t, s, "POST", "/v1/generate/cii?profile=facturx_en16931", bad, jsonCT, key)
	if w.Code != 422 || c.Code != 422 || !reflect.DeepEqual(fieldErrors(t, w), fieldErrors(t, c)) {
		t.Errorf("refusal: facturx %d %s\ncii %d %s", w.Code, w.Body, c.Code, c.Body)
	}
	if w := do(t, s, "POST", "/v1/generate/facturx", []byte("{"), jsonCT, key); w.Code != 422 {
		t.Errorf("broken JSON: %d", w.Code)
	}
}

// TestConvertFacturXRoutes: ubl-to-facturx and cii-to-facturx through the
// real routes; a non-Factur-X profile is a 422.
func TestConvertFacturXRoutes(t *testing.T) {
	s := engineServer(t)
	xmlCT := withHeader("Content-Type", "application/xml")
	key := withHeader("x-api-key", goodKey)
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(modelSharedDir(), rel))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ubl := read("corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	cii := read("corpus/en16931/cii/examples/CII_business_example_01.xml")
	for _, c := range []struct {
		dir string
		src []byte
	}{{"ubl-to-facturx", ubl}, {"cii-to-facturx", cii}} {
		w := do(t, s, "POST", "/v1/convert/"+c.dir, c.src, xmlCT, key)
		if w.Code != 200 || w.Header().Get("Content-Type") != mediaPDF || w.Header().Get(HeaderConversionChanges) == "" {
			t.Fatalf("%s: %d %v %s", c.dir, w.Code, w.Header(), w.Body)
		}
		files := pdfatest.Detach(t, w.Body.Bytes())
		if len(files[facturx.FileName]) == 0 {
			t.Errorf("%s: no factur-x.xml", c.dir)
		}
		if c.dir == "cii-to-facturx" && !bytes.Equal(files[facturx.FileName], cii) {
			t.Errorf("cii-to-facturx changed the CII")
		}
		verapdftest.AssertPDFA3B(t, w.Body.Bytes())
	}
	if w := do(t, s, "POST", "/v1/convert/ubl-to-facturx?profile=peppol", ubl, xmlCT, key); w.Code != 422 {
		t.Errorf("profile peppol: %d %s", w.Code, w.Body)
	}
	if w := do(t, s, "POST", "/v1/convert/cii-to-facturx", ubl, xmlCT, key); w.Code != 422 {
		t.Errorf("UBL to cii-to-facturx: %d %s", w.Code, w.Body)
	}
}
