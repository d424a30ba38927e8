package ksef

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

// testOpts fixes the generation time so documents are reproducible.
var testOpts = Options{Created: time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC)}

func xsdErrors(t testing.TB, doc []byte) []string { return nationaltest.Errors(t, "ksef_fa", doc) }

func xsdValid(t testing.TB, doc []byte) { nationaltest.Valid(t, "ksef_fa", doc) }

// request reads testdata/request.json's invoice, edited by edit.
func request(t testing.TB, edit func(inv map[string]any)) (*model.Invoice, model.Problems) {
	t.Helper()
	body := nationaltest.ReadJSON[map[string]map[string]any](t, "testdata/request.json")
	if edit != nil {
		edit(body["invoice"])
	}
	ib, _ := json.Marshal(body["invoice"])
	inv, _, ps, _ := model.DecodeInvoice(ib, "body", "invoice")
	return inv, ps
}

// generated writes testdata/request.json's invoice, edited by edit, and
// fails t unless it is accepted and XSD-valid.
func generated(t testing.TB, edit func(inv map[string]any)) *Result {
	t.Helper()
	inv, ps := request(t, edit)
	if ps != nil {
		t.Fatal(ps)
	}
	res, err := Generate(inv, testOpts, "body")
	if err != nil {
		t.Fatal(err)
	}
	xsdValid(t, res.XML)
	return res
}
