package store

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadMigrations(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	ok := fstest.MapFS{
		"0002_more.sql":  file("B"),
		"0001_first.sql": file("A"),
		"README.txt":     file("ignored"),
	}
	ms, err := loadMigrations(ok)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].version != 1 || ms[0].name != "first" || ms[0].sql != "A" || ms[1].version != 2 {
		t.Fatalf("loadMigrations = %+v", ms)
	}
	for name, bad := range map[string]fstest.MapFS{
		"gap":       {"0001_a.sql": file("A"), "0003_c.sql": file("C")},
		"duplicate": {"0001_a.sql": file("A"), "1_b.sql": file("B")},
		"no number": {"first.sql": file("A")},
		"no name":   {"0001.sql": file("A")},
		"zero":      {"0000_z.sql": file("A")},
		"empty":     {},
	} {
		if _, err := loadMigrations(bad); err == nil {
			t.Errorf("%s: loadMigrations accepted %v", name, keys(bad))
		}
	}
}

func keys(m fstest.MapFS) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestDialectsMigrateInStep keeps the two schemas in step: same versions and
// names, and the same tables.
func TestDialectsMigrateInStep(t *testing.T) {
	sq, err := newSQLiteDialect()
	if err != nil {
		t.Fatal(err)
	}
	pg, err := newPostgresDialect()
	if err != nil {
		t.Fatal(err)
	}
	a, err := loadMigrations(sq.migrations)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadMigrations(pg.migrations)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("sqlite has %d migrations, postgres %d", len(a), len(b))
	}
	for i := range a {
		if a[i].version != b[i].version || a[i].name != b[i].name {
			t.Errorf("migration %d: sqlite %04d_%s, postgres %04d_%s", i, a[i].version, a[i].name, b[i].version, b[i].name)
		}
		for _, table := range []string{"api_keys", "usage_counters"} {
			if i == 0 && (!strings.Contains(a[i].sql, "CREATE TABLE "+table) || !strings.Contains(b[i].sql, "CREATE TABLE "+table)) {
				t.Errorf("first migration must create %s in both dialects", table)
			}
		}
	}
}
