// Package pdftestgen writes small raw PDFs for tests: each one exercises a
// feature a PDF/A conversion has to deal with (unembedded base-14 fonts,
// transparency and soft masks, RGB and CMYK images, existing attachments,
// incremental updates), and hostile shapes for the validators (HugeICCTag, NameEscapeAtEnd).
// Nothing here comes from elsewhere: every byte is
// written by this code, so the test corpus is reproducible and free of
// third-party material. Encrypted variants are made by the tests with qpdf.
package pdftestgen

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Case is one generated PDF.
type Case struct {
	Name string // file-system friendly, e.g. "helvetica"
	PDF  []byte
	// Pages is the page count; Attachments the names of the embedded
	// files the PDF already has (in name-tree order).
	Pages       int
	Attachments []string
	// Text is a phrase printed on the first page (for text checks).
	Text string
}

// All returns every case.
func All() []Case {
	return []Case{Helvetica(), Transparency(), RGBImage(), CMYK(), Attached(), Incremental(), MultiPage(12)}
}

// builder collects numbered objects and serializes them with a classic
// cross-reference table.
type builder struct {
	objs []string // objs[i] is object i+1 (without "n 0 obj")
}

func (b *builder) add(body string) int {
	b.objs = append(b.objs, body)
	return len(b.objs)
}

func (b *builder) set(n int, body string) { b.objs[n-1] = body }

func stream(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

func flate(data []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	_, _ = w.Write(data)
	_ = w.Close()
	return buf.Bytes()
}

// bytes writes header, objects, xref and trailer (root is object 1, info
// the last object when info is set).
func (b *builder) bytes(info string) []byte {
	var trailer string
	if info != "" {
		trailer = fmt.Sprintf(" /Info %d 0 R", b.add(info))
	}
	return Classic(b.objs, trailer+" /ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]")
}

// Classic writes a PDF 1.7 with a classic cross-reference table from
// object bodies (object i+1 is objs[i], object 1 the catalog); trailer is
// appended verbatim to the trailer dictionary after /Size and /Root.
func Classic(objs []string, trailer string) []byte {
	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return out.Bytes()
}

// pages adds the catalog (object 1) and the page tree of pages, each with
// its content stream and resources, and returns the builder. catalogExtra
// is appended to the catalog dictionary.
func pages(contents []string, resources, catalogExtra string) *builder {
	b := &builder{}
	b.add("") // catalog, set below
	tree := b.add("")
	var kids []string
	for _, c := range contents {
		cs := b.add(stream("/Filter /FlateDecode", flate([]byte(c))))
		p := b.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Resources %s /Contents %d 0 R >>", tree, resources, cs))
		kids = append(kids, fmt.Sprintf("%d 0 R", p))
	}
	b.set(tree, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids)))
	b.set(1, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R%s >>", tree, catalogExtra))
	return b
}

// onePage starts a one-page document: objects 1 (catalog) and 2 (page
// tree) are reserved and filled in by finishPage.
func onePage() *builder {
	b := &builder{}
	b.add("")
	b.add("")
	return b
}

// finishPage adds the content stream and the page, then the page tree and
// the catalog.
func (b *builder) finishPage(content, resources, pageExtra string) {
	cs := b.add(stream("/Filter /FlateDecode", flate([]byte(content))))
	p := b.add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources %s /Contents %d 0 R%s >>", resources, cs, pageExtra))
	b.set(2, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p))
	b.set(1, "<< /Type /Catalog /Pages 2 0 R >>")
}

// helvFonts is a /Font dictionary with the unembedded base-14 Helvetica as
// F1; helv the resources holding just it.
const (
	helvFonts = "<< /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >>"
	helv      = "<< /Font " + helvFonts + " >>"
)

func textOp(x, y int, size int, s string) string {
	return fmt.Sprintf("BT /F1 %d Tf %d %d Td (%s) Tj ET\n", size, x, y, s)
}

