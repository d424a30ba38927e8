package fatturapa

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/strictjson"
)

// Extras are the FatturaPA data the EN 16931 model has no term for.
type Extras struct {
	// TrasmittenteIDPaese and TrasmittenteIDCodice identify the transmitter
	// (DatiTrasmissione/IdTrasmittente); the country defaults to IT.
	TrasmittenteIDPaese  string
	TrasmittenteIDCodice string
	// ProgressivoInvio is the transmitter's file number ([A-Za-z0-9]{1,10}).
	ProgressivoInvio string
	// TipoDocumento overrides the TD code derived from BT-3 (TD05 only so).
	TipoDocumento string
	// CodiceDestinatario (6 chars: PA, FPA12; 7 chars: FPR12) and/or PEC.
	CodiceDestinatario string
	PEC                string
	// RegimeFiscale of the seller (RF01..RF19), default RF01.
	RegimeFiscale string
	Ritenuta      *Ritenuta
	Bollo         *Bollo
	Cassa         *Cassa
	// Natura maps a line id (BT-126) to the Natura that line must carry,
	// overriding the category default (e.g. N6.3 for a subcontracting
	// reverse charge, N3.5 for a declaration of intent).
	Natura map[string]string
}

// Ritenuta is DatiRitenuta: the withholding tax on every line.
type Ritenuta struct {
	Tipo     string        // RT01..RT06
	Aliquota model.Decimal // percent
	Causale  string        // CausalePagamento (A..Z, L1, M1, M2, O1, V1, ZO)
}

// Bollo is DatiBollo (BolloVirtuale SI).
type Bollo struct {
	Importo model.Decimal
}

// Cassa is DatiCassaPrevidenziale.
type Cassa struct {
	Tipo        string         // TC01..TC22
	Aliquota    model.Decimal  // AlCassa, percent
	Imponibile  *model.Decimal // ImponibileCassa; default: the sum of the line net amounts
	AliquotaIVA model.Decimal  // the VAT rate of the contribution
	Ritenuta    bool           // the contribution is subject to the ritenuta
	Natura      string         // required when AliquotaIVA is 0
}

// Problem types of the extras decoder besides the model's.
const (
	ProblemExtraForbidden = strictjson.ProblemExtraForbidden // an unknown member
	ProblemPattern        = "string_pattern_mismatch"
)

var (
	tipoDocumento  = []string{"TD01", "TD02", "TD03", "TD04", "TD05", "TD06", "TD16", "TD17", "TD18", "TD19", "TD20", "TD21", "TD22", "TD23", "TD24", "TD25", "TD26", "TD27", "TD28"}
	regimeFiscale  = []string{"RF01", "RF02", "RF04", "RF05", "RF06", "RF07", "RF08", "RF09", "RF10", "RF11", "RF12", "RF13", "RF14", "RF15", "RF16", "RF17", "RF18", "RF19"}
	tipoRitenuta   = []string{"RT01", "RT02", "RT03", "RT04", "RT05", "RT06"}
	causaleRit     = []string{"A", "B", "C", "D", "E", "G", "H", "I", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "L1", "M1", "M2", "O1", "V1", "ZO"}
	tipoCassa      = []string{"TC01", "TC02", "TC03", "TC04", "TC05", "TC06", "TC07", "TC08", "TC09", "TC10", "TC11", "TC12", "TC13", "TC14", "TC15", "TC16", "TC17", "TC18", "TC19", "TC20", "TC21", "TC22"}
	maxExtrasBytes = 64 << 10
)

