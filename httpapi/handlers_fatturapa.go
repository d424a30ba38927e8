package httpapi

import (
	"context"
	"net/http"
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
	modelHeaders(h, res.Ignored, res.Computed, len(res.Report.Findings))
	h.Set(HeaderTipoDocumento, res.TipoDocumento)
	h.Set(HeaderImportoTotale, res.ImportoTotaleDocumento)
	writeXML(w, res.XML)
	return nil
}
