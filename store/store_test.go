package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	plaintextRE = regexp.MustCompile(`^ek_live_[0-9A-Za-z]{32}$`)
	keyIDRE     = regexp.MustCompile(`^key_[0-9A-Za-z]{12}$`)
)

// suiteCase is one behaviour checked against every backend.
type suiteCase struct {
	name string
	run  func(t *testing.T, cfg Config)
}

// TestStore runs the whole behavioural suite against SQLite and PostgreSQL.
func TestStore(t *testing.T) {
	cases := []suiteCase{
		{"create_list_revoke", testCreateListRevoke},
		{"authenticate", testAuthenticate},
		{"malformed_key_needs_no_database", testMalformedNoDB},
		{"hash_only_storage", testHashOnlyStorage},
		{"usage_counting", testUsageCounting},
		{"usage_concurrent_50", testUsageConcurrent},
		{"usage_day_rollover", testUsageDayRollover},
		{"usage_unknown_key", testUsageUnknownKey},
		{"invalid_input", testInvalidInput},
		{"migrations_idempotent", testMigrationsIdempotent},
		{"migrations_concurrent_open", testMigrationsConcurrentOpen},
		{"ping", testPing},
		{"cancelled_context", testCancelledContext},
	}
	for _, b := range allBackends() {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, b.config(t)) })
			}
		})
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func testCreateListRevoke(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	clock := time.Date(2026, 3, 1, 10, 0, 0, 123456789, time.UTC)
	s.now = func() time.Time { clock = clock.Add(time.Second); return clock }

	if keys, err := s.ListKeys(ctx); err != nil || len(keys) != 0 {
		t.Fatalf("ListKeys on empty store = %v, %v; want [], nil", keys, err)
	}
	k1, p1, err := s.CreateKey(ctx, "first")
	if err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	k2, p2, err := s.CreateKey(ctx, "zweiter Schlüssel")
	if err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	for _, c := range []struct {
		k Key
		p string
	}{{k1, p1}, {k2, p2}} {
		if !plaintextRE.MatchString(c.p) {
			t.Errorf("plaintext %q does not match %s", c.p, plaintextRE)
		}
		if !keyIDRE.MatchString(c.k.ID) {
			t.Errorf("id %q does not match %s", c.k.ID, keyIDRE)
		}
		if c.k.Prefix != c.p[:12] || len(c.k.Prefix) != 12 {
			t.Errorf("prefix %q, want %q", c.k.Prefix, c.p[:12])
		}
		if c.k.RevokedAt != nil {
			t.Errorf("new key %s is revoked", c.k.ID)
		}
	}
	if p1 == p2 || k1.ID == k2.ID {
		t.Fatalf("two keys share plaintext or id: %q %q / %q %q", p1, p2, k1.ID, k2.ID)
	}
	if want := time.Date(2026, 3, 1, 10, 0, 1, 123456000, time.UTC); !k1.CreatedAt.Equal(want) {
		t.Errorf("CreatedAt = %v, want %v (UTC, microseconds)", k1.CreatedAt, want)
	}

	keys, err := s.ListKeys(ctx)
	if err != nil {
		t.Fatalf("ListKeys: %v", err)
	}
	if len(keys) != 2 || !sameKey(keys[0], k1) || !sameKey(keys[1], k2) {
		t.Fatalf("ListKeys = %+v, want [%+v %+v]", keys, k1, k2)
	}

	if err := s.RevokeKey(ctx, k1.ID); err != nil {
		t.Fatalf("RevokeKey: %v", err)
	}
	revokedAt := clock
	if err := s.RevokeKey(ctx, k1.ID); err != nil {
		t.Fatalf("RevokeKey twice: %v, want nil (no-op)", err)
	}
	if err := s.RevokeKey(ctx, "key_doesnotexist"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("RevokeKey(unknown) = %v, want ErrNotFound", err)
	}
	keys, err = s.ListKeys(ctx)
	if err != nil {
		t.Fatalf("ListKeys: %v", err)
	}
	if len(keys) != 2 || keys[0].RevokedAt == nil || !keys[0].RevokedAt.Equal(revokedAt.Truncate(time.Microsecond)) || keys[1].RevokedAt != nil {
		t.Fatalf("after revoke: %+v; want first revoked at %v (second revoke must not move it), second active", keys, revokedAt)
	}
}

func sameKey(a, b Key) bool {
	if a.ID != b.ID || a.Name != b.Name || a.Prefix != b.Prefix || !a.CreatedAt.Equal(b.CreatedAt) {
		return false
	}
	if (a.RevokedAt == nil) != (b.RevokedAt == nil) {
		return false
	}
	return a.RevokedAt == nil || a.RevokedAt.Equal(*b.RevokedAt)
}

