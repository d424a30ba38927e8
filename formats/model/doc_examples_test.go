package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

// docExamples returns the ```json blocks of docs/MODEL.md by their
// "<!-- example: name -->" markers.
func docExamples(t *testing.T) map[string][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "MODEL.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- example: ([a-z-]+) -->\\s*```json\\n(.*?)\\n```")
	out := map[string][]byte{}
	for _, m := range re.FindAllSubmatch(b, -1) {
		out[string(m[1])] = m[2]
	}
	return out
}

func jsonEqual(t *testing.T, what string, got any, want []byte) {
	t.Helper()
	gb, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(gb, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: the doc's JSON is invalid: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s differs from docs/MODEL.md:\ngot  %s", what, gb)
	}
}

// TestModelDocExamples runs every example of docs/MODEL.md.
func TestModelDocExamples(t *testing.T) {
	ex := docExamples(t)
	for _, name := range []string{"invoice", "invoice-computed", "bad-invoice", "bad-invoice-problems"} {
		if ex[name] == nil {
			t.Fatalf("docs/MODEL.md lacks the example %q", name)
		}
	}
	inv, ignored, ps, err := DecodeInvoice(ex["invoice"], "body", "invoice")
	if err != nil || len(ignored) != 0 {
		t.Fatalf("example invoice: %v %v", ps, ignored)
	}
	if _, err := inv.Complete(); err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, "computed totals and VAT breakdown", struct {
		Totals       *Totals        `json:"totals"`
		VATBreakdown []VATBreakdown `json:"vat_breakdown"`
	}{inv.Totals, inv.VATBreakdown}, ex["invoice-computed"])

	_, ignored, ps, _ = DecodeInvoice(ex["bad-invoice"], "body", "invoice")
	jsonEqual(t, "problems of the bad invoice", ps, ex["bad-invoice-problems"])
	if !reflect.DeepEqual(ignored, []string{"/buyer/fax"}) {
		t.Errorf("ignored = %v", ignored)
	}
}
