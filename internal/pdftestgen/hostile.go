package pdftestgen

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strings"
)

// HugeICCTag is a one-page PDF (about 1.1 kB) whose output intent's ICC
// profile, 176 bytes long, declares a single 'cprt' tag of tagSize bytes.
// A reader that allocates what the tag table declares before checking it
// against the profile's length asks for tagSize bytes: veraPDF 1.30 does,
// and runs out of a 768 MB heap from 700 MB up (FuzzValidate found it).
func HugeICCTag(tagSize uint32) []byte {
	icc := make([]byte, 176)
	be := binary.BigEndian
	be.PutUint32(icc[0:], uint32(len(icc))) // profile size
	be.PutUint32(icc[8:], 0x02100000)       // version 2.1
	copy(icc[12:], "mntrRGB XYZ ")          // class, colour space, PCS
	copy(icc[36:], "acsp")                  // signature
	be.PutUint32(icc[128:], 1)              // tag count
	copy(icc[132:], "cprt")
	be.PutUint32(icc[136:], 144) // offset
	be.PutUint32(icc[140:], tagSize)
	copy(icc[144:], "text\x00\x00\x00\x00(c) none")
	b := pages([]string{textOp(72, 760, 14, "ICC tag")}, helv, "")
	profile := b.add(stream("/N 3", icc))
	intent := b.add(fmt.Sprintf("<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB) /DestOutputProfile %d 0 R >>", profile))
	b.set(1, strings.TrimSuffix(b.objs[0], " >>")+fmt.Sprintf(" /OutputIntents [%d 0 R] >>", intent))
	return b.bytes("")
}

// NameEscapeAtEnd is a one-page PDF (about 600 bytes) whose content stream
// ends inside a name: its last byte is the '#' that starts a two-digit
// escape. veraPDF 1.30's parser, at the end of a stream, reads that '#'
// again and again and appends it to the name until its heap is exhausted
// (FuzzValidate found it, 2 Dec 2026, as a mutated flate stream that
// decodes to "BT /F1#"); with one hex digit after the '#' it answers.
func NameEscapeAtEnd() []byte {
	return PageWithContent("", []byte("BT /F1#"))
}

// PageWithContent is a one-page PDF (Helvetica as F1) whose content stream
// is data as it stands, with dict's entries in its stream dictionary (e.g.
// "/Filter /FlateDecode" for data already deflated).
func PageWithContent(dict string, data []byte) []byte {
	b := onePage()
	b.finishPage("", helv, "")
	b.set(3, stream(dict, data))
	return b.bytes("")
}

// DeflatedZeros is mib MiB of zero bytes, zlib-compressed (about 1 KiB per
// MiB): the payload of a flate bomb.
func DeflatedZeros(mib int) []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	chunk := make([]byte, 1<<20)
	for range mib {
		_, _ = zw.Write(chunk)
	}
	_ = zw.Close()
	return z.Bytes()
}

// FlateBomb is a one-page PDF whose content stream inflates to mib MiB of
// zero bytes.
func FlateBomb(mib int) []byte {
	return PageWithContent("/Filter /FlateDecode", DeflatedZeros(mib))
}

// ManyPages is a PDF of n pages that share one content stream (about 120
// bytes a page).
func ManyPages(n int) []byte {
	objs := make([]string, 3, 3+n)
	var kids strings.Builder
	for i := range n {
		fmt.Fprintf(&kids, "%d 0 R ", 4+i)
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 3 0 R >>")
	}
	objs[0] = "<< /Type /Catalog /Pages 2 0 R >>"
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n)
	objs[2] = stream("", []byte("0 0 1 rg 72 72 144 144 re f"))
	return Classic(objs, "")
}