func testAuthenticate(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	good, goodPlain, err := s.CreateKey(ctx, "good")
	if err != nil {
		t.Fatal(err)
	}
	_, revokedPlain, err := s.CreateKey(ctx, "revoked")
	if err != nil {
		t.Fatal(err)
	}
	revoked, _ := s.Authenticate(ctx, revokedPlain)
	if err := s.RevokeKey(ctx, revoked.ID); err != nil {
		t.Fatal(err)
	}
	unknown, _, err := newPlaintextKey()
	if err != nil {
		t.Fatal(err)
	}
	// Same prefix and length as the good key, one character changed at the end.
	last := goodPlain[len(goodPlain)-1]
	flipped := goodPlain[:len(goodPlain)-1] + string("ab"[map[bool]int{true: 1}[last == 'a']])

	tests := []struct {
		name    string
		in      string
		want    error
		wantKey *Key
	}{
		{"valid", goodPlain, nil, &good},
		{"unknown well-formed", unknown, ErrUnknownKey, nil},
		{"one character off", flipped, ErrUnknownKey, nil},
		{"revoked", revokedPlain, ErrRevokedKey, nil},
		{"empty", "", ErrUnknownKey, nil},
		{"prefix only", KeyPrefix, ErrUnknownKey, nil},
		{"wrong prefix", "ek_test_" + goodPlain[8:], ErrUnknownKey, nil},
		{"upper-case prefix", strings.ToUpper(goodPlain[:8]) + goodPlain[8:], ErrUnknownKey, nil},
		{"too short", goodPlain[:len(goodPlain)-1], ErrUnknownKey, nil},
		{"too long", goodPlain + "A", ErrUnknownKey, nil},
		{"trailing newline", goodPlain + "\n", ErrUnknownKey, nil},
		{"leading space", " " + goodPlain[:len(goodPlain)-1], ErrUnknownKey, nil},
		{"bad charset", goodPlain[:20] + "-" + goodPlain[21:], ErrUnknownKey, nil},
		{"non-ASCII", goodPlain[:20] + "é" + goodPlain[22:], ErrUnknownKey, nil},
		{"SQL in key", KeyPrefix + "' OR 1=1 --" + strings.Repeat("A", 21), ErrUnknownKey, nil},
		{"hash instead of key", func() string { _, h := hashKey(goodPlain); return h }(), ErrUnknownKey, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, err := s.Authenticate(ctx, tc.in)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Authenticate: %v", err)
				}
				if !sameKey(k, *tc.wantKey) {
					t.Fatalf("Authenticate = %+v, want %+v", k, *tc.wantKey)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Authenticate(%q) error = %v, want %v", tc.in, err, tc.want)
			}
			if errors.Is(err, ErrUnavailable) {
				t.Fatalf("authentication failure must not look like an outage: %v", err)
			}
			if k != (Key{}) {
				t.Fatalf("Authenticate returned key %+v with error", k)
			}
		})
	}
}

// testMalformedNoDB closes the database and shows malformed keys are still
// answered ErrUnknownKey (so no query ran), while a well-formed key now reports
// the outage.
func testMalformedNoDB(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"", "ek_live_short", "Bearer ek_live_" + strings.Repeat("a", 32), KeyPrefix + strings.Repeat("!", 32)} {
		if _, err := s.Authenticate(ctx, in); !errors.Is(err, ErrUnknownKey) {
			t.Errorf("Authenticate(%q) on closed store = %v, want ErrUnknownKey without a query", in, err)
		}
	}
	wellFormed := KeyPrefix + strings.Repeat("a", 32)
	if _, err := s.Authenticate(ctx, wellFormed); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Authenticate(well-formed) on closed store = %v, want ErrUnavailable", err)
	}
}

