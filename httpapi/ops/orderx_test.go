package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/orderx"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

// TestGenerateOrderXProperty: 500 random orders (orderx.RandomOrder, built
// from model.RandomInvoice) all pass the gate of GenerateOrderX - the
// Order-X BASIC XSD and Schematron of our validator; the reference
// oracle's verdict is conformance/orderx_property_test.go.
func TestGenerateOrderXProperty(t *testing.T) {
	svc := fpaService(t)
	for seed := range nationaltest.Seeds(500) {
		b, err := json.Marshal(orderx.RandomOrder(rand.New(rand.NewPCG(seed, 0x0da))))
		if err != nil {
			t.Fatal(err)
		}
		res, err := svc.GenerateOrderX(context.Background(), b)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, b)
		}
		if !res.Report.Valid || res.Report.Profile != "basic" {
			t.Fatalf("seed %d: report %+v", seed, res.Report)
		}
	}
}

func TestGenerateOrderXRefusals(t *testing.T) {
	svc := fpaService(t)
	ctx := context.Background()
	_, err := svc.GenerateOrderX(ctx, []byte(`{"id":"1","id":"2"}`))
	var re *ops.RequestError
	if !errors.As(err, &re) || re.Fields[0].Type != "duplicate_key" {
		t.Fatalf("duplicate member: %v", err)
	}
	_, err = svc.GenerateOrderX(ctx, []byte(`[1]`))
	if !errors.As(err, &re) || re.Fields[0].Type != "model_type" {
		t.Fatalf("not an object: %v", err)
	}
	// No validator: not implemented, never an ungated document.
	_, err = (&ops.Service{}).GenerateOrderX(ctx, mustOrderJSON(t))
	var ni *ops.NotImplementedError
	if !errors.As(err, &ni) {
		t.Fatalf("without a validator: %v", err)
	}
}

func mustOrderJSON(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(orderx.RandomOrder(rand.New(rand.NewPCG(1, 1))))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
