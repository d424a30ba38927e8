package httpapi

import (
	"context"
	"net/http"
	"strconv"
)

// HeaderTipoDocumento and HeaderImportoTotale report, on a generate/facturapa
// answer, the TipoDocumento written and ImportoTotaleDocumento as computed
// by FatturaPA's rules.
const (
	HeaderTipoDocumento = "X-FatturaPA-TipoDocumento"
	HeaderImportoTotale = "X-FatturaPA-ImportoTotaleDocumento"
)

// handleGenerateFatturaPA serves /v1/generate/facturapa through
// ops.GenerateFatturaPA (formats/fatturapa, XSD-gated).
func (s *Server) handleGenerateFatturaPA(ctx context.Context, w http.ResponseWriter, in *input) error {
	res, err := s.cfg.Ops.GenerateFatturaPA(ctx, in.body)
	if err != nil {
		return err
	}
	h := w.Header()
	if len(res.Ignored) > 0 {
		h.Set(HeaderIgnoredProperties, joinCapped(res.Ignored))
	}
	if len(res.Computed) > 0 {
		h.Set(HeaderComputedFields, joinCapped(res.Computed))
	}
	h.Set(HeaderValidationFindings, strconv.Itoa(len(res.Report.Findings)))
	h.Set(HeaderTipoDocumento, res.TipoDocumento)
	h.Set(HeaderImportoTotale, res.ImportoTotaleDocumento)
	h.Set("Content-Type", mediaXML+"; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(res.XML)
	return nil
}
