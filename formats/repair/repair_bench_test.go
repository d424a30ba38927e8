package repair

import (
	"context"
	"testing"
)

// BenchmarkRepairUBL repairs an official example with a non-ISO issue date
// and broken totals (5 changes); BenchmarkRepairUBL/intact measures the
// check of a correct document.
func BenchmarkRepairUBL(b *testing.B) {
	orig := sharedFile(b, example4)
	broken := replaceOnce(b, orig, "<cbc:IssueDate>2013-04-10<", "<cbc:IssueDate>10.04.2013<")
	broken = replaceOnce(b, broken, `<cbc:LineExtensionAmount currencyID="DKK">4000.00<`, `<cbc:LineExtensionAmount currencyID="DKK">4100.00<`)
	broken = replaceOnce(b, broken, `<cbc:PayableAmount currencyID="DKK">4675.00<`, `<cbc:PayableAmount currencyID="DKK">4600.00<`)
	for _, c := range []struct {
		name    string
		src     []byte
		changes int
	}{{"broken", broken, 3}, {"intact", orig, 0}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				res, err := RepairUBL(context.Background(), c.src)
				if err != nil || len(res.Changes) != c.changes {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}

func BenchmarkRepairCII(b *testing.B) {
	broken := replaceOnce(b, sharedFile(b, ciiEx1), "<ram:GrandTotalAmount>250.33<", "<ram:GrandTotalAmount>205.33<")
	b.ReportAllocs()
	b.SetBytes(int64(len(broken)))
	for b.Loop() {
		if res, err := RepairCII(context.Background(), broken); err != nil || len(res.Changes) != 1 {
			b.Fatalf("%v %+v", err, res)
		}
	}
}