// The patterns of the extras, compiled on first use: their counted
// repetitions ({1,190}) make them the dearest part of the process's start
// (13 M instructions at package initialisation, paid by every CLI command).
var (
	reProgressivo = lazyRegexp(`^[A-Za-z0-9]{1,10}$`)
	reIDCodice    = lazyRegexp(`^[\x21-\x7e]{1,28}$`)
	reCodiceDest  = lazyRegexp(`^[A-Z0-9]{6,7}$`)
	rePaese       = lazyRegexp(`^[A-Z]{2}$`)
	rePEC         = lazyRegexp(`^[^@\s]{1,64}@[^@\s]{1,190}$`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

type extrasDecoder struct{ strictjson.Collector }

// DecodeExtras strictly decodes the extras object. Problems carry locations
// prefixed by locPrefix (e.g. "body", "extras"); unknown members are
// refused (extra_forbidden). The error is non-nil exactly when problems is
// non-empty (it is the Problems).
func DecodeExtras(data []byte, locPrefix ...any) (*Extras, model.Problems, error) {
	d := &extrasDecoder{strictjson.Collector{Prefix: locPrefix}}
	if len(data) > maxExtrasBytes {
		d.Add(nil, model.ProblemLimitExceeded, "extras too large", nil, map[string]any{"limit": maxExtrasBytes})
		return nil, d.List, d.List
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		d.Add(nil, model.ProblemJSONInvalid, "Invalid JSON", nil, map[string]any{"error": err.Error()})
		return nil, d.List, d.List
	}
	if dec.More() {
		d.Add(nil, model.ProblemJSONInvalid, "Invalid JSON", nil, map[string]any{"error": "data after the value"})
		return nil, d.List, d.List
	}
	ex := d.extras(raw)
	if len(d.List) > 0 {
		return nil, d.List, d.List
	}
	return ex, nil, nil
}

func (d *extrasDecoder) object(loc []any, v any, known ...string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.Add(loc, model.ProblemObjectType, "Input should be a valid object", strictjson.InputOf(v), nil)
		return nil, false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if known != nil && !slices.Contains(known, k) {
			d.Add(carry.At(loc, k), ProblemExtraForbidden, "Extra inputs are not permitted", strictjson.InputOf(m[k]), nil)
		}
	}
	return m, true
}

func (d *extrasDecoder) str(loc []any, m map[string]any, k string, required bool, re *regexp.Regexp, enum []string) string {
	v, ok := m[k]
	if !ok || v == nil {
		if required {
			d.Add(carry.At(loc, k), model.ProblemMissing, "Field required", nil, nil)
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		d.Add(carry.At(loc, k), model.ProblemStringType, "Input should be a valid string", strictjson.InputOf(v), nil)
		return ""
	}
	switch {
	case enum != nil && !slices.Contains(enum, s):
		d.Add(carry.At(loc, k), model.ProblemEnum, "Input should be one of: "+strings.Join(enum, ", "), s, map[string]any{"expected": enum})
		return ""
	case re != nil && !re.MatchString(s):
		d.Add(carry.At(loc, k), ProblemPattern, "String should match pattern "+re.String(), s, map[string]any{"pattern": re.String()})
		return ""
	}
	return s
}

// dec reads a non-negative decimal with at most 2 fraction digits below 1000.
func (d *extrasDecoder) dec(loc []any, m map[string]any, k string, required bool, maxv string) *model.Decimal {
	v, ok := m[k]
	if !ok || v == nil {
		if required {
			d.Add(carry.At(loc, k), model.ProblemMissing, "Field required", nil, nil)
		}
		return nil
	}
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = x.String()
	default:
		d.Add(carry.At(loc, k), model.ProblemDecimalType, "Decimal input should be a string or number", strictjson.InputOf(v), nil)
		return nil
	}
	x, err := model.ParseDecimal(s)
	if err != nil {
		d.Add(carry.At(loc, k), model.ProblemDecimalParsing, "Input should be a valid decimal", s, nil)
		return nil
	}
	if x.Sign() < 0 || x.Cmp(model.MustParseDecimal(maxv)) > 0 || !x.Round(2).Equal(x) {
		d.Add(carry.At(loc, k), model.ProblemValueError, fmt.Sprintf("Input should be between 0 and %s with at most 2 decimals", maxv), s, map[string]any{"le": maxv})
		return nil
	}
	return &x
}

func (d *extrasDecoder) boolean(loc []any, m map[string]any, k string) bool {
	v, ok := m[k]
	if !ok || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		d.Add(carry.At(loc, k), model.ProblemBoolType, "Input should be a valid boolean", strictjson.InputOf(v), nil)
	}
	return b
}

// Vocabulary returns, for the extras object and each of its groups ("",
// "ritenuta", "bollo", "cassa"), the member names the decoder accepts, and
// the code lists of its enumerated members ("tipo_documento",
// "ritenuta.tipo", ...; "natura" for the per-line values). The API's
// request schema is checked against it.
func Vocabulary() (members, enums map[string][]string) {
	members = map[string][]string{"": extrasKeys, "ritenuta": ritenutaKeys, "bollo": bolloKeys, "cassa": cassaKeys}
	enums = map[string][]string{"tipo_documento": tipoDocumento, "regime_fiscale": regimeFiscale, "ritenuta.tipo": tipoRitenuta,
		"ritenuta.causale": causaleRit, "cassa.tipo": tipoCassa, "cassa.natura": naturaCodes, "natura": naturaCodes}
	for k, v := range members {
		members[k] = slices.Clone(v)
	}
	for k, v := range enums {
		enums[k] = slices.Clone(v)
	}
	return members, enums
}

