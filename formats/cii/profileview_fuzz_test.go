package cii

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// FuzzProfileView decodes arbitrary JSON as an invoice (the generate
// request's invoice member), completes it and writes its MINIMUM and
// BASIC WL views. Decode and completion problems are expected; the view
// must not panic or modify the model, name every dropped value once with
// one term, and write (or refuse with ErrNotRepresentable or
// xmlio.ErrInvalidChar) without a line. Crashers are kept under
// testdata/fuzz/FuzzProfileView.
func FuzzProfileView(f *testing.F) {
	full, err := model.EncodeInvoice(fullInvoice())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add([]byte(`{"id":"1","issue_date":"2024-01-01","type_code":380,"currency_code":"EUR","seller":{"name":"S","address":{"country_code":"DE"}},"buyer":{"name":"B","address":{"country_code":"FR"}},"lines":[{"id":"1","quantity":"1","unit_code":"C62","net_price":"1","category":"STANDARD","vat_rate":"19","item":{"name":"x"}}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inv, _, _, err := model.DecodeInvoice(data, "body", "invoice")
		if err != nil {
			return
		}
		if _, err := inv.Complete("body", "invoice"); err != nil {
			return
		}
		before, err := model.EncodeInvoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []View{ViewBasicWL, ViewMinimum} {
			view, dropped := ProfileView(inv, v)
			seen := map[string]bool{}
			for _, d := range dropped {
				if seen[d.Pointer] || !strings.HasPrefix(d.Pointer, "/") || d.Term == "" || strings.Contains(d.Term, "|") {
					t.Fatalf("%v: bad dropped entry %v", v, d)
				}
				seen[d.Pointer] = true
			}
			var buf bytes.Buffer
			if err := Write(&buf, view, WriteOptions{}); err != nil {
				if !errors.Is(err, ErrNotRepresentable) && !errors.Is(err, xmlio.ErrInvalidChar) {
					t.Fatalf("%v: unexpected Write error: %v", v, err)
				}
				continue
			}
			if bytes.Contains(buf.Bytes(), []byte("IncludedSupplyChainTradeLineItem")) {
				t.Fatalf("%v: a line was written", v)
			}
		}
		after, err := model.EncodeInvoice(inv)
		if err != nil || !bytes.Equal(before, after) {
			t.Fatalf("ProfileView modified the model (%v)", err)
		}
	})
}
