package fatturapa

import (
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

// schemaOnce is the official FatturaPA 1.2.2 XSD, loaded once.
func schemaOnce() (*xsd.Schema, error) { return nationaltest.Schema("fatturapa") }

// xsdValid fails t unless doc is valid against the official FatturaPA 1.2.2 XSD.
func xsdValid(t testing.TB, doc []byte) { nationaltest.Valid(t, "fatturapa", doc) }

// baseInvoice is a 2-line Italian invoice in the canonical JSON form.
const baseInvoice = `{
  "id": "FT-2024-001", "issue_date": "2024-03-15", "type_code": 380, "currency_code": "EUR",
  "notes": [{"text": "Fornitura di marzo"}],
  "purchase_order_reference": "ORD-77",
  "seller": {"name": "Alpha SRL", "vat_id": "IT01234567890",
    "address": {"line1": "Viale Roma 543", "city": "Sassari", "post_code": "07100", "subdivision": "SS", "country_code": "IT"},
    "contact": {"telephone": "079123456", "email": "info@alpha.it"}},
  "buyer": {"name": "Beta Gamma SPA", "vat_id": "IT09876543210",
    "address": {"line1": "Via Torino 38-B", "city": "Roma", "post_code": "00145", "subdivision": "RM", "country_code": "IT"}},
  "due_date": "2024-04-15",
  "payment_instructions": {"means_code": "58", "credit_transfers": [{"account_id": "IT60X0542811101000000123456", "account_name": "Alpha SRL"}]},
  "lines": [
    {"id": "1", "quantity": "5", "unit_code": "C62", "net_price": "1.00", "category": "STANDARD", "vat_rate": "22", "item": {"name": "Penne"}},
    {"id": "2", "quantity": "10", "unit_code": "C62", "net_price": "2.00", "category": "STANDARD", "vat_rate": "22", "item": {"name": "Carta"}}
  ]
}`

const baseExtras = `{"trasmittente_id_codice": "01234567890", "progressivo_invio": "00001", "codice_destinatario": "ABC1234"}`

func decodeInv(t testing.TB, js string) *model.Invoice {
	t.Helper()
	inv, _, _, err := model.DecodeInvoice([]byte(js), "invoice")
	if err != nil {
		t.Fatalf("decode invoice: %v", err)
	}
	return inv
}

func decodeEx(t testing.TB, js string) *Extras {
	t.Helper()
	ex, _, err := DecodeExtras([]byte(js), "extras")
	if err != nil {
		t.Fatalf("decode extras: %v", err)
	}
	return ex
}