// Helvetica: text in the unembedded base-14 Helvetica (PDF/A requires
// every font embedded).
func Helvetica() Case {
	text := "Invoice INV-2026-001 total 1,234.56 EUR"
	b := pages([]string{textOp(72, 760, 14, text) + textOp(72, 730, 10, "Caf\xe9 cr\xe8me \xfcber")}, helv, "")
	return Case{Name: "helvetica", PDF: b.bytes("<< /Title (Base-14 font test) /Producer (pdftestgen) >>"), Pages: 1, Text: "INV-2026-001"}
}

// Transparency: a constant-alpha ExtGState (CA/ca < 1) and an image with a
// soft mask.
func Transparency() Case {
	b := onePage()
	// 4x4 grey soft mask and RGB image.
	mask := make([]byte, 16)
	for i := range mask {
		mask[i] = byte(i * 16)
	}
	smask := b.add(stream("/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", flate(mask)))
	img := b.add(stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask %d 0 R /Filter /FlateDecode", smask), flate(rgbPixels(4, 4))))
	content := "q 1 0 0 rg /GS1 gs 100 500 300 200 re f Q\nq 0 0 1 rg /GS1 gs 200 400 300 200 re f Q\nq 200 0 0 200 150 150 cm /Im1 Do Q\n" + textOp(72, 760, 14, "Transparency test TR-42")
	res := fmt.Sprintf("<< /Font %s /ExtGState << /GS1 << /Type /ExtGState /CA 0.5 /ca 0.5 /BM /Multiply >> >> /XObject << /Im1 %d 0 R >> >>", helvFonts, img)
	b.finishPage(content, res, " /Group << /S /Transparency /CS /DeviceRGB >>")
	return Case{Name: "transparency", PDF: b.bytes(""), Pages: 1, Text: "TR-42"}
}

func rgbPixels(w, h int) []byte {
	px := make([]byte, 0, w*h*3)
	for y := range h {
		for x := range w {
			px = append(px, byte(x*255/max(w-1, 1)), byte(y*255/max(h-1, 1)), 128)
		}
	}
	return px
}

// RGBImage: a DeviceRGB image and RGB vector colours.
func RGBImage() Case {
	b := onePage()
	img := b.add(stream("/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode", flate(rgbPixels(16, 16))))
	content := "0.2 0.6 0.3 rg 72 600 200 100 re f\nq 300 0 0 300 150 200 cm /Im1 Do Q\n" + textOp(72, 760, 14, "RGB image RGB-7")
	b.finishPage(content, imageResources(img), "")
	return Case{Name: "rgb-image", PDF: b.bytes(""), Pages: 1, Text: "RGB-7"}
}

// imageResources are Helvetica as F1 and the image object img as Im1.
func imageResources(img int) string {
	return fmt.Sprintf("<< /Font %s /XObject << /Im1 %d 0 R >> >>", helvFonts, img)
}

// CMYK: a DeviceCMYK image and CMYK vector colours (not allowed with an
// sRGB output intent, so they must be converted).
func CMYK() Case {
	b := onePage()
	px := make([]byte, 0, 8*8*4)
	for i := range 64 {
		px = append(px, byte(i*4), byte(255-i*4), 64, 0)
	}
	img := b.add(stream("/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceCMYK /BitsPerComponent 8 /Filter /FlateDecode", flate(px)))
	content := "0 1 1 0 k 72 600 200 100 re f\n0.5 0 0 0.2 K 4 w 300 600 m 500 700 l S\nq 300 0 0 300 150 200 cm /Im1 Do Q\n0 0 0 1 k " + textOp(72, 760, 14, "CMYK colours CMYK-9")
	b.finishPage(content, imageResources(img), "")
	return Case{Name: "cmyk", PDF: b.bytes(""), Pages: 1, Text: "CMYK-9"}
}

// AttachedFiles are the files Attached embeds, by name.
var AttachedFiles = map[string][]byte{
	"notes.txt":  []byte("Delivery notes\nline 2\n"),
	"data.csv":   []byte("id;amount\n1;10.00\n2;20.50\n"),
	"binary.bin": {0, 1, 2, 3, 0xff, 0xfe, 0x80, 0x7f},
}

// Attached: a PDF that already has embedded files (in the /EmbeddedFiles
// name tree, one with an /AFRelationship and listed in /AF).
func Attached() Case {
	names := make([]string, 0, len(AttachedFiles))
	for n := range AttachedFiles {
		names = append(names, n)
	}
	sort.Strings(names)
	b := pages([]string{textOp(72, 760, 14, "Attachments test ATT-3")}, helv, "")
	var entries, af []string
	for i, n := range names {
		ef := b.add(stream("/Type /EmbeddedFile /Filter /FlateDecode", flate(AttachedFiles[n])))
		rel := ""
		if i == 0 {
			rel = " /AFRelationship /Supplement"
		}
		fs := b.add(fmt.Sprintf("<< /Type /Filespec /F (%s) /UF (%s)%s /EF << /F %d 0 R >> >>", n, n, rel, ef))
		entries = append(entries, fmt.Sprintf("(%s) %d 0 R", n, fs))
		if i == 0 {
			af = append(af, fmt.Sprintf("%d 0 R", fs))
		}
	}
	cat := b.objs[0]
	b.set(1, strings.TrimSuffix(cat, " >>")+fmt.Sprintf(" /Names << /EmbeddedFiles << /Names [%s] >> >> /AF [%s] >>", strings.Join(entries, " "), strings.Join(af, " ")))
	return Case{Name: "attachments", PDF: b.bytes(""), Pages: 1, Attachments: names, Text: "ATT-3"}
}

// Incremental: a one-page PDF plus an incremental update that adds a
// second page and replaces the first page's content.
func Incremental() Case {
	b := pages([]string{textOp(72, 760, 14, "Original text ORIG-1")}, helv, "")
	base := b.bytes("")
	// objects: 1 catalog, 2 pages, 3 content, 4 page.
	n := len(b.objs) + 1
	var up bytes.Buffer
	up.Write(base)
	offs := map[int]int{}
	write := func(num int, body string) {
		offs[num] = up.Len()
		fmt.Fprintf(&up, "%d 0 obj\n%s\nendobj\n", num, body)
	}
	write(3, stream("/Filter /FlateDecode", flate([]byte(textOp(72, 760, 14, "Updated text UPD-2")))))
	cs2 := n
	write(cs2, stream("/Filter /FlateDecode", flate([]byte(textOp(72, 760, 14, "Second page PAGE-2")))))
	p2 := n + 1
	write(p2, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources %s /Contents %d 0 R >>", helv, cs2))
	write(2, fmt.Sprintf("<< /Type /Pages /Kids [4 0 R %d 0 R] /Count 2 >>", p2))
	prev := bytes.LastIndex(base, []byte("startxref"))
	prevOff, _ := strconv.Atoi(strings.Fields(string(base[prev+len("startxref"):]))[0])
	xref := up.Len()
	up.WriteString("xref\n0 1\n0000000000 65535 f \n")
	fmt.Fprintf(&up, "2 2\n%010d 00000 n \n%010d 00000 n \n", offs[2], offs[3])
	fmt.Fprintf(&up, "%d 2\n%010d 00000 n \n%010d 00000 n \n", n, offs[cs2], offs[p2])
	fmt.Fprintf(&up, "trailer\n<< /Size %d /Root 1 0 R /Prev %d /ID [<00112233445566778899AABBCCDDEEFF> <FFEEDDCCBBAA99887766554433221100>] >>\nstartxref\n%d\n%%%%EOF\n", p2+1, prevOff, xref)
	return Case{Name: "incremental", PDF: up.Bytes(), Pages: 2, Text: "UPD-2"}
}

// MultiPage: n pages of Helvetica text (for benchmarks by page count).
func MultiPage(n int) Case {
	contents := make([]string, n)
	for i := range contents {
		var c strings.Builder
		for l := range 40 {
			c.WriteString(textOp(72, 780-l*18, 10, fmt.Sprintf("Page %d line %d: 10 x Widget at 12.50 EUR = 125.00 EUR", i+1, l+1)))
		}
		contents[i] = c.String()
	}
	b := pages(contents, helv, "")
	return Case{Name: fmt.Sprintf("multipage-%d", n), PDF: b.bytes(""), Pages: n, Text: "Page 1 line 1"}
}
