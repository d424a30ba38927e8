package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// handlePDFAValidate serves /v1/pdfa/validate through ops.PDFAValidate:
// veraPDF's verdict, 422 for what veraPDF cannot check, 503 without a validator.
func (s *Server) handlePDFAValidate(ctx context.Context, w http.ResponseWriter, in *input) error {
	p, err := paramsOf[wire.PDFAValidateParams](in, "pdfa/validate")
	if err != nil {
		return err
	}
	res, err := s.cfg.Ops.PDFAValidate(ctx, in.body, p.Flavour)
	if err != nil {
		return veraPDFError(err)
	}
	s.writeJSON(w, http.StatusOK, res)
	return nil
}

// veraPDFError turns an unavailable veraPDF into a 503 whose detail says
// why; other errors pass through.
func veraPDFError(err error) error {
	var ue *verapdf.UnavailableError
	if errors.As(err, &ue) {
		return &Error{Kind: KindUnavailable, Detail: "PDF/A validation is unavailable: " + ue.Reason + "; no verdict was guessed, retry later", Err: err}
	}
	return err
}

// veraPDFHealth is the /health component of the veraPDF worker.
func (s *Server) veraPDFHealth(ctx context.Context) wire.ComponentStatus {
	if s.cfg.Ops.VeraPDF == nil {
		return wire.ComponentStatus{Status: "not_configured"}
	}
	st := s.cfg.Ops.VeraPDF.Health(ctx)
	return wire.ComponentStatus{Status: st.State, Detail: st.Detail}
}
