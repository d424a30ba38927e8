package xmlio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

func writeSample(t *testing.T, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, opts)
	w.Root("a:Doc", []Namespace{{"", "urn:default"}, {"a", "urn:a"}}, Attr{"v", `1"<&>`})
	w.Start("a:Group", Attr{"currencyID", "EUR"})
	w.Element("a:Leaf", "x < y & z > \"q\"\r\n\ttab")
	w.Element("a:Empty", "")
	w.End()
	w.Element("Plain", "ü€")
	w.End()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestWriterOutput(t *testing.T) {
	got := writeSample(t, Options{})
	want := `<?xml version="1.0" encoding="UTF-8"?><a:Doc xmlns="urn:default" xmlns:a="urn:a" v="1&quot;&lt;&amp;&gt;"><a:Group currencyID="EUR"><a:Leaf>x &lt; y &amp; z &gt; "q"&#xD;` + "\n\ttab" + `</a:Leaf><a:Empty/></a:Group><Plain>ü€</Plain></a:Doc>`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	got = writeSample(t, Options{Indent: "  ", OmitDeclaration: true})
	want = "<a:Doc xmlns=\"urn:default\" xmlns:a=\"urn:a\" v=\"1&quot;&lt;&amp;&gt;\">\n  <a:Group currencyID=\"EUR\">\n    <a:Leaf>x &lt; y &amp; z &gt; \"q\"&#xD;\n\ttab</a:Leaf>\n    <a:Empty/>\n  </a:Group>\n  <Plain>ü€</Plain>\n</a:Doc>\n"
	if got != want {
		t.Fatalf("indented: got\n%q\nwant\n%q", got, want)
	}
}

// The written text must parse back to exactly the values written.
func TestWriterRoundTripsValues(t *testing.T) {
	values := []string{"plain", "a&b<c>d", "quote\"'apos", "cr\rlf\nboth\r\n", "tab\there", " lead and trail ", "ünï©ødé 😀", "]]>"}
	for _, indent := range []string{"", "\t"} {
		var buf bytes.Buffer
		w := NewWriter(&buf, Options{Indent: indent})
		w.Root("r", nil)
		for _, v := range values {
			w.Element("e", v, Attr{"a", v})
		}
		w.End()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		doc, err := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
		if err != nil {
			t.Fatalf("parse %q: %v", buf.String(), err)
		}
		tr := NewTracker(doc)
		i := 0
		for e := range tr.Children(doc.Root(), "", "e") {
			if got := doc.StringValue(e); got != values[i] {
				t.Errorf("text %d: got %q want %q", i, got, values[i])
			}
			a, _ := doc.Attrs(e)
			if got := doc.Value(a); got != values[i] {
				t.Errorf("attr %d: got %q want %q", i, got, values[i])
			}
			i++
		}
		if i != len(values) {
			t.Fatalf("read %d elements, want %d", i, len(values))
		}
	}
}

func TestWriterErrors(t *testing.T) {
	cases := []struct {
		name string
		run  func(w *Writer)
		want error
	}{
		{"control char", func(w *Writer) { w.Root("r", nil); w.Text("a\x01"); w.End() }, ErrInvalidChar},
		{"bad utf8", func(w *Writer) { w.Root("r", nil, Attr{"a", "\xff"}); w.End() }, ErrInvalidChar},
		{"surrogate", func(w *Writer) { w.Root("r", nil); w.Text("\xed\xa0\x80"); w.End() }, ErrInvalidChar},
		{"unclosed", func(w *Writer) { w.Root("r", nil); w.Start("x") }, ErrUnbalanced},
		{"extra end", func(w *Writer) { w.Root("r", nil); w.End(); w.End() }, ErrUnbalanced},
		{"start before root", func(w *Writer) { w.Start("x") }, ErrUnbalanced},
		{"two roots", func(w *Writer) { w.Root("r", nil); w.End(); w.Root("s", nil) }, ErrUnbalanced},
		{"nothing", func(w *Writer) {}, ErrUnbalanced},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		w := NewWriter(&buf, Options{})
		c.run(w)
		if err := w.Close(); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterPropagatesWriteError(t *testing.T) {
	w := NewWriter(failWriter{}, Options{})
	w.Root("r", nil)
	w.End()
	if err := w.Close(); err == nil {
		t.Fatal("want the write error")
	}
}

func TestInvalidChar(t *testing.T) {
	for _, c := range []struct {
		s    string
		r    rune
		at   int
		want bool
	}{
		{"plain ü €", 0, 0, false},
		{"tab\tnl\ncr\r", 0, 0, false},
		{"a\x03", 3, 1, true},
		{"ab\uffff", 0xFFFF, 2, true},
		{"x\xff", 0xFFFD, 1, true},
	} {
		r, at, bad := InvalidChar(c.s)
		if bad != c.want || (bad && (r != c.r || at != c.at)) {
			t.Errorf("InvalidChar(%q) = %U, %d, %v", c.s, r, at, bad)
		}
	}
}
