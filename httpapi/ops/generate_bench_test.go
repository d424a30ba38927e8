package ops_test

import (
	"context"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/benchcpu"
)

// BenchmarkGenerate is generate/ubl (and cii) of a 10-line invoice
// including decoding, completion, writing and validation with the engine.
func BenchmarkGenerate(b *testing.B) {
	s := engineService(b)
	body := randomBody(b, 42, model.RandomOptions{Lines: 10})
	for _, c := range []struct{ syntax, profile string }{{"ubl", "en16931"}, {"ubl", "peppol"}, {"cii", "en16931"}, {"cii", "facturx_minimum"}, {"cii", "facturx_basicwl"}} {
		b.Run(c.syntax+"_"+c.profile, func(b *testing.B) {
			req := ops.GenerateRequest{Syntax: c.syntax, Profile: c.profile, Validate: true, Body: body}
			// cpu-ns/op and min-ns/op (the fastest call) next to the wall
			// time: the machines are shared (docs/PERFORMANCE.md, issue 5).
			benchcpu.Loop(b, func() {
				if _, err := s.Generate(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkConvert is ubl-to-cii of an official example including the gate.
func BenchmarkConvert(b *testing.B) {
	s := engineService(b)
	src := readShared(b, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	req := ops.ConvertRequest{Direction: "ubl-to-cii", Body: src}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := s.Convert(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRepair is repair/ubl of an official example including the
// re-validation.
func BenchmarkRepair(b *testing.B) {
	s := engineService(b)
	src := readShared(b, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	req := ops.RepairRequest{Syntax: "ubl", Profile: "en16931", Body: src}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := s.Repair(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateNoGate is the same 10-line generate/ubl without a
// validator (decode, complete, write only), to split the cost.
func BenchmarkGenerateNoGate(b *testing.B) {
	s := &ops.Service{}
	body := randomBody(b, 42, model.RandomOptions{Lines: 10})
	req := ops.GenerateRequest{Syntax: "ubl", Profile: "en16931", Validate: false, Body: body}
	b.ReportAllocs()
	for b.Loop() {
		res, err := s.Generate(context.Background(), req)
		if err != nil || len(res.XML) == 0 {
			b.Fatal(err)
		}
	}
}