func testHashOnlyStorage(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	k, plain, err := s.CreateKey(ctx, "secret-holder")
	if err != nil {
		t.Fatal(err)
	}
	secret := plain[len(KeyPrefix):]
	rows, err := s.db.QueryContext(ctx, "SELECT * FROM api_keys")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(plain))
	wantHash := hex.EncodeToString(sum[:])
	n, sawHash := 0, false
	for rows.Next() {
		n++
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			text := fmt.Sprint(v)
			if b, ok := v.([]byte); ok {
				text = string(b)
			}
			if strings.Contains(text, secret) {
				t.Errorf("column %s holds the key's secret: %q", cols[i], text)
			}
			if text == wantHash {
				sawHash = true
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 1 || !sawHash {
		t.Fatalf("api_keys: %d rows, hash %s stored: %v", n, wantHash, sawHash)
	}
	if k.Prefix != plain[:12] {
		t.Fatalf("prefix %q", k.Prefix)
	}
	if cfg.DataDir != "" {
		// Nothing on disk either: the database file and its WAL.
		for _, name := range []string{DBFileName, DBFileName + "-wal"} {
			b, err := os.ReadFile(filepath.Join(cfg.DataDir, name))
			if err != nil {
				if errors.Is(err, os.ErrNotExist) && name != DBFileName {
					continue
				}
				t.Fatal(err)
			}
			if strings.Contains(string(b), secret) {
				t.Errorf("%s contains the key's secret", name)
			}
			if name == DBFileName+"-wal" && !strings.Contains(string(b), wantHash) && !fileContains(t, filepath.Join(cfg.DataDir, DBFileName), wantHash) {
				t.Errorf("hash found in neither the database nor its WAL: the scan is not looking at the data")
			}
		}
	}
}

func fileContains(t *testing.T, path, s string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(b), s)
}

