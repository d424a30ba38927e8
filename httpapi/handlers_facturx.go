package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/einvoice-dev/einvoice/formats/convert"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// HeaderFacturXLevel names the Factur-X conformance level of a generated
// PDF (fx:ConformanceLevel, "EN 16931").
const HeaderFacturXLevel = "X-FacturX-Level"

// handleGenerateFacturX serves /v1/generate/facturx through
// ops.GenerateFacturX.
func (s *Server) handleGenerateFacturX(ctx context.Context, w http.ResponseWriter, in *input) error {
	res, err := s.cfg.Ops.GenerateFacturX(ctx, in.body)
	if err != nil {
		return err
	}
	setGeneratedLists(w.Header(), res.Ignored, res.Computed)
	writeFacturX(w, res)
	return nil
}

// handleConvertFacturX serves /v1/convert/{ubl,cii}-to-facturx through
// ops.ConvertToFacturX.
func (s *Server) handleConvertFacturX(dir string) handlerFunc {
	return func(ctx context.Context, w http.ResponseWriter, in *input) error {
		req, err := convertRequest(dir, in)
		if err != nil {
			return err
		}
		res, err := s.cfg.Ops.ConvertToFacturX(ctx, req)
		if err != nil {
			return err
		}
		if err := setConversionChanges(w.Header(), res.Changes); err != nil {
			return err
		}
		writeFacturX(w, res)
		return nil
	}
}

// writeFacturX writes a Factur-X PDF answer with its profile, level and
// findings headers.
func writeFacturX(w http.ResponseWriter, res *ops.FacturXResult) {
	h := w.Header()
	h.Set(HeaderProfile, res.Profile)
	h.Set(HeaderFacturXLevel, string(res.Level))
	if res.Report != nil {
		h.Set(HeaderValidationFindings, strconv.Itoa(len(res.Report.Findings)))
	}
	h.Set("Content-Disposition", `attachment; filename="factur-x.pdf"`)
	writeBody(w, mediaPDF, res.PDF)
}

// setGeneratedLists sets X-Ignored-Properties and X-Computed-Fields of a
// generated document (each only when not empty).
func setGeneratedLists(h http.Header, ignored, computed []string) {
	if len(ignored) > 0 {
		h.Set(HeaderIgnoredProperties, joinCapped(ignored))
	}
	if len(computed) > 0 {
		h.Set(HeaderComputedFields, joinCapped(computed))
	}
}

// setReportHeaders sets the finding count and profile of a gate's report
// (none without one).
func setReportHeaders(h http.Header, rep *wire.Report) {
	if rep != nil {
		h.Set(HeaderValidationFindings, strconv.Itoa(len(rep.Findings)))
		h.Set(HeaderProfile, rep.Profile)
	}
}

// setConversionChanges sets X-Conversion-Changes, the JSON array of a
// conversion's deliberate changes ([] for none), ASCII-escaped.
func setConversionChanges(h http.Header, changes []convert.Change) error {
	if changes == nil {
		changes = []convert.Change{}
	}
	b, err := json.Marshal(changes)
	if err != nil {
		return fmt.Errorf("convert: encoding changes: %w", err)
	}
	h.Set(HeaderConversionChanges, asciiJSON(b))
	return nil
}

// convertRequest is the ops.ConvertRequest of a /v1/convert/{dir} call:
// its body and the profile (and syntax) of its parameters.
func convertRequest(dir string, in *input) (ops.ConvertRequest, error) {
	req := ops.ConvertRequest{Direction: dir, Body: in.body}
	switch p := in.params.(type) {
	case *wire.ConvertParams:
		req.Profile = p.Profile
	case *wire.ConvertToXRechnungParams:
		req.Profile, req.Syntax = p.Profile, p.Syntax
	case *wire.ConvertXRechnungTargetParams:
		req.Profile, req.Syntax = p.Profile, p.Syntax
	default:
		return req, fmt.Errorf("convert: unexpected params type %T", in.params)
	}
	return req, nil
}
