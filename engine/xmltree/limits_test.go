package xmltree

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func wantLimit(t *testing.T, in string, lim Limits, limit string, max int64, line int) {
	t.Helper()
	d, err := Parse([]byte(in), lim)
	if err == nil {
		t.Fatalf("Parse(%q) succeeded with %d nodes, want %s error", clip(in), d.Len(), limit)
	}
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("Parse(%q): %T %v, want *LimitError", clip(in), err, err)
	}
	if le.Limit != limit || le.Max != max || le.Line != line {
		t.Errorf("Parse(%q): got %s max %d line %d, want %s max %d line %d", clip(in), le.Limit, le.Max, le.Line, limit, max, line)
	}
}

func wantOK(t *testing.T, in string, lim Limits) *Document {
	t.Helper()
	d, err := Parse([]byte(in), lim)
	if err != nil {
		t.Fatalf("Parse(%q): %v", clip(in), err)
	}
	checkInvariants(t, d)
	return d
}

func TestDefaultLimits(t *testing.T) {
	l := DefaultLimits()
	if l.MaxBytes != 20<<20 || l.MaxDepth != 256 || l.MaxNodes != 2_000_000 || l.MaxAttrs != 256 || l.MaxNameLen != 1024 || l.MaxTextLen != 10<<20 {
		t.Errorf("DefaultLimits() = %+v", l)
	}
	if (Limits{}).withDefaults() != l {
		t.Errorf("zero Limits does not mean the defaults")
	}
	huge := Limits{MaxBytes: math.MaxInt64, MaxNodes: math.MaxInt, MaxTextLen: math.MaxInt, MaxNameLen: math.MaxInt}.withDefaults()
	if huge.MaxBytes != maxInput || huge.MaxNodes != maxInput || huge.MaxTextLen != maxInput || huge.MaxNameLen != maxInput {
		t.Errorf("limits beyond 31-bit offsets are not clamped: %+v", huge)
	}
}

func TestLimitMaxBytes(t *testing.T) {
	in := "<a>\n</a>\n<!---->"
	wantLimit(t, in, Limits{MaxBytes: 10}, "MaxBytes", 10, 3)
	wantOK(t, in, Limits{MaxBytes: int64(len(in))})
}

func TestLimitMaxDepth(t *testing.T) {
	wantOK(t, "<a><b><c/></b></a>", Limits{MaxDepth: 3})
	wantLimit(t, "<a>\n<b>\n<c>\n<d/></c></b></a>", Limits{MaxDepth: 3}, "MaxDepth", 3, 4)
	wantLimit(t, strings.Repeat("<a>", 300)+strings.Repeat("</a>", 300), Limits{}, "MaxDepth", DefaultMaxDepth, 1)
}

// TestDeepNestingIsIterative parses 100,000 nested elements: with the default
// limit it must fail cleanly, with a raised limit succeed, and neither may
// overflow the stack (the parser and Path have no recursion).
func TestDeepNestingIsIterative(t *testing.T) {
	const depth = 100_000
	in := strings.Repeat("<a>", depth) + "x" + strings.Repeat("</a>", depth)
	wantLimit(t, in, DefaultLimits(), "MaxDepth", DefaultMaxDepth, 1)
	d, err := Parse([]byte(in), Limits{MaxDepth: depth})
	if err != nil {
		t.Fatal(err)
	}
	leaf := NodeID(depth)
	if d.Kind(leaf) != KindElement || d.StringValue(leaf) != "x" || d.StringValue(d.Root()) != "x" {
		t.Fatalf("deepest element %d wrong", leaf)
	}
	if p := d.Path(leaf); !strings.HasSuffix(p, "/a[1]") || len(p) != depth*len("/a[1]") {
		t.Errorf("Path of deepest element has length %d", len(p))
	}
	wantLimit(t, in, Limits{MaxDepth: depth - 1}, "MaxDepth", depth-1, 1)
}

