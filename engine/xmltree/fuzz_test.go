package xmltree

import (
	"errors"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are small hand-written inputs covering every construct.
var fuzzSeeds = []string{
	"<a/>",
	`<?xml version="1.0" encoding="UTF-8"?><r xmlns="urn:d" xmlns:p="urn:p" p:a="1" b='2'><p:x>t&amp;&#x41;<![CDATA[c]]></p:x><!--c--><?pi d?></r>`,
	"<a>\r\n<b c=\"x\ty\r\nz\"/>\r</a>",
	"\xEF\xBB\xBF<a>é</a>",
	"\xFF\xFE<\x00a\x00/\x00>\x00",
	"<a><b><c><d><e/></d></c></b></a>",
	"<!DOCTYPE a><a/>",
	"<a xmlns:p='u'><p:b p:c='1' c='2'/></a>",
}

// corpusSeeds are a few real invoices read from the shared corpus at test
// time (never copied into this repository).
var corpusSeeds = []string{
	"en16931/ubl/examples/ubl-tc434-example1.xml",
	"en16931/cii/examples/CII_example1.xml",
	"xrechnung-testsuite/technical-cases/cvd/02.01a-cvd_INVOICE_uncefact.xml",
}

// FuzzParse feeds arbitrary bytes to Parse. The only acceptable errors are
// *SyntaxError and *LimitError; a panic, any other error or a document that
// violates the structural invariants is a bug.
// fuzzRecycler carries node arrays from input to input of FuzzParse.
var fuzzRecycler Recycler

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	if dir := testshared.Path(); dirExists(filepath.Join(dir, "corpus")) {
		for _, rel := range corpusSeeds {
			if data, err := os.ReadFile(filepath.Join(dir, "corpus", filepath.FromSlash(rel))); err == nil {
				f.Add(data)
			}
		}
	}
	tight := Limits{MaxBytes: 1 << 16, MaxDepth: 6, MaxNodes: 200, MaxAttrs: 4, MaxNameLen: 12, MaxTextLen: 40}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lim := range []Limits{DefaultLimits(), tight} {
			d, err := Parse(data, lim)
			checkRootName(t, data, lim, d, err)
			checkRecycled(t, &fuzzRecycler, data, lim, d, err)
			if err != nil {
				var se *SyntaxError
				var le *LimitError
				switch {
				case errors.As(err, &se):
					if se.Line < 1 || se.Col < 1 || se.Msg == "" {
						t.Fatalf("bad SyntaxError %+v", se)
					}
				case errors.As(err, &le):
					if le.Line < 1 || le.Max <= 0 || le.Limit == "" {
						t.Fatalf("bad LimitError %+v", le)
					}
				default:
					t.Fatalf("unexpected error type %T: %v", err, err)
				}
				continue
			}
			checkInvariants(t, d)
			checkIndex(t, d)
			exerciseAccessors(t, d)
		}
	})
}

// checkRootName checks RootName against Parse's outcome on data: the root's
// name when Parse accepts data, and only an error Parse also reports.
func checkRootName(t *testing.T, data []byte, lim Limits, d *Document, perr error) {
	t.Helper()
	ns, local, err := RootName(data, lim)
	switch {
	case perr == nil && err != nil:
		t.Fatalf("Parse accepts the document, RootName says %v", err)
	case perr == nil:
		if id := d.Name(d.Root()); ns != d.NameSpace(id) || local != d.NameLocal(id) {
			t.Fatalf("RootName {%s}%s, Parse's root {%s}%s", ns, local, d.NameSpace(id), d.NameLocal(id))
		}
	case err != nil && err.Error() != perr.Error():
		t.Fatalf("RootName says %v, Parse %v", err, perr)
	}
}

func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// exerciseAccessors calls every accessor and checks the results are
// consistent. StringValue and Path are quadratic over a whole document, so
// large documents get them on a sample of nodes only (the fuzzer minimises
// big inputs by re-running them thousands of times).
func exerciseAccessors(t *testing.T, d *Document) {
	t.Helper()
	for n := NodeID(0); n < NodeID(d.Len()); n++ {
		if d.Line(n) < 1 {
			t.Fatalf("node %d: line %d", n, d.Line(n))
		}
		v := d.Value(n)
		if n < 128 || n%97 == 0 {
			v = d.StringValue(n)
			if !utf8.ValidString(v) {
				t.Fatalf("node %d: string value is not UTF-8", n)
			}
			if p := d.Path(n); p == "" || p[0] != '/' {
				t.Fatalf("node %d: path %q", n, p)
			}
		}
		switch d.Kind(n) {
		case KindElement, KindAttribute:
			id := d.Name(n)
			if got, ok := d.LookupName(d.NameSpace(id), d.NameLocal(id)); !ok || got != id {
				t.Fatalf("node %d: LookupName round trip %d,%v want %d", n, got, ok, id)
			}
			if d.NameLocal(id) == "" {
				t.Fatalf("node %d: empty local name", n)
			}
			if q := d.QualifiedName(n); d.Prefix(n) != "" && q != d.Prefix(n)+":"+d.NameLocal(id) {
				t.Fatalf("node %d: qualified name %q, prefix %q", n, q, d.Prefix(n))
			}
		case KindText:
			if !utf8.ValidString(v) {
				t.Fatalf("text node %d is not UTF-8", n)
			}
			if v == "" {
				t.Fatalf("empty text node %d", n)
			}
		}
	}
}
