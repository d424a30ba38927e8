package store

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Input limits, checked before any query.
const (
	maxNameLen      = 200
	maxOperationLen = 100
)

// sqlStore implements Store over database/sql for every dialect.
type sqlStore struct {
	db  *sql.DB
	d   *dialect
	now func() time.Time // injectable clock for tests; UTC is applied by callers

	// Prepared once: the two statements on every protected request.
	authStmt  *sql.Stmt
	usageStmt *sql.Stmt

	qInsertKey, qListKeys, qRevoke, qKeyExists, qUsage string

	closed atomic.Bool // set by Close; later calls report ErrUnavailable
}

// errClosed is what calls on a closed store return: to the HTTP layer a store
// that is shutting down is unavailable, not a reason to reject a key.
var errClosed = fmt.Errorf("%w: store is closed", ErrUnavailable)

// mapErr classifies a database error for the caller (see dialect.mapErr); after
// Close, database/sql's unexported "database is closed" errors become errClosed.
func (s *sqlStore) mapErr(err error) error {
	if err == nil {
		return nil
	}
	if s.closed.Load() {
		return fmt.Errorf("%w: %w", errClosed, err)
	}
	return s.d.mapErr(err)
}

var _ Store = (*sqlStore)(nil)

// newSQLStore checks the connection, migrates and prepares the hot statements.
func newSQLStore(ctx context.Context, db *sql.DB, d *dialect) (*sqlStore, error) {
	s := &sqlStore{db: db, d: d, now: time.Now}
	if err := db.PingContext(ctx); err != nil {
		return nil, d.mapErr(fmt.Errorf("connecting: %w", err))
	}
	if err := migrate(ctx, db, d, s.now()); err != nil {
		return nil, err
	}
	var err error
	s.authStmt, err = db.PrepareContext(ctx, d.rebind(
		"SELECT id, name, prefix, key_hash, created_at, revoked_at FROM api_keys WHERE key_hash = ?"))
	if err != nil {
		return nil, d.mapErr(fmt.Errorf("preparing authenticate: %w", err))
	}
	s.usageStmt, err = db.PrepareContext(ctx, d.rebind(
		`INSERT INTO usage_counters (key_id, day, operation, billable, count) VALUES (?, ?, ?, ?, 1)
ON CONFLICT (key_id, day, operation, billable) DO UPDATE SET count = usage_counters.count + 1`))
	if err != nil {
		return nil, d.mapErr(fmt.Errorf("preparing record usage: %w", err))
	}
	s.qInsertKey = d.rebind("INSERT INTO api_keys (id, name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?)")
	s.qListKeys = "SELECT id, name, prefix, created_at, revoked_at FROM api_keys ORDER BY created_at, id"
	s.qRevoke = d.rebind("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
	s.qKeyExists = d.rebind("SELECT 1 FROM api_keys WHERE id = ?")
	s.qUsage = d.rebind("SELECT " + d.daySelect + ", operation, billable, count FROM usage_counters " +
		"WHERE key_id = ? ORDER BY day DESC, operation, billable DESC")
	return s, nil
}

// timestamp is the current time as stored: UTC, microsecond precision (what
// PostgreSQL keeps), so a Key returned by CreateKey equals the one listed later.
func (s *sqlStore) timestamp() time.Time {
	return s.now().UTC().Truncate(time.Microsecond)
}

func (s *sqlStore) CreateKey(ctx context.Context, name string) (k Key, plaintext string, err error) {
	defer wrap(&err, "store.CreateKey(%q)", name)
	if len(name) > maxNameLen || !utf8.ValidString(name) {
		return Key{}, "", fmt.Errorf("name must be valid UTF-8 of at most %d bytes", maxNameLen)
	}
	plaintext, display, err := newPlaintextKey()
	if err != nil {
		return Key{}, "", err
	}
	id, err := newKeyID()
	if err != nil {
		return Key{}, "", err
	}
	_, hash := hashKey(plaintext)
	k = Key{ID: id, Name: name, Prefix: display, CreatedAt: s.timestamp()}
	if _, err := s.db.ExecContext(ctx, s.qInsertKey, k.ID, k.Name, k.Prefix, hash, s.d.timeArg(k.CreatedAt)); err != nil {
		return Key{}, "", s.mapErr(err)
	}
	return k, plaintext, nil
}

func (s *sqlStore) ListKeys(ctx context.Context) (keys []Key, err error) {
	defer wrap(&err, "store.ListKeys")
	rows, err := s.db.QueryContext(ctx, s.qListKeys)
	if err != nil {
		return nil, s.mapErr(err)
	}
	defer rows.Close()
	keys = []Key{}
	for rows.Next() {
		var k Key
		var created, revoked dbTime
		if err := rows.Scan(&k.ID, &k.Name, &k.Prefix, &created, &revoked); err != nil {
			return nil, s.mapErr(err)
		}
		k.CreatedAt, k.RevokedAt = created.Time, revoked.ptr()
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, s.mapErr(err)
	}
	return keys, nil
}

func (s *sqlStore) RevokeKey(ctx context.Context, id string) (err error) {
	defer wrap(&err, "store.RevokeKey(%q)", id)
	res, err := s.db.ExecContext(ctx, s.qRevoke, s.d.timeArg(s.timestamp()), id)
	if err != nil {
		return s.mapErr(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.mapErr(err)
	}
	if n > 0 {
		return nil
	}
	// Nothing updated: unknown id, or already revoked (a no-op).
	return s.keyExists(ctx, id)
}

// keyExists returns nil when id exists, ErrNotFound when it does not.
func (s *sqlStore) keyExists(ctx context.Context, id string) error {
	var one int
	err := s.db.QueryRowContext(ctx, s.qKeyExists, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return s.mapErr(err)
}

// Pre-wrapped results of the common authentication failures: an Internet-facing
// API sees many bad keys, and these paths allocate nothing for the error.
var (
	errMalformedKey = fmt.Errorf("store.Authenticate: malformed key: %w", ErrUnknownKey)
	errUnknownKey   = fmt.Errorf("store.Authenticate: no such key: %w", ErrUnknownKey)
	errRevokedKey   = fmt.Errorf("store.Authenticate: %w", ErrRevokedKey)
)

func (s *sqlStore) Authenticate(ctx context.Context, plaintext string) (Key, error) {
	if !wellFormedKey(plaintext) {
		return Key{}, errMalformedKey
	}
	sum, hash := hashKey(plaintext)
	var k Key
	var stored string
	var created, revoked dbTime
	err := s.authStmt.QueryRowContext(ctx, hash).Scan(&k.ID, &k.Name, &k.Prefix, &stored, &created, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, errUnknownKey
	}
	if err != nil {
		return Key{}, fmt.Errorf("store.Authenticate: %w", s.mapErr(err))
	}
	storedSum, err := hex.DecodeString(stored)
	if err != nil || subtle.ConstantTimeCompare(storedSum, sum[:]) != 1 {
		return Key{}, errUnknownKey
	}
	if revoked.Valid {
		return Key{}, errRevokedKey
	}
	k.CreatedAt = created.Time
	return k, nil
}

func (s *sqlStore) RecordUsage(ctx context.Context, keyID, operation string, billable bool, at time.Time) (err error) {
	defer wrap(&err, "store.RecordUsage(%q, %q)", keyID, operation)
	if operation == "" || len(operation) > maxOperationLen || !utf8.ValidString(operation) {
		return fmt.Errorf("operation must be non-empty valid UTF-8 of at most %d bytes", maxOperationLen)
	}
	if at.IsZero() {
		at = s.now()
	}
	day := at.UTC().Format(time.DateOnly)
	if _, err := s.usageStmt.ExecContext(ctx, keyID, day, operation, billable); err != nil {
		return s.mapErr(err)
	}
	return nil
}

func (s *sqlStore) Usage(ctx context.Context, keyID string) (out []UsageRow, err error) {
	defer wrap(&err, "store.Usage(%q)", keyID)
	rows, err := s.db.QueryContext(ctx, s.qUsage, keyID)
	if err != nil {
		return nil, s.mapErr(err)
	}
	defer rows.Close()
	out = []UsageRow{}
	for rows.Next() {
		var r UsageRow
		if err := rows.Scan(&r.Day, &r.Operation, &r.Billable, &r.Count); err != nil {
			return nil, s.mapErr(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.mapErr(err)
	}
	if len(out) == 0 {
		if err := s.keyExists(ctx, keyID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *sqlStore) Ping(ctx context.Context) (err error) {
	defer wrap(&err, "store.Ping(%s)", s.d.name)
	if err := s.db.PingContext(ctx); err != nil {
		return s.mapErr(err)
	}
	// A ping may be answered from a pooled connection; a trivial query proves the
	// database itself answers.
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return s.mapErr(err)
	}
	return nil
}

func (s *sqlStore) Close() (err error) {
	defer wrap(&err, "store.Close(%s)", s.d.name)
	if s.closed.Swap(true) {
		return nil
	}
	return errors.Join(s.authStmt.Close(), s.usageStmt.Close(), s.db.Close())
}
