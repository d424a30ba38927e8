package httpapi

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/facturae"
	"github.com/einvoice-dev/einvoice/formats/orderx"
	"github.com/einvoice-dev/einvoice/formats/strictjson"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

func orderBody(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../formats/orderx/testdata/order.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGenerateOrderXRoute(t *testing.T) {
	s := engineServer(t)
	jsonCT := withHeader("Content-Type", "application/json")
	key := withHeader("x-api-key", goodKey)
	body := orderBody(t)

	w := keyedOK(t, s, "/v1/generate/orderx", body)
	// 500 × 12.50 / 100 = 62.50; 3 × 41.9 = 125.70.
	for _, want := range []string{"<ram:ID>urn:order-x.eu:1p0:basic</ram:ID>", "<ram:TypeCode>220</ram:TypeCode>",
		`<ram:RequestedQuantity unitCode="H87">500</ram:RequestedQuantity>`, "<ram:LineTotalAmount>62.50</ram:LineTotalAmount>",
		"<ram:LineTotalAmount>125.70</ram:LineTotalAmount>", "<ram:LineTotalAmount>188.20</ram:LineTotalAmount>",
		`<udt:DateTimeString format="102">20240315</udt:DateTimeString>`} {
		if !bytes.Contains(w.Body.Bytes(), []byte(want)) {
			t.Errorf("output lacks %s:\n%s", want, w.Body)
		}
	}
	if h := w.Header(); h.Get(HeaderOrderXLineTotal) != "188.20" || h.Get(HeaderProfile) != "basic" || h.Get(HeaderValidationFindings) != "0" {
		t.Errorf("headers %v", h)
	}

	// Problems are 422s located in the body: an unknown member, a bad
	// decimal, a missing required member.
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	doc["payment_terms"] = "30 days"
	doc["lines"].([]any)[1].(map[string]any)["quantity"] = "three"
	delete(doc["buyer"].(map[string]any), "address")
	bad, _ := json.Marshal(doc)
	w = do(t, s, "POST", "/v1/generate/orderx", bad, jsonCT, key)
	if w.Code != 422 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var res struct {
		Detail []struct {
			Loc  []any  `json:"loc"`
			Type string `json:"type"`
		} `json:"detail"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range res.Detail {
		b, _ := json.Marshal(d.Loc)
		got[string(b)] = d.Type
	}
	want := map[string]string{`["body","payment_terms"]`: "extra_forbidden", `["body","lines",1,"quantity"]`: "decimal_parsing"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("want %s at %s; got %v", v, k, got)
		}
	}
}

func TestSchemaOrderRoute(t *testing.T) {
	s, _ := newTestServer(t, nil)
	w := do(t, s, "GET", "/v1/schema/order", nil)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var sch struct {
		ID   string                    `json:"$id"`
		Ref  string                    `json:"$ref"`
		Defs map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &sch); err != nil {
		t.Fatal(err)
	}
	if sch.ID != OrderSchemaID || sch.Ref != "#/$defs/Order" || bytes.Contains(w.Body.Bytes(), []byte("#/components/")) {
		t.Fatalf("schema head: %s %s", sch.ID, sch.Ref)
	}
	req, _ := sch.Defs["Order"]["required"].([]any)
	if !reflect.DeepEqual(req, []any{"id", "issue_date", "currency", "seller", "buyer", "lines"}) {
		t.Errorf("required %v", req)
	}
}

// TestOrderWireMatchesDecoder keeps the API's wire.Order (and so the JSON
// Schema and the OpenAPI component) equal to what orderx.DecodeOrder
// accepts: the same members, the same required ones, per object type.
func TestOrderWireMatchesDecoder(t *testing.T) {
	names := map[string]string{"Order": "Order", "OrderParty": "Party", "OrderIdentifier": "Identifier",
		"OrderContact": "Contact", "OrderAddress": "Address", "OrderLine": "Line", "OrderItem": "Item"}
	g := &schemaGen{components: map[string]any{}}
	g.ref(wire.Order{})
	want := orderx.Members()
	if len(g.components) != len(want) {
		t.Fatalf("wire types %d, decoder types %d", len(g.components), len(want))
	}
	for wn, c := range g.components {
		sameMembers(t, wn, c, want[names[wn]])
	}
}

func TestGenerateFacturaeRoute(t *testing.T) {
	s := engineServer(t)
	jsonCT := withHeader("Content-Type", "application/json")
	key := withHeader("x-api-key", goodKey)
	body, err := os.ReadFile("../formats/facturae/testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	w := keyedOK(t, s, "/v1/generate/facturae", body)
	if h := w.Header(); h.Get(HeaderFacturaeInvoiceTotal) != "4454.20" || h.Get(HeaderValidationFindings) != "0" ||
		!bytes.Contains(w.Body.Bytes(), []byte("<InvoiceTotal>4454.20</InvoiceTotal>")) || !strings.Contains(h.Get(HeaderComputedFields), "/invoice/totals/") {
		t.Fatalf("headers %v body %.400s", h, w.Body)
	}
	// A field Facturae cannot carry is a 422 naming it.
	bad := bytes.Replace(body, []byte(`"purchase_order_reference": "PO-55",`), []byte(`"purchase_order_reference": "PO-55", "project_name": "X",`), 1)
	w = do(t, s, "POST", "/v1/generate/facturae", bad, jsonCT, key)
	if w.Code != 422 || !strings.Contains(w.Body.String(), `"loc":["body","invoice","project_name"]`) || !strings.Contains(w.Body.String(), `"not_carried"`) {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

// TestFacturaeWireMatchesDecoder keeps wire.FacturaeExtras equal to what
// facturae.DecodeExtras accepts.
func TestFacturaeWireMatchesDecoder(t *testing.T) {
	g := &schemaGen{components: map[string]any{}}
	g.ref(wire.FacturaeExtras{})
	want := strictjson.Members(reflect.TypeFor[facturae.Extras]())
	for wn, dn := range map[string]string{"FacturaeExtras": "Extras", "FacturaeCorrective": "Corrective"} {
		sameMembers(t, wn, g.components[wn], want[dn])
	}
}

func TestGenerateKSeFRoute(t *testing.T) {
	s := engineServer(t)
	jsonCT := withHeader("Content-Type", "application/json")
	key := withHeader("x-api-key", goodKey)
	body, err := os.ReadFile("../formats/ksef/testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	w := do(t, s, "POST", "/v1/generate/ksef", body, jsonCT, key)
	if w.Code != 200 || w.Header().Get(HeaderKSeFP15) != "3099.83" || !bytes.Contains(w.Body.Bytes(), []byte("<P_13_1>2366.48</P_13_1>")) {
		t.Fatalf("%d %v %.300s", w.Code, w.Header(), w.Body)
	}
	bad := bytes.Replace(body, []byte(`"vat_rate": "23"`), []byte(`"vat_rate": "19"`), 1)
	w = do(t, s, "POST", "/v1/generate/ksef", bad, jsonCT, key)
	if w.Code != 422 || !strings.Contains(w.Body.String(), `"loc":["body","invoice","lines",0,"vat_rate"]`) {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

// sameMembers reports when the schema component c (of the wire type wn)
// has other members than the decoder's want (required ones marked *).
func sameMembers(t *testing.T, wn string, c any, want []string) {
	t.Helper()
	m := c.(map[string]any)
	req := map[string]bool{}
	if r, ok := m["required"].([]string); ok {
		for _, x := range r {
			req[x] = true
		}
	}
	var got []string
	for k := range m["properties"].(map[string]any) {
		if req[k] {
			k += "*"
		}
		got = append(got, k)
	}
	exp := slices.Clone(want)
	slices.Sort(got)
	slices.Sort(exp)
	if !slices.Equal(got, exp) {
		t.Errorf("%s: wire %v, decoder %v", wn, got, exp)
	}
}
