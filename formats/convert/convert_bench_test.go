package convert

import (
	"context"
	"testing"
)

// BenchmarkConvertUBLToCII converts official UBL examples: example1 is
// refused (its second cac:PaymentMeans differs from the first, which the
// model cannot carry), so it measures parse + read + loss list; example4
// converts, so it measures the full read, write, read back and compare.
func BenchmarkConvertUBLToCII(b *testing.B) {
	for _, c := range []struct {
		name    string
		refused bool
	}{{"ubl-tc434-example1.xml", false}, {"ubl-tc434-example4.xml", false}} {
		src := sharedFile(b, "corpus/en16931/ubl/examples/"+c.name)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				res, losses, err := Convert(context.Background(), Direction{UBL, CII}, src, Options{})
				if err != nil || (res == nil) != c.refused || (len(losses) > 0) != c.refused {
					b.Fatalf("%v %d losses %v", res == nil, len(losses), err)
				}
			}
		})
	}
}
