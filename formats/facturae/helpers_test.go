package facturae

import (
	"encoding/json"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

// xsdErrors returns the official Facturae 3.2.2 XSD's errors for doc.
func xsdErrors(t testing.TB, doc []byte) []string { return nationaltest.Errors(t, "facturae", doc) }

func xsdValid(t testing.TB, doc []byte) { nationaltest.Valid(t, "facturae", doc) }

// request reads testdata/request.json, applies edit to its decoded form and
// returns the invoice and extras.
func request(t testing.TB, edit func(inv, ex map[string]any)) (*model.Invoice, *Extras, model.Problems) {
	t.Helper()
	body := nationaltest.ReadJSON[map[string]map[string]any](t, "testdata/request.json")
	if edit != nil {
		edit(body["invoice"], body["extras"])
	}
	ib, _ := json.Marshal(body["invoice"])
	xb, _ := json.Marshal(body["extras"])
	inv, _, ps, _ := model.DecodeInvoice(ib, "body", "invoice")
	if len(ps) > 0 {
		return nil, nil, ps
	}
	ex, ps, _ := DecodeExtras(xb, "body", "extras")
	return inv, ex, ps
}

// generated writes testdata/request.json, edited by edit, and fails t
// unless it is accepted and XSD-valid.
func generated(t testing.TB, edit func(inv, ex map[string]any)) *Result {
	t.Helper()
	inv, ex, ps := request(t, edit)
	if ps != nil {
		t.Fatal(ps)
	}
	res, err := Generate(inv, ex, "body")
	if err != nil {
		t.Fatal(err)
	}
	xsdValid(t, res.XML)
	return res
}
