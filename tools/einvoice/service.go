package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
)

// newService builds the operations with every capability that has landed,
// for a one-shot CLI command: rule sets and schemas are compiled lazily, so
// a command compiles only the profile and schema its document needs (the
// cold start of `einvoice validate FILE` is the whole-process figure of
// docs/PERFORMANCE.md). Validation needs the engine-backed validator, which
// loads the generated rule tables and the official schemas under sharedDir;
// when that fails the service is returned without a validator (validate
// operations answer 501, the CLI reports an error) together with the reason.
func newService(sharedDir string, opts ...engineval.Option) (*ops.Service, error) {
	conv := pdfaconv.New(pdfaconv.Config{}) // Ghostscript from PATH; checked per conversion (503 when missing)
	v, err := engineval.New(sharedDir, append([]engineval.Option{engineval.Lazy()}, opts...)...)
	if err != nil {
		return &ops.Service{PDFAConverter: conv}, fmt.Errorf("validation engine not available: %w", err)
	}
	return &ops.Service{Validator: v, PDFAConverter: conv}, nil
}

// newServerService is newService for `einvoice serve`: the server listens at
// once and compiles every profile and schema in the background, so start-up
// does not wait for the whole catalog while no request pays for it after the
// warm-up (a request arriving earlier compiles just what it needs, once).
// The returned channel is closed when the warm-up has ended (compiled or
// failed), or at once when there is no validator: serve starts the veraPDF
// workers only then, so that two JVMs starting up do not take the cores the
// rule sets compile on (docs/PERFORMANCE.md, "Start-up and memory").
func newServerService(ctx context.Context, sharedDir string, xsdSpin time.Duration, logger *slog.Logger) (*ops.Service, <-chan struct{}, error) {
	warmed := make(chan struct{})
	svc, err := newService(sharedDir, engineval.ShareSchemas(), engineval.XSDSpin(xsdSpin)) // everything is compiled: see engineval.ShareSchemas
	if err != nil {
		close(warmed)
		return svc, warmed, err
	}
	v := svc.Validator.(*engineval.Validator)
	go func() {
		start := time.Now()
		err := v.Warm(ctx)
		if err != nil {
			logger.Error("rule sets and schemas: warm-up failed; affected operations answer errors", "error", err)
		} else {
			logger.Info("rule sets and schemas compiled", "duration_ms", time.Since(start).Milliseconds())
		}
		close(warmed)
		engineval.ReleaseWarmGarbage()
	}()
	return svc, warmed, nil
}
