package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"syscall"
	"time"
)

// dialect holds everything that differs between SQLite and PostgreSQL. The
// queries in sql_store.go are written once with '?' placeholders.
type dialect struct {
	name string
	// migrations holds NNNN_name.sql files for this dialect.
	migrations fs.FS
	// migrationsTable is the DDL of schema_migrations (CREATE TABLE IF NOT EXISTS).
	migrationsTable string
	// lockMigrations, when set, runs first in the migration transaction and holds
	// a lock until commit so that concurrent Opens apply migrations once.
	lockMigrations string
	// rebind turns '?' placeholders into the dialect's form.
	rebind func(query string) string
	// timeArg encodes a timestamp for a created_at/revoked_at/applied_at column.
	timeArg func(t time.Time) any
	// daySelect is the expression that reads usage_counters.day as YYYY-MM-DD text.
	daySelect string
	// classify maps a driver error to ErrUnavailable or ErrNotFound (returning the
	// sentinel), or returns nil when the error has no special meaning.
	classify func(err error) error
}

// mapErr attaches the sentinel the error stands for, if any, keeping the driver
// error in the chain: errors.Is(mapErr(err), ErrUnavailable) and errors.As on the
// driver's type both work.
func (d *dialect) mapErr(err error) error {
	if err == nil {
		return nil
	}
	if sentinel := d.classify(err); sentinel != nil {
		return fmt.Errorf("%w: %w", sentinel, err)
	}
	// The caller gave up (request cancelled or past its deadline): that is not an
	// outage of the database, and context.DeadlineExceeded would otherwise match
	// net.Error below.
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if s := classifyCommon(err); s != nil {
		return fmt.Errorf("%w: %w", s, err)
	}
	return err
}

// classifyCommon recognises failures any backend can produce: a connection the
// pool has given up on, a network or file-system error.
func classifyCommon(err error) error {
	var netErr net.Error
	switch {
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return ErrUnavailable
	case errors.As(err, &netErr):
		return ErrUnavailable
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS),
		errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EIO):
		return ErrUnavailable
	}
	return nil
}

// dbTime scans a timestamp column that is TEXT (RFC 3339, SQLite) or timestamptz
// (PostgreSQL), nullable. Times are returned in UTC.
type dbTime struct {
	Time  time.Time
	Valid bool
}

// Scan implements sql.Scanner.
func (t *dbTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*t = dbTime{}
		return nil
	case time.Time:
		*t = dbTime{Time: v.UTC(), Valid: true}
		return nil
	case string:
		return t.parse(v)
	case []byte:
		return t.parse(string(v))
	}
	return fmt.Errorf("store: cannot scan %T into a timestamp", src)
}

func (t *dbTime) parse(s string) error {
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("store: parsing stored timestamp: %w", err)
	}
	*t = dbTime{Time: v.UTC(), Valid: true}
	return nil
}

func (t dbTime) ptr() *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time
	return &v
}
