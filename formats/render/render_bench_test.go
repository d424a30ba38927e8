package render

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// benchInvoice is a complete random invoice with n lines.
func benchInvoice(n int) *model.Invoice {
	return model.RandomInvoice(rand.New(rand.NewPCG(uint64(n), 7)), model.RandomOptions{Lines: n, Categories: []model.VATCategoryCode{model.VATStandard}})
}

// cpuTime is the CPU time (user + system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the metric cpu-ms/op: the process CPU time per operation,
// which, unlike ns/op, does not grow when other processes hold the cores.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func benchHTML(b *testing.B, lines int) {
	inv := benchInvoice(lines)
	ctx := context.Background()
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := HTML(ctx, inv, German); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

func benchPDF(b *testing.B, lines int, style string) {
	inv := benchInvoice(lines)
	ctx := context.Background()
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := PDF(ctx, inv, Options{Lang: German, Style: style}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// The figures: HTML < 5 ms and PDF < 30 ms for 10 lines; 1,000
// lines < 1 s.
func BenchmarkHTML10(b *testing.B)         { benchHTML(b, 10) }
func BenchmarkHTML1000(b *testing.B)       { benchHTML(b, 1000) }
func BenchmarkPDFCompact10(b *testing.B)   { benchPDF(b, 10, StyleCompact) }
func BenchmarkPDFKosit10(b *testing.B)     { benchPDF(b, 10, StyleKosit) }
func BenchmarkPDFCompact1000(b *testing.B) { benchPDF(b, 1000, StyleCompact) }
func BenchmarkPDFKosit1000(b *testing.B)   { benchPDF(b, 1000, StyleKosit) }
