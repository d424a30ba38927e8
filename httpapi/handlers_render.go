package httpapi

import (
	"context"
	"net/http"
	"strconv"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// handleRenderHTML serves /v1/render/html through ops.RenderHTML.
func (s *Server) handleRenderHTML(ctx context.Context, w http.ResponseWriter, in *input) error {
	p, err := paramsOf[wire.RenderHTMLParams](in, "render html")
	if err != nil {
		return err
	}
	out, err := s.cfg.Ops.RenderHTML(ctx, ops.RenderRequest{Lang: p.Lang, Body: in.body})
	if err != nil {
		return err
	}
	writeBody(w, mediaHTML, out)
	return nil
}

// handleRenderPDF serves /v1/render/pdf through ops.RenderPDF.
func (s *Server) handleRenderPDF(ctx context.Context, w http.ResponseWriter, in *input) error {
	p, err := paramsOf[wire.RenderPDFParams](in, "render pdf")
	if err != nil {
		return err
	}
	out, err := s.cfg.Ops.RenderPDF(ctx, ops.RenderRequest{Lang: p.Lang, Style: p.Style, Body: in.body})
	if err != nil {
		return err
	}
	writeBody(w, mediaPDF, out)
	return nil
}

// writeBody answers 200 with a document of the given media type.
func writeBody(w http.ResponseWriter, media string, body []byte) {
	w.Header().Set("Content-Type", media)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// handleValidateReport serves /v1/validate/ubl/report: the UBL validation
// (default profile) printed as a PDF. The verdict and counts also travel
// in headers.
func (s *Server) handleValidateReport(ctx context.Context, w http.ResponseWriter, in *input) error {
	out, rep, err := s.cfg.Ops.ValidateReportPDF(ctx, ops.ValidateRequest{Syntax: ops.SyntaxUBL, Body: in.body})
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set(HeaderProfile, rep.Profile)
	h.Set(HeaderValidationFindings, strconv.Itoa(len(rep.Findings)))
	h.Set(HeaderValid, strconv.FormatBool(rep.Valid))
	writeBody(w, mediaPDF, out)
	return nil
}

// HeaderValid is the verdict of a printed validation report ("true" or
// "false").
const HeaderValid = "X-Valid"
