package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Key is an issued API key as stored: never the plaintext, only what may be shown.
type Key struct {
	ID        string     // "key_" + 12 base62 characters
	Name      string     // free text given at creation
	Prefix    string     // display prefix, e.g. "ek_live_Ab3d"
	CreatedAt time.Time  // UTC, microsecond precision
	RevokedAt *time.Time // nil while the key is active
}

// UsageRow is one counter: calls of one operation by one key on one UTC day.
type UsageRow struct {
	Day       string // YYYY-MM-DD, UTC
	Operation string
	Billable  bool
	Count     int64
}

// Config selects and locates the backend.
type Config struct {
	// DataDir holds the SQLite file einvoice.db; it is created (0700) if missing.
	// Used only when DatabaseURL is empty.
	DataDir string
	// DatabaseURL, when set, is a postgres:// (or postgresql://) URL and selects
	// PostgreSQL; DataDir is then ignored.
	DatabaseURL string
}

// Store is the persistence the HTTP layer and the CLI need. Implementations are
// safe for concurrent use.
type Store interface {
	// CreateKey issues a key and returns it with its plaintext, which is not
	// stored and cannot be recovered later.
	CreateKey(ctx context.Context, name string) (Key, string, error)
	// ListKeys returns all keys, revoked ones included, oldest first.
	ListKeys(ctx context.Context) ([]Key, error)
	// RevokeKey marks a key revoked; ErrNotFound for an unknown id. Revoking a
	// revoked key is a no-op.
	RevokeKey(ctx context.Context, id string) error
	// Authenticate resolves a presented plaintext key: ErrUnknownKey for a
	// malformed or unknown key, ErrRevokedKey for a revoked one, ErrUnavailable
	// when the database cannot answer.
	Authenticate(ctx context.Context, plaintext string) (Key, error)
	// RecordUsage adds one call of operation by keyID on the UTC day of at (the
	// current time when at is zero). ErrNotFound when keyID does not exist.
	RecordUsage(ctx context.Context, keyID, operation string, billable bool, at time.Time) error
	// Usage returns all counters of keyID, newest day first, then by operation.
	// ErrNotFound when keyID does not exist.
	Usage(ctx context.Context, keyID string) ([]UsageRow, error)
	// Ping reports whether the database answers; its error wraps ErrUnavailable
	// when it does not.
	Ping(ctx context.Context) error
	// Close releases the database handle.
	Close() error
}

// Sentinel errors; match them with errors.Is.
var (
	ErrNotFound    = errors.New("store: not found")
	ErrUnknownKey  = errors.New("store: unknown API key")
	ErrRevokedKey  = errors.New("store: revoked API key")
	ErrUnavailable = errors.New("store: database unavailable")
)

// Open opens the backend cfg selects, creating the SQLite data directory and file
// when needed, and applies pending migrations.
func Open(ctx context.Context, cfg Config) (s Store, err error) {
	defer wrap(&err, "store.Open")
	if cfg.DatabaseURL != "" {
		u := strings.ToLower(cfg.DatabaseURL)
		if !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
			return nil, errors.New("DatabaseURL must start with postgres:// or postgresql://")
		}
		return openPostgres(ctx, cfg.DatabaseURL)
	}
	if cfg.DataDir == "" {
		return nil, errors.New("neither DataDir nor DatabaseURL is set")
	}
	return openSQLite(ctx, cfg.DataDir)
}

// wrap prefixes *errp with the operation name, keeping the chain for errors.Is.
func wrap(errp *error, format string, args ...any) {
	if *errp != nil {
		*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
	}
}
