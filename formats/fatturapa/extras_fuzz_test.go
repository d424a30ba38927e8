package fatturapa

import (
	"errors"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// FuzzDecodeExtras: the decoder never panics, returns either extras or
// problems (model.Problems, the only allowed error type), and every
// problem is located under the prefix with a known type.
func FuzzDecodeExtras(f *testing.F) {
	f.Add([]byte(baseExtras))
	f.Add([]byte(`{"trasmittente_id_codice": "X", "progressivo_invio": "1", "pec": "a@b", "ritenuta": {"tipo": "RT01", "aliquota": 1e1, "causale": "ZO"}, "cassa": {"tipo": "TC01", "aliquota": "0.5", "aliquota_iva": 0, "natura": "N2.1"}, "natura": {"1": "N7"}}`))
	f.Add([]byte(`{"bollo": {"importo": "1e999"}}`))
	f.Add([]byte(`[1, {"a": null}]`))
	known := map[string]bool{ProblemExtraForbidden: true, ProblemPattern: true, model.ProblemMissing: true, model.ProblemStringType: true,
		model.ProblemEnum: true, model.ProblemObjectType: true, model.ProblemDecimalType: true, model.ProblemDecimalParsing: true,
		model.ProblemValueError: true, model.ProblemBoolType: true, model.ProblemJSONInvalid: true, model.ProblemLimitExceeded: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		ex, ps, err := DecodeExtras(data, "body", "extras")
		if err == nil {
			if ex == nil || len(ps) != 0 {
				t.Fatalf("nil error with extras %v and problems %v", ex, ps)
			}
			if ex.TrasmittenteIDCodice == "" || ex.ProgressivoInvio == "" || (ex.CodiceDestinatario == "" && ex.PEC == "") {
				t.Fatalf("accepted without the required members: %+v", ex)
			}
			return
		}
		var mp model.Problems
		if !errors.As(err, &mp) || ex != nil || len(ps) == 0 {
			t.Fatalf("unexpected error %T %v (extras %v)", err, err, ex)
		}
		for _, p := range ps {
			if len(p.Loc) < 2 || p.Loc[0] != "body" || p.Loc[1] != "extras" || !known[p.Type] {
				t.Fatalf("bad problem %+v", p)
			}
		}
	})
}
