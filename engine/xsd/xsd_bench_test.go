package xsd

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/benchcpu"
)

// BenchmarkValidateUBLExample1: parse + validate the reference UBL invoice
// (21.5 KB) against the compiled UBL 2.1 Invoice schema.
func BenchmarkValidateUBLExample1(b *testing.B) {
	s := mustLoad(b, ublInvoiceRel)
	doc := readFile(b, sharedPath(b, ublExample1Rel))
	ctx := context.Background()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	start := benchcpu.Process()
	for b.Loop() {
		errs, err := s.Validate(ctx, doc)
		if err != nil || len(errs) != 0 {
			b.Fatal(errs, err)
		}
	}
	b.ReportMetric(float64(benchcpu.Process()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkValidateUBLExample1Parallel: the same from GOMAXPROCS goroutines
// sharing one *Schema.
func BenchmarkValidateUBLExample1Parallel(b *testing.B) {
	s := mustLoad(b, ublInvoiceRel)
	doc := readFile(b, sharedPath(b, ublExample1Rel))
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if errs, err := s.Validate(ctx, doc); err != nil || len(errs) != 0 {
				b.Error(errs, err)
				return
			}
		}
	})
}

// BenchmarkLoadUBLInvoice: compile the UBL 2.1 Invoice schema (14 files).
func BenchmarkLoadUBLInvoice(b *testing.B) {
	path := sharedPath(b, ublInvoiceRel)
	b.ReportAllocs()
	start := benchcpu.Process()
	for b.Loop() {
		s, err := Load(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.ReportMetric(float64(benchcpu.Process()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkLoadCII: compile the CII D16B uncoupled schema.
func BenchmarkLoadCII(b *testing.B) {
	path := sharedPath(b, ciiSchemaRel)
	b.ReportAllocs()
	for b.Loop() {
		s, err := Load(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkScanProlog: the Go DOCTYPE pre-scan on the reference invoice.
func BenchmarkScanProlog(b *testing.B) {
	doc := readFile(b, sharedPath(b, ublExample1Rel))
	b.ReportAllocs()
	for b.Loop() {
		if scanProlog(doc) != prologNoDoctype {
			b.Fatal("doctype")
		}
	}
}
