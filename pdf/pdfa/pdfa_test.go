package pdfa_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/golden"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var fixed = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// sample is a document exercising every feature of the writer: four fonts,
// Latin, Greek, Cyrillic, CJK and Arabic text (the last two drawn with the
// replacement glyph), lines, rectangles, two pages and two attachments.
func sample(t testing.TB) []byte {
	t.Helper()
	fs, err := pdfa.GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfa.New(pdfa.Options{Time: fixed})
	if err != nil {
		t.Fatal(err)
	}
	d.SetInfo(pdfa.Info{Title: "Rechnung Nr. 4711 – Ünïcödé", Author: "Müller & Söhne (GmbH)", Subject: "Test \\ (parens)", Keywords: "a, b", Creator: "pdfa_test"})
	p := d.AddPage(pdfa.A4Width, pdfa.A4Height)
	p.SetFill(pdfa.Color{R: 0.2, G: 0.3, B: 0.5})
	p.Text(fs.Bold, 16, 50, 790, "Invoice INV-4711")
	p.SetFill(pdfa.Black)
	p.Text(fs.Regular, 10, 50, 770, "Latin: Ærø Ĳssel Œuvre ß € 1.234,56 – “quoted” (parens) \\ backslash")
	p.Text(fs.Italic, 10, 50, 755, "Ελληνικά: Καλημέρα κόσμε")
	p.Text(fs.BoldItalic, 10, 50, 740, "Кириллица: Съешь же ещё этих мягких французских булок")
	p.Text(fs.Mono, 10, 50, 725, "CJK: 日本語のテキスト 中文 한국어")
	p.Text(fs.Regular, 10, 50, 710, "Arabic: مرحبا بالعالم")
	p.Text(fs.Regular, 10, 50, 695, "Control\x00chars\x07 and emoji 😀 outside the BMP")
	p.SetStroke(pdfa.Color{R: 0.5, G: 0.5, B: 0.5})
	p.SetLineWidth(0.75)
	p.Line(50, 680, 545, 680)
	p.SetFill(pdfa.Color{R: 0.9, G: 0.9, B: 0.95})
	p.Rect(50, 600, 200, 60, true, true)
	p2 := d.AddPage(pdfa.A4Width, pdfa.A4Height)
	p2.Text(fs.Regular, 10, 50, 790, "Second page")
	for _, f := range []pdfa.EmbeddedFile{
		{Name: "factur-x.xml", Description: "Factur-X", MIME: "text/xml", Relationship: pdfa.Alternative, Data: []byte("<?xml version=\"1.0\"?><x>ü</x>\n")},
		{Name: "notes (1).txt", MIME: "text/plain", Relationship: pdfa.Supplement, Data: []byte("some notes"), ModDate: fixed.Add(-time.Hour)},
	} {
		if err := d.Attach(f); err != nil {
			t.Fatal(err)
		}
	}
	b, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGolden: the writer's output is deterministic for a fixed time and
// equal to the recorded one (go test ./pdf/pdfa -update rewrites it). The
// golden is the output's size and SHA-256, not the PDF: the PDF embeds the
// sRGB ICC profile and font programs, which are never committed. To look at
// a change, write the sample out (TestPoppler's checks say what it shows).
func TestGolden(t *testing.T) {
	got := sample(t)
	if !bytes.Equal(got, sample(t)) {
		t.Fatal("two runs with the same input differ")
	}
	digest := fmt.Sprintf("%d bytes sha256 %x\n", len(got), sha256.Sum256(got))
	golden.Check(t, filepath.Join("testdata", "sample.pdf.sha256"), []byte(digest), *update)
}

// TestVeraPDF: the sample is PDF/A-3b according to veraPDF.
func TestVeraPDF(t *testing.T) {
	verapdftest.AssertPDFA3B(t, sample(t))
}

// TestPoppler: qpdf finds the file sound, and what poppler reads back — text (missing glyphs included,
// through ToUnicode), attachments byte for byte, two pages, Info.
func TestPoppler(t *testing.T) {
	b := sample(t)
	pdfatest.QPDFCheck(t, b)
	text := pdfatest.Text(t, b)
	for _, want := range []string{"Invoice INV-4711", "Ærø Ĳssel Œuvre ß € 1.234,56 – “quoted” (parens) \\ backslash",
		"Καλημέρα κόσμε", "Съешь же ещё этих мягких французских булок", "日本語のテキスト 中文 한국어", "Controlchars and emoji 😀", "Second page"} {
		if !strings.Contains(text, want) {
			t.Errorf("pdftotext misses %q in:\n%s", want, text)
		}
	}
	if n := pdfatest.Pages(t, b); n != 2 {
		t.Errorf("pages = %d", n)
	}
	files := pdfatest.Detach(t, b)
	if string(files["factur-x.xml"]) != "<?xml version=\"1.0\"?><x>ü</x>\n" || string(files["notes (1).txt"]) != "some notes" {
		t.Errorf("attachments: %q", files)
	}
}

// TestStructure checks the dictionaries PDF/A-3 and Factur-X readers look
// for, in the serialized bytes.
func TestStructure(t *testing.T) {
	b := sample(t)
	if !bytes.HasPrefix(b, []byte("%PDF-1.7\n%")) || b[10] < 0x80 || b[11] < 0x80 || b[12] < 0x80 || b[13] < 0x80 || b[14] != '\n' {
		t.Errorf("header %q: want %%PDF-1.7 and a comment of four bytes above 127", b[:15])
	}
	s := string(b)
	for _, re := range []string{
		`/AFRelationship /Alternative`, `/AFRelationship /Supplement`,
		`/Type /EmbeddedFile /Subtype /text#2Fxml /Params << /Size 31 /CreationDate \(D:20260304050607\+00'00'\) /ModDate \(D:20260304050607\+00'00'\) /CheckSum <[0-9A-F]{32}>`,
		`/Names << /EmbeddedFiles << /Names \[\(factur-x\.xml\) \d+ 0 R \(notes \\\(1\\\)\.txt\) \d+ 0 R\] >> >> /AF \[\d+ 0 R \d+ 0 R\]`,
		`/OutputIntents \[\d+ 0 R\]`, `/S /GTS_PDFA1 /OutputConditionIdentifier \(sRGB IEC61966-2\.1\)`,
		`/Subtype /CIDFontType2 /BaseFont /[A-Z]{6}\+GoRegular`, `/CIDToGIDMap \d+ 0 R`, `/ToUnicode \d+ 0 R`, `/FontFile2 \d+ 0 R`,
		`/ID \[<[0-9A-F]{32}> <[0-9A-F]{32}>\]`,
		`/CreationDate \(D:20260304050607\+00'00'\) /ModDate \(D:20260304050607\+00'00'\)`,
	} {
		if !regexp.MustCompile(re).MatchString(s) {
			t.Errorf("no match for %s", re)
		}
	}
}

// TestXMP: the metadata packet is well-formed XML, declares PDF/A-3B and
// carries the Info values and dates in XMP form.
func TestXMP(t *testing.T) {
	in := pdfa.Info{Title: "T <&>", Author: "A", Subject: "S", Keywords: "K", Creator: "C", Producer: "P", CreationDate: fixed, ModDate: fixed.Add(time.Minute)}
	x := pdfa.XMP{Part: 3, Conformance: "B", Info: in, Schemas: []pdfa.XMPSchema{{Name: "n", NamespaceURI: "urn:x#", Prefix: "x",
		Properties: []pdfa.XMPProperty{{Name: "P1", ValueType: "Text", Category: "external", Description: "d", Value: "v&"}}}}}.Bytes()
	dec := xml.NewDecoder(bytes.NewReader(x))
	for {
		_, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("XMP is not well-formed: %v\n%s", err, x)
			}
			break
		}
	}
	for _, want := range []string{"<pdfaid:part>3</pdfaid:part>", "<pdfaid:conformance>B</pdfaid:conformance>",
		`<rdf:li xml:lang="x-default">T &lt;&amp;&gt;</rdf:li>`, "<xmp:CreateDate>2026-03-04T05:06:07+00:00</xmp:CreateDate>",
		"<xmp:ModifyDate>2026-03-04T05:07:07+00:00</xmp:ModifyDate>", "<pdf:Producer>P</pdf:Producer>", "<pdf:Keywords>K</pdf:Keywords>",
		"<xmp:CreatorTool>C</xmp:CreatorTool>", "<pdfaSchema:prefix>x</pdfaSchema:prefix>", "<x:P1>v&amp;</x:P1>"} {
		if !bytes.Contains(x, []byte(want)) {
			t.Errorf("XMP lacks %s", want)
		}
	}
}

