package xmltree

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseReader(t *testing.T) {
	d, err := ParseReader(strings.NewReader("<a>x</a>"), Limits{})
	if err != nil || d.StringValue(d.Root()) != "x" {
		t.Fatalf("ParseReader: %v", err)
	}
	// The reader is not drained past the limit.
	r := &countingReader{r: strings.NewReader("<a>\n" + strings.Repeat("x", 1<<20) + "</a>")}
	_, err = ParseReader(r, Limits{MaxBytes: 100})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MaxBytes" || le.Max != 100 || le.Line != 2 {
		t.Fatalf("oversized body: %v", err)
	}
	if r.n > 4096 {
		t.Errorf("read %d bytes for a 100-byte limit", r.n)
	}
	boom := errors.New("boom")
	_, err = ParseReader(iotest.ErrReader(boom), Limits{})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "reading input") {
		t.Errorf("read error: %v", err)
	}
	var se *SyntaxError
	if _, err = ParseReader(strings.NewReader("<a>"), Limits{}); !errors.As(err, &se) {
		t.Errorf("syntax error through ParseReader: %v", err)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestParseReaderMatchesParse(t *testing.T) {
	src := "\xEF\xBB\xBF<r xmlns='urn:x' a='1&amp;2'>t<![CDATA[c]]>\r\n<s/></r>"
	d1 := mustParse(t, src)
	d2, err := ParseReader(strings.NewReader(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := treeEvents(d2), treeEvents(d1); !slices.Equal(got, want) {
		t.Errorf("ParseReader %q\nParse       %q", got, want)
	}
}
