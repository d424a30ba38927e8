package xmltree

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// checkRecycled parses data with r (taking an array a previous document
// left, of any size) and checks the tree equals Parse's, then releases it.
func checkRecycled(t *testing.T, r *Recycler, data []byte, lim Limits, want *Document, werr error) {
	t.Helper()
	d, err := r.Parse(data, lim)
	switch {
	case (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()):
		t.Fatalf("recycled parse: %v, Parse: %v", err, werr)
	case err != nil:
		return
	}
	if got, w := treeEvents(d), treeEvents(want); !slices.Equal(got, w) {
		t.Fatalf("recycled tree differs from Parse's:\n got %q\nwant %q", got, w)
	}
	if got, w := nameEvents(d), nameEvents(want); !slices.Equal(got, w) {
		t.Fatalf("recycled names differ from Parse's (the name tables of a released document):\n got %q\nwant %q", got, w)
	}
	checkInvariants(t, d)
	r.Release(d)
}

// nameEvents lists the document's name tables as its nodes read them: the
// counts of expanded and written names, and per element or attribute its
// name as written with the ids of both.
func nameEvents(d *Document) []string {
	ev := []string{fmt.Sprintf("names %d written %d", d.NameCount(), d.QualifiedNameCount())}
	for n := NodeID(0); int(n) < d.Len(); n++ {
		if k := d.Kind(n); k == KindElement || k == KindAttribute {
			ev = append(ev, fmt.Sprintf("%d %s %d %d", n, d.QualifiedName(n), d.Name(n), d.QualifiedNameID(n)))
		}
	}
	return ev
}

// TestRecycler parses every corpus file with one Recycler, so each parse
// writes over the array of a previous, different document, and checks
// every tree against Parse's; a released document panics when used.
func TestRecycler(t *testing.T) {
	var r Recycler
	root := filepath.Join(sharedDir(t), "corpus")
	files := corpusFiles(t)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := Parse(data, DefaultLimits())
		rel, _ := filepath.Rel(root, path)
		t.Run(rel, func(t *testing.T) { checkRecycled(t, &r, data, DefaultLimits(), want, werr) })
	}
	d, err := r.Parse([]byte("<a><b/></a>"), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	r.Release(d)
	defer func() {
		if recover() == nil {
			t.Error("a released document answered Root")
		}
	}()
	d.Root()
}

// TestRecyclerConcurrent parses and releases from several goroutines at
// once (run with -race in make test).
func TestRecyclerConcurrent(t *testing.T) {
	var r Recycler
	docs := [][]byte{[]byte("<a><b x='1'/>text</a>"), genInvoice(3), genInvoice(40), []byte("<r/>")}
	wants := make([][]string, len(docs))
	for i, data := range docs {
		d, err := Parse(data, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		wants[i] = treeEvents(d)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := (g + i) % len(docs)
				d, err := r.Parse(docs[k], DefaultLimits())
				if err != nil {
					t.Error(err)
					return
				}
				if !slices.Equal(treeEvents(d), wants[k]) {
					t.Errorf("goroutine %d, parse %d: tree differs", g, i)
					return
				}
				r.Release(d)
			}
		}()
	}
	wg.Wait()
}
