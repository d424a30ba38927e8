package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultMaxBody        = 20 << 20
	DefaultRequestTimeout = 30 * time.Second
)

// Config is everything a Server needs. Zero values get the defaults above;
// a zero RateLimit disables rate limiting; a nil Store makes every protected
// operation answer 503; nil Ops.Validator leaves validation unlanded (501).
type Config struct {
	Version        string               // build version shown by /health
	Store          KeyStore             // API keys and usage
	Ops            *ops.Service         // transport-free operations
	GatewaySecret  string               // when set, protected ops require x-gateway-proxy-secret
	MaxBody        int64                // request body limit in bytes
	RateLimit      float64              // per-key requests per second (token bucket refill); 0 = off
	RateBurst      int                  // per-key bucket size; default max(1, ceil(RateLimit))
	RequestTimeout time.Duration        // per-request time limit
	Logger         *slog.Logger         // JSON logger; default discards
	Registry       *prometheus.Registry // metrics registry; default a new one
	Now            func() time.Time     // clock; default time.Now
}

// Server is the HTTP API. It implements http.Handler.
type Server struct {
	cfg     Config
	routes  []*Route
	byPath  map[string]map[string]*Route
	limiter *rateLimiter
	metrics *metrics
	// metricsHandler serves the registry in the Prometheus text format.
	metricsHandler http.Handler
	ref            reference
	handler        http.Handler
}

// reference is the OpenAPI document and its HTML rendering, made on first
// use (Server.reference) rather than in New: rendering them is about 5 %
// of a server start's work, done while the rule sets compile.
type reference struct {
	once    sync.Once
	openapi []byte
	html    []byte
	err     error
}

// reference renders the OpenAPI document and its HTML once. The
// document depends on the route table only; an error is a defect of
// this package (tests render it), reported to the caller as a 500.
func (s *Server) reference() *reference {
	s.ref.once.Do(func() {
		r := &s.ref
		if r.openapi, r.err = json.MarshalIndent(s.buildOpenAPI(), "", "  "); r.err != nil {
			r.err = fmt.Errorf("httpapi: openapi: %w", r.err)
			return
		}
		r.openapi = append(r.openapi, '\n')
		if r.html, r.err = renderDocs(r.openapi); r.err != nil {
			r.err = fmt.Errorf("httpapi: docs: %w", r.err)
		}
	})
	return &s.ref
}

// PrepareReference renders the OpenAPI document and the HTML reference
// now, so that the first request for them does not wait (serve calls it
// once the rule sets are compiled).
func (s *Server) PrepareReference() error { return s.reference().err }

// New builds a Server: it fills defaults, builds the route table, the
// parameter specs and the middleware chain. The OpenAPI document and its
// HTML rendering are made on first use (PrepareReference).
func New(cfg Config) (*Server, error) {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Ops == nil {
		cfg.Ops = &ops.Service{}
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.RateLimit < 0 || cfg.RateBurst < 0 {
		return nil, errors.New("httpapi.New: negative rate limit or burst")
	}
	s := &Server{cfg: cfg, byPath: map[string]map[string]*Route{}}
	for _, rt := range s.routeTable() {
		spec, err := newParamSpec(rt.Params)
		if err != nil {
			return nil, fmt.Errorf("httpapi.New: route %s: %w", rt.OperationID, err)
		}
		rt.params = spec
		if s.byPath[rt.Path] == nil {
			s.byPath[rt.Path] = map[string]*Route{}
		}
		if s.byPath[rt.Path][rt.Method] != nil {
			return nil, fmt.Errorf("httpapi.New: duplicate route %s %s", rt.Method, rt.Path)
		}
		s.byPath[rt.Path][rt.Method] = rt
		s.routes = append(s.routes, rt)
	}
	if cfg.RateLimit > 0 {
		s.limiter = newRateLimiter(cfg.RateLimit, cfg.RateBurst, cfg.Now)
	}
	m, err := newMetrics(cfg.Registry)
	if err != nil {
		return nil, fmt.Errorf("httpapi.New: %w", err)
	}
	s.metrics = m
	s.metricsHandler = promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{})
	s.handler = withSecurityHeaders(s.withRequestID(s.withObservation(s.withRecover(s.withTimeout(http.HandlerFunc(s.dispatch))))))
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Routes returns a copy of the route table, in registration order.
func (s *Server) Routes() []Route {
	out := make([]Route, len(s.routes))
	for i, rt := range s.routes {
		out[i] = *rt
	}
	return out
}

// OpenAPI returns the generated OpenAPI 3.1 document (JSON), or an error
// when it could not be rendered.
func (s *Server) OpenAPI() ([]byte, error) {
	r := s.reference()
	return append([]byte(nil), r.openapi...), r.err
}

// dispatch finds the route for the request and serves it.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	byMethod, ok := s.byPath[r.URL.Path]
	if !ok {
		if dir, isConvert := strings.CutPrefix(r.URL.Path, "/v1/convert/"); isConvert {
			s.writeError(w, r, invalid(wire.ValidationError{Loc: []any{"path", "direction"}, Type: wire.TypeEnum, Input: dir,
				Msg: "unknown conversion direction; supported: " + strings.Join(ConvertDirections(), ", "),
				Ctx: map[string]any{"expected": ConvertDirections()}}))
			return
		}
		s.writeError(w, r, &Error{Kind: KindNotFound, Detail: "no such route: " + r.URL.Path + " (see /docs)"})
		return
	}
	rt, ok := byMethod[r.Method]
	if !ok && r.Method == http.MethodHead {
		rt, ok = byMethod[http.MethodGet]
	}
	if !ok {
		allow := make([]string, 0, len(byMethod))
		for m := range byMethod {
			allow = append(allow, m)
		}
		sort.Strings(allow)
		s.writeError(w, r, &Error{Kind: KindMethodNotAllowed, Allow: strings.Join(allow, ", "),
			Detail: fmt.Sprintf("method %s not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(allow, ", "))})
		return
	}
	infoFrom(r.Context()).setOp(rt.OperationID)
	s.serveRoute(w, r, rt)
}

// writeJSON writes v as JSON with the given status.
func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"detail":"internal server error: response encoding failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// rulesets lists the rule sets loaded by the validator, if any.
func (s *Server) rulesets() []wire.RulesetRef {
	if s.cfg.Ops.Validator == nil {
		return []wire.RulesetRef{}
	}
	rs := s.cfg.Ops.Validator.Rulesets()
	if rs == nil {
		return []wire.RulesetRef{}
	}
	return rs
}
