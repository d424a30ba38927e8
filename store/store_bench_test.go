package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// benchBackends: SQLite always; PostgreSQL (in a schema of its own) when
// EINVOICE_TEST_DATABASE_URL is set, skipped otherwise.
func benchBackends() []backend {
	return allBackends()
}

func openBench(b *testing.B, be backend) *sqlStore {
	b.Helper()
	s, err := Open(context.Background(), be.config(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s.(*sqlStore)
}

// BenchmarkAuthenticate measures the per-request key check (format, SHA-256,
// prepared lookup, constant-time compare).
func BenchmarkAuthenticate(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			s := openBench(b, be)
			ctx := context.Background()
			_, plain, err := s.CreateKey(ctx, "bench")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Authenticate(ctx, plain); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAuthenticateMalformed is the no-database path for garbage keys.
func BenchmarkAuthenticateMalformed(b *testing.B) {
	s := openBench(b, backend{name: "sqlite", config: sqliteConfig})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Authenticate(ctx, "ek_live_not-a-key"); !errors.Is(err, ErrUnknownKey) {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecordUsage measures the per-request counter upsert, serially and
// from parallel goroutines on the same counter (the contended case).
func BenchmarkRecordUsage(b *testing.B) {
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			s := openBench(b, be)
			ctx := context.Background()
			k, _, err := s.CreateKey(ctx, "bench")
			if err != nil {
				b.Fatal(err)
			}
			at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := s.RecordUsage(ctx, k.ID, "repair", true, at); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(be.name+"/parallel", func(b *testing.B) {
			s := openBench(b, be)
			ctx := context.Background()
			k, _, err := s.CreateKey(ctx, "bench")
			if err != nil {
				b.Fatal(err)
			}
			at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := s.RecordUsage(ctx, k.ID, "repair", true, at); err != nil {
						panic(fmt.Sprint("RecordUsage: ", err))
					}
				}
			})
		})
	}
}
