package xmltree

import (
	"sync"
	"testing"
)

// TestConcurrentReaders reads one document from several goroutines; run with
// -race it proves that no accessor mutates the document.
func TestConcurrentReaders(t *testing.T) {
	d := mustParse(t, string(genInvoice(20)))
	want := treeEvents(d)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := NodeID(0); n < NodeID(d.Len()); n++ {
				_ = d.StringValue(n)
				_ = d.Path(n)
				_ = d.Prefix(n)
				if d.Kind(n) == KindElement {
					id := d.Name(n)
					if got, ok := d.LookupName(d.NameSpace(id), d.NameLocal(id)); !ok || got != id {
						t.Errorf("LookupName round trip failed for node %d", n)
						return
					}
				}
			}
			if got := treeEvents(d); len(got) != len(want) {
				t.Errorf("tree changed under concurrent reads")
			}
		}()
	}
	wg.Wait()
}
