package xmltree

import (
	"slices"
	"strings"
	"testing"
)

// elem returns the first element in document order with the given local name.
func elem(t *testing.T, d *Document, local string) NodeID {
	t.Helper()
	for n := NodeID(0); n < NodeID(d.Len()); n++ {
		if d.Kind(n) == KindElement && d.NameLocal(d.Name(n)) == local {
			return n
		}
	}
	t.Fatalf("no element %s", local)
	return None
}

// attr returns the attribute of n with the given local name.
func attr(t *testing.T, d *Document, n NodeID, local string) NodeID {
	t.Helper()
	first, count := d.Attrs(n)
	for a := first; a < first+NodeID(count); a++ {
		if d.NameLocal(d.Name(a)) == local {
			return a
		}
	}
	t.Fatalf("element %s has no attribute %s", d.QualifiedName(n), local)
	return None
}

// children renders the child list of n as kind:value/name strings.
func children(d *Document, n NodeID) []string {
	var out []string
	for c := d.FirstChild(n); c != None; c = d.NextSibling(c) {
		switch d.Kind(c) {
		case KindElement:
			out = append(out, "e:"+d.QualifiedName(c))
		case KindText:
			out = append(out, "t:"+d.Value(c))
		case KindComment:
			out = append(out, "c:"+d.Value(c))
		case KindPI:
			out = append(out, "p:"+d.QualifiedName(c)+"="+d.Value(c))
		}
	}
	return out
}

func expanded(d *Document, n NodeID) string {
	id := d.Name(n)
	return "{" + d.NameSpace(id) + "}" + d.NameLocal(id)
}

func TestNamespaces(t *testing.T) {
	d := mustParse(t, `<r xmlns="urn:d" xmlns:p="urn:p" a="1" p:a="2">
  <p:x xmlns:p="urn:p2" p:b="3"><y/></p:x>
  <p:x/>
  <z xmlns=""><w/></z>
  <q:v xmlns:q="urn:d" xml:lang="de"/>
</r>`)
	checkInvariants(t, d)
	r := d.Root()
	for _, tc := range []struct {
		n    NodeID
		want string
	}{
		{r, "{urn:d}r"},
		{attr(t, d, r, "a"), "{}a"},
		{elem(t, d, "y"), "{urn:d}y"},
		{elem(t, d, "z"), "{}z"},
		{elem(t, d, "w"), "{}w"},
		{elem(t, d, "v"), "{urn:d}v"},
		{attr(t, d, elem(t, d, "v"), "lang"), "{" + nsXML + "}lang"},
	} {
		if got := expanded(d, tc.n); got != tc.want {
			t.Errorf("node %d (%s): %s, want %s", tc.n, d.QualifiedName(tc.n), got, tc.want)
		}
	}
	// p:a on the root and p:b inside the redeclaration resolve differently.
	first, count := d.Attrs(r)
	if count != 2 { // namespace declarations are not attributes
		t.Fatalf("root has %d attributes, want 2", count)
	}
	if got := expanded(d, first+1); got != "{urn:p}a" {
		t.Errorf("p:a = %s", got)
	}
	var xs []NodeID
	for n := NodeID(0); n < NodeID(d.Len()); n++ {
		if d.Kind(n) == KindElement && d.NameLocal(d.Name(n)) == "x" {
			xs = append(xs, n)
		}
	}
	if len(xs) != 2 || expanded(d, xs[0]) != "{urn:p2}x" || expanded(d, xs[1]) != "{urn:p}x" {
		t.Fatalf("p:x elements resolve to %v", xs)
	}
	if got := expanded(d, attr(t, d, xs[0], "b")); got != "{urn:p2}b" {
		t.Errorf("p:b = %s", got)
	}
	// Same expanded name, different prefixes: one NameID.
	d2 := mustParse(t, `<a:e xmlns:a="urn:n"><b:e xmlns:b="urn:n"/><e xmlns="urn:n"/></a:e>`)
	r2 := d2.Root()
	k1 := d2.FirstChild(r2)
	k2 := d2.NextSibling(k1)
	if d2.Name(r2) != d2.Name(k1) || d2.Name(k1) != d2.Name(k2) {
		t.Errorf("same expanded name got ids %d %d %d", d2.Name(r2), d2.Name(k1), d2.Name(k2))
	}
	if d2.Prefix(r2) != "a" || d2.Prefix(k1) != "b" || d2.Prefix(k2) != "" {
		t.Errorf("prefixes %q %q %q", d2.Prefix(r2), d2.Prefix(k1), d2.Prefix(k2))
	}
	if id, ok := d2.LookupName("urn:n", "e"); !ok || id != d2.Name(r2) {
		t.Errorf("LookupName(urn:n, e) = %d, %v", id, ok)
	}
	if _, ok := d2.LookupName("", "e"); ok {
		t.Errorf("LookupName({}e) found a name that does not occur")
	}
	if _, ok := d2.LookupName("urn:n", "missing"); ok {
		t.Errorf("LookupName found a missing name")
	}
}

