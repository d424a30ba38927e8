package oracle

import (
	"context"
	"testing"
)

// BenchmarkValidateRoundTrip measures one request through the warm process
// (pipe, Saxon parse, Schematron, JSON) on the tiny rule set: the harness's
// fixed cost per document.
func BenchmarkValidateRoundTrip(b *testing.B) {
	if err := Available(Options{}); err != nil {
		b.Skip(err)
	}
	o, err := Start(context.Background(), Options{Sch: []string{"testdata/tiny.sch"}, CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	doc := []byte(tinyDoc)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := o.Validate(context.Background(), "bench", doc); err != nil {
			b.Fatal(err)
		}
	}
}
