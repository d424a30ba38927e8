package xmlio

import (
	"reflect"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

const trackDoc = `<?xml version="1.0"?>
<!-- a comment -->
<Invoice xmlns="urn:i" xmlns:c="urn:c" a="1" b="2">
  <c:ID schemeID="S">X1</c:ID>
  <c:Note>n1</c:Note>
  <c:Note>n2</c:Note>
  <Line>
    <c:ID>L1</c:ID>
    <Extra><Deep k="v">t</Deep></Extra>
  </Line>
</Invoice>`

func parse(t testing.TB, s string) *xmltree.Document {
	t.Helper()
	doc, err := xmltree.Parse([]byte(s), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func paths(doc *xmltree.Document, ids []xmltree.NodeID) []string {
	out := []string{}
	for _, n := range ids {
		out = append(out, doc.Path(n))
	}
	return out
}

func TestTracker(t *testing.T) {
	doc := parse(t, trackDoc)
	tr := NewTracker(doc)
	root := doc.Root()
	tr.Mark(root)
	if v, ok := tr.Attr(root, "", "a"); !ok || v != "1" {
		t.Fatalf("Attr a = %q %v", v, ok)
	}
	if _, ok := tr.Attr(root, "", "zz"); ok {
		t.Fatal("Attr zz found")
	}
	id := tr.Child(root, "urn:c", "ID")
	if got := tr.Text(id); got != "X1" {
		t.Fatalf("Text(ID) = %q", got)
	}
	notes := []string{}
	for n := range tr.Children(root, "urn:c", "Note") {
		notes = append(notes, tr.Text(n))
	}
	if !reflect.DeepEqual(notes, []string{"n1", "n2"}) {
		t.Fatalf("notes %v", notes)
	}
	line := tr.Child(root, "urn:i", "Line")
	tr.Mark(line)
	tr.Text(tr.Child(line, "urn:c", "ID"))
	if tr.Child(root, "urn:c", "Missing") != xmltree.None || tr.Child(root, "urn:nope", "ID") != xmltree.None {
		t.Fatal("missing child found")
	}
	tr.Mark(xmltree.None) // no-op

	wantAll := []string{"/Invoice[1]/@b", "/Invoice[1]/ID[1]/@schemeID", "/Invoice[1]/Line[1]/Extra[1]", "/Invoice[1]/Line[1]/Extra[1]/Deep[1]", "/Invoice[1]/Line[1]/Extra[1]/Deep[1]/@k"}
	if got := paths(doc, tr.Unconsumed()); !reflect.DeepEqual(got, wantAll) {
		t.Errorf("Unconsumed\n got %v\nwant %v", got, wantAll)
	}
	wantRoots := wantAll[:3]
	if got := paths(doc, tr.UnconsumedRoots()); !reflect.DeepEqual(got, wantRoots) {
		t.Errorf("UnconsumedRoots\n got %v\nwant %v", got, wantRoots)
	}
	rep := tr.Report(func(n xmltree.NodeID) string { return "BT-" + doc.NameLocal(doc.Name(n)) })
	if len(rep) != 3 || rep[2].Path != "/Invoice[1]/Line[1]/Extra[1]" || rep[2].Line != 9 || rep[2].BT != "BT-Extra" {
		t.Errorf("Report %+v", rep)
	}
	tr.MarkSubtree(tr.Child(line, "urn:i", "Extra"))
	tr.Attr(root, "", "b")
	tr.Attr(id, "", "schemeID")
	if u := tr.Unconsumed(); len(u) != 0 {
		t.Errorf("after marking all: %v", paths(doc, u))
	}
	if tr.Report(nil) != nil {
		t.Error("Report not nil")
	}
}

func TestTrackerIsAndFreshState(t *testing.T) {
	doc := parse(t, trackDoc)
	tr := NewTracker(doc)
	if !tr.Is(doc.Root(), "urn:i", "Invoice") || tr.Is(doc.Root(), "urn:c", "Invoice") || tr.Is(xmltree.None, "", "") {
		t.Fatal("Is")
	}
	// Nothing marked: every element and attribute but no comment/text/xmlns.
	got := tr.Unconsumed()
	elems, attrs := 0, 0
	for _, n := range got {
		switch doc.Kind(n) {
		case xmltree.KindElement:
			elems++
		case xmltree.KindAttribute:
			attrs++
		default:
			t.Errorf("listed %s node %s", doc.Kind(n), doc.Path(n))
		}
	}
	if elems != 8 || attrs != 4 {
		t.Errorf("elements %d attributes %d, want 8 and 4", elems, attrs)
	}
	if r := tr.UnconsumedRoots(); len(r) != 1 || r[0] != doc.Root() {
		t.Errorf("roots %v", paths(doc, r))
	}
}

func TestTrackerUnmark(t *testing.T) {
	doc := parse(t, trackDoc)
	tr := NewTracker(doc)
	tr.MarkSubtree(doc.Root())
	if len(tr.Unconsumed()) != 0 {
		t.Fatal("MarkSubtree left nodes")
	}
	id := tr.Child(doc.Root(), "urn:c", "ID")
	tr.Unmark(id)
	tr.Unmark(xmltree.None)
	if tr.Marked(id) {
		t.Fatal("still marked")
	}
	if got := paths(doc, tr.Unconsumed()); !reflect.DeepEqual(got, []string{"/Invoice[1]/ID[1]"}) {
		t.Fatalf("got %v", got)
	}
}
