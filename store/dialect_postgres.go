package store

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

//go:embed migrations/postgres/*.sql
var postgresMigrationFiles embed.FS

// Pool and connection limits for PostgreSQL. A connect_timeout in the URL wins
// over pgConnectTimeout.
const (
	pgConnectTimeout   = 5 * time.Second
	pgMaxOpenConns     = 10
	pgMaxIdleConns     = 5
	pgConnMaxLifetime  = 30 * time.Minute
	pgConnMaxIdleTime  = 5 * time.Minute
	pgMigrationLockKey = 0x65696e766f696365 // "einvoice" as an int64 advisory lock key
)

func newPostgresDialect() (*dialect, error) {
	sub, err := fs.Sub(postgresMigrationFiles, "migrations/postgres")
	if err != nil {
		return nil, fmt.Errorf("opening embedded postgres migrations: %w", err)
	}
	return &dialect{
		name:       "postgres",
		migrations: sub,
		migrationsTable: `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL
)`,
		lockMigrations: "SELECT pg_advisory_xact_lock(" + strconv.FormatInt(pgMigrationLockKey, 10) + ")",
		rebind:         rebindDollar,
		timeArg:        func(t time.Time) any { return t.UTC() },
		daySelect:      "to_char(day, 'YYYY-MM-DD')",
		classify:       classifyPostgres,
	}, nil
}

// rebindDollar turns each '?' into $1, $2, ... Our queries have no '?' inside
// string literals.
func rebindDollar(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 8)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// classifyPostgres maps SQLSTATEs and pgx failures: connection exceptions (08),
// insufficient resources such as disk full (53), operator intervention such as
// shutdown (57P01-57P05), system/I-O errors (58), read-only transactions (25006)
// and failures to connect (including connect timeouts) -> ErrUnavailable; foreign-key violation -> ErrNotFound.
func classifyPostgres(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		code := pgErr.Code
		switch {
		case code == "23503":
			return ErrNotFound
		case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "53"),
			strings.HasPrefix(code, "57P"), strings.HasPrefix(code, "58"),
			code == "25006", code == "3D000": // 3D000: the database does not exist
			return ErrUnavailable
		}
		return nil
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		return ErrUnavailable
	}
	return nil
}

// openPostgres opens a bounded pgx pool through database/sql and migrates.
func openPostgres(ctx context.Context, databaseURL string) (*sqlStore, error) {
	d, err := newPostgresDialect()
	if err != nil {
		return nil, err
	}
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		// The parse error may quote the URL; do not repeat the password.
		return nil, errors.New("parsing DatabaseURL: invalid PostgreSQL URL")
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = pgConnectTimeout
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(pgMaxOpenConns)
	db.SetMaxIdleConns(pgMaxIdleConns)
	db.SetConnMaxLifetime(pgConnMaxLifetime)
	db.SetConnMaxIdleTime(pgConnMaxIdleTime)
	s, err := newSQLStore(ctx, db, d)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("postgres %s:%d/%s: %w", cfg.Host, cfg.Port, cfg.Database, err)
	}
	return s, nil
}
