package cii

import (
	"io"
	"testing"
)

// BenchmarkProfileView is the view and dropped list of the full test model
// plus writing it (the part generate/cii adds for MINIMUM and BASIC WL).
func BenchmarkProfileView(b *testing.B) {
	for _, v := range []View{ViewBasicWL, ViewMinimum} {
		b.Run(v.String(), func(b *testing.B) {
			inv := fullInvoice()
			b.ReportAllocs()
			for b.Loop() {
				view, dropped := ProfileView(inv, v)
				if len(dropped) == 0 {
					b.Fatal("nothing dropped")
				}
				if err := Write(io.Discard, view, WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
