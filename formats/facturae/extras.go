package facturae

import (
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/strictjson"
)

// Extras are the Facturae data the EN 16931 model has no term for. All
// members are optional.
type Extras struct {
	// IRPFRate is the IRPF withholding percentage (0-100, at most 2
	// decimals): TaxesWithheld (TaxTypeCode 04) on the lines subject to it
	// and in the invoice; the amounts are computed.
	IRPFRate *model.Decimal `json:"irpf_rate,omitempty"`
	// IRPFLines are the ids of the lines subject to the IRPF (default: every
	// line); the withholding base is the sum of their GrossAmount.
	IRPFLines []string `json:"irpf_lines,omitempty"`
	// Corrective is required for a credit note (type code 381).
	Corrective *Corrective `json:"corrective,omitempty"`
	// Language is LanguageName (ISO 639-1; default es).
	Language string `json:"language,omitempty"`
	// SeriesCode is InvoiceSeriesCode (at most 20 characters).
	SeriesCode string `json:"series_code,omitempty"`
}

// Corrective is the Corrective group of a rectifying invoice.
type Corrective struct {
	// ReasonCode is the Facturae ReasonCode (01-16, 80-85); ReasonDescription
	// is written from it.
	ReasonCode string `json:"reason_code" required:"true"`
	// CorrectionMethod is 01 (full), 02 (differences), 03 (volume discount)
	// or 04 (authorised by the Agencia Tributaria).
	CorrectionMethod string `json:"correction_method" required:"true"`
}

// DecodeExtras strictly decodes the extras object; problems are located
// under locPrefix (e.g. "body", "extras") and unknown members refused.
// Code values are checked by Generate.
func DecodeExtras(data []byte, locPrefix ...any) (*Extras, model.Problems, error) {
	ex := new(Extras)
	if ps := strictjson.Decode(data, ex, locPrefix...); len(ps) > 0 {
		return nil, ps, ps
	}
	return ex, nil, nil
}

// reasons maps a ReasonCode to its ReasonDescription (the XSD's lists).
var reasons = map[string]string{
	"01": "Número de la factura", "02": "Serie de la factura", "03": "Fecha expedición",
	"04": "Nombre y apellidos/Razón Social-Emisor", "05": "Nombre y apellidos/Razón Social-Receptor",
	"06": "Identificación fiscal Emisor/obligado", "07": "Identificación fiscal Receptor",
	"08": "Domicilio Emisor/Obligado", "09": "Domicilio Receptor", "10": "Detalle Operación",
	"11": "Porcentaje impositivo a aplicar", "12": "Cuota tributaria a aplicar", "13": "Fecha/Periodo a aplicar",
	"14": "Clase de factura", "15": "Literales legales", "16": "Base imponible",
	"80": "Cálculo de cuotas repercutidas", "81": "Cálculo de cuotas retenidas",
	"82": "Base imponible modificada por devolución de envases / embalajes",
	"83": "Base imponible modificada por descuentos y bonificaciones",
	"84": "Base imponible modificada por resolución firme, judicial o administrativa",
	"85": "Base imponible modificada cuotas repercutidas no satisfechas. Auto de declaración de concurso",
}

// methods maps a CorrectionMethod to its CorrectionMethodDescription.
var methods = map[string]string{
	"01": "Rectificación íntegra", "02": "Rectificación por diferencias",
	"03": "Rectificación por descuento por volumen de operaciones durante un periodo",
	"04": "Autorizadas por la Agencia Tributaria",
}

// languages are the LanguageName values of the XSD.
var languages = []string{"ar", "be", "bg", "ca", "cs", "da", "de", "el", "en", "es", "et", "eu", "fi", "fr", "ga", "gl",
	"hr", "hu", "is", "it", "lv", "lt", "mk", "mt", "nl", "no", "pl", "pt", "ro", "ru", "sk", "sl", "sq", "sr", "sv", "tr", "uk"}
