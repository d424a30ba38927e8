package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// Media types used in the route table.
const (
	mediaJSON      = "application/json"
	mediaXML       = "application/xml"
	mediaPDF       = "application/pdf"
	mediaHTML      = "text/html; charset=utf-8"
	mediaMultipart = "multipart/form-data"
	mediaText      = "text/plain; version=0.0.4"
)

// Route is one row of the route table.
type Route struct {
	Method       string
	Path         string
	OperationID  string
	Summary      string
	Tag          string   // OpenAPI tag: the operation family
	Protected    bool     // needs x-api-key (and the gateway secret when configured)
	Billable     bool     // metered as billable
	Params       any      // zero value of the route's wire *Params struct (nil: no parameters)
	RequestTypes []string // accepted request media types; nil: no body
	RequestBody  any      // zero value of the JSON/multipart body type (nil: raw body)
	ResponseType string   // media type of the 200 response
	Response     any      // zero value of the 200 JSON body type (nil: free-form or not JSON)
	Landed       bool     // the capability behind the operation exists in this build
	Capability   string   // what a not-landed operation waits for (501 message)
	No422        bool     // the interface declares only 200 for this operation

	params *paramSpec
	handle handlerFunc
}

// handlerFunc serves a route after admission, parameter and body checks.
type handlerFunc func(ctx context.Context, w http.ResponseWriter, in *input) error

// convertDirections are the conversion routes (DECISIONS.md, "Conversion").
var convertDirections = [...]string{
	"ubl-to-cii", "cii-to-ubl", "ubl-to-xrechnung", "cii-to-xrechnung", "xrechnung-to-ubl",
	"xrechnung-to-cii", "ubl-to-facturx", "cii-to-facturx", "facturx-to-ubl", "facturx-to-cii",
}

// ConvertDirections returns the supported /v1/convert/{source}-to-{target} directions.
func ConvertDirections() []string { return append([]string(nil), convertDirections[:]...) }

