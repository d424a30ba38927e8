package mutate

import "testing"

// BenchmarkMutate is the per-mutant cost of the differential fuzzer's generator.
func BenchmarkMutate(b *testing.B) {
	d, _ := ublSource(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = d.Mutate(uint64(i))
	}
}

// BenchmarkParse indexes a source document (once per source per run).
func BenchmarkParse(b *testing.B) {
	d, src := ublSource(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(d.Name(), src, d.cl); err != nil {
			b.Fatal(err)
		}
	}
}
