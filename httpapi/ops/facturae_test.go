package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/facturae"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

// TestGenerateFacturaeProperty: 500 random invoices within Facturae's
// scope (facturae.RandomRequest, from model.RandomInvoice) pass
// GenerateFacturae's gate, the official Facturae 3.2.2 XSD.
func TestGenerateFacturaeProperty(t *testing.T) {
	svc := fpaService(t)
	for seed := range nationaltest.Seeds(500) {
		inv, ex, err := facturae.RandomRequest(rand.New(rand.NewPCG(seed, 0x5e)))
		if err != nil {
			t.Fatal(err)
		}
		ib, err := model.EncodeInvoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		xb, err := json.Marshal(ex)
		if err != nil {
			t.Fatal(err)
		}
		body := `{"invoice":` + string(ib) + `,"extras":` + string(xb) + `}`
		res, err := svc.GenerateFacturae(context.Background(), []byte(body))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, body)
		}
		if !res.Report.Valid || res.Report.Profile != "facturae" {
			t.Fatalf("seed %d: report %+v", seed, res.Report)
		}
	}
}

func TestGenerateFacturaeRefusals(t *testing.T) {
	svc := fpaService(t)
	ctx := context.Background()
	b, err := os.ReadFile("../../formats/facturae/testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.GenerateFacturae(ctx, b)
	if err != nil || res.InvoiceTotal != "4454.20" || len(res.Report.Findings) != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	// Without extras: no withholding.
	noEx := strings.Replace(string(b), `"extras": {"irpf_rate": "15"}`, `"zzz": 1`, 1)
	res, err = svc.GenerateFacturae(ctx, []byte(noEx))
	if err != nil || res.InvoiceTotal != "5084.20" || len(res.Ignored) != 1 || res.Ignored[0] != "/zzz" {
		t.Fatalf("no extras: %v %+v", err, res)
	}
	// Invoice and extras problems come together, located.
	bad := strings.Replace(strings.Replace(string(b), `"irpf_rate": "15"`, `"irpf_rate": "x"`, 1), `"quantity": "20"`, `"quantity": "y"`, 1)
	_, err = svc.GenerateFacturae(ctx, []byte(bad))
	var re *ops.RequestError
	if !errors.As(err, &re) || len(re.Fields) != 2 {
		t.Fatalf("want 2 located problems: %v", err)
	}
	_, err = (&ops.Service{}).GenerateFacturae(ctx, b)
	var ni *ops.NotImplementedError
	if !errors.As(err, &ni) {
		t.Fatalf("without a validator: %v", err)
	}
}
