package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	envChild      = "EINVOICE_STORE_TEST_CHILD"
	envChildDir   = "EINVOICE_STORE_TEST_DIR"
	envChildKey   = "EINVOICE_STORE_TEST_KEY"
	childReadOnly = "readonly"
	childOK       = "read-only child: ok"
	nobodyID      = 65534
)

func TestSQLiteFileModesAndPragmas(t *testing.T) {
	ctx := ctxT(t)
	cfg := sqliteConfig(t)
	s := openStore(t, cfg)
	if _, _, err := s.CreateKey(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		cfg.DataDir:                                   0o700 | os.ModeDir,
		filepath.Join(cfg.DataDir, DBFileName):        0o600,
		filepath.Join(cfg.DataDir, DBFileName+"-wal"): 0o600,
		filepath.Join(cfg.DataDir, DBFileName+"-shm"): 0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatalf("stat %s: %v", path, err)
		}
		if fi.Mode() != want {
			t.Errorf("%s mode = %v, want %v", filepath.Base(path), fi.Mode(), want)
		}
	}
	// Every pooled connection carries the pragmas, not just the first.
	var conns []interface{ Close() error }
	for i := 0; i < 3; i++ {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var mode string
		var fk, busy int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || fk != 1 || busy != int(sqliteBusyTimeout.Milliseconds()) {
			t.Errorf("conn %d: journal_mode=%s foreign_keys=%d busy_timeout=%d", i, mode, fk, busy)
		}
	}
	for _, c := range conns {
		_ = c.Close()
	}
}

// TestSQLiteDiskFull caps the database at its current size (PRAGMA
// max_page_count), so writes fail with SQLITE_FULL as on a full disk.
func TestSQLiteDiskFull(t *testing.T) {
	ctx := ctxT(t)
	s := openStore(t, sqliteConfig(t))
	k, plain, err := s.CreateKey(ctx, "before")
	if err != nil {
		t.Fatal(err)
	}
	s.db.SetMaxOpenConns(1) // max_page_count is per connection
	var pages int
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
		t.Fatal(err)
	}
	var err1 error
	for i := 0; i < 200 && err1 == nil; i++ { // fill the last free page
		_, _, err1 = s.CreateKey(ctx, strings.Repeat("n", maxNameLen))
	}
	if !errors.Is(err1, ErrUnavailable) {
		t.Fatalf("CreateKey on a full database = %v, want ErrUnavailable", err1)
	}
	for i := 0; i < 200; i++ {
		if err = s.RecordUsage(ctx, k.ID, fmt.Sprintf("op%03d", i), false, time.Now()); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("RecordUsage on a full database = %v, want ErrUnavailable", err)
	}
	// Reads still work.
	if _, err := s.Authenticate(ctx, plain); err != nil {
		t.Fatalf("Authenticate on a full database: %v", err)
	}
}

// TestSQLiteReadOnlyFile makes einvoice.db read-only for its owner and checks that
// reads still authenticate while every write reports ErrUnavailable (503), never
// an authentication failure. As root, permissions do not bind, so the check runs
// in a copy of this test binary as user nobody.
func TestSQLiteReadOnlyFile(t *testing.T) {
	ctx := ctxT(t)
	base, err := os.MkdirTemp("", "store-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "data")
	s, err := Open(ctx, Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	k, plain, err := s.CreateKey(ctx, "ro")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RecordUsage(ctx, k.ID, "repair", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil { // checkpoints and removes the WAL
		t.Fatal(err)
	}
	file := filepath.Join(dir, DBFileName)
	if err := os.Chmod(file, 0o400); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		if err := checkReadOnlyStore(dir, plain); err != nil {
			t.Fatal(err)
		}
		return
	}
	runReadOnlyChild(t, base, dir, plain)
}

// runReadOnlyChild hands dir to nobody and runs checkReadOnlyStore there through
// TestMain, from a copy of the test binary nobody can execute.
func runReadOnlyChild(t *testing.T, base, dir, plain string) {
	t.Helper()
	for _, p := range []string{dir, filepath.Join(dir, DBFileName)} {
		if err := os.Chown(p, nobodyID, nobodyID); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "store.test")
	if err := copyFile(self, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+childReadOnly, envChildDir+"="+dir, envChildKey+"="+plain, "HOME="+base)
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobodyID, Gid: nobodyID}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), childOK) {
		t.Fatalf("read-only check as nobody: %v\n%s", err, out)
	}
	t.Logf("ran as uid %d: %s", nobodyID, strings.TrimSpace(string(out)))
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// checkReadOnlyStore expects dir to hold a migrated database whose file is not
// writable by the current user, with key plain in it.
func checkReadOnlyStore(dir, plain string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if f, err := os.OpenFile(filepath.Join(dir, DBFileName), os.O_WRONLY, 0); err == nil {
		_ = f.Close()
		return errors.New("the database file is writable: the test set-up is wrong")
	}
	s, err := Open(ctx, Config{DataDir: dir})
	if err != nil {
		return fmt.Errorf("Open of an up-to-date read-only file should succeed: %w", err)
	}
	defer s.Close()
	k, err := s.Authenticate(ctx, plain)
	if err != nil {
		return fmt.Errorf("Authenticate on a read-only file: %w", err)
	}
	if _, _, err := s.CreateKey(ctx, "new"); !errors.Is(err, ErrUnavailable) {
		return fmt.Errorf("CreateKey on a read-only file = %v, want ErrUnavailable", err)
	}
	if err := s.RecordUsage(ctx, k.ID, "repair", true, time.Now()); !errors.Is(err, ErrUnavailable) {
		return fmt.Errorf("RecordUsage on a read-only file = %v, want ErrUnavailable", err)
	}
	if err := s.RevokeKey(ctx, k.ID); !errors.Is(err, ErrUnavailable) {
		return fmt.Errorf("RevokeKey on a read-only file = %v, want ErrUnavailable", err)
	}
	return nil
}

func TestOpenConfigErrors(t *testing.T) {
	ctx := ctxT(t)
	for _, cfg := range []Config{
		{},
		{DatabaseURL: "mysql://u@h/db"},
		{DatabaseURL: "postgres://u:hunter2@[::1/db"},
	} {
		s, err := Open(ctx, cfg)
		if err == nil {
			_ = s.Close()
			t.Errorf("Open(%+v) succeeded", cfg)
			continue
		}
		if errors.Is(err, ErrUnavailable) {
			t.Errorf("Open(%+v) = %v: a configuration error is not an outage", cfg, err)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open error leaks the password: %v", err)
		}
	}
}

// TestSQLiteDataDirSpecialCharacters: the path goes into a file: URI, so
// characters with a meaning there must be escaped.
func TestSQLiteDataDirSpecialCharacters(t *testing.T) {
	ctx := ctxT(t)
	dir := filepath.Join(t.TempDir(), "a dir?x=1#frag%20&_pragma=foo")
	s := openStore(t, Config{DataDir: dir})
	if _, _, err := s.CreateKey(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, DBFileName))
	if err != nil || fi.Size() == 0 {
		t.Fatalf("SQLite did not write %s: %v", filepath.Join(dir, DBFileName), err)
	}
	siblings, err := os.ReadDir(filepath.Dir(dir))
	if err != nil || len(siblings) != 1 {
		t.Fatalf("files next to the data directory: %v, %v; want only the directory", siblings, err)
	}
}
