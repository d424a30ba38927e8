package engineval

import (
	"context"
	"runtime"
	"runtime/debug"
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
// of the parallel warm-up. It reports what the compiled catalog adds to the
// Go heap once the warm-up's garbage is gone (ReleaseWarmGarbage, as the
// server does): live-MB, what stays reachable, and inuse-MB, the spans
// holding it (live objects among freed ones: the part of the server's idle
// RSS the Go heap decides; libxml2's schemas are C memory, not counted).
func BenchmarkWarm(b *testing.B) {
	dir := testshared.Dir(b)
	b.ReportAllocs()
	var live, inuse int64
	before := heapStats() // outside the timed work, as is every reading below
	for b.Loop() {
		v, err := New(dir, Lazy())
		if err != nil {
			b.Fatal(err)
		}
		if err := v.Warm(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		ReleaseWarmGarbage()
		after := heapStats()
		live += int64(after.HeapAlloc) - int64(before.HeapAlloc)
		inuse += int64(after.HeapInuse) - int64(before.HeapInuse)
		v.Close()
		before = heapStats()
		b.StartTimer()
	}
	b.ReportMetric(float64(live)/float64(b.N)/(1<<20), "live-MB")
	b.ReportMetric(float64(inuse)/float64(b.N)/(1<<20), "inuse-MB")
}

// heapStats returns the runtime's memory statistics after a full
// collection that returns the freed spans to the OS.
func heapStats() runtime.MemStats {
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms
}
