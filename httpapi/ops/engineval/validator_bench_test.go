package engineval

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
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
