package pdfread

import (
	"bytes"
	a85 "encoding/ascii85"
	"errors"
	"math/rand/v2"
	"testing"
)

// The example of ISO 32000-1 7.4.4.2: "-----A---B" with EarlyChange 1.
func TestLZWSpecExample(t *testing.T) {
	got, err := Decode([]byte{0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01}, []Name{"LZWDecode"}, nil, 1<<20)
	if err != nil || string(got) != "-----A---B" {
		t.Fatalf("got %q %v", got, err)
	}
}

func TestASCIIFilters(t *testing.T) {
	data := make([]byte, 1001)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	data[10], data[11], data[12], data[13] = 0, 0, 0, 0
	enc := make([]byte, a85.MaxEncodedLen(len(data)))
	enc = enc[:a85.Encode(enc, data)]
	got, err := Decode(append(append([]byte("<~"), enc...), "~>"...), []Name{"A85"}, nil, 1<<20)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ASCII85: %v, equal=%v", err, bytes.Equal(got, data))
	}
	got, err = Decode([]byte("48 65 6c\n6C 6f 2>"), []Name{"ASCIIHexDecode"}, nil, 1<<20)
	if err != nil || string(got) != "Hello " {
		t.Fatalf("ASCIIHex: %q %v", got, err)
	}
	got, err = Decode([]byte{2, 'a', 'b', 'c', 254, 'z', 128}, []Name{"RunLengthDecode"}, nil, 1<<20)
	if err != nil || string(got) != "abczzz" {
		t.Fatalf("RunLength: %q %v", got, err)
	}
	if _, err := Decode([]byte{0, 1}, []Name{"DCTDecode"}, nil, 1<<20); !errors.Is(err, ErrUnsupportedFilter) {
		t.Fatalf("DCT: %v", err)
	}
}

// pngEncode applies PNG filter (i % 5) to row i.
func pngEncode(raw []byte, rowLen, bpp int) []byte {
	var out []byte
	prev := make([]byte, rowLen)
	for r := 0; r*rowLen < len(raw); r++ {
		row := raw[r*rowLen : (r+1)*rowLen]
		ft := byte(r % 5)
		out = append(out, ft)
		for i := range row {
			var left, up, ul byte
			if i >= bpp {
				left, ul = row[i-bpp], prev[i-bpp]
			}
			up = prev[i]
			pred := [5]byte{0, left, up, byte((int(left) + int(up)) / 2), paeth(left, up, ul)}[ft]
			out = append(out, row[i]-pred)
		}
		prev = row
	}
	return out
}

func TestPredictors(t *testing.T) {
	rowLen := 3 * 7
	raw := make([]byte, rowLen*11)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range raw {
		raw[i] = byte(r.IntN(256))
	}
	p := Dict{"Predictor": Int(12), "Colors": Int(3), "Columns": Int(7)}
	got, err := Decode(flateBytes(pngEncode(raw, rowLen, 3)), []Name{"FlateDecode"}, []Dict{p}, 1<<20)
	if err != nil || !bytes.Equal(got, raw) {
		t.Fatalf("PNG predictor: %v, equal=%v", err, bytes.Equal(got, raw))
	}
	// TIFF predictor 2: horizontal differencing.
	tiff := append([]byte(nil), raw...)
	for row := 0; row < len(tiff); row += rowLen {
		for i := rowLen - 1; i >= 3; i-- {
			tiff[row+i] -= tiff[row+i-3]
		}
	}
	p["Predictor"] = Int(2)
	got, err = Decode(flateBytes(tiff), []Name{"FlateDecode"}, []Dict{p}, 1<<20)
	if err != nil || !bytes.Equal(got, raw) {
		t.Fatalf("TIFF predictor: %v", err)
	}
}

// An xref stream with a PNG Up predictor, object streams and no classic
// table: the layout of most PDF 1.5+ writers.
func TestXrefStreamAndObjectStream(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	// Object stream 5 holds objects 1 (catalog), 2 (pages), 3 (page).
	objs := []string{"<</Type /Catalog /Pages 2 0 R>>", "<</Type /Pages /Kids [3 0 R] /Count 1>>", "<</Type /Page /Parent 2 0 R /Contents 4 0 R>>"}
	var header, body bytes.Buffer
	for i, o := range objs {
		header.WriteString(itoa(i+1) + " " + itoa(body.Len()) + " ")
		body.WriteString(o + "\n")
	}
	stm := append(header.Bytes(), body.Bytes()...)
	off4 := b.Len()
	b.WriteString("4 0 obj\n" + streamObj("", []byte("BT (Hi) Tj ET")) + "\nendobj\n")
	off5 := b.Len()
	b.WriteString("5 0 obj\n" + streamObj("/Type /ObjStm /N 3 /First "+itoa(header.Len())+" /Filter /FlateDecode", flateBytes(stm)) + "\nendobj\n")
	off6 := b.Len()
	rows := [][]byte{
		{0, 0, 0, 0xff},
		{2, 0, 5, 0}, {2, 0, 5, 1}, {2, 0, 5, 2},
		{1, byte(off4 >> 8), byte(off4), 0},
		{1, byte(off5 >> 8), byte(off5), 0},
		{1, byte(off6 >> 8), byte(off6), 0},
	}
	var raw []byte
	for _, r := range rows {
		raw = append(raw, r...)
	}
	enc := pngEncode(raw, 4, 1)
	b.WriteString("6 0 obj\n" + streamObj("/Type /XRef /Size 7 /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /DecodeParms <</Predictor 12 /Columns 4>>", flateBytes(enc)) + "\nendobj\n")
	b.WriteString("startxref\n" + itoa(off6) + "\n%%EOF\n")
	d, err := Open(b.Bytes(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Reconstructed() || !d.XrefIsStream() || d.Size() != 7 {
		t.Fatalf("reconstructed=%v xrefStream=%v size=%d", d.Reconstructed(), d.XrefIsStream(), d.Size())
	}
	pages, err := d.Pages()
	if err != nil || len(pages) != 1 {
		t.Fatalf("pages %d %v", len(pages), err)
	}
	txt, err := d.Text(0)
	if err != nil || txt != "Hi\n" {
		t.Fatalf("text %q %v", txt, err)
	}
}
