package xmltree

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkIndex compares Named, NamedKinds and NamedIn with a brute-force
// scan: every name, both kinds, from the document node and from a sample
// of nodes (all nodes of small documents); and Parents with the
// document's (parent, child) names, which it must never deny, and must
// equal when the document has at most 128 names.
func checkIndex(t testing.TB, d *Document) {
	t.Helper()
	type edge struct {
		parent, child NameID
		attr          bool
	}
	edges := map[edge]bool{}
	for n := NodeID(1); n < NodeID(d.Len()); n++ {
		if k := d.Kind(n); (k == KindElement || k == KindAttribute) && d.Kind(d.Parent(n)) == KindElement {
			edges[edge{d.Name(d.Parent(n)), d.Name(n), k == KindAttribute}] = true
		}
	}
	for e := range edges {
		if !d.Parents(e.child, e.attr).MayHave(e.parent) {
			t.Fatalf("Parents(%d, %v).MayHave(%d) = false for a present pair", e.child, e.attr, e.parent)
		}
	}
	for p := NameID(-1); d.NameCount() <= 128 && int(p) <= d.NameCount(); p++ {
		for c := NameID(-1); int(c) <= d.NameCount(); c++ {
			for _, attr := range []bool{false, true} {
				if want, got := edges[edge{p, c, attr}], d.Parents(c, attr).MayHave(p); got != want {
					t.Fatalf("Parents(%d, %v).MayHave(%d) = %v, want %v", c, attr, p, got, want)
				}
			}
		}
	}
	for id := NameID(-1); int(id) <= d.NameCount(); id++ {
		elems, attrs := d.NamedKinds(id)
		if !slices.Equal(elems, d.Named(id, false)) || !slices.Equal(attrs, d.Named(id, true)) {
			t.Fatalf("NamedKinds(%d) = %v, %v; Named: %v, %v", id, elems, attrs, d.Named(id, false), d.Named(id, true))
		}
		for _, attr := range []bool{false, true} {
			want := KindElement
			if attr {
				want = KindAttribute
			}
			var all []NodeID
			for n := NodeID(0); n < NodeID(d.Len()); n++ {
				if d.Kind(n) == want && d.Name(n) == id {
					all = append(all, n)
				}
			}
			if got := d.Named(id, attr); !slices.Equal(got, all) {
				t.Fatalf("Named(%d, %v) = %v, want %v", id, attr, got, all)
			}
			for n := NodeID(0); n < NodeID(d.Len()); n++ {
				if d.Len() > 300 && n%53 != 0 {
					continue
				}
				var in []NodeID
				for _, c := range all {
					if c > n && c < d.SubtreeEnd(n) {
						in = append(in, c)
					}
				}
				if got := d.NamedIn(n, id, attr); !slices.Equal(got, in) {
					t.Fatalf("NamedIn(%d, %d, %v) = %v, want %v", n, id, attr, got, in)
				}
			}
		}
	}
}

func TestNameIndex(t *testing.T) {
	d := mustParse(t, `<?xml version="1.0"?>
<a xmlns:p="urn:p" x="1" p:x="2">
  <p:b x="3"><b/><p:b p:x="4"><c x="5"/></p:b></p:b>
  <!-- c --><c/><?pi x?>
  <b x="6">text<p:b/></b>
</a>`)
	checkIndex(t, d)
	b, _ := d.LookupName("urn:p", "b")
	if got := len(d.Named(b, false)); got != 3 {
		t.Fatalf("p:b elements: %d, want 3", got)
	}
	x, _ := d.LookupName("", "x")
	if got := len(d.NamedIn(d.Root(), x, true)); got != 4 {
		t.Fatalf("x attributes under the root (its own included): %d, want 4", got)
	}
	if got := d.NamedIn(d.Named(x, true)[0], x, true); len(got) != 0 {
		t.Fatalf("attributes inside an attribute: %v", got)
	}
}