func TestNamespaceScopeRestoredAfterSiblings(t *testing.T) {
	// Exercises the per-name resolution cache: the same spelling resolves
	// differently as bindings come and go.
	d := mustParse(t, `<r xmlns:p="urn:1"><p:a/><s xmlns:p="urn:2"><p:a/></s><p:a/><s xmlns:p="urn:3"><p:a/></s><p:a/></r>`)
	var got []string
	for n := NodeID(0); n < NodeID(d.Len()); n++ {
		if d.Kind(n) == KindElement && d.QualifiedName(n) == "p:a" {
			got = append(got, d.NameSpace(d.Name(n)))
		}
	}
	want := []string{"urn:1", "urn:2", "urn:1", "urn:3", "urn:1"}
	if !slices.Equal(got, want) {
		t.Errorf("p:a namespaces %v, want %v", got, want)
	}
}

func TestEntitiesAndCharacterReferences(t *testing.T) {
	d := mustParse(t, `<a t="&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x20AC;">&lt;x&gt; &amp; &apos;&quot; &#65;&#x1F600;</a>`)
	r := d.Root()
	if got, want := d.Value(attr(t, d, r, "t")), `<>&'"AB€`; got != want {
		t.Errorf("attribute = %q, want %q", got, want)
	}
	if got, want := d.StringValue(r), `<x> & '" A😀`; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
}