// TestICCProfile: a missing or foreign profile is a clear error wrapping
// ErrICCProfile.
func TestICCProfile(t *testing.T) {
	notICC := filepath.Join(t.TempDir(), "x.icc")
	if err := os.WriteFile(notICC, bytes.Repeat([]byte("x"), 200), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/nonexistent/sRGB.icc", notICC} {
		_, err := pdfa.New(pdfa.Options{ICCProfile: path})
		if !errors.Is(err, pdfa.ErrICCProfile) || !strings.Contains(err.Error(), "icc-profiles-free") {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := pdfa.New(pdfa.Options{}); err != nil {
		t.Fatalf("default profile %s: %v", pdfa.DefaultICCProfile, err)
	}
}

// TestAttachErrors: bad attachments are refused.
func TestAttachErrors(t *testing.T) {
	d, err := pdfa.New(pdfa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Attach(pdfa.EmbeddedFile{}) == nil {
		t.Error("empty name accepted")
	}
	if d.Attach(pdfa.EmbeddedFile{Name: "a", Relationship: "Bogus"}) == nil {
		t.Error("unknown relationship accepted")
	}
	if d.Attach(pdfa.EmbeddedFile{Name: "a"}) != nil || d.Attach(pdfa.EmbeddedFile{Name: "a"}) == nil {
		t.Error("duplicate name accepted")
	}
	if _, err := d.Bytes(); err == nil {
		t.Error("a document without pages serialized")
	}
	if r, ok := pdfa.ParseRelationship("alternative"); !ok || r != pdfa.Alternative {
		t.Error("ParseRelationship")
	}
}

// TestLongStrings: Info values and attachment names past PDF/A's string
// limit (32767 bytes) and a MIME type past its name limit (127 bytes) are
// cut, and the document stays PDF/A-3b.
func TestLongStrings(t *testing.T) {
	d, err := pdfa.New(pdfa.Options{Time: fixed})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("Ω€x", 20000)
	d.SetInfo(pdfa.Info{Title: long, Author: long, Subject: long})
	if n := len([]rune(d.Info().Title)); n != 4000 {
		t.Errorf("title kept %d characters", n)
	}
	fs, _ := pdfa.GoFonts()
	d.AddPage(pdfa.A4Width, pdfa.A4Height).Text(fs.Regular, 10, 10, 10, "x")
	if err := d.Attach(pdfa.EmbeddedFile{Name: long, Description: long, MIME: "application/" + strings.Repeat("x", 200), Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	b, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	verapdftest.AssertPDFA3B(t, b)
}

// FuzzText: any text drawn in any font serializes, and qpdf-free checks
// hold: the document still starts and ends like a PDF.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "abc", "日本語", "\x00\xff\xfe", "(((\\", "😀\u200d👩", strings.Repeat("x", 1000)} {
		f.Add(s)
	}
	fs, err := pdfa.GoFonts()
	if err != nil {
		f.Fatal(err)
	}
	icc, err := pdfa.ReadICCProfile("")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := pdfa.New(pdfa.Options{ICC: icc, Time: fixed})
		if err != nil {
			t.Fatal(err)
		}
		d.SetInfo(pdfa.Info{Title: s, Author: s})
		p := d.AddPage(pdfa.A4Width, pdfa.A4Height)
		p.Text(fs.Regular, 10, 10, 10, s)
		p.Text(fs.Mono, 10, 10, 30, s)
		if err := d.Attach(pdfa.EmbeddedFile{Name: "f" + s, Data: []byte(s)}); err != nil {
			t.Fatal(err)
		}
		b, err := d.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("%PDF-1.7")) || !bytes.HasSuffix(b, []byte("%%EOF\n")) {
			t.Fatal("not a PDF")
		}
		if w := fs.Regular.Width(s, 10); w < 0 {
			t.Fatalf("negative width %v", w)
		}
	})
}

// BenchmarkDocument is the sample document (two pages, five fonts, two
// attachments) from New to Bytes.
func BenchmarkDocument(b *testing.B) {
	sample(b)
	b.ReportAllocs()
	for b.Loop() {
		sample(b)
	}
}
