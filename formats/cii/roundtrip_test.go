package cii

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// writeRead writes inv and reads the output back.
func writeRead(t *testing.T, inv *model.Invoice) (*ReadResult, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, inv, WriteOptions{}); err != nil {
		t.Fatalf("write: %v", err)
	}
	doc, err := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
	if err != nil {
		t.Fatalf("written document does not parse: %v\n%s", err, buf.Bytes())
	}
	res, err := Read(doc)
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	return res, buf.Bytes()
}

// TestWriteReadFullModel: every field of a fully populated model survives
// Write then Read, and our own output is consumed completely.
func TestWriteReadFullModel(t *testing.T) {
	inv := fullInvoice()
	res, _ := writeRead(t, inv)
	for _, u := range res.Unconsumed {
		t.Errorf("unconsumed in written document: %s (%s)", u.Path, u.BT)
	}
	for _, w := range res.Warnings {
		t.Errorf("warning: %s", w)
	}
	for _, d := range modelDiff(inv, res.Invoice) {
		t.Errorf("round trip: %s", d)
	}
}

// TestWriteReadRandom: 200 random models (every other one incomplete:
// no totals, VAT breakdown or computed amounts) survive Write then Read.
func TestWriteReadRandom(t *testing.T) {
	for i := range 200 {
		inv := model.RandomInvoice(rand.New(rand.NewPCG(uint64(i), 7)), model.RandomOptions{Incomplete: i%2 == 1})
		res, _ := writeRead(t, inv)
		if len(res.Unconsumed) > 0 || len(res.Warnings) > 0 {
			t.Errorf("random %d: unconsumed %v, warnings %v", i, res.Unconsumed, res.Warnings)
		}
		// The writer supplies BT-24 from its options when the model has none.
		want := *inv
		if want.ProcessControl == nil {
			want.ProcessControl = &model.ProcessControl{SpecificationID: DefaultSpecificationID}
		}
		for _, d := range modelDiff(&want, res.Invoice) {
			t.Errorf("random %d: %s", i, d)
		}
	}
}

// TestWriteRefusesWhatCIICannotCarry: models CII cannot hold make Write
// fail with ErrNotRepresentable naming the business term.
func TestWriteRefusesWhatCIICannotCarry(t *testing.T) {
	cases := map[string]func(*model.Invoice){
		"BG-3": func(inv *model.Invoice) {
			inv.PrecedingInvoices = append(inv.PrecedingInvoices, model.PrecedingInvoice{ID: "second"})
		},
		"BT-7":   func(inv *model.Invoice) { inv.VATBreakdown = nil },
		"BT-111": func(inv *model.Invoice) { inv.TaxCurrencyCode = "" },
		"BT-150": func(inv *model.Invoice) { inv.Lines[0].BaseQuantity = nil },
		"BT-147": func(inv *model.Invoice) { inv.Lines[0].GrossPrice = nil },
		"BG-DEX-01": func(inv *model.Invoice) {
			inv.Lines[0].SubLines = []model.Line{inv.Lines[0]}
		},
	}
	for bt, mutate := range cases {
		inv := fullInvoice()
		mutate(inv)
		var buf bytes.Buffer
		err := Write(&buf, inv, WriteOptions{})
		if !errors.Is(err, ErrNotRepresentable) {
			t.Errorf("%s: Write error = %v, want ErrNotRepresentable", bt, err)
			continue
		}
		if !strings.Contains(err.Error(), bt) {
			t.Errorf("error does not name %s: %v", bt, err)
		}
	}
	if err := Write(&bytes.Buffer{}, nil, WriteOptions{}); err == nil {
		t.Error("Write accepted a nil invoice")
	}
}