// TestParentsManyNames: with more than 128 names, parents of names 128
// apart share a bit, and Parents stays a superset (checkIndex); past 4,096
// names none is recorded and every name may be a parent.
func TestParentsManyNames(t *testing.T) {
	for _, n := range []int{300, 5000} {
		var b strings.Builder
		b.WriteString("<r>")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "<e%d a%d=''><c%d/></e%d>", i, i%7, i%5, i)
		}
		b.WriteString("</r>")
		d := mustParse(t, b.String())
		if d.NameCount() <= 128 {
			t.Fatalf("%d names, want more than 128", d.NameCount())
		}
		if recorded := d.postings().parents != nil; recorded != (d.NameCount() <= maxParentNames) {
			t.Fatalf("%d names: parent sets recorded %v", d.NameCount(), recorded)
		}
		if n < 1000 {
			checkIndex(t, d)
			continue
		}
		e0, _ := d.LookupName("", "e0")
		c1, _ := d.LookupName("", "c1")
		if !d.Parents(c1, false).MayHave(e0) || d.Parents(-1, false).MayHave(e0) {
			t.Errorf("%d names: Parents(c1).MayHave(e0) false, or a missing name has parents", d.NameCount())
		}
	}
}

func TestNameIndexCorpus(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "corpus", "en16931", "ubl", "examples")
	for _, name := range []string{"ubl-tc434-example1.xml", "ubl-tc434-example5.xml"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		d, err := Parse(data, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		checkIndex(t, d)
	}
}

// TestChildNamed compares FirstChildElement and NextSiblingElement, and
// FirstChildNamed and NextSiblingNamed, with the element children found
// through FirstChild and NextSibling, for every node (and name), with
// text, comments, PIs (whose target is a name) and attributes of the same
// name around.
func TestChildNamed(t *testing.T) {
	docs := []string{
		`<?a x?><r a="1"><a/>t<b a="2"><a/><!-- a --><a>x</a></b><?a y?><a/><c><a/></c></r>`,
		`<r xmlns:p="urn:p"><p:a/><a/><p:a><a/></p:a></r>`,
	}
	data, err := os.ReadFile(filepath.Join(sharedDir(t), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, string(data))
	for _, src := range docs {
		d, err := Parse([]byte(src), DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		for n := NodeID(0); n < NodeID(d.Len()); n++ {
			var want, got []NodeID
			for c := d.FirstChild(n); c != None; c = d.NextSibling(c) {
				if d.Kind(c) == KindElement {
					want = append(want, c)
				}
			}
			for c := d.FirstChildElement(n); c != None; c = d.NextSiblingElement(c) {
				got = append(got, c)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("element children of %d: %v, want %v", n, got, want)
			}
			for id := NameID(-1); int(id) <= d.NameCount(); id++ {
				var want, got []NodeID
				for c := d.FirstChild(n); c != None; c = d.NextSibling(c) {
					if d.Kind(c) == KindElement && d.Name(c) == id {
						want = append(want, c)
					}
				}
				for c := d.FirstChildNamed(n, id); c != None; c = d.NextSiblingNamed(c, id) {
					got = append(got, c)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("children of %d named %d: %v, want %v", n, id, got, want)
				}
			}
		}
	}
}

func BenchmarkNameIndexBuild(b *testing.B) {
	d := parseExample1(b)
	b.ReportAllocs()
	for b.Loop() {
		buildPostings(d)
	}
}

// BenchmarkEmptyLeaves: the pass that finds the empty leaves of UBL
// example 1 (EmptyLeaves, once per document).
func BenchmarkEmptyLeaves(b *testing.B) {
	d := parseExample1(b)
	b.ReportAllocs()
	for b.Loop() {
		emptyLeaves(d)
	}
}

func parseExample1(b *testing.B) *Document {
	data, err := os.ReadFile(filepath.Join(sharedDir(b), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		b.Fatal(err)
	}
	d, err := Parse(data, DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	return d
}