// routeTable is THE place every route is registered.
func (s *Server) routeTable() []*Route {
	validatorLanded := s.cfg.Ops.Validator != nil
	_, rulesetsLanded := s.cfg.Ops.Validator.(ops.RulesetLister)
	const (
		engineCap  = "the rule engine (engine, rulesets, engine/xsd) has not landed"
		modelCap   = "the canonical invoice model (formats/model) has not landed"
		pdfCap     = "the PDF/A toolkit (pdf/facturx, pdf/pdfa) has not landed"
		verapdfCap = "the veraPDF worker (pdf/verapdf) has not landed"
		convertCap = "lossless conversion (formats/convert) has not landed"
		renderCap  = "rendering (formats/render) has not landed"
		repairCap  = "repair (formats/repair) has not landed"
	)
	xmlIn := []string{mediaXML}
	pdfIn := []string{mediaPDF}
	jsonIn := []string{mediaJSON}
	multiIn := []string{mediaMultipart}
	rs := []*Route{
		{Method: "GET", Path: "/health", OperationID: "health", Tag: "service", Summary: "Liveness and component status",
			ResponseType: mediaJSON, Response: wire.Health{}, Landed: true, No422: true, handle: s.handleHealth},
		{Method: "GET", Path: "/openapi.json", OperationID: "openapi", Tag: "service", Summary: "This OpenAPI 3.1 document",
			ResponseType: mediaJSON, Landed: true, handle: s.handleOpenAPI},
		{Method: "GET", Path: "/docs", OperationID: "docs", Tag: "service", Summary: "Human-readable API reference (HTML)",
			ResponseType: mediaHTML, Landed: true, handle: s.handleDocs},
		{Method: "GET", Path: "/metrics", OperationID: "metrics", Tag: "service", Summary: "Prometheus metrics",
			ResponseType: mediaText, Landed: true, handle: s.handleMetrics},
		{Method: "GET", Path: "/v1/schema/invoice", OperationID: "schema_invoice", Tag: "service", Summary: "JSON Schema of the canonical invoice model",
			ResponseType: mediaJSON, Landed: true, Capability: modelCap, handle: s.handleSchemaInvoice},
		{Method: "GET", Path: "/v1/schema/order", OperationID: "schema_order", Tag: "service", Summary: "JSON Schema of the Order-X order model",
			ResponseType: mediaJSON, Landed: true, Capability: modelCap, handle: s.handleSchemaOrder},
		{Method: "GET", Path: "/v1/rulesets", OperationID: "rulesets", Tag: "service", Summary: "Every rule set of the catalog: version, source digest, size, profiles, load error",
			ResponseType: mediaJSON, Response: []wire.RulesetInfo{}, Landed: rulesetsLanded, Capability: engineCap, handle: s.handleRulesets},
		{Method: "GET", Path: "/v1/usage", OperationID: "usage", Tag: "service", Summary: "The calling key's own usage counts",
			Protected: true, ResponseType: mediaJSON, Response: wire.Usage{}, Landed: true, handle: s.handleUsage},

		// Generate
		{Method: "POST", Path: "/v1/generate/ubl", OperationID: "generate_ubl", Tag: "generate", Summary: "Generate pre-validated UBL 2.1 invoice XML",
			Protected: true, Params: wire.GenerateUBLParams{}, RequestTypes: jsonIn, RequestBody: wire.GenerateRequest{}, ResponseType: mediaXML, Landed: true, Capability: modelCap, handle: s.handleGenerate("ubl")},
		{Method: "POST", Path: "/v1/generate/cii", OperationID: "generate_cii", Tag: "generate", Summary: "Generate pre-validated CII D16B invoice XML",
			Protected: true, Params: wire.GenerateCIIParams{}, RequestTypes: jsonIn, RequestBody: wire.GenerateRequest{}, ResponseType: mediaXML, Landed: true, Capability: modelCap, handle: s.handleGenerate("cii")},
		{Method: "POST", Path: "/v1/generate/facturx", OperationID: "generate_facturx", Tag: "generate", Summary: "Generate a Factur-X PDF with EN 16931 CII XML embedded",
			Protected: true, RequestTypes: jsonIn, RequestBody: wire.GenerateRequest{}, ResponseType: mediaPDF, Landed: validatorLanded, Capability: engineCap, handle: s.handleGenerateFacturX},
		{Method: "POST", Path: "/v1/generate/facturapa", OperationID: "generate_facturapa", Tag: "generate", Summary: "Generate Italian FatturaPA XML",
			Protected: true, RequestTypes: jsonIn, RequestBody: wire.FatturaPAGenerateRequest{}, ResponseType: mediaXML, Landed: true, Capability: modelCap, handle: s.handleGenerateFatturaPA},
		{Method: "POST", Path: "/v1/generate/facturae", OperationID: "generate_facturae", Tag: "generate", Summary: "Generate Spanish Facturae XML",
			Protected: true, RequestTypes: jsonIn, RequestBody: wire.FacturaeGenerateRequest{}, ResponseType: mediaXML, Landed: true, Capability: engineCap, handle: s.handleGenerateFacturae},
		{Method: "POST", Path: "/v1/generate/ksef", OperationID: "generate_ksef", Tag: "generate", Summary: "Generate Polish FA_VAT/KSeF XML",
			Protected: true, RequestTypes: jsonIn, RequestBody: wire.GenerateRequest{}, ResponseType: mediaXML, Landed: true, Capability: engineCap, handle: s.handleGenerateKSeF},
		{Method: "POST", Path: "/v1/generate/orderx", OperationID: "generate_orderx", Tag: "generate", Summary: "Generate Order-X Basic purchase-order XML",
			Protected: true, RequestTypes: jsonIn, RequestBody: wire.Order{}, ResponseType: mediaXML, Landed: true, Capability: engineCap, handle: s.handleGenerateOrderX},
		{Method: "POST", Path: "/v1/generate/facturx/embed", OperationID: "generate_facturx_embed", Tag: "generate", Summary: "Upgrade the caller's PDF to PDF/A-3 with factur-x.xml embedded",
			Protected: true, RequestTypes: multiIn, RequestBody: wire.EmbedForm{}, ResponseType: mediaPDF, Landed: true, Capability: pdfCap, handle: s.handleEmbedFacturX},

		// Validate
		{Method: "POST", Path: "/v1/validate/ubl", OperationID: "validate_ubl", Tag: "validate", Summary: "Validate a UBL 2.1 invoice or credit note (XSD + Schematron)",
			Params: wire.ValidateUBLParams{}, RequestTypes: xmlIn, ResponseType: mediaJSON, Response: wire.Report{}, Landed: validatorLanded, Capability: engineCap, handle: s.handleValidate("ubl")},
		{Method: "POST", Path: "/v1/validate/cii", OperationID: "validate_cii", Tag: "validate", Summary: "Validate a CII D16B invoice (XSD + Schematron)",
			Params: wire.ValidateCIIParams{}, RequestTypes: xmlIn, ResponseType: mediaJSON, Response: wire.Report{}, Landed: validatorLanded, Capability: engineCap, handle: s.handleValidate("cii")},
		{Method: "POST", Path: "/v1/validate/facturapa", OperationID: "validate_facturapa", Tag: "validate", Summary: "XSD validation of FatturaPA XML",
			RequestTypes: xmlIn, ResponseType: mediaJSON, Response: wire.Report{}, Landed: validatorLanded, Capability: engineCap, No422: true, handle: s.handleValidate("fatturapa")},
		{Method: "POST", Path: "/v1/validate/orderx", OperationID: "validate_orderx", Tag: "validate", Summary: "XSD + Schematron validation of Order-X XML",
			RequestTypes: xmlIn, ResponseType: mediaJSON, Response: wire.Report{}, Landed: validatorLanded, Capability: engineCap, No422: true, handle: s.handleValidate("orderx")},
		{Method: "POST", Path: "/v1/validate/ubl/report", OperationID: "validate_ubl_report", Tag: "validate", Summary: "UBL validation rendered as a printable PDF",
			Protected: true, Billable: true, RequestTypes: xmlIn, ResponseType: mediaPDF, Landed: validatorLanded, Capability: engineCap, handle: s.handleValidateReport},
		{Method: "POST", Path: "/v1/pdfa/validate", OperationID: "pdfa_validate", Tag: "validate", Summary: "PDF/A conformity (veraPDF)",
			Params: wire.PDFAValidateParams{}, RequestTypes: pdfIn, ResponseType: mediaJSON, Response: wire.PDFAValidation{}, Landed: true, Capability: verapdfCap, handle: s.handlePDFAValidate},
		{Method: "POST", Path: "/v1/pdfa/consistency", OperationID: "pdfa_consistency", Tag: "validate", Summary: "Embedded CII XML vs visible PDF text",
			Protected: true, Billable: true, RequestTypes: pdfIn, ResponseType: mediaJSON, Response: wire.ConsistencyResult{}, Landed: true, Capability: pdfCap, handle: s.handleConsistency},

		// Render
		{Method: "POST", Path: "/v1/render/html", OperationID: "render_html", Tag: "render", Summary: "Render an invoice as HTML",
			Protected: true, Params: wire.RenderHTMLParams{}, RequestTypes: xmlIn, ResponseType: mediaHTML, Landed: true, Capability: renderCap, handle: s.handleRenderHTML},
		{Method: "POST", Path: "/v1/render/pdf", OperationID: "render_pdf", Tag: "render", Summary: "Render an invoice as PDF",
			Protected: true, Params: wire.RenderPDFParams{}, RequestTypes: xmlIn, ResponseType: mediaPDF, Landed: true, Capability: renderCap, handle: s.handleRenderPDF},

		// Repair
		{Method: "POST", Path: "/v1/repair/ubl", OperationID: "repair_ubl", Tag: "repair", Summary: "Repair dates and totals of a UBL invoice",
			Protected: true, Billable: true, Params: wire.RepairUBLParams{}, RequestTypes: xmlIn, ResponseType: mediaJSON, Response: wire.RepairResponse{}, Landed: validatorLanded, Capability: engineCap, handle: s.handleRepair("ubl")},
		{Method: "POST", Path: "/v1/repair/cii", OperationID: "repair_cii", Tag: "repair", Summary: "Recalculate totals of a CII invoice",
			Protected: true, Billable: true, Params: wire.RepairCIIParams{}, RequestTypes: xmlIn, ResponseType: mediaJSON, Response: wire.RepairResponse{}, Landed: validatorLanded, Capability: engineCap, handle: s.handleRepair("cii")},

		// PDF tools
		{Method: "POST", Path: "/v1/pdfa/convert", OperationID: "pdfa_convert", Tag: "pdf", Summary: "Convert a PDF to PDF/A-3b with attachments",
			Protected: true, Params: wire.PDFAConvertParams{}, RequestTypes: multiIn, RequestBody: wire.PDFAConvertForm{}, ResponseType: mediaPDF, Landed: true, Capability: pdfCap, handle: s.handlePDFAConvert},
		{Method: "POST", Path: "/v1/extract/xml", OperationID: "extract_xml", Tag: "pdf", Summary: "The XML attachment inside a Factur-X/ZUGFeRD PDF",
			Protected: true, RequestTypes: pdfIn, ResponseType: mediaXML, Landed: true, Capability: pdfCap, handle: s.handleExtractXML},
		{Method: "POST", Path: "/v1/extract/attachments", OperationID: "extract_attachments", Tag: "pdf", Summary: "Every embedded file of a PDF",
			Protected: true, Params: wire.ExtractAttachmentsParams{}, RequestTypes: pdfIn, ResponseType: mediaJSON, Response: wire.Attachments{}, Landed: true, Capability: pdfCap, handle: s.handleExtractAttachments},
	}
	for _, dir := range convertDirections {
		src, dst, _ := strings.Cut(dir, "-to-")
		var params any = wire.ConvertParams{}
		if dst == "xrechnung" {
			params = wire.ConvertXRechnungTargetParams{}
		}
		in, out := xmlIn, mediaXML
		if src == "facturx" {
			in = pdfIn
		}
		if dst == "facturx" {
			out = mediaPDF
		}
		rs = append(rs, &Route{
			Method: "POST", Path: "/v1/convert/" + dir, OperationID: "convert_" + strings.ReplaceAll(dir, "-", "_"),
			Tag: "convert", Summary: "Convert " + src + " to " + dst + " (lossless or 422)",
			Protected: true, Params: params, RequestTypes: in, ResponseType: out, Capability: convertCap,
		})
		if src != "facturx" && dst != "facturx" {
			rt := rs[len(rs)-1]
			rt.Landed, rt.Capability, rt.handle = validatorLanded, engineCap, s.handleConvert(dir)
		}
		if src == "facturx" {
			rt := rs[len(rs)-1]
			rt.Landed, rt.Capability, rt.handle = validatorLanded, engineCap, s.handleConvertFromFacturX(dir)
		}
		if src != "facturx" && dst == "facturx" {
			rt := rs[len(rs)-1]
			rt.Landed, rt.Capability, rt.handle = validatorLanded, engineCap, s.handleConvertFacturX(dir)
		}
	}
	return rs
}
