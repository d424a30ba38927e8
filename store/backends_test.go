package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// Environment variables that select the PostgreSQL run (see docs/STORE.md).
const (
	envTestDatabaseURL = "EINVOICE_TEST_DATABASE_URL"
	envRequirePostgres = "EINVOICE_REQUIRE_POSTGRES"
)

// backend produces fresh, isolated configurations for one database kind.
type backend struct {
	name string
	// config returns a Config nobody else uses (a new SQLite directory, a new
	// PostgreSQL schema), cleaned up with the test.
	config func(t testing.TB) Config
}

func allBackends() []backend {
	return []backend{
		{name: "sqlite", config: sqliteConfig},
		{name: "postgres", config: postgresConfig},
	}
}

func sqliteConfig(t testing.TB) Config {
	t.Helper()
	return Config{DataDir: filepath.Join(t.TempDir(), "data")}
}

// postgresURL returns EINVOICE_TEST_DATABASE_URL; without it the test is skipped,
// or fails when EINVOICE_REQUIRE_POSTGRES=1 (as `make test` sets).
func postgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(envTestDatabaseURL)
	if u == "" {
		if os.Getenv(envRequirePostgres) == "1" {
			t.Fatalf("%s=1 but %s is empty; start one with scripts/pgtest.sh start DIR", envRequirePostgres, envTestDatabaseURL)
		}
		t.Skipf("PostgreSQL run skipped: %s is empty (set %s=1 to require it)", envTestDatabaseURL, envRequirePostgres)
	}
	return u
}

// postgresConfig creates a schema of its own in the test database and points
// search_path at it, so runs and subtests never see each other's rows.
func postgresConfig(t testing.TB) Config {
	t.Helper()
	base := postgresURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("opening admin connection: %v", err)
	}
	t.Cleanup(func() { _ = admin.Close() })
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	schema := "store_test_" + hex.EncodeToString(rnd[:])
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parsing %s: %v", envTestDatabaseURL, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return Config{DatabaseURL: u.String()}
}

// openStore opens cfg and closes the store when the test ends.
func openStore(t *testing.T, cfg Config) *sqlStore {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s.(*sqlStore)
}

// stdlib is imported for its "pgx" database/sql driver registration.
var _ = stdlib.GetDefaultDriver
