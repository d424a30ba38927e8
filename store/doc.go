// Package store owns API keys and usage metering: issuing, listing, revoking and
// authenticating keys, and counting protected calls per key, operation and UTC day.
//
// Two backends sit behind one database/sql implementation (sqlStore):
//
//   - SQLite (default, no set-up): the file DataDir/einvoice.db, created on first
//     Open (directory 0700, file 0600), WAL mode, busy_timeout, foreign keys on,
//     through the pure-Go driver modernc.org/sqlite.
//   - PostgreSQL when Config.DatabaseURL is a postgres:// URL, through pgx/v5's
//     database/sql driver with a bounded pool and a connect timeout, so that many
//     stateless instances share keys and usage.
//
// Everything that differs between the two (placeholders, time and day columns,
// the migration lock, error codes, the migration files) lives in a dialect value
// (dialect.go, dialect_sqlite.go, dialect_postgres.go); the queries in
// sql_store.go are written once.
//
// Keys are "ek_live_" followed by 32 base62 characters drawn from crypto/rand by
// rejection sampling (no modulo bias). Only the hex SHA-256 of a key and a short
// display prefix are stored; the plaintext is returned once by CreateKey.
// Authenticate rejects malformed keys without touching the database, looks the
// key up by hash and compares hashes with crypto/subtle.ConstantTimeCompare.
//
// Errors: a database that is down, unreachable, read-only or full yields an error
// that wraps ErrUnavailable (the HTTP layer answers 503, never 401); unknown ids
// wrap ErrNotFound; authentication failures are ErrUnknownKey or ErrRevokedKey.
// Every exported method wraps its error with the operation name.
//
// Schema changes are versioned migrations embedded from migrations/<dialect>/,
// applied in one transaction under a lock (BEGIN IMMEDIATE on SQLite, an
// advisory transaction lock on PostgreSQL) and recorded in schema_migrations,
// so Open is idempotent and safe when several instances start at once.
//
// See docs/STORE.md for the schema, key format and how tests get a PostgreSQL.
package store