func TestCDATAAndTextMerging(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"<a>x<![CDATA[<y>&amp;]]>z</a>", []string{"t:x<y>&amp;z"}},
		{"<a><![CDATA[only]]></a>", []string{"t:only"}},
		{"<a><![CDATA[]]></a>", nil},
		{"<a><![CDATA[a]]><![CDATA[b]]></a>", []string{"t:ab"}},
		{"<a>x<!--c-->y</a>", []string{"t:x", "c:c", "t:y"}},
		{"<a>x<?p d?>y</a>", []string{"t:x", "p:p=d", "t:y"}},
		{"<a>x&amp;y<b/>z</a>", []string{"t:x&y", "e:b", "t:z"}},
		{"<a>\n  <b/>\n</a>", []string{"t:\n  ", "e:b", "t:\n"}}, // whitespace kept
		{"<a><?p?></a>", []string{"p:p="}},
		{"<a><?p   spaced  ?></a>", []string{"p:p=spaced  "}},
	}
	for _, tc := range tests {
		d := mustParse(t, tc.in)
		checkInvariants(t, d)
		if got := children(d, d.Root()); !slices.Equal(got, tc.want) {
			t.Errorf("%q: children %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLineEndNormalization(t *testing.T) {
	d := mustParse(t, "<a b=\"1\r\n2\r3\t4\n5\" c=\"&#10;&#13;&#9;\">x\r\ny\rz<![CDATA[p\r\nq]]><!--c\r\nd--><?pi e\r\nf?></a>")
	r := d.Root()
	if got, want := d.Value(attr(t, d, r, "b")), "1 2 3 4 5"; got != want {
		t.Errorf("attribute b = %q, want %q", got, want)
	}
	if got, want := d.Value(attr(t, d, r, "c")), "\n\r\t"; got != want {
		t.Errorf("attribute c = %q, want %q (character references are not normalised)", got, want)
	}
	want := []string{"t:x\ny\nzp\nq", "c:c\nd", "p:pi=e\nf"}
	if got := children(d, r); !slices.Equal(got, want) {
		t.Errorf("children %q, want %q", got, want)
	}
}

func TestLineNumbers(t *testing.T) {
	src := "<?xml version=\"1.0\"?>\n<!-- c -->\n<r\n  a=\"1\"\n  b=\"x\ny\">\r\n  <s>t</s><!-- multi\nline -->\r  <u><![CDATA[\n\n]]></u>\n<?pi\n?><v/></r>"
	d := mustParse(t, src)
	checkInvariants(t, d)
	r := d.Root()
	for _, tc := range []struct {
		what string
		n    NodeID
		line int
	}{
		{"comment", d.FirstChild(0), 2},
		{"root", r, 3},
		{"attribute a", attr(t, d, r, "a"), 4},
		{"attribute b", attr(t, d, r, "b"), 5},
		{"whitespace text", d.FirstChild(r), 6},
		{"s", elem(t, d, "s"), 7},
		{"text of s", d.FirstChild(elem(t, d, "s")), 7},
		{"u", elem(t, d, "u"), 9},
		{"CDATA text", d.FirstChild(elem(t, d, "u")), 9},
		{"pi", d.PrevSibling(elem(t, d, "v")), 12},
		{"v", elem(t, d, "v"), 13},
	} {
		if got := d.Line(tc.n); got != tc.line {
			t.Errorf("%s: line %d, want %d", tc.what, got, tc.line)
		}
	}
	if d.Line(0) != 1 {
		t.Errorf("document node line %d", d.Line(0))
	}
}

func TestNavigationAndSubtree(t *testing.T) {
	d := mustParse(t, `<r x="1" y="2"><a><b/>t</a><!--c--><d/></r>`)
	checkInvariants(t, d)
	r := d.Root()
	if r != 1 || d.Kind(r) != KindElement || d.Parent(r) != 0 {
		t.Fatalf("root id %d kind %v parent %d", r, d.Kind(r), d.Parent(r))
	}
	first, count := d.Attrs(r)
	if first != 2 || count != 2 || d.Value(first) != "1" || d.Value(first+1) != "2" {
		t.Fatalf("Attrs(root) = %d,%d", first, count)
	}
	a := elem(t, d, "a")
	if a != 4 || d.FirstChild(r) != a || d.SubtreeEnd(a) != 7 || d.SubtreeEnd(r) != NodeID(d.Len()) {
		t.Errorf("a=%d first=%d end(a)=%d end(r)=%d len=%d", a, d.FirstChild(r), d.SubtreeEnd(a), d.SubtreeEnd(r), d.Len())
	}
	if d.LastChild(r) != elem(t, d, "d") || d.PrevSibling(d.LastChild(r)) != d.NextSibling(a) {
		t.Errorf("sibling links broken")
	}
	if d.Kind(d.NextSibling(a)) != KindComment || d.Value(d.NextSibling(a)) != "c" {
		t.Errorf("comment sibling wrong")
	}
	if d.Name(d.NextSibling(a)) != -1 || d.Name(d.FirstChild(a)+1) != -1 {
		t.Errorf("comments and text have no name")
	}
	if _, c := d.Attrs(d.NextSibling(a)); c != 0 {
		t.Errorf("a comment has attributes")
	}
	if got := d.Attr(r, d.Name(first+1)); got != first+1 {
		t.Errorf("Attr(r, y) = %d", got)
	}
	if got := d.Attr(a, d.Name(first)); got != None {
		t.Errorf("Attr(a, x) = %d, want None", got)
	}
	if d.Kind(0).String() != "document" || KindPI.String() != "processing-instruction" {
		t.Errorf("Kind.String")
	}
}

func TestStringValue(t *testing.T) {
	d := mustParse(t, `<r><a>one</a><b>x<i>y</i>z</b><c/><e><f>deep</f></e><g>a&amp;b</g></r>`)
	for _, tc := range []struct{ local, want string }{
		{"a", "one"}, {"b", "xyz"}, {"c", ""}, {"e", "deep"}, {"g", "a&b"}, {"r", "onexyzdeepa&b"},
	} {
		if got := d.StringValue(elem(t, d, tc.local)); got != tc.want {
			t.Errorf("StringValue(%s) = %q, want %q", tc.local, got, tc.want)
		}
	}
	if got := d.StringValue(0); got != "onexyzdeepa&b" {
		t.Errorf("StringValue(document) = %q", got)
	}
	for _, local := range []string{"a", "e", "g", "c"} {
		n := elem(t, d, local)
		if allocs := testing.AllocsPerRun(100, func() { _ = d.StringValue(n) }); allocs != 0 {
			t.Errorf("StringValue(%s) allocates %v times", local, allocs)
		}
	}
}

func TestPath(t *testing.T) {
	d := mustParse(t, `<Invoice xmlns="urn:i" xmlns:cac="urn:a" xmlns:o="urn:o">
<cac:InvoiceLine><Amount currencyID="EUR">1</Amount></cac:InvoiceLine>
<o:InvoiceLine/>
<cac:InvoiceLine><Amount currencyID="EUR">2</Amount><!--x--><?p q?></cac:InvoiceLine>
</Invoice>`)
	lines := []NodeID{}
	for n := NodeID(0); n < NodeID(d.Len()); n++ {
		if d.Kind(n) == KindElement && d.NameSpace(d.Name(n)) == "urn:a" {
			lines = append(lines, n)
		}
	}
	amount2 := d.FirstChild(lines[1])
	cur := attr(t, d, amount2, "currencyID")
	for _, tc := range []struct {
		n    NodeID
		want string
	}{
		{0, "/"},
		{d.Root(), "/Invoice[1]"},
		{lines[0], "/Invoice[1]/InvoiceLine[1]"},
		{lines[1], "/Invoice[1]/InvoiceLine[2]"}, // o:InvoiceLine has another expanded name
		{amount2, "/Invoice[1]/InvoiceLine[2]/Amount[1]"},
		{cur, "/Invoice[1]/InvoiceLine[2]/Amount[1]/@currencyID"},
		{d.FirstChild(amount2), "/Invoice[1]/InvoiceLine[2]/Amount[1]/text()[1]"},
		{d.NextSibling(amount2), "/Invoice[1]/InvoiceLine[2]/comment()[1]"},
		{d.LastChild(lines[1]), "/Invoice[1]/InvoiceLine[2]/processing-instruction(p)[1]"},
		{d.NextSibling(d.FirstChild(d.Root())), "/Invoice[1]/InvoiceLine[1]"},
	} {
		if got := d.Path(tc.n); got != tc.want {
			t.Errorf("Path(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	var o NodeID = None
	for n := NodeID(0); n < NodeID(d.Len()); n++ {
		if d.Kind(n) == KindElement && d.NameSpace(d.Name(n)) == "urn:o" {
			o = n
		}
	}
	if got := d.Path(o); got != "/Invoice[1]/InvoiceLine[1]" {
		t.Errorf("Path(o:InvoiceLine) = %q", got)
	}
	// Text positions count text siblings.
	d2 := mustParse(t, "<a>x<b/>y<b/>z</a>")
	if got := d2.Path(d2.LastChild(d2.Root())); got != "/a[1]/text()[3]" {
		t.Errorf("Path(last text) = %q", got)
	}
	if got := d2.Path(d2.PrevSibling(d2.LastChild(d2.Root()))); got != "/a[1]/b[2]" {
		t.Errorf("Path(second b) = %q", got)
	}
}

func TestDocumentLevelNodes(t *testing.T) {
	d := mustParse(t, "\n<!--a-->\n<?pi x?>\n<r/>\n<!--b-->\n")
	got := children(d, 0)
	want := []string{"c:a", "p:pi=x", "e:r", "c:b"}
	if !slices.Equal(got, want) {
		t.Errorf("document children %q, want %q", got, want)
	}
	if d.Root() != elem(t, d, "r") {
		t.Errorf("Root() = %d", d.Root())
	}
	if !strings.HasPrefix(d.Path(d.FirstChild(0)), "/comment()[1]") {
		t.Errorf("Path(top comment) = %q", d.Path(d.FirstChild(0)))
	}
}

func TestInputNotRetained(t *testing.T) {
	data := []byte("<a b='v'>text</a>")
	d, err := Parse(data, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = 'X'
	}
	if d.StringValue(d.Root()) != "text" || d.Value(attr(t, d, d.Root(), "b")) != "v" || d.NameLocal(d.Name(d.Root())) != "a" {
		t.Errorf("document changed when the caller reused its buffer")
	}
}
