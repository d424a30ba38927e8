package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
	"github.com/einvoice-dev/einvoice/store"
)

// serveConfig is everything `einvoice serve` is configured with.
type serveConfig struct {
	addr, dataDir, databaseURL, gatewaySecret, sharedDir, logLevel string
	maxBody                                                        int64
	rateLimit                                                      float64
	rateBurst                                                      int
	requestTimeout, shutdownGrace, xsdSpin                         time.Duration
	verapdf                                                        verapdf.Options
	iccProfile                                                     string
}

func parseServe(args []string, stdout io.Writer, getenv env) (*serveConfig, error) {
	f := newFlags("serve", "einvoice serve [--addr HOST:PORT] [--data-dir DIR] [flags]", getenv)
	addr := f.String("addr", "EINVOICE_ADDR", "127.0.0.1:8080", "listen address HOST:PORT")
	dataDir := f.String("data-dir", "EINVOICE_DATA_DIR", "./data", "directory of the SQLite key/usage database")
	dbURL := f.Secret("database-url", "DATABASE_URL", "PostgreSQL URL (postgres://...); overrides --data-dir")
	secret := f.Secret("gateway-secret", "EINVOICE_GATEWAY_SECRET", "when set, protected operations require x-gateway-proxy-secret to match (prefer the env var: flags are visible in ps)")
	maxBody := f.Size("max-body", "EINVOICE_MAX_BODY", httpapi.DefaultMaxBody, "request body limit, e.g. 20MiB (413 beyond)")
	rate := f.Float("rate-limit", "EINVOICE_RATE_LIMIT", 0, "per-key requests per second, per instance (0 = off; 429 beyond)")
	burst := f.Int("rate-burst", "EINVOICE_RATE_BURST", 0, "per-key burst (0 = max(1, ceil(rate-limit)))")
	timeout := f.Duration("request-timeout", "EINVOICE_REQUEST_TIMEOUT", httpapi.DefaultRequestTimeout, "per-request time limit (503 beyond)")
	grace := f.Duration("shutdown-grace", "EINVOICE_SHUTDOWN_GRACE", 15*time.Second, "time to finish in-flight requests after SIGINT/SIGTERM")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	logLevel := f.String("log-level", "EINVOICE_LOG_LEVEL", "info", "debug, info, warn or error")
	spin := f.Duration("xsd-spin", "EINVOICE_XSD_SPIN", engineval.DefaultXSDSpin, "how long a worker that has run an XSD stage polls for the next one before it sleeps, while documents come back to back (0 = never)")
	icc := f.String("icc-profile", "EINVOICE_ICC_PROFILE", pdfa.DefaultICCProfile, "sRGB ICC profile of the PDF/A output intent (Debian's icc-profiles-free)")
	vf := addVeraPDFFlags(f, true)
	pos, err := f.parse(args, stdout)
	if err != nil {
		return nil, err
	}
	if len(pos) > 0 {
		return nil, usagef("serve: unexpected argument %q", pos[0])
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return nil, usagef("serve: --addr %q: want HOST:PORT", *addr)
	}
	if *rate < 0 || *burst < 0 {
		return nil, usagef("serve: --rate-limit and --rate-burst must not be negative")
	}
	if *timeout <= 0 || *grace < 0 || *spin < 0 {
		return nil, usagef("serve: --request-timeout must be positive, --shutdown-grace and --xsd-spin not negative")
	}
	vopts, err := vf.options("serve")
	if err != nil {
		return nil, err
	}
	// A check longer than the request could never be answered: stop it with the request.
	vopts.Timeout = min(vopts.Timeout, *timeout)
	return &serveConfig{addr: *addr, dataDir: *dataDir, databaseURL: *dbURL, gatewaySecret: *secret,
		sharedDir: *shared, logLevel: *logLevel, maxBody: int64(*maxBody), rateLimit: *rate, rateBurst: *burst,
		requestTimeout: *timeout, shutdownGrace: *grace, xsdSpin: *spin, verapdf: vopts, iccProfile: *icc}, nil
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, usagef("serve: --log-level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

// cmdServe runs the HTTP API until ctx is cancelled (SIGINT/SIGTERM), then
// shuts down gracefully within the grace period.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) (err error) {
	cfg, err := parseServe(args, stdout, getenv)
	if err != nil {
		return err
	}
	level, err := parseLevel(cfg.logLevel)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	st, err := store.Open(ctx, store.Config{DataDir: cfg.dataDir, DatabaseURL: cfg.databaseURL})
	if err != nil {
		return fmt.Errorf("serve: open store: %w", err)
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("serve: close store: %w", cerr)
		}
	}()
	svc, warmed, rulesetsErr := newServerService(ctx, cfg.sharedDir, cfg.xsdSpin, logger)
	if rulesetsErr != nil {
		logger.Warn("validation not available", "error", rulesetsErr)
	}
	svc.VeraPDF = verapdf.New(cfg.verapdf)
	svc.ICCProfile = cfg.iccProfile
	if _, err := pdfa.ReadICCProfile(cfg.iccProfile); err != nil {
		logger.Warn("PDF/A output not available; generate/facturx and the *-to-facturx conversions answer 501", "error", err)
	}
	// Ghostscript's time limit is the request's; its output intent the server's profile.
	svc.PDFAConverter = pdfaconv.New(pdfaconv.Config{ICCProfile: cfg.iccProfile, Timeout: cfg.requestTimeout})
	if err := svc.PDFAConverter.Check(); err != nil {
		logger.Warn("PDF/A conversion not available; pdfa/convert and facturx/embed answer 503", "error", err)
	}
	defer func() { _ = svc.VeraPDF.Close() }()
	api, err := httpapi.New(httpapi.Config{
		Version: version, Store: keyStore{st}, Ops: svc, GatewaySecret: cfg.gatewaySecret,
		MaxBody: cfg.maxBody, RateLimit: cfg.rateLimit, RateBurst: cfg.rateBurst,
		RequestTimeout: cfg.requestTimeout, Logger: logger,
	})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{
		Handler:           api,
		ConnState:         api.ConnState,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       cfg.requestTimeout + 10*time.Second,
		WriteTimeout:      cfg.requestTimeout + 10*time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	logger.Info("listening", "addr", ln.Addr().String(), "version", version,
		"gateway_secret", cfg.gatewaySecret != "", "rate_limit", cfg.rateLimit, "max_body", cfg.maxBody)
	go func() {
		select {
		case <-warmed: // the rule sets first (see newServerService)
		case <-ctx.Done():
			return
		}
		if err := api.PrepareReference(); err != nil {
			logger.Error("the OpenAPI document could not be rendered; /openapi.json and /docs answer 500", "error", err)
		}
		superviseVeraPDF(ctx, svc.VeraPDF, cfg.verapdf, logger)
	}()
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down", "grace", cfg.shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), cfg.shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}
