package httpapi

import (
	"context"
	"errors"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// KeyStore is what the HTTP layer needs from the key and usage store. The
// binary adapts store.Store to it; tests use an in-memory fake.
//
// Authenticate returns ErrUnknownKey or ErrRevokedKey (wrapped or not) for keys
// the caller must be refused, and ErrUnavailable when the store cannot answer;
// any other error is treated as unavailable too (503, never 401).
type KeyStore interface {
	Authenticate(ctx context.Context, plaintext string) (APIKey, error)
	RecordUsage(ctx context.Context, keyID, operation string, billable bool, at time.Time) error
	Usage(ctx context.Context, keyID string) ([]wire.UsageRow, error)
	Ping(ctx context.Context) error
}

// APIKey is an authenticated key as the HTTP layer sees it.
type APIKey struct {
	ID   string
	Name string
}

// Errors a KeyStore reports.
var (
	ErrUnknownKey  = errors.New("unknown API key")
	ErrRevokedKey  = errors.New("revoked API key")
	ErrUnavailable = errors.New("store unavailable")
)
