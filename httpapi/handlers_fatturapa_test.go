package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
)

// lazyEngine compiles only the FatturaPA XSD these tests use.
var lazyEngine = sync.OnceValues(func() (*engineval.Validator, error) { return engineval.New(modelSharedDir(), engineval.Lazy()) })

// engineServer is a test server whose operations validate with the real
// rule sets (lazyEngine).
func engineServer(t *testing.T) *Server {
	t.Helper()
	v, err := lazyEngine()
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	s, _ := newTestServer(t, func(c *Config) { c.Ops = &ops.Service{Validator: v} })
	return s
}

// keyedOK posts the JSON body to target: without an API key the answer
// must be a 401, with one a 200, which is returned.
func keyedOK(t *testing.T, s *Server, target string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	jsonCT := withHeader("Content-Type", "application/json")
	if w := do(t, s, "POST", target, body, jsonCT); w.Code != 401 {
		t.Fatalf("without a key: %d %s", w.Code, w.Body)
	}
	w := do(t, s, "POST", target, body, jsonCT, withHeader("x-api-key", goodKey))
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	return w
}

const fpaBody = `{"invoice": {"id": "FT-9", "issue_date": "2024-05-02", "type_code": 381, "currency_code": "EUR",
  "seller": {"name": "Alpha SRL", "vat_id": "IT01234567890", "address": {"line1": "Viale Roma 543", "city": "Sassari", "post_code": "07100", "country_code": "IT"}},
  "buyer": {"name": "Beta SPA", "vat_id": "IT09876543210", "address": {"line1": "Via Torino 38", "city": "Roma", "post_code": "00145", "country_code": "IT"}},
  "lines": [{"id": "1", "quantity": "3", "unit_code": "C62", "net_price": "10", "category": "STANDARD", "vat_rate": "22", "item": {"name": "Reso"}}]},
 "extras": {"trasmittente_id_codice": "01234567890", "progressivo_invio": "9", "codice_destinatario": "ABC1234"}}`

func TestGenerateFatturaPARoute(t *testing.T) {
	s := engineServer(t)
	jsonCT := withHeader("Content-Type", "application/json")
	key := withHeader("x-api-key", goodKey)

	w := keyedOK(t, s, "/v1/generate/facturapa", []byte(fpaBody))
	if !bytes.Contains(w.Body.Bytes(), []byte("<TipoDocumento>TD04</TipoDocumento>")) || w.Header().Get(HeaderTipoDocumento) != "TD04" ||
		w.Header().Get(HeaderImportoTotale) != "36.60" || w.Header().Get(HeaderValidationFindings) != "0" {
		t.Fatalf("headers %v body %s", w.Header(), w.Body)
	}

	// A problem inside the extras is a 422 located there.
	bad := bytes.Replace([]byte(fpaBody), []byte(`"codice_destinatario": "ABC1234"`), []byte(`"codice_destinatario": "ABC1234", "ritenuta": {"tipo": "RT01", "aliquota": "x", "causale": "A"}`), 1)
	w = do(t, s, "POST", "/v1/generate/facturapa", bad, jsonCT, key)
	if w.Code != 422 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var body struct {
		Detail []map[string]any `json:"detail"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Detail) == 0 || !reflect.DeepEqual(body.Detail[0]["loc"], []any{"body", "extras", "ritenuta", "aliquota"}) {
		t.Fatalf("detail %v", body.Detail)
	}
}
