package ubl

import (
	"bytes"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentRead: Read keeps no shared mutable state; the same document
// read from several goroutines gives the same result (run with -race).
func TestConcurrentRead(t *testing.T) {
	doc := parseFile(t, filepath.Join(sharedDir(t), "corpus/en16931/ubl/examples/ubl-tc434-example1.xml"))
	want, err := Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	var wantXML bytes.Buffer
	if err := Write(&wantXML, want.Invoice, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			res, err := Read(doc)
			if err != nil {
				errs <- err.Error()
				return
			}
			if d := Diff(want.Invoice, res.Invoice); len(d) != 0 || len(res.Unconsumed) != len(want.Unconsumed) {
				errs <- "different result"
				return
			}
			var got bytes.Buffer
			if err := Write(&got, res.Invoice, WriteOptions{}); err != nil || !bytes.Equal(got.Bytes(), wantXML.Bytes()) {
				errs <- "different output"
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
