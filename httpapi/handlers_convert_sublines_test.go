package httpapi

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// TestSubLinesConvertAndGenerateRoutes: sub invoice lines (BG-DEX-01)
// through the real routes and gate: xrechnung-to-ubl carries them (and
// the target passes the gate), ubl-to-cii refuses with one
// conversion_loss per outermost sub-line, and a JSON model with sub_lines
// is generated as UBL with cac:SubInvoiceLine and refused for CII.
func TestSubLinesConvertAndGenerateRoutes(t *testing.T) {
	s, _ := newModelServer(t)
	src, err := os.ReadFile(filepath.Join(modelSharedDir(), "corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-02-some-invoicelines-with-sub.xml"))
	if err != nil {
		t.Fatal(err)
	}
	n := bytes.Count(src, []byte("<cac:SubInvoiceLine>"))
	outer := 4 // InvoiceLine[2] and InvoiceLine[4] have two each
	w := do(t, s, "POST", "/v1/convert/xrechnung-to-ubl", src, xmlCT, keyHdr)
	if w.Code != http.StatusOK {
		t.Fatalf("xrechnung-to-ubl: %d %.500s", w.Code, w.Body.String())
	}
	if got := strings.Count(w.Body.String(), "<cac:SubInvoiceLine>"); got != n || n < outer {
		t.Errorf("xrechnung-to-ubl wrote %d cac:SubInvoiceLine, the source has %d", got, n)
	}
	fs := fieldErrors(t, do(t, s, "POST", "/v1/convert/ubl-to-cii", src, xmlCT, keyHdr))
	if len(fs) != outer {
		t.Fatalf("ubl-to-cii: %d problems, want %d: %v", len(fs), outer, fs)
	}
	for _, f := range fs {
		if f["type"] != wire.TypeConversionLoss || !strings.HasPrefix(f["msg"].(string), "BG-DEX-01: sub invoice line") {
			t.Errorf("ubl-to-cii problem %v", f)
		}
	}

	body := invoiceBody(t, 5, func(inv map[string]any) {
		line := inv["lines"].([]any)[0].(map[string]any)
		sub := map[string]any{"id": "1.1", "quantity": "2", "unit_code": "C62", "net_price": "1.25",
			"category": "STANDARD", "vat_rate": "19", "item": map[string]any{"name": "Sub-line part"}}
		line["sub_lines"] = []any{sub}
	})
	w = do(t, s, "POST", "/v1/generate/ubl?profile=en16931", body, jsonCT, keyHdr)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "<cac:SubInvoiceLine><cbc:ID>1.1</cbc:ID>") ||
		!strings.Contains(w.Body.String(), "<cbc:Name>Sub-line part</cbc:Name>") {
		t.Fatalf("generate/ubl with sub_lines: %d %.500s", w.Code, w.Body.String())
	}
	if got := w.Header().Get(HeaderComputedFields); !strings.Contains(got, "/invoice/lines/0/sub_lines/0/net_amount") {
		t.Errorf("computed %q lacks the sub-line's net amount", got)
	}
	fs = fieldErrors(t, do(t, s, "POST", "/v1/generate/cii", body, jsonCT, keyHdr))
	if len(fs) != 1 || !strings.Contains(fs[0]["msg"].(string), "sub invoice lines") {
		t.Errorf("generate/cii with sub_lines: %v", fs)
	}
}