var (
	ritenutaKeys = []string{"tipo", "aliquota", "causale"}
	bolloKeys    = []string{"importo"}
	cassaKeys    = []string{"tipo", "aliquota", "imponibile", "aliquota_iva", "ritenuta", "natura"}
)

var extrasKeys = []string{"trasmittente_id_paese", "trasmittente_id_codice", "progressivo_invio", "tipo_documento",
	"codice_destinatario", "pec", "regime_fiscale", "ritenuta", "bollo", "cassa", "natura"}

func (d *extrasDecoder) extras(raw any) *Extras {
	m, ok := d.object(nil, raw, extrasKeys...)
	if !ok {
		return nil
	}
	ex := &Extras{
		TrasmittenteIDPaese:  d.str(nil, m, "trasmittente_id_paese", false, rePaese(), nil),
		TrasmittenteIDCodice: d.str(nil, m, "trasmittente_id_codice", true, reIDCodice(), nil),
		ProgressivoInvio:     d.str(nil, m, "progressivo_invio", true, reProgressivo(), nil),
		TipoDocumento:        d.str(nil, m, "tipo_documento", false, nil, tipoDocumento),
		CodiceDestinatario:   d.str(nil, m, "codice_destinatario", false, reCodiceDest(), nil),
		PEC:                  d.str(nil, m, "pec", false, rePEC(), nil),
		RegimeFiscale:        d.str(nil, m, "regime_fiscale", false, nil, regimeFiscale),
	}
	if ex.TrasmittenteIDPaese == "" {
		ex.TrasmittenteIDPaese = "IT"
	}
	if ex.RegimeFiscale == "" {
		ex.RegimeFiscale = "RF01"
	}
	if m["codice_destinatario"] == nil && m["pec"] == nil {
		d.Add([]any{"codice_destinatario"}, model.ProblemMissing, "Field required: codice_destinatario or pec", nil, nil)
	}
	if v := m["ritenuta"]; v != nil {
		loc := []any{"ritenuta"}
		if r, ok := d.object(loc, v, ritenutaKeys...); ok {
			ex.Ritenuta = &Ritenuta{Tipo: d.str(loc, r, "tipo", true, nil, tipoRitenuta), Causale: d.str(loc, r, "causale", true, nil, causaleRit)}
			if a := d.dec(loc, r, "aliquota", true, "100"); a != nil {
				ex.Ritenuta.Aliquota = *a
			}
		}
	}
	if v := m["bollo"]; v != nil {
		loc := []any{"bollo"}
		if r, ok := d.object(loc, v, bolloKeys...); ok {
			ex.Bollo = &Bollo{}
			if a := d.dec(loc, r, "importo", true, "999999"); a != nil {
				ex.Bollo.Importo = *a
			}
		}
	}
	if v := m["cassa"]; v != nil {
		loc := []any{"cassa"}
		if r, ok := d.object(loc, v, cassaKeys...); ok {
			c := &Cassa{Tipo: d.str(loc, r, "tipo", true, nil, tipoCassa), Ritenuta: d.boolean(loc, r, "ritenuta"),
				Natura: d.str(loc, r, "natura", false, nil, naturaCodes), Imponibile: d.dec(loc, r, "imponibile", false, "999999999999")}
			if a := d.dec(loc, r, "aliquota", true, "100"); a != nil {
				c.Aliquota = *a
			}
			if a := d.dec(loc, r, "aliquota_iva", true, "100"); a != nil {
				c.AliquotaIVA = *a
				if a.IsZero() && r["natura"] == nil {
					d.Add(carry.At(loc, "natura"), model.ProblemMissing, "Field required when aliquota_iva is 0", nil, nil)
				}
				if !a.IsZero() && r["natura"] != nil {
					d.Add(carry.At(loc, "natura"), model.ProblemValueError, "natura is only allowed when aliquota_iva is 0", strictjson.InputOf(r["natura"]), nil)
				}
			}
			ex.Cassa = c
		}
	}
	if v := m["natura"]; v != nil {
		loc := []any{"natura"}
		if r, ok := d.object(loc, v); ok {
			ex.Natura = map[string]string{}
			ids := make([]string, 0, len(r))
			for id := range r {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			for _, id := range ids {
				if n := d.str(loc, r, id, true, nil, naturaCodes); n != "" {
					ex.Natura[id] = n
				}
			}
		}
	}
	return ex
}
