package verapdf

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkValidate measures a warm worker (started before the timer) on
// corpus PDFs of 1, 3 and 5 pages; ms/page is the figure of docs/PERFORMANCE.md.
//
//	go test -run '^$' -bench 'Validate$' -benchtime 20x -count 6 ./pdf/verapdf
func BenchmarkValidate(b *testing.B) {
	for _, tc := range []struct {
		name, file string
		pages      int
	}{
		{"1page", "mustang/zugferd_invoice.pdf", 1},
		{"3pages", "mustang/EN16931_1_Teilrechnung.pdf", 3},
		{"5pages", "mustang/invalidPDF.pdf", 5},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := realClient(b)
			pdf := readCorpus(b, tc.file)
			ctx := context.Background()
			if _, err := c.Validate(ctx, pdf, "auto"); err != nil { // warm-up: JVM start and JIT
				b.Fatal(err)
			}
			b.SetBytes(int64(len(pdf)))
			cpu0 := workerCPU(b, c)
			b.ResetTimer()
			for b.Loop() {
				if _, err := c.Validate(ctx, pdf, "auto"); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(tc.pages), "ms/page")
			// The worker's own CPU time: what a page costs whatever else the machine runs.
			cpu := workerCPU(b, c) - cpu0
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N)/float64(tc.pages), "cpu-ms/page")
		})
	}
}

// BenchmarkValidateParallel is BenchmarkValidate's 1-page file validated
// from GOMAXPROCS goroutines by a client with two workers (what the render
// coverage test does): ms/pdf is the wall time per file with both busy.
//
//	go test -run '^$' -bench ValidateParallel -benchtime 40x -count 6 ./pdf/verapdf
func BenchmarkValidateParallel(b *testing.B) {
	c := New(Options{Jar: jar(b), Workers: 2, Timeout: 2 * time.Minute, StartTimeout: 2 * time.Minute})
	b.Cleanup(func() { _ = c.Close() })
	pdf := readCorpus(b, "mustang/zugferd_invoice.pdf")
	ctx := context.Background()
	// Warm-up: both JVMs started and past their first validations.
	for range 3 {
		errs := make(chan error, 2)
		for range 2 {
			go func() { _, err := c.Validate(ctx, pdf, "3b"); errs <- err }()
		}
		for range 2 {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
	}
	if st := c.Health(ctx); st.Running != 2 {
		b.Fatalf("%d workers running after the warm-up, want 2", st.Running)
	}
	cpu0 := workerCPU(b, c)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Validate(ctx, pdf, "3b"); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/pdf")
	b.ReportMetric(float64((workerCPU(b, c)-cpu0).Milliseconds())/float64(b.N), "cpu-ms/pdf")
}

// workerCPU is the user+system CPU time of the client's workers so far
// (Linux /proc, clock ticks of 10 ms).
func workerCPU(b *testing.B, c *Client) time.Duration {
	b.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var total time.Duration
	for p := range c.procs {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/stat")
		if err != nil {
			b.Fatalf("worker CPU time: %v", err)
		}
		// Fields after the ")" closing the command name: state is field 3, utime 14, stime 15.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		for _, i := range []int{11, 12} {
			ticks, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				b.Fatalf("worker CPU time: %v", err)
			}
			total += time.Duration(ticks) * 10 * time.Millisecond
		}
	}
	return total
}