func testUsageCounting(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	a, _, err := s.CreateKey(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := s.CreateKey(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	d1 := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	d2 := d1.AddDate(0, 0, 1)
	d3 := d1.AddDate(0, 1, 0)
	calls := []struct {
		key      string
		op       string
		billable bool
		at       time.Time
	}{
		{a.ID, "generate/ubl", false, d1},
		{a.ID, "generate/ubl", false, d1.Add(time.Hour)},
		{a.ID, "repair", true, d1},
		{a.ID, "repair", true, d2},
		{a.ID, "repair", true, d2},
		{a.ID, "repair", true, d2},
		{a.ID, "convert", false, d3},
		{b.ID, "repair", true, d1}, // another key: must not show up in a's usage
	}
	for _, c := range calls {
		if err := s.RecordUsage(ctx, c.key, c.op, c.billable, c.at); err != nil {
			t.Fatalf("RecordUsage(%+v): %v", c, err)
		}
	}
	got, err := s.Usage(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []UsageRow{
		{"2026-02-05", "convert", false, 1},
		{"2026-01-06", "repair", true, 3},
		{"2026-01-05", "generate/ubl", false, 2},
		{"2026-01-05", "repair", true, 1},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Usage(a) =\n%v\nwant\n%v", got, want)
	}
	got, err = s.Usage(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []UsageRow{{"2026-01-05", "repair", true, 1}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Usage(b) = %v, want %v", got, want)
	}

	// A zero time counts on today's UTC day, read from the store's clock.
	s.now = func() time.Time { return time.Date(2027, 7, 7, 23, 30, 0, 0, time.FixedZone("X", -3*3600)) }
	if err := s.RecordUsage(ctx, b.ID, "extract", false, time.Time{}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Usage(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != (UsageRow{"2027-07-08", "extract", false, 1}) {
		t.Fatalf("Usage(b) after zero-time call = %v, want 2027-07-08 extract first", got)
	}
}

func testUsageConcurrent(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	k, _, err := s.CreateKey(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs <- s.RecordUsage(ctx, k.ID, "repair", true, at)
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent RecordUsage: %v", err)
		}
	}
	got, err := s.Usage(ctx, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []UsageRow{{"2026-06-01", "repair", true, n}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after %d concurrent calls Usage = %v, want %v", n, got, want)
	}
}

func testUsageDayRollover(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	k, _, err := s.CreateKey(ctx, "night")
	if err != nil {
		t.Fatal(err)
	}
	berlin := time.FixedZone("CET", 3600)
	for _, at := range []time.Time{
		time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.UTC), // last instant of the year
		time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC),              // first instant of the next
		time.Date(2027, 1, 1, 0, 30, 0, 0, berlin),               // local new year, still 2026 in UTC
		time.Date(2027, 1, 1, 23, 59, 59, 0, time.UTC),
	} {
		if err := s.RecordUsage(ctx, k.ID, "render", false, at); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Usage(ctx, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []UsageRow{{"2027-01-01", "render", false, 2}, {"2026-12-31", "render", false, 2}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Usage = %v, want %v", got, want)
	}
}

func testUsageUnknownKey(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	if err := s.RecordUsage(ctx, "key_unknown00000", "repair", true, time.Now()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("RecordUsage(unknown key) = %v, want ErrNotFound", err)
	}
	if _, err := s.Usage(ctx, "key_unknown00000"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Usage(unknown key) = %v, want ErrNotFound", err)
	}
	k, _, err := s.CreateKey(ctx, "idle")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Usage(ctx, k.ID)
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("Usage(idle key) = %#v, %v; want empty non-nil slice", got, err)
	}
}

func testInvalidInput(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s := openStore(t, cfg)
	k, _, err := s.CreateKey(ctx, "")
	if err != nil {
		t.Fatalf("CreateKey with empty name: %v", err)
	}
	for _, op := range []string{"", strings.Repeat("x", maxOperationLen+1), "bad\xff"} {
		err := s.RecordUsage(ctx, k.ID, op, false, time.Now())
		if err == nil || errors.Is(err, ErrUnavailable) || errors.Is(err, ErrNotFound) {
			t.Errorf("RecordUsage(op %q) = %v, want a validation error", op, err)
		}
	}
	for _, name := range []string{strings.Repeat("n", maxNameLen+1), "bad\xff"} {
		if _, _, err := s.CreateKey(ctx, name); err == nil {
			t.Errorf("CreateKey(%q) succeeded, want a validation error", name)
		}
	}
	got, err := s.Usage(ctx, k.ID)
	if err != nil || len(got) != 0 {
		t.Fatalf("rejected calls were counted: %v, %v", got, err)
	}
}

func testMigrationsIdempotent(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s1, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	k, plain, err := s1.CreateKey(ctx, "survivor")
	if err != nil {
		t.Fatal(err)
	}
	if err := s1.RecordUsage(ctx, k.ID, "repair", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		s := openStore(t, cfg)
		if got, err := s.Authenticate(ctx, plain); err != nil || got.ID != k.ID {
			t.Fatalf("reopen %d: Authenticate = %+v, %v", i, got, err)
		}
		if u, err := s.Usage(ctx, k.ID); err != nil || len(u) != 1 || u[0].Count != 1 {
			t.Fatalf("reopen %d: Usage = %v, %v", i, u, err)
		}
		assertMigrationsApplied(t, s)
	}
}

func assertMigrationsApplied(t *testing.T, s *sqlStore) {
	t.Helper()
	ms, err := loadMigrations(s.d.migrations)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.db.QueryContext(ctxT(t), "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if len(got) != len(ms) {
		t.Fatalf("schema_migrations = %v, want versions 1..%d once each", got, len(ms))
	}
	for i, v := range got {
		if v != i+1 {
			t.Fatalf("schema_migrations = %v, want 1..%d", got, len(ms))
		}
	}
}

func testMigrationsConcurrentOpen(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	const n = 4
	stores := make([]Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			stores[i], errs[i] = Open(ctx, cfg)
		}()
	}
	close(start)
	wg.Wait()
	for i := 0; i < n; i++ {
		if errs[i] != nil {
			t.Fatalf("concurrent Open %d: %v", i, errs[i])
		}
		defer stores[i].Close()
	}
	assertMigrationsApplied(t, stores[0].(*sqlStore))
	// Every instance sees the same data.
	k, plain, err := stores[0].CreateKey(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < n; i++ {
		if got, err := stores[i].Authenticate(ctx, plain); err != nil || got.ID != k.ID {
			t.Fatalf("instance %d: Authenticate = %+v, %v", i, got, err)
		}
	}
}

func testPing(t *testing.T, cfg Config) {
	ctx := ctxT(t)
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Ping after Close = %v, want ErrUnavailable", err)
	}
}

// testCancelledContext: a caller that gave up gets its context error back, not
// ErrUnavailable (the database is fine) and not an authentication failure.
func testCancelledContext(t *testing.T, cfg Config) {
	s := openStore(t, cfg)
	k, plain, err := s.CreateKey(ctxT(t), "c")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	checks := map[string]func() error{
		"Authenticate": func() error { _, err := s.Authenticate(ctx, plain); return err },
		"RecordUsage":  func() error { return s.RecordUsage(ctx, k.ID, "repair", true, time.Now()) },
		"Usage":        func() error { _, err := s.Usage(ctx, k.ID); return err },
		"CreateKey":    func() error { _, _, err := s.CreateKey(ctx, "n"); return err },
	}
	for name, f := range checks {
		err := f()
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnavailable) || errors.Is(err, ErrUnknownKey) {
			t.Errorf("%s with a cancelled context = %v, want context.Canceled only", name, err)
		}
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer dcancel()
	if _, err := s.Authenticate(dctx, plain); !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrUnavailable) {
		t.Errorf("Authenticate past its deadline = %v, want context.DeadlineExceeded only", err)
	}
}
