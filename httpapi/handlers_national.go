package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// HeaderOrderXLineTotal reports, on a generate/orderx answer, the order's
// LineTotalAmount as computed (Σ quantity × price / base quantity).
const HeaderOrderXLineTotal = "X-OrderX-LineTotalAmount"

// handleGenerateOrderX serves /v1/generate/orderx through ops.GenerateOrderX
// (formats/orderx, gated by the Order-X BASIC XSD and Schematron).
func (s *Server) handleGenerateOrderX(ctx context.Context, w http.ResponseWriter, in *input) error {
	res, err := s.cfg.Ops.GenerateOrderX(ctx, in.body)
	if err != nil {
		return err
	}
	h := w.Header()
	setReportHeaders(h, res.Report)
	h.Set(HeaderOrderXLineTotal, res.LineTotal)
	writeXML(w, res.XML)
	return nil
}

// writeXML answers 200 with an XML document.
func writeXML(w http.ResponseWriter, doc []byte) {
	writeBody(w, mediaXML+"; charset=utf-8", doc)
}

// paramsOf returns the route's decoded query parameters as *P (the type
// the route's row declares); another type is a wiring error of the named
// route, never the client's.
func paramsOf[P any](in *input, route string) (*P, error) {
	p, ok := in.params.(*P)
	if !ok {
		return nil, fmt.Errorf("%s: unexpected params type %T", route, in.params)
	}
	return p, nil
}

// OrderSchemaID is the $id of the order JSON Schema (the route serving it).
const OrderSchemaID = "/v1/schema/order"

// OrderSchema returns the JSON Schema (draft 2020-12) of the generate/orderx
// body, generated from wire.Order by the same generator as the OpenAPI
// document's components (so the two cannot disagree); every object refuses
// unknown members, as the decoder does.
func OrderSchema() ([]byte, error) {
	g := &schemaGen{components: map[string]any{}}
	root := g.ref(wire.Order{})
	for _, c := range g.components {
		if m, ok := c.(map[string]any); ok {
			m["additionalProperties"] = false
		}
	}
	doc := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         OrderSchemaID,
		"title":       "Order-X BASIC purchase order (generate/orderx body)",
		"description": "An order: id, issue_date, currency, seller, buyer and lines; no VAT breakdown and no payment terms. Decimals are JSON strings or numbers; dates are YYYY-MM-DD. Unknown members are refused. Mapping: docs/ORDERX.md.",
		"$ref":        root["$ref"],
		"$defs":       g.components,
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("order schema: %w", err)
	}
	return bytes.ReplaceAll(b, []byte(`"#/components/schemas/`), []byte(`"#/$defs/`)), nil
}

// handleSchemaOrder serves OrderSchema.
func (s *Server) handleSchemaOrder(_ context.Context, w http.ResponseWriter, _ *input) error {
	b, err := OrderSchema()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", mediaJSON)
	_, _ = w.Write(b)
	return nil
}

// Response headers of generate/facturae.
const (
	HeaderFacturaeInvoiceTotal = "X-Facturae-InvoiceTotal"
	HeaderFacturaeExecutable   = "X-Facturae-TotalExecutableAmount"
)

// handleGenerateFacturae serves /v1/generate/facturae through
// ops.GenerateFacturae (formats/facturae, XSD-gated, unsigned).
func (s *Server) handleGenerateFacturae(ctx context.Context, w http.ResponseWriter, in *input) error {
	res, err := s.cfg.Ops.GenerateFacturae(ctx, in.body)
	if err != nil {
		return err
	}
	h := w.Header()
	modelHeaders(h, res.Ignored, res.Computed, len(res.Report.Findings))
	h.Set(HeaderFacturaeInvoiceTotal, res.InvoiceTotal)
	h.Set(HeaderFacturaeExecutable, res.TotalExecutableAmount)
	writeXML(w, res.XML)
	return nil
}

// modelHeaders sets the headers every generate operation on the invoice
// model answers with: ignored members, computed values, findings.
func modelHeaders(h http.Header, ignored, computed []string, findings int) {
	setGeneratedLists(h, ignored, computed)
	h.Set(HeaderValidationFindings, strconv.Itoa(findings))
}

// HeaderKSeFP15 reports, on a generate/ksef answer, the amount due (P_15).
const HeaderKSeFP15 = "X-KSeF-P15"

// handleGenerateKSeF serves /v1/generate/ksef through ops.GenerateKSeF
// (formats/ksef, XSD-gated).
func (s *Server) handleGenerateKSeF(ctx context.Context, w http.ResponseWriter, in *input) error {
	res, err := s.cfg.Ops.GenerateKSeF(ctx, in.body)
	if err != nil {
		return err
	}
	modelHeaders(w.Header(), res.Ignored, res.Computed, len(res.Report.Findings))
	w.Header().Set(HeaderKSeFP15, res.P15)
	writeXML(w, res.XML)
	return nil
}
