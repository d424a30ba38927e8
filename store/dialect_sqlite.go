package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/sqlite/*.sql
var sqliteMigrationFiles embed.FS

// DBFileName is the SQLite file created inside Config.DataDir.
const DBFileName = "einvoice.db"

// sqliteTimeLayout stores timestamps as fixed-width UTC text, which sorts in time
// order and keeps PostgreSQL's microsecond precision.
const sqliteTimeLayout = "2006-01-02T15:04:05.000000Z"

// sqliteBusyTimeout is how long a connection waits for a lock held by another
// connection or process before failing with SQLITE_BUSY.
const sqliteBusyTimeout = 5 * time.Second

// sqliteMaxOpenConns bounds the pool; WAL lets readers run beside one writer.
const sqliteMaxOpenConns = 8

func newSQLiteDialect() (*dialect, error) {
	sub, err := fs.Sub(sqliteMigrationFiles, "migrations/sqlite")
	if err != nil {
		return nil, fmt.Errorf("opening embedded sqlite migrations: %w", err)
	}
	return &dialect{
		name:       "sqlite",
		migrations: sub,
		migrationsTable: `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	applied_at TEXT NOT NULL
) STRICT`,
		rebind:    func(q string) string { return q },
		timeArg:   func(t time.Time) any { return t.UTC().Format(sqliteTimeLayout) },
		daySelect: "day",
		classify:  classifySQLite,
	}, nil
}

// classifySQLite maps SQLite result codes: the database cannot be used (read-only,
// full, I/O error, cannot open, locked past busy_timeout, corrupt) -> ErrUnavailable;
// a foreign-key violation (unknown key id) -> ErrNotFound.
func classifySQLite(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return nil
	}
	code := se.Code()
	switch code & 0xff {
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR,
		sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED,
		sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_PERM,
		sqlite3.SQLITE_NOLFS, sqlite3.SQLITE_PROTOCOL:
		return ErrUnavailable
	case sqlite3.SQLITE_CONSTRAINT:
		if code == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY {
			return ErrNotFound
		}
	}
	return nil
}

// sqliteDSN builds the modernc.org/sqlite DSN: busy_timeout first, WAL, foreign
// keys, synchronous=FULL (every commit, usage counts included, is on disk before
// the call is answered: a disk failure or power cut loses no acknowledged count —
// NORMAL lost 77 of 127 in the reliability suite's read-only disk test — at the
// cost of one WAL fsync per protected call) and BEGIN IMMEDIATE for transactions so
// a migration takes the write lock up front instead of failing on upgrade.
func sqliteDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", sqliteBusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// openSQLite creates dataDir (0700) and the database file (0600) when missing,
// opens it and migrates it.
func openSQLite(ctx context.Context, dataDir string) (*sqlStore, error) {
	d, err := newSQLiteDialect()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, d.mapErr(fmt.Errorf("creating data directory: %w", err))
	}
	path := filepath.Join(dataDir, DBFileName)
	// Create the file ourselves so it gets 0600; SQLite gives its -wal and -shm
	// files the same mode. O_EXCL leaves an existing (maybe read-only) file alone.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		if err := f.Close(); err != nil {
			return nil, d.mapErr(fmt.Errorf("creating %s: %w", path, err))
		}
	case errors.Is(err, fs.ErrExist):
	default:
		return nil, d.mapErr(fmt.Errorf("creating %s: %w", path, err))
	}
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(sqliteMaxOpenConns)
	db.SetMaxIdleConns(sqliteMaxOpenConns)
	if err := connectSQLite(ctx, db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, d.mapErr(fmt.Errorf("connecting: %w", err)))
	}
	s, err := newSQLStore(ctx, db, d)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return s, nil
}

// connectSQLite opens the first connection. A database file that another
// Open (this process or another instance on the same data directory) is
// creating is switched to WAL by whichever connection gets there first, and
// SQLite answers the others' journal_mode pragma with SQLITE_BUSY at once,
// without waiting in its busy handler (about 1 concurrent Open in 80 of
// TestStore/sqlite/migrations_concurrent_open failed so). The connection is
// tried again until the busy timeout, as a lock held by another connection
// would be waited for.
func connectSQLite(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(sqliteBusyTimeout)
	for delay := 2 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := db.PingContext(ctx)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().Add(delay).After(deadline) {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}