func TestLimitMaxNodes(t *testing.T) {
	// document, a, b, b
	wantOK(t, "<a><b/><b/></a>", Limits{MaxNodes: 4})
	wantLimit(t, "<a>\n<b/><b/></a>", Limits{MaxNodes: 3}, "MaxNodes", 3, 2)
	// text and attribute nodes count
	wantLimit(t, "<a>x</a>", Limits{MaxNodes: 2}, "MaxNodes", 2, 1)
	wantLimit(t, "<a\nb='1'/>", Limits{MaxNodes: 2}, "MaxNodes", 2, 2)
	wantLimit(t, "<a/><!--c-->", Limits{MaxNodes: 2}, "MaxNodes", 2, 1)
	// namespace declarations are not nodes
	wantOK(t, "<a xmlns='urn:x' xmlns:p='urn:p'/>", Limits{MaxNodes: 2})
}

func TestLimitMaxAttrs(t *testing.T) {
	wantOK(t, `<a x="1" y="2"/>`, Limits{MaxAttrs: 2})
	wantLimit(t, "<a x=\"1\"\n y=\"2\" z=\"3\"/>", Limits{MaxAttrs: 2}, "MaxAttrs", 2, 2)
	wantLimit(t, `<a xmlns="urn:x" xmlns:p="urn:p" p:y="2"/>`, Limits{MaxAttrs: 2}, "MaxAttrs", 2, 1)
}

// TestManyAttributes checks duplicate detection beyond the linear-scan range.
func TestManyAttributes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<a")
	for i := 0; i < 2000; i++ {
		b.WriteString(" a")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(itoa(i))
		b.WriteString("='v'")
	}
	ok := b.String() + "/>"
	d := wantOK(t, ok, Limits{MaxAttrs: 5000})
	if _, c := d.Attrs(d.Root()); c != 2000 {
		t.Fatalf("%d attributes", c)
	}
	dupName := "a" + strings.Repeat("x", 1999%7) + itoa(1999)
	_, err := Parse([]byte(b.String()+" "+dupName+"='dup'/>"), Limits{MaxAttrs: 5000})
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "duplicate attribute "+dupName) {
		t.Fatalf("duplicate among 2001 attributes: %v", err)
	}
	if want := len(b.String()) + 2; se.Col != want {
		t.Errorf("duplicate reported at column %d, want %d", se.Col, want)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var buf [20]byte
	k := len(buf)
	for ; i > 0; i /= 10 {
		k--
		buf[k] = byte('0' + i%10)
	}
	return string(buf[k:])
}

func TestLimitMaxNameLen(t *testing.T) {
	wantOK(t, "<abcd/>", Limits{MaxNameLen: 4})
	wantLimit(t, "<abcde/>", Limits{MaxNameLen: 4}, "MaxNameLen", 4, 1)
	wantLimit(t, "<a\n abcde='1'/>", Limits{MaxNameLen: 4}, "MaxNameLen", 4, 2)
	wantLimit(t, "<a><?abcde x?></a>", Limits{MaxNameLen: 4}, "MaxNameLen", 4, 1)
	wantLimit(t, "<p:bcd xmlns:p='u'/>", Limits{MaxNameLen: 4}, "MaxNameLen", 4, 1) // the qualified name counts
}

func TestLimitMaxTextLen(t *testing.T) {
	wantOK(t, "<a b='12345'>12345</a>", Limits{MaxTextLen: 5})
	wantLimit(t, "<a>\n123456</a>", Limits{MaxTextLen: 5}, "MaxTextLen", 5, 1)
	wantLimit(t, "<a>abc<![CDATA[def]]></a>", Limits{MaxTextLen: 5}, "MaxTextLen", 5, 1)
	wantLimit(t, "<a\nb='123456'/>", Limits{MaxTextLen: 5}, "MaxTextLen", 5, 2)
	wantLimit(t, "<a b='1&amp;3456'/>", Limits{MaxTextLen: 5}, "MaxTextLen", 5, 1)
	wantLimit(t, "<a><!--123456--></a>", Limits{MaxTextLen: 5}, "MaxTextLen", 5, 1)
	wantLimit(t, "<a><?p 123456?></a>", Limits{MaxTextLen: 5}, "MaxTextLen", 5, 1)
	// expansion shrinks: 5 characters written as references fit
	wantOK(t, "<a>&lt;&lt;&lt;&lt;&lt;</a>", Limits{MaxTextLen: 5})
}
