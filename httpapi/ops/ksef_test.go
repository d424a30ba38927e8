package ops_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/ksef"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

// TestGenerateKSeFProperty: 500 random invoices within FA(3)'s scope
// (ksef.RandomInvoice, from model.RandomInvoice) pass GenerateKSeF's gate,
// the official FA(3) XSD.
func TestGenerateKSeFProperty(t *testing.T) {
	svc := fpaService(t)
	for seed := range nationaltest.Seeds(500) {
		inv, err := ksef.RandomInvoice(rand.New(rand.NewPCG(seed, 0x4b)))
		if err != nil {
			t.Fatal(err)
		}
		ib, err := model.EncodeInvoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		res, err := svc.GenerateKSeF(context.Background(), []byte(`{"invoice":`+string(ib)+`}`))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, ib)
		}
		if !res.Report.Valid || res.Report.Profile != "ksef_fa" {
			t.Fatalf("seed %d: report %+v", seed, res.Report)
		}
	}
}

func TestGenerateKSeFRefusals(t *testing.T) {
	svc := fpaService(t)
	ctx := context.Background()
	b, err := os.ReadFile("../../formats/ksef/testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.GenerateKSeF(ctx, b)
	if err != nil || res.P15 != "3099.83" || len(res.Report.Findings) != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	_, err = svc.GenerateKSeF(ctx, []byte(strings.Replace(string(b), `"PL5260250274"`, `"PL0260250274"`, 1)))
	var re *ops.RequestError
	if !errors.As(err, &re) || re.Fields[0].Loc[2] != "seller" {
		t.Fatalf("bad NIP: %v", err)
	}
	_, err = (&ops.Service{}).GenerateKSeF(ctx, b)
	var ni *ops.NotImplementedError
	if !errors.As(err, &ni) {
		t.Fatalf("without a validator: %v", err)
	}
}
