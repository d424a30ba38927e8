package fatturapa

import (
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

func TestDecodeExtrasFull(t *testing.T) {
	ex := decodeEx(t, `{"trasmittente_id_paese": "IT", "trasmittente_id_codice": "01234567890", "progressivo_invio": "A1",
		"tipo_documento": "TD05", "codice_destinatario": "UFY9MH", "pec": "a@pec.it", "regime_fiscale": "RF19",
		"ritenuta": {"tipo": "RT02", "aliquota": 20, "causale": "A"}, "bollo": {"importo": "2.00"},
		"cassa": {"tipo": "TC22", "aliquota": "4", "imponibile": "100", "aliquota_iva": "0", "ritenuta": true, "natura": "N4"},
		"natura": {"3": "N6.3"}}`)
	if ex.TipoDocumento != "TD05" || ex.RegimeFiscale != "RF19" || ex.Ritenuta == nil || ex.Ritenuta.Causale != "A" ||
		!ex.Ritenuta.Aliquota.Equal(model.DecimalFromInt(20)) || ex.Bollo == nil || ex.Cassa == nil || !ex.Cassa.Ritenuta ||
		ex.Cassa.Imponibile == nil || ex.Cassa.Natura != "N4" || ex.Natura["3"] != "N6.3" || ex.PEC != "a@pec.it" {
		t.Fatalf("decoded %+v", ex)
	}
	ex = decodeEx(t, baseExtras)
	if ex.RegimeFiscale != "RF01" || ex.TrasmittenteIDPaese != "IT" {
		t.Errorf("defaults: %+v", ex)
	}
}

func TestDecodeExtrasProblems(t *testing.T) {
	_, ps, err := DecodeExtras([]byte(`{"trasmittente_id_codice": 5, "progressivo_invio": "too-long-value!",
		"tipo_documento": "TD99", "fax": "x",
		"ritenuta": {"tipo": "RT09", "aliquota": "abc", "causale": "A", "extra": 1},
		"bollo": [], "cassa": {"tipo": "TC22", "aliquota": "-1", "aliquota_iva": "0"},
		"natura": {"1": "N6"}}`), "body", "extras")
	if err == nil {
		t.Fatal("accepted")
	}
	want := map[string]string{
		"body.extras.trasmittente_id_codice": model.ProblemStringType,
		"body.extras.progressivo_invio":      ProblemPattern,
		"body.extras.tipo_documento":         model.ProblemEnum,
		"body.extras.fax":                    ProblemExtraForbidden,
		"body.extras.codice_destinatario":    model.ProblemMissing,
		"body.extras.ritenuta.tipo":          model.ProblemEnum,
		"body.extras.ritenuta.aliquota":      model.ProblemDecimalParsing,
		"body.extras.ritenuta.extra":         ProblemExtraForbidden,
		"body.extras.bollo":                  model.ProblemObjectType,
		"body.extras.cassa.aliquota":         model.ProblemValueError,
		"body.extras.cassa.natura":           model.ProblemMissing,
		"body.extras.natura.1":               model.ProblemEnum,
	}
	got := map[string]string{}
	for _, p := range ps {
		got[model.LocString(p.Loc)] = p.Type
	}
	for loc, typ := range want {
		if got[loc] != typ {
			t.Errorf("%s: got %q, want %q", loc, got[loc], typ)
		}
	}
	if len(ps) != len(want) {
		t.Errorf("%d problems, want %d: %v", len(ps), len(want), ps)
	}
	for _, bad := range []string{``, `[`, `{} {}`, `null`, `"x"`} {
		if _, ps, err := DecodeExtras([]byte(bad)); err == nil || len(ps) == 0 {
			t.Errorf("%q accepted", bad)
		}
	}
}
