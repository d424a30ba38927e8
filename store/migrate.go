package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// migration is one embedded schema change: migrations/<dialect>/NNNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the dialect's migration files, ordered by version. Versions
// must be 1..n without gaps or duplicates.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("listing migrations: %w", err)
	}
	var ms []migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		base := strings.TrimSuffix(e.Name(), ".sql")
		num, name, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 || name == "" {
			return nil, fmt.Errorf("migration file %q: want NNNN_name.sql", e.Name())
		}
		body, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("reading migration %q: %w", e.Name(), err)
		}
		ms = append(ms, migration{version: v, name: name, sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration versions must be 1..%d without gaps; found %d at position %d", len(ms), m.version, i+1)
		}
	}
	if len(ms) == 0 {
		return nil, errors.New("no migrations embedded")
	}
	return ms, nil
}

// appliedVersions reads schema_migrations outside any lock. A missing table reads
// as "nothing applied".
func appliedVersions(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) (map[int]bool, error) {
	rows, err := q.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		applied[v] = true
	}
	return applied, rows.Err()
}

func pending(ms []migration, applied map[int]bool) []migration {
	var out []migration
	for _, m := range ms {
		if !applied[m.version] {
			out = append(out, m)
		}
	}
	return out
}

// migrate brings the schema up to date. An up-to-date database is only read (so
// a read-only SQLite file still opens). Otherwise one transaction takes the
// dialect's lock (BEGIN IMMEDIATE on SQLite, pg_advisory_xact_lock on
// PostgreSQL), re-reads schema_migrations, applies what is still pending and
// records each version, so concurrent Opens apply every migration exactly once.
// Versions in the database that this binary does not know (a newer instance ran)
// are tolerated: migrations only add.
func migrate(ctx context.Context, db *sql.DB, d *dialect, now time.Time) (err error) {
	defer wrap(&err, "migrating %s schema", d.name)
	ms, err := loadMigrations(d.migrations)
	if err != nil {
		return err
	}
	if applied, err := appliedVersions(ctx, db); err == nil && len(pending(ms, applied)) == 0 {
		return nil
	} else if err != nil && d.classify(err) == ErrUnavailable {
		return d.mapErr(err)
	}

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return d.mapErr(fmt.Errorf("beginning migration transaction: %w", err))
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if d.lockMigrations != "" {
		if _, err := tx.ExecContext(ctx, d.lockMigrations); err != nil {
			return d.mapErr(fmt.Errorf("taking migration lock: %w", err))
		}
	}
	if _, err := tx.ExecContext(ctx, d.migrationsTable); err != nil {
		return d.mapErr(fmt.Errorf("creating schema_migrations: %w", err))
	}
	applied, err := appliedVersions(ctx, tx)
	if err != nil {
		return d.mapErr(fmt.Errorf("reading schema_migrations: %w", err))
	}
	insert := d.rebind("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
	for _, m := range pending(ms, applied) {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return d.mapErr(fmt.Errorf("applying migration %04d_%s: %w", m.version, m.name, err))
		}
		if _, err := tx.ExecContext(ctx, insert, m.version, m.name, d.timeArg(now)); err != nil {
			return d.mapErr(fmt.Errorf("recording migration %04d_%s: %w", m.version, m.name, err))
		}
	}
	if err := tx.Commit(); err != nil {
		return d.mapErr(fmt.Errorf("committing migrations: %w", err))
	}
	return nil
}
