package pdfread

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/testshared"
)

// corpusPDFs lists every PDF in ../shared/corpus/pdf.
func corpusPDFs(tb testing.TB) []string {
	tb.Helper()
	var out []string
	root := filepath.Join(testshared.Dir(tb), "corpus", "pdf")
	_ = filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() && filepath.Ext(p) == ".pdf" {
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		tb.Fatalf("no PDFs under %s", root)
	}
	return out
}

// corpusDoc is one opened corpus PDF.
type corpusDoc struct {
	path string
	doc  *Doc
}

// openCorpus opens every corpus PDF with the default limits; every one
// must open.
func openCorpus(t *testing.T) []corpusDoc {
	t.Helper()
	var out []corpusDoc
	for _, f := range corpusPDFs(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Open(b, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, corpusDoc{f, d})
	}
	return out
}

func TestOpenCorpus(t *testing.T) {
	for _, c := range openCorpus(t) {
		f, d := c.path, c.doc
		pages, err := d.Pages()
		if err != nil || len(pages) == 0 {
			t.Errorf("%s: pages=%d err=%v", f, len(pages), err)
			continue
		}
		c, err := d.PageContent(pages[0])
		if err != nil || len(c) == 0 {
			t.Errorf("%s: page 1 content %d bytes, err=%v", f, len(c), err)
		}
	}
}

// buildPDF writes a classic-xref PDF from object bodies (object i+1 is
// objs[i]); trailer extra entries are appended verbatim.
func buildPDF(objs []string, trailerExtra string) []byte {
	return pdftestgen.Classic(objs, " "+trailerExtra)
}

func flateBytes(data []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	_, _ = w.Write(data)
	_ = w.Close()
	return b.Bytes()
}

func streamObj(dict string, data []byte) string {
	return fmt.Sprintf("<<%s /Length %d>>\nstream\n%s\nendstream", dict, len(data), data)
}

func simplePDF(content string) []byte {
	return buildPDF([]string{
		"<</Type /Catalog /Pages 2 0 R>>",
		"<</Type /Pages /Kids [3 0 R] /Count 1>>",
		"<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>>",
		streamObj("", []byte(content)),
		"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding>>",
	}, "")
}

func TestResolveAndStreams(t *testing.T) {
	d, err := Open(simplePDF("BT /F1 12 Tf 72 700 Td (Hello) Tj ET"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := d.Pages()
	if err != nil || len(pages) != 1 {
		t.Fatalf("pages %d %v", len(pages), err)
	}
	c, err := d.PageContent(pages[0])
	if err != nil || !bytes.Contains(c, []byte("(Hello) Tj")) {
		t.Fatalf("content %q %v", c, err)
	}
	f := pages[0].Resources
	fonts, _ := AsDict(d.Get(f, "Font"))
	font, _ := AsDict(d.Get(fonts, "F1"))
	if font["BaseFont"] != Name("Helvetica") {
		t.Fatalf("font %v", font)
	}
}

func TestEncryptedRefused(t *testing.T) {
	b := buildPDF([]string{"<</Type /Catalog>>", "<</Filter /Standard /V 1>>"}, "/Encrypt 2 0 R")
	if _, err := Open(b, Limits{}); !errors.Is(err, ErrEncrypted) {
		t.Fatalf("want ErrEncrypted, got %v", err)
	}
}

func TestFlateBombStopped(t *testing.T) {
	bomb := flateBytes(make([]byte, 50<<20))
	b := buildPDF([]string{"<</Type /Catalog>>", streamObj("/Filter /FlateDecode", bomb)}, "")
	d, err := Open(b, Limits{MaxDecoded: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := d.Resolve(Ref{Num: 2})
	if _, err := d.StreamData(s.(*Stream)); !errors.Is(err, ErrLimit) {
		t.Fatalf("want ErrLimit, got %v", err)
	}
}

func TestAppendObjectRoundTrip(t *testing.T) {
	in := Dict{
		"A": Array{Int(1), Real(2.5), Bool(true), Null{}, Name("x y#"), String("a(b)\\"), String("\x00\xff"), Ref{Num: 3, Gen: 1}},
		"B": Dict{"C": Int(-7)},
	}
	buf := AppendObject(nil, in)
	p := &parser{data: buf, max: 10}
	out, err := p.parseObject()
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendObject(nil, out); !bytes.Equal(got, buf) {
		t.Fatalf("round trip:\n%s\n%s", buf, got)
	}
	s := &Stream{Dict: Dict{"Length": Int(99)}, Raw: []byte("xyz")}
	if got := string(AppendIndirect(nil, Ref{Num: 4}, s)); got != "4 0 obj\n<</Length 3>>\nstream\nxyz\nendstream\nendobj\n" {
		t.Fatalf("stream: %q", got)
	}
}
