package wire

// Enumerated values shared by several routes. The parameter parser and the
// OpenAPI generator read them from the enum tags below; these constants exist
// for code that needs the lists (CLI help, ops).
const (
	UBLProfiles  = "peppol,xrechnung,ro_cius,br_fr,en16931"
	CIIProfiles  = "en16931,xrechnung,peppol,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended"
	AllProfiles  = "en16931,peppol,xrechnung,ro_cius,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended"
	PDFAFlavours = "auto,1a,1b,2a,2b,2u,3a,3b,3u,4,4e,4f"
)

// NoParams is the Params type of routes without query parameters. Any query
// parameter sent to such a route is rejected as extra_forbidden.
type NoParams struct{}

// ValidateUBLParams are the query parameters of POST /v1/validate/ubl.
type ValidateUBLParams struct {
	Profile string `query:"profile" default:"peppol" enum:"peppol,xrechnung,ro_cius,br_fr,en16931" doc:"Validation profile: EN 16931 plus the named CIUS/extension."`
	Version string `query:"version" doc:"Rule-set version to apply when several are loaded; default the newest."`
	Format  string `query:"format" default:"json" enum:"json,svrl" doc:"json: the Report; svrl: the same findings as SVRL XML."`
}

// ValidateCIIParams are the query parameters of POST /v1/validate/cii.
type ValidateCIIParams struct {
	Profile string `query:"profile" default:"en16931" enum:"en16931,xrechnung,peppol,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended" doc:"Validation profile."`
	Version string `query:"version" doc:"Rule-set version to apply when several are loaded; default the newest."`
	Format  string `query:"format" default:"json" enum:"json,svrl" doc:"json: the Report; svrl: the same findings as SVRL XML."`
}

// GenerateUBLParams are the query parameters of POST /v1/generate/ubl.
type GenerateUBLParams struct {
	Profile  string `query:"profile" default:"peppol" enum:"peppol,xrechnung,ro_cius,br_fr,en16931" doc:"Target profile (Peppol BIS, XRechnung, RO_CIUS, ...)."`
	Validate bool   `query:"validate" default:"true" doc:"Pre-validate the output; a failing document is answered with 422 instead."`
}

// GenerateCIIParams are the query parameters of POST /v1/generate/cii.
type GenerateCIIParams struct {
	Profile  string `query:"profile" default:"en16931" enum:"en16931,xrechnung,peppol,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended" doc:"Target profile."`
	Validate bool   `query:"validate" default:"true" doc:"Pre-validate the output; a failing document is answered with 422 instead."`
}

// PDFAValidateParams are the query parameters of POST /v1/pdfa/validate.
type PDFAValidateParams struct {
	Flavour string `query:"flavour" default:"auto" enum:"auto,1a,1b,2a,2b,2u,3a,3b,3u,4,4e,4f" doc:"PDF/A flavour to check; auto uses the one the file declares."`
}

// ConvertParams are the query parameters of the convert routes whose target
// is not XRechnung.
type ConvertParams struct {
	Profile string `query:"profile" default:"en16931" enum:"en16931,peppol,xrechnung,ro_cius,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended" doc:"Profile the converted document is validated against before it is returned."`
}

// ConvertToXRechnungParams are the query parameters of the *-to-xrechnung routes.
type ConvertToXRechnungParams struct {
	Profile string `query:"profile" default:"en16931" enum:"en16931,peppol,xrechnung,ro_cius,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended" doc:"Profile the converted document is validated against before it is returned."`
	Syntax  string `query:"syntax" enum:"ubl,cii" doc:"Syntax of the XRechnung output; default the syntax of the source."`
}

// RenderHTMLParams are the query parameters of POST /v1/render/html.
type RenderHTMLParams struct {
	Lang string `query:"lang" default:"en" enum:"en,de" doc:"Language of the labels."`
}

// RenderPDFParams are the query parameters of POST /v1/render/pdf.
type RenderPDFParams struct {
	Lang  string `query:"lang" default:"en" enum:"en,de" doc:"Language of the labels."`
	Style string `query:"style" default:"compact" enum:"compact,kosit" doc:"compact: one-page business invoice; kosit: the full multi-page auditor view."`
}

// RepairUBLParams are the query parameters of POST /v1/repair/ubl.
type RepairUBLParams struct {
	Profile string `query:"profile" default:"peppol" enum:"peppol,xrechnung,ro_cius,br_fr,en16931" doc:"Profile the repaired document is validated against."`
}

// RepairCIIParams are the query parameters of POST /v1/repair/cii.
type RepairCIIParams struct {
	Profile string `query:"profile" default:"en16931" enum:"en16931,xrechnung,peppol,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended" doc:"Profile the repaired document is validated against."`
}

// PDFAConvertParams are the query parameters of POST /v1/pdfa/convert.
type PDFAConvertParams struct {
	Relationship string `query:"relationship" default:"Data" enum:"Data,Source,Alternative,Supplement,Unspecified" doc:"AFRelationship given to the embedded files."`
}

// ExtractAttachmentsParams are the query parameters of POST /v1/extract/attachments.
type ExtractAttachmentsParams struct {
	IncludeContent bool `query:"include_content" default:"false" doc:"Include each file's content as content_base64."`
}
