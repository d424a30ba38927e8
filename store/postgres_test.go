package store

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestRebindDollar(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1":                     "SELECT 1",
		"x = ?":                        "x = $1",
		"VALUES (?, ?, ?, ?, 1)":       "VALUES ($1, $2, $3, $4, 1)",
		strings.Repeat("?,", 11) + "?": "$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12",
	} {
		if got := rebindDollar(in); got != want {
			t.Errorf("rebindDollar(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassifyPostgres(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want error
	}{
		{&pgconn.PgError{Code: "23503"}, ErrNotFound},
		{&pgconn.PgError{Code: "08006"}, ErrUnavailable}, // connection failure
		{&pgconn.PgError{Code: "53100"}, ErrUnavailable}, // disk full
		{&pgconn.PgError{Code: "53300"}, ErrUnavailable}, // too many connections
		{&pgconn.PgError{Code: "57P01"}, ErrUnavailable}, // admin shutdown
		{&pgconn.PgError{Code: "57P03"}, ErrUnavailable}, // cannot connect now (starting up)
		{&pgconn.PgError{Code: "58030"}, ErrUnavailable}, // I/O error
		{&pgconn.PgError{Code: "25006"}, ErrUnavailable}, // read-only transaction
		{&pgconn.PgError{Code: "23505"}, nil},            // unique violation: a bug, not an outage
		{&pgconn.PgError{Code: "42P01"}, nil},            // undefined table
		{fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: "57P02"}), ErrUnavailable},
		{errors.New("something else"), nil},
	} {
		if got := classifyPostgres(tc.err); got != tc.want {
			t.Errorf("classifyPostgres(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	return port
}

// TestPostgresUnreachable needs no server: nothing listens on the port.
func TestPostgresUnreachable(t *testing.T) {
	ctx := ctxT(t)
	u := fmt.Sprintf("postgres://einvoice:s3cretpw@127.0.0.1:%d/einvoice?sslmode=disable&connect_timeout=2", closedPort(t))
	start := time.Now()
	s, err := Open(ctx, Config{DatabaseURL: u})
	if err == nil {
		_ = s.Close()
		t.Fatal("Open of an unreachable server succeeded")
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Open(unreachable) = %v, want ErrUnavailable", err)
	}
	if strings.Contains(err.Error(), "s3cretpw") {
		t.Errorf("error leaks the password: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Open took %v; the connect timeout is not applied", d)
	}
}

// tcpProxy forwards loopback connections to target until cut.
type tcpProxy struct {
	l      net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	wg     sync.WaitGroup
}

func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{l: l, target: target}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.cut)
	return p
}

func (p *tcpProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
		go func() { _, _ = io.Copy(c, up); _ = c.Close() }()
	}
}

// cut stops accepting and drops every open connection: the database "goes down".
func (p *tcpProxy) cut() {
	_ = p.l.Close()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// TestPostgresOutageAfterOpen opens through a proxy, cuts it, and expects every
// operation to report ErrUnavailable rather than an authentication failure.
func TestPostgresOutageAfterOpen(t *testing.T) {
	ctx := ctxT(t)
	cfg := postgresConfig(t)
	u, err := url.Parse(cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	p := startProxy(t, u.Host)
	u.Host = p.l.Addr().String()
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()
	s := openStore(t, Config{DatabaseURL: u.String()})
	k, plain, err := s.CreateKey(ctx, "outage")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, plain); err != nil {
		t.Fatal(err)
	}
	p.cut()
	checks := map[string]func() error{
		"Authenticate": func() error { _, err := s.Authenticate(ctx, plain); return err },
		"RecordUsage":  func() error { return s.RecordUsage(ctx, k.ID, "repair", true, time.Now()) },
		"Usage":        func() error { _, err := s.Usage(ctx, k.ID); return err },
		"ListKeys":     func() error { _, err := s.ListKeys(ctx); return err },
		"CreateKey":    func() error { _, _, err := s.CreateKey(ctx, "n"); return err },
		"RevokeKey":    func() error { return s.RevokeKey(ctx, k.ID) },
		"Ping":         func() error { return s.Ping(ctx) },
	}
	for name, f := range checks {
		if err := f(); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s during outage = %v, want ErrUnavailable", name, err)
		} else if errors.Is(err, ErrUnknownKey) || errors.Is(err, ErrRevokedKey) {
			t.Errorf("%s during outage also matches an auth error: %v", name, err)
		}
	}
}

// TestPostgresReadOnly opens an up-to-date schema with every transaction
// read-only (as on a hot standby): reads work, writes report ErrUnavailable.
func TestPostgresReadOnly(t *testing.T) {
	ctx := ctxT(t)
	cfg := postgresConfig(t)
	rw := openStore(t, cfg)
	k, plain, err := rw.CreateKey(ctx, "ro")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("default_transaction_read_only", "on")
	u.RawQuery = q.Encode()
	ro := openStore(t, Config{DatabaseURL: u.String()})
	if _, err := ro.Authenticate(ctx, plain); err != nil {
		t.Fatalf("Authenticate on read-only: %v", err)
	}
	if err := ro.RecordUsage(ctx, k.ID, "repair", true, time.Now()); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("RecordUsage on read-only = %v, want ErrUnavailable", err)
	}
	if _, _, err := ro.CreateKey(ctx, "x"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("CreateKey on read-only = %v, want ErrUnavailable", err)
	}
}
