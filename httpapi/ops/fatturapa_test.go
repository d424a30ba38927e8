package ops_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/fatturapa"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// lazyValidator compiles only what a test uses (the FatturaPA XSD here).
var lazyValidator = sync.OnceValues(func() (*engineval.Validator, error) { return engineval.New(sharedDir(), engineval.Lazy()) })

func fpaService(t testing.TB) *ops.Service {
	t.Helper()
	v, err := lazyValidator()
	if err != nil {
		t.Fatalf("engine validator: %v", err)
	}
	return &ops.Service{Validator: v}
}

const fpaInvoice = `{"id": "FT-1", "issue_date": "2024-03-15", "type_code": 380, "currency_code": "EUR",
  "seller": {"name": "Alpha SRL", "vat_id": "IT01234567890", "address": {"line1": "Viale Roma 543", "city": "Sassari", "post_code": "07100", "country_code": "IT"}},
  "buyer": {"name": "Beta SPA", "vat_id": "IT09876543210", "address": {"line1": "Via Torino 38", "city": "Roma", "post_code": "00145", "country_code": "IT"}},
  "lines": [{"id": "1", "quantity": "2", "unit_code": "C62", "net_price": "50", "category": "STANDARD", "vat_rate": "22", "item": {"name": "Consulenza"}},
            {"id": "2", "quantity": "1", "unit_code": "C62", "net_price": "10", "category": "EXPORT", "vat_rate": "0", "item": {"name": "Spedizione"}}]}`

const fpaExtras = `{"trasmittente_id_codice": "01234567890", "progressivo_invio": "1", "codice_destinatario": "ABC1234"}`

func TestGenerateFatturaPA(t *testing.T) {
	res, err := fpaService(t).GenerateFatturaPA(context.Background(), []byte(`{"invoice": `+fpaInvoice+`, "extras": `+fpaExtras+`, "x": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Report.Valid || res.TipoDocumento != "TD01" || res.ImportoTotaleDocumento != "132.00" {
		t.Fatalf("report valid %v, %s, total %s", res.Report.Valid, res.TipoDocumento, res.ImportoTotaleDocumento)
	}
	if !bytes.Contains(res.XML, []byte("<Natura>N3.1</Natura>")) {
		t.Errorf("no N3.1 for the EXPORT line:\n%s", res.XML)
	}
	if len(res.Ignored) != 1 || res.Ignored[0] != "/x" {
		t.Errorf("ignored %v", res.Ignored)
	}
}

func TestGenerateFatturaPARefusals(t *testing.T) {
	cases := []struct {
		name, body, loc string
	}{
		{"no_extras", `{"invoice": ` + fpaInvoice + `}`, "body.extras"},
		{"bad_ritenuta", `{"invoice": ` + fpaInvoice + `, "extras": {"trasmittente_id_codice": "X", "progressivo_invio": "1", "pec": "a@b.it", "ritenuta": {"tipo": "RT01", "aliquota": "x", "causale": "A"}}}`, "body.extras.ritenuta.aliquota"},
		{"not_carried", `{"invoice": ` + fpaInvoice[:len(fpaInvoice)-1] + `, "buyer_reference": "R"}, "extras": ` + fpaExtras + `}`, "body.invoice.buyer_reference"},
		{"type_code", `{"invoice": ` + fpaInvoice[:len(fpaInvoice)-1] + `, "type_code": 383}, "extras": ` + fpaExtras + `}`, "body.invoice.type_code"},
		// Provincia must be 2 capital letters: only the XSD gate sees it.
		{"xsd_gate", `{"invoice": ` + strings.Replace(fpaInvoice, `"post_code": "07100",`, `"post_code": "07100", "subdivision": "Sassari",`, 1) + `, "extras": ` + fpaExtras + `}`, "body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := fpaService(t).GenerateFatturaPA(context.Background(), []byte(c.body))
			var re *ops.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("want *RequestError, got %v", err)
			}
			found := false
			for _, f := range re.Fields {
				if model.LocString(f.Loc) == c.loc {
					found = true
					if c.name == "xsd_gate" && f.Type != wire.TypeRuleViolation {
						t.Errorf("type %s", f.Type)
					}
				}
			}
			if !found {
				t.Errorf("no entry at %s: %+v", c.loc, re.Fields)
			}
		})
	}
}

// TestFatturaPAWireMatchesDecoder: the request schema of the API
// (wire.FatturaPAExtras and its groups, from which OpenAPI is generated)
// names exactly the members the decoder accepts, with the same code lists.
func TestFatturaPAWireMatchesDecoder(t *testing.T) {
	members, enums := fatturapa.Vocabulary()
	groups := map[string]reflect.Type{"": reflect.TypeFor[wire.FatturaPAExtras](), "ritenuta": reflect.TypeFor[wire.FatturaPARitenuta](),
		"bollo": reflect.TypeFor[wire.FatturaPABollo](), "cassa": reflect.TypeFor[wire.FatturaPACassa]()}
	for g, typ := range groups {
		var names []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names = append(names, name)
			key := name
			if g != "" {
				key = g + "." + name
			}
			if f.Type.Kind() == reflect.Map { // per-line Natura: the values' list is in the doc
				continue
			}
			if e := f.Tag.Get("enum"); e != "" || enums[key] != nil {
				if !slices.Equal(strings.Split(e, ","), enums[key]) {
					t.Errorf("%s: wire enum %q, decoder %v", key, e, enums[key])
				}
			}
		}
		slices.Sort(names)
		want := slices.Sorted(slices.Values(members[g]))
		if !slices.Equal(names, want) {
			t.Errorf("group %q: wire %v, decoder %v", g, names, want)
		}
	}
}

// TestGenerateFatturaPAWithoutValidator: no XSD gate, no document (501).
func TestGenerateFatturaPAWithoutValidator(t *testing.T) {
	_, err := (&ops.Service{}).GenerateFatturaPA(context.Background(), []byte(`{"invoice": `+fpaInvoice+`, "extras": `+fpaExtras+`}`))
	var ni *ops.NotImplementedError
	if !errors.As(err, &ni) {
		t.Fatalf("want *NotImplementedError, got %v", err)
	}
}
