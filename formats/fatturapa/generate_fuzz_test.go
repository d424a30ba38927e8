package fatturapa

import (
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

// FuzzGenerate drives decode + Generate with arbitrary invoice and extras
// JSON: it never panics, the only error type is model.Problems (located
// under body.invoice or body.extras), and every document it returns is
// XSD-valid.
func FuzzGenerate(f *testing.F) {
	f.Add([]byte(baseInvoice), []byte(baseExtras))
	f.Add([]byte(patch(f, baseInvoice, map[string]any{"lines": []any{zeroLine("1", "EXEMPT"), zeroLine("x", "REVERSE_CHARGE")}})),
		[]byte(`{"trasmittente_id_codice": "X", "progressivo_invio": "1", "pec": "a@b.it", "natura": {"x": "N6.1"}, "cassa": {"tipo": "TC01", "aliquota": 4, "aliquota_iva": 22, "ritenuta": true}, "ritenuta": {"tipo": "RT01", "aliquota": 20, "causale": "A"}}`))
	f.Fuzz(func(t *testing.T, invJSON, exJSON []byte) {
		inv, ex, ok := nationaltest.DecodeRequest(invJSON, exJSON, DecodeExtras)
		if !ok {
			return
		}
		res, err := Generate(inv, ex, "body")
		if err != nil {
			nationaltest.GenerateRefusal(t, err, "invoice", "extras")
			return
		}
		s, err := schemaOnce()
		if err != nil {
			t.Fatal(err)
		}
		if errs, err := s.Validate(t.Context(), res.XML); err != nil || len(errs) > 0 {
			// Only free text the XSD restricts (Latin-1 strings, Provincia,
			// CodiceFiscale, IBAN patterns) may fail; the API's gate turns
			// that into a 422. Anything else is a generator bug.
			for _, e := range errs {
				if !xsdTextError(e.Message) {
					t.Fatalf("XSD error %v\n%s", e, res.XML)
				}
			}
		}
	})
}

// freeTextElements hold caller text that only the XSD restricts.
var freeTextElements = []string{"Denominazione", "Indirizzo", "Comune", "Provincia", "Nazione", "CAP", "CodiceFiscale",
	"IdCodice", "IdPaese", "Descrizione", "Causale", "Numero", "IdDocumento", "Telefono", "Email", "IBAN", "BIC",
	"Beneficiario", "UnitaMisura", "Divisa", "RiferimentoTesto", "RiferimentoNormativo", "PECDestinatario", "Data"}

func xsdTextError(msg string) bool {
	for _, e := range freeTextElements {
		if strings.HasPrefix(msg, "Element '"+e+"'") {
			return true
		}
	}
	return false
}
