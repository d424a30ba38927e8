package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// storePingTimeout bounds the store check of /health.
const storePingTimeout = 2 * time.Second

// handleHealth answers 200 even when the store is down: status "degraded"
// tells operators, while liveness probes do not restart a healthy process
// because its database is briefly away.
func (s *Server) handleHealth(ctx context.Context, w http.ResponseWriter, _ *input) error {
	h := wire.Health{
		Status:   "ok",
		Version:  s.cfg.Version,
		Rulesets: s.rulesets(),
		Components: wire.Components{
			Store:   wire.ComponentStatus{Status: "ok"},
			VeraPDF: s.veraPDFHealth(ctx),
		},
	}
	if s.cfg.Store == nil {
		h.Status = "degraded"
		h.Components.Store = wire.ComponentStatus{Status: "not_configured"}
	} else {
		pctx, cancel := context.WithTimeout(ctx, storePingTimeout)
		defer cancel()
		if err := s.cfg.Store.Ping(pctx); err != nil {
			s.cfg.Logger.WarnContext(ctx, "store ping failed", "request_id", RequestID(ctx), "error", err)
			h.Status = "degraded"
			h.Components.Store = wire.ComponentStatus{Status: "unavailable"}
		}
	}
	if h.Components.VeraPDF.Status == "unavailable" {
		h.Status = "degraded"
	}
	s.writeJSON(w, http.StatusOK, h)
	return nil
}

func (s *Server) handleOpenAPI(_ context.Context, w http.ResponseWriter, _ *input) error {
	r := s.reference()
	if r.err != nil {
		return r.err
	}
	w.Header().Set("Content-Type", mediaJSON)
	_, _ = w.Write(r.openapi)
	return nil
}

func (s *Server) handleDocs(_ context.Context, w http.ResponseWriter, _ *input) error {
	r := s.reference()
	if r.err != nil {
		return r.err
	}
	w.Header().Set("Content-Type", mediaHTML)
	_, _ = w.Write(r.html)
	return nil
}

func (s *Server) handleMetrics(ctx context.Context, w http.ResponseWriter, _ *input) error {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, "/metrics", nil)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	s.metricsHandler.ServeHTTP(w, r)
	return nil
}

func (s *Server) handleUsage(ctx context.Context, w http.ResponseWriter, in *input) error {
	rows, err := s.cfg.Store.Usage(ctx, in.key.ID)
	if err != nil {
		return &Error{Kind: KindUnavailable, Detail: "usage is unavailable; retry later", Err: err}
	}
	if rows == nil {
		rows = []wire.UsageRow{}
	}
	s.writeJSON(w, http.StatusOK, wire.Usage{KeyID: in.key.ID, Name: in.key.Name, Rows: rows})
	return nil
}

func (s *Server) handleRulesets(_ context.Context, w http.ResponseWriter, _ *input) error {
	lister, ok := s.cfg.Ops.Validator.(ops.RulesetLister)
	if !ok {
		return &ops.NotImplementedError{Operation: "rulesets", Capability: "the validator cannot list its rule sets"}
	}
	info := lister.RulesetInfo()
	if info == nil {
		info = []wire.RulesetInfo{}
	}
	s.writeJSON(w, http.StatusOK, info)
	return nil
}

// handleValidate serves validate/ubl, validate/cii, validate/orderx and
// validate/facturapa through ops.Validate.
// onlyOK are the validate syntaxes whose operation the interface declares
// with 200 alone (validate/orderx, validate/facturapa): a document that cannot
// be read is answered with an invalid, incomplete report rather than a 422.
var onlyOK = map[string]bool{ops.SyntaxOrderX: true, ops.SyntaxFatturaPA: true}

// unreadableReport is the report of a document the validator could not read:
// one fatal finding per problem (rule id "XML", the problem's type in the
// message), complete=false, so valid is false.
func unreadableReport(syntax string, re *ops.RequestError) *wire.Report {
	rep := &wire.Report{Syntax: syntax, Findings: []wire.Finding{}, Rulesets: []wire.RulesetRef{}}
	for _, f := range re.Fields {
		line, _ := f.Ctx["line"].(int)
		rep.Findings = append(rep.Findings, wire.Finding{
			RuleID: "XML", Flag: wire.FlagFatal, Message: f.Type + ": " + f.Msg,
			Location: "/", Source: "xml", Line: line, Terms: []string{},
		})
	}
	rep.Recount()
	return rep
}

func (s *Server) handleValidate(syntax string) handlerFunc {
	return func(ctx context.Context, w http.ResponseWriter, in *input) error {
		var profile, version, format string
		switch p := in.params.(type) {
		case *wire.ValidateUBLParams:
			profile, version, format = p.Profile, p.Version, p.Format
		case *wire.ValidateCIIParams:
			profile, version, format = p.Profile, p.Version, p.Format
		case *wire.NoParams: // validate/orderx (profile from the document), validate/facturapa
		default:
			return fmt.Errorf("validate: unexpected params type %T", in.params)
		}
		// in.body was read for this request alone and nothing writes
		// into it: the parse keeps it instead of a copy.
		rep, err := s.cfg.Ops.Validate(ctx, ops.ValidateRequest{Syntax: syntax, Profile: profile, Version: version, Body: in.body, Owned: true})
		var re *ops.RequestError
		if err != nil && onlyOK[syntax] && errors.As(err, &re) {
			rep, err = unreadableReport(syntax, re), nil
		}
		if err != nil {
			return err
		}
		if format == "svrl" {
			var buf bytes.Buffer
			if err := ops.WriteSVRL(&buf, rep); err != nil {
				return err
			}
			writeXML(w, buf.Bytes())
			return nil
		}
		s.writeJSON(w, http.StatusOK, rep)
		return nil
	}
}
