package httpapi

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// allowedTypes is the allow-list of 422 entry types the request decoders may
// produce; anything else (or a panic) is a bug.
var allowedTypes = map[string]bool{
	"json_invalid": true, "missing": true, "model_attributes_type": true, "dict_type": true,
	"list_type": true, "string_type": true, "bool_type": true, "int_type": true, "int_parsing": true,
	"float_type": true, "value_error": true, "enum": true, "bool_parsing": true, "extra_forbidden": true,
}

func checkEntries(t *testing.T, errs []wire.ValidationError) {
	t.Helper()
	for _, e := range errs {
		if !allowedTypes[e.Type] {
			t.Fatalf("unexpected error type %q: %+v", e.Type, e)
		}
		if len(e.Loc) == 0 || e.Msg == "" {
			t.Fatalf("entry without loc or msg: %+v", e)
		}
		if _, err := json.Marshal(e); err != nil {
			t.Fatalf("entry does not encode: %v", err)
		}
	}
	if len(errs) > maxFieldErrors {
		t.Fatalf("%d entries exceed the cap", len(errs))
	}
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"invoice":{"number":"1","lines":[{"id":"a","vat_rate":"19"}]}}`,
		`{"invoice":{"lines":[{"vat_rate":"x"}, 3, null]}}`,
		`{"invoice":`, `[]`, `null`, `{"invoice":{"number":1e999}}`, `{} {}`,
		`{"invoice":{"lines":[{"quantity":99999999999999999999999}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var dst testRequest
		checkEntries(t, decodeJSON(data, &dst))
		var gen wire.FatturaPARequest
		checkEntries(t, decodeJSON(data, &gen))
		var order wire.Order
		checkEntries(t, decodeJSON(data, &order))
	})
}

func FuzzParseParams(f *testing.F) {
	for _, s := range []string{"profile=peppol&validate=true", "profile=x&profile=peppol", "validate=maybe&zzz=1", "%zz", "flavour=3b"} {
		f.Add(s)
	}
	specs := []*paramSpec{}
	for _, p := range []any{wire.GenerateUBLParams{}, wire.ValidateCIIParams{}, wire.PDFAValidateParams{}, wire.NoParams{}} {
		sp, err := newParamSpec(p)
		if err != nil {
			f.Fatal(err)
		}
		specs = append(specs, sp)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return // net/http answers malformed queries before us
		}
		for _, sp := range specs {
			v, errs := sp.parse(q)
			checkEntries(t, errs)
			if v == nil {
				t.Fatal("nil params")
			}
		}
	})
}

func TestParseParamsDefaults(t *testing.T) {
	sp, err := newParamSpec(wire.GenerateUBLParams{})
	if err != nil {
		t.Fatal(err)
	}
	v, errs := sp.parse(url.Values{})
	if errs != nil {
		t.Fatal(errs)
	}
	p := v.(*wire.GenerateUBLParams)
	if p.Profile != "peppol" || !p.Validate {
		t.Fatalf("defaults %+v", p)
	}
	v, errs = sp.parse(url.Values{"validate": {"no"}, "profile": {"peppol", "xrechnung"}})
	if errs != nil {
		t.Fatal(errs)
	}
	if p := v.(*wire.GenerateUBLParams); p.Profile != "xrechnung" || p.Validate {
		t.Fatalf("parsed %+v", p)
	}
	for _, bad := range []any{struct{ X string }{}, struct {
		X int `query:"x"`
	}{}, struct {
		X string `query:"x" enum:"a,b" default:"c"`
	}{}} {
		if _, err := newParamSpec(bad); err == nil {
			t.Errorf("newParamSpec(%T) accepted a bad spec", bad)
		}
	}
}

func FuzzParseMultipart(f *testing.F) {
	f.Add([]byte("--B\r\nContent-Disposition: form-data; name=\"pdf\"; filename=\"a.pdf\"\r\n\r\n%PDF\r\n--B--\r\n"), "B")
	f.Add([]byte("--B\r\nContent-Disposition: form-data; name=\"invoice\"\r\n\r\n{}\r\n--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--B--\r\n"), "B")
	f.Add([]byte("--B\r\n\r\n--B"), "B")
	s, _ := newTestServer(f, func(c *Config) { c.MaxBody = 1 << 16 })
	f.Fuzz(func(t *testing.T, body []byte, boundary string) {
		if boundary == "" {
			return
		}
		for _, form := range []any{wire.EmbedForm{}, wire.PDFAConvertForm{}} {
			mf, errs := s.parseMultipart(body, boundary, form)
			checkEntries(t, errs)
			if mf != nil {
				if err := mf.RemoveAll(); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
