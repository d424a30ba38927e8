package engine_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/internal/concurrenttest"
)

// TestEN16931ConcurrentValidate shares one compiled rule set between
// goroutines validating different documents (run with -race): every result
// must equal the sequential one.
func TestEN16931ConcurrentValidate(t *testing.T) {
	rs := loadEN16931(t, "ubl", ublMain)
	var docs []*xmltree.Document
	for _, p := range []string{ublExample, "corpus/en16931/ubl/examples/ubl-tc434-creditnote1.xml", "corpus/en16931/test/Invoice-unit-UBL/BR-CO-10.xml"} {
		docs = append(docs, parseShared(t, filepath.Join(sharedDir(t), p)))
	}
	want := make([]string, len(docs))
	for i, d := range docs {
		fs, err := rs.Validate(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = fmt.Sprint(fs)
	}
	// The testSet document itself is not an invoice: it fires (BR-01 ...).
	if want[2] == "[]" {
		t.Fatal("a testSet root validated as an invoice fired nothing")
	}
	concurrenttest.Run(t, 6, 5, func(g, j int) error {
		i := (g + j) % len(docs)
		fs, err := rs.Validate(context.Background(), docs[i])
		if err != nil || !reflect.DeepEqual(fmt.Sprint(fs), want[i]) {
			return fmt.Errorf("doc %d: differs (%v)", i, err)
		}
		return nil
	})
}
