package wire

// Object is a free-form JSON object (additional properties allowed).
type Object map[string]any

// Binary is a file part of a multipart/form-data body or a raw binary body.
type Binary []byte

// GenerateRequest is the JSON body of generate/ubl, generate/cii and
// generate/facturx. Invoice is the canonical EN 16931 invoice model; until the
// model's Go types land it is validated only as a JSON object.
type GenerateRequest struct {
	Invoice Object `json:"invoice" required:"true" doc:"The canonical EN 16931 invoice model (see GET /v1/schema/invoice)."`
}

// FatturaPARequest is the JSON body of generate/facturapa.
type FatturaPARequest struct {
	Invoice Object `json:"invoice" required:"true" doc:"The canonical EN 16931 invoice model."`
	Extras  Object `json:"extras" required:"true" doc:"Italian extras: trasmittente_id_codice, progressivo_invio, tipo_documento (TD05 only when explicit), ritenuta, bollo, cassa previdenziale."`
}

// EmbedForm is the multipart/form-data body of generate/facturx/embed.
type EmbedForm struct {
	Invoice string `json:"invoice" required:"true" doc:"The invoice as JSON text (canonical model)."`
	PDF     Binary `json:"pdf" required:"true" doc:"The caller's own invoice PDF."`
}

// PDFAConvertForm is the multipart/form-data body of pdfa/convert.
type PDFAConvertForm struct {
	PDF         Binary   `json:"pdf" required:"true"`
	Attachments []Binary `json:"attachments,omitempty" doc:"Files to embed; default none."`
}
