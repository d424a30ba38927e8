package engineval

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// BenchmarkValidateUBL measures one full validation (parse, XSD, EN 16931
// Schematron) of the tc434 example 1 through ops.Service.
func BenchmarkValidateUBL(b *testing.B) {
	body := corpus(b, "en16931/ubl/examples/ubl-tc434-example1.xml")
	s := svc()
	req := ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: body}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rep, err := s.Validate(context.Background(), req)
		if err != nil || !rep.Valid {
			b.Fatal(err, rep)
		}
	}
}

// BenchmarkValidateCII is the CII counterpart.
func BenchmarkValidateCII(b *testing.B) {
	body := corpus(b, "en16931/cii/examples/CII_business_example_01.xml")
	s := svc()
	req := ops.ValidateRequest{Syntax: "cii", Profile: "en16931", Body: body}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rep, err := s.Validate(context.Background(), req)
		if err != nil || !rep.Valid {
			b.Fatal(err, rep)
		}
	}
}

// BenchmarkWarm is the server's start-up work: every profile's rule sets
// and every schema compiled (New with Lazy, then Warm, as `einvoice serve`
// does in the background). Compare with -cpu 1 and -cpu 2 for the effect
// of the parallel warm-up.
func BenchmarkWarm(b *testing.B) {
	dir := testshared.Dir(b)
	b.ReportAllocs()
	for b.Loop() {
		v, err := New(dir, Lazy())
		if err != nil {
			b.Fatal(err)
		}
		if err := v.Warm(context.Background()); err != nil {
			b.Fatal(err)
		}
		v.Close()
	}
}