// PrevLoop is a one-page PDF whose cross-reference sections loop: the
// trailer's /Prev points at its own section.
func PrevLoop() []byte {
	pdf := Helvetica().PDF
	i := bytes.LastIndex(pdf, []byte("startxref\n"))
	xref := strings.TrimSpace(string(pdf[i+len("startxref\n"):]))
	xref = strings.TrimSuffix(xref, "%%EOF")
	xref = strings.TrimSpace(xref)
	return bytes.Replace(pdf, []byte("trailer\n<< "), []byte("trailer\n<< /Prev "+xref+" "), 1)
}

// BrokenTrailer is a one-page PDF whose trailer names no /Root and whose
// startxref points past the end of the file.
func BrokenTrailer() []byte {
	pdf := Helvetica().PDF
	pdf = bytes.Replace(pdf, []byte("/Root 1 0 R"), []byte("/Rot 1 0 R"), 1)
	i := bytes.LastIndex(pdf, []byte("startxref\n"))
	return append(pdf[:i:i], fmt.Sprintf("startxref\n%d\n%%%%EOF\n", len(pdf)*4)...)
}

// CyclicObjectStreams is a PDF with a cross-reference stream in which two
// object streams are each stored inside the other (and each /Extends the
// other): the catalog lives in the first, so reaching it needs the cycle.
func CyclicObjectStreams() []byte {
	var out bytes.Buffer
	out.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	// Object 4: object stream holding object 1 (catalog), /Extends 5.
	body4 := "1 0 << /Type /Catalog /Pages 2 0 R >>"
	fmt.Fprintf(&out, "4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Extends 5 0 R /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(body4), body4)
	// Object 5: object stream holding object 2 (pages), /Extends 4.
	body5 := "2 0 << /Type /Pages /Kids [] /Count 0 >>"
	fmt.Fprintf(&out, "5 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Extends 4 0 R /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(body5), body5)
	// Cross-reference stream (object 6), W [1 4 2]: objects 4 and 5 are
	// listed as compressed inside each other, and 1 and 2 inside them.
	xrefOff := out.Len()
	var rows bytes.Buffer
	row := func(typ byte, a uint32, b uint16) {
		rows.WriteByte(typ)
		_ = binary.Write(&rows, binary.BigEndian, a)
		_ = binary.Write(&rows, binary.BigEndian, b)
	}
	row(0, 0, 0xffff)          // 0
	row(2, 4, 0)               // 1 in 4
	row(2, 5, 0)               // 2 in 5
	row(0, 0, 0)               // 3 free
	row(2, 5, 1)               // 4 in 5: the cycle
	row(2, 4, 1)               // 5 in 4
	row(1, uint32(xrefOff), 0) // 6 the xref stream itself
	fmt.Fprintf(&out, "6 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", rows.Len())
	out.Write(rows.Bytes())
	fmt.Fprintf(&out, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xrefOff)
	return out.Bytes()
}

// JavaScript is a one-page PDF that carries every kind of active content
// a reader could run: JavaScript as the open action, in the document's
// /JavaScript name tree, in a link annotation's action and a page's
// additional actions, and a /Launch action. A server must never run any
// of it; PDF/A forbids all of it.
func JavaScript() []byte {
	b := onePage()
	js := b.add(stream("", []byte("app.alert('hostile');")))
	launch := b.add("<< /S /Launch /F (/bin/sh) /Win << /F (cmd.exe) /P (/c calc) >> >>")
	annot := b.add(fmt.Sprintf("<< /Type /Annot /Subtype /Link /Rect [72 700 300 720] /Border [0 0 0] /A << /S /JavaScript /JS %d 0 R >> >>", js))
	cs := b.add(stream("/Filter /FlateDecode", flate([]byte(textOp(72, 705, 14, "JavaScript JS-7")))))
	p := b.add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources %s /Contents %d 0 R /Annots [%d 0 R] /AA << /O %d 0 R >> >>", helv, cs, annot, launch))
	b.set(2, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", p))
	b.set(1, fmt.Sprintf("<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.launchURL\\('http://127.0.0.1:9/'\\);) >> /Names << /JavaScript << /Names [(init) << /S /JavaScript /JS %d 0 R >>] >> >> >>", js))
	return b.bytes("")
}
