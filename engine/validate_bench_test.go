package engine

import (
	"context"
	"testing"
)

func BenchmarkValidateSmall(b *testing.B) {
	rs := mustLoad(b, smallTables())
	doc := parseFile(b, "testdata/small.xml")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rs.Validate(ctx, doc); err != nil {
			b.Fatal(err)
		}
	}
}
