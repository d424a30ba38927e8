package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateFormatCLI: einvoice generate --format orderx|fatturapa runs
// the operation behind the route (same gate, same refusals).
func TestGenerateFormatCLI(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	order, err := filepath.Abs("../../formats/orderx/testdata/order.json")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "order.xml")
	code, _, errs := cli(t, env, "generate", "--format", "orderx", order, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	x, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(x), "urn:order-x.eu:1p0:basic") || !strings.Contains(string(x), "<ram:LineTotalAmount>188.20</ram:LineTotalAmount>") {
		t.Fatalf("output %v %.300s", err, x)
	}
	// An order with an unknown member and a bad quantity: refused, every
	// problem on stderr with its path.
	raw, _ := os.ReadFile(order)
	bad := filepath.Join(dir, "bad.json")
	mustWrite(t, bad, []byte(strings.Replace(strings.Replace(string(raw), `"quantity": 3`, `"quantity": "x"`, 1), `"id": "PO-2024-0042"`, `"id": "PO-2024-0042", "vat": 1`, 1)))
	code, stdout, errs := cli(t, env, "generate", "--format", "orderx", bad)
	if code != 1 || stdout != "" || !strings.Contains(errs, "body.lines[1].quantity:") || !strings.Contains(errs, "body.vat: Extra inputs are not permitted") {
		t.Fatalf("refused: exit %d\n%s", code, errs)
	}
	// FatturaPA: the file is the request body {invoice, extras}.
	fpa := filepath.Join(dir, "fpa.json")
	mustWrite(t, fpa, []byte(`{"invoice": {"id": "FT-1", "issue_date": "2024-03-15", "type_code": 380, "currency_code": "EUR",
  "seller": {"name": "Alpha SRL", "vat_id": "IT01234567890", "address": {"line1": "Viale Roma 543", "city": "Sassari", "post_code": "07100", "country_code": "IT"}},
  "buyer": {"name": "Beta SPA", "vat_id": "IT09876543210", "address": {"line1": "Via Torino 38", "city": "Roma", "post_code": "00145", "country_code": "IT"}},
  "lines": [{"id": "1", "quantity": "2", "unit_code": "C62", "net_price": "50", "category": "STANDARD", "vat_rate": "22", "item": {"name": "Consulenza"}}]},
 "extras": {"trasmittente_id_codice": "01234567890", "progressivo_invio": "1", "codice_destinatario": "ABC1234"}}`))
	code, stdout, errs = cli(t, env, "generate", "--format", "fatturapa", fpa)
	if code != 0 || !strings.Contains(stdout, "<ImportoTotaleDocumento>122.00</ImportoTotaleDocumento>") {
		t.Fatalf("fatturapa: exit %d %s %.300s", code, errs, stdout)
	}
	// Usage errors: unknown format, ubl/cii flags with a national format.
	for _, args := range [][]string{{"--format", "pdf", fpa}, {"--format", "orderx", "--profile", "x", order}, {"--format", "cii", "--syntax", "ubl", order}} {
		if code, _, _ := cli(t, env, append([]string{"generate"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestGenerateFacturaeCLI(t *testing.T) {
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	req, err := filepath.Abs("../../formats/facturae/testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := cli(t, env, "generate", "--format", "facturae", req)
	if code != 0 || !strings.Contains(stdout, "<InvoiceTotal>4454.20</InvoiceTotal>") {
		t.Fatalf("exit %d %s %.300s", code, errs, stdout)
	}
	raw, _ := os.ReadFile(req)
	bad := filepath.Join(t.TempDir(), "bad.json")
	mustWrite(t, bad, []byte(strings.Replace(string(raw), `"currency_code": "EUR"`, `"currency_code": "USD"`, 1)))
	code, _, errs = cli(t, env, "generate", "--format", "facturae", bad)
	if code != 1 || !strings.Contains(errs, "body.invoice.currency_code:") {
		t.Fatalf("exit %d %s", code, errs)
	}
}

func TestGenerateKSeFCLI(t *testing.T) {
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	req, err := filepath.Abs("../../formats/ksef/testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := cli(t, env, "generate", "--format", "ksef", req)
	if code != 0 || !strings.Contains(stdout, "<P_15>3099.83</P_15>") {
		t.Fatalf("exit %d %s %.300s", code, errs, stdout)
	}
}
