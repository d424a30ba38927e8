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
//	go test -run '^$' -bench Validate -benchtime 20x -count 6 ./pdf/verapdf
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
