package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestEN16931ConcurrentValidate shares one compiled rule set between
// goroutines validating different documents (run with -race): every result
// must equal the sequential one.
func TestEN16931ConcurrentValidate(t *testing.T) {
	rs := loadEN16931(t, "ubl", ublMain)
	var docs []*xmltree.Document
	for _, p := range []string{ublExample, "corpus/en16931/ubl/examples/ubl-tc434-creditnote1.xml", "corpus/en16931/test/Invoice-unit-UBL/BR-CO-10.xml"} {
		data, err := os.ReadFile(filepath.Join(sharedDir(t), p))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
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
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				i := (g + j) % len(docs)
				fs, err := rs.Validate(context.Background(), docs[i])
				if err != nil || !reflect.DeepEqual(fmt.Sprint(fs), want[i]) {
					errs <- fmt.Errorf("goroutine %d doc %d: differs (%v)", g, i, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
