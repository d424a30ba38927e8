package pdfa

import (
	"bytes"
	"compress/zlib"
	"hash/adler32"
	"io"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/font/sfnt"
)

// TestSubset: the subset is a TrueType program sfnt parses, with every
// glyph id of the original, the kept outlines byte for byte (composite
// components included), the others empty, and a correct checksum
// adjustment; its tag is stable for the same glyph set.
func TestSubset(t *testing.T) {
	fs, err := GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*Font{fs.Regular, fs.Bold, fs.Italic, fs.BoldItalic, fs.Mono} {
		keep := map[uint16]bool{}
		for _, r := range "Aé€Жλ□?" { // é and others may be composites
			g, _ := f.glyph(r)
			keep[g] = true
		}
		want := map[uint16]bool{}
		for g := range keep {
			want[g] = true
		}
		f.closure(want)
		want[0] = true
		out, tag := f.subset(keep)
		if _, tag2 := f.subset(map[uint16]bool{0: true}); tag2 == tag {
			t.Errorf("%s: same tag for different glyph sets", f.name)
		}
		if _, tag3 := f.subset(map[uint16]bool{keep0(keep): true}); len(tag3) != 6 {
			t.Errorf("tag %q", tag3)
		}
		sf, err := sfnt.Parse(out)
		if err != nil {
			t.Fatalf("%s: subset does not parse: %v", f.name, err)
		}
		if sf.NumGlyphs() != f.sf.NumGlyphs() {
			t.Errorf("%s: %d glyphs, want %d", f.name, sf.NumGlyphs(), f.sf.NumGlyphs())
		}
		if sum := sfntChecksum(out); sum != 0xB1B0AFBA {
			t.Errorf("%s: font checksum %#x", f.name, sum)
		}
		sub := &Font{ttf: out}
		if sub.sfnt, err = parseSfnt(out); err != nil {
			t.Fatal(err)
		}
		for g := range f.sfnt.numGlyphs {
			got, orig := sub.glyphData(uint16(g)), f.glyphData(uint16(g))
			switch {
			case want[uint16(g)] && !bytes.Equal(bytes.TrimRight(got, "\x00"), bytes.TrimRight(orig, "\x00")):
				t.Errorf("%s: glyph %d changed", f.name, g)
			case !want[uint16(g)] && len(got) != 0:
				t.Errorf("%s: glyph %d kept (%d bytes)", f.name, g, len(got))
			}
		}
		if len(out) > len(f.ttf)/3 {
			t.Errorf("%s: subset of 7 glyphs is %d of %d bytes", f.name, len(out), len(f.ttf))
		}
	}
}

func keep0(m map[uint16]bool) uint16 {
	for g := range m {
		if g != 0 {
			return g
		}
	}
	return 0
}

// TestSubsetStream: the zlib stream built from the font's precompressed
// fixed tables inflates to exactly the subset program, with a correct
// Adler-32 (zlib's reader checks it), for several glyph sets of every font.
func TestSubsetStream(t *testing.T) {
	fs, err := GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*Font{fs.Regular, fs.Bold, fs.Italic, fs.BoldItalic, fs.Mono} {
		for _, text := range []string{"", "A", "Invoice 4711 € 1.234,56", "Καλημέρα Съешь ÆØÅ"} {
			keep := map[uint16]bool{}
			for _, r := range text {
				g, _ := f.glyph(r)
				keep[g] = true
			}
			length, stream, tag := f.subsetStream(keep)
			program, wantTag := f.subset(keep)
			if length != len(program) || tag != wantTag {
				t.Fatalf("%s %q: subsetStream's length %d or tag %q differ from subset's (%d, %q)", f.name, text, length, tag, len(program), wantTag)
			}
			r, err := zlib.NewReader(bytes.NewReader(stream))
			if err != nil {
				t.Fatalf("%s %q: %v", f.name, text, err)
			}
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatalf("%s %q: inflate: %v", f.name, text, err)
			}
			if !bytes.Equal(got, program) {
				t.Fatalf("%s %q: the stream inflates to %d bytes, not the %d-byte program", f.name, text, len(got), len(program))
			}
			if len(stream) >= len(program) {
				t.Errorf("%s %q: stream of %d bytes for a %d-byte program", f.name, text, len(stream), len(program))
			}
		}
	}
}

// TestAdler32Append: the checksum of a concatenation from its parts' equals
// the checksum of the whole, for random splits (including empty parts and
// parts longer than the modulus).
func TestAdler32Append(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		b := make([]byte, rng.IntN(200000))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		if rng.IntN(4) == 0 {
			clear(b) // long runs of zeros
		}
		k := rng.IntN(len(b) + 1)
		x, y := b[:k], b[k:]
		if got, want := adler32Append(adler32.Checksum(x), adler32.Checksum(y), len(y)), adler32.Checksum(b); got != want {
			t.Fatalf("split %d of %d: %#x, want %#x", k, len(b), got, want)
		}
	}
}

// BenchmarkSubsetStream is one font's subset program and its zlib stream,
// for a typical invoice's glyphs.
func BenchmarkSubsetStream(b *testing.B) {
	fs, err := GoFonts()
	if err != nil {
		b.Fatal(err)
	}
	var runes []uint16
	for _, r := range "Invoice INV-4711 Total 1.234,56 EUR Seller GmbH Straße 12 Berlin VAT DE123456789" {
		g, _ := fs.Regular.glyph(r)
		runes = append(runes, g)
	}
	b.ReportAllocs()
	for b.Loop() {
		keep := make(map[uint16]bool, len(runes))
		for _, g := range runes {
			keep[g] = true
		}
		fs.Regular.subsetStream(keep)
	}
}

// TestDeflateFast: every stream, stored (below storeBelow) or compressed,
// is a zlib stream that inflates to its bytes with a correct checksum.
func TestDeflateFast(t *testing.T) {
	for _, n := range []int{0, 1, 255, storeBelow - 1, storeBelow, 5000} {
		if n < storeBelow {
			// and zlibStored alone, at and beyond a block's limit
			for _, m := range []int{n, maxStored, maxStored + 1, 2*maxStored + 3} {
				p := bytes.Repeat([]byte{byte(m)}, m)
				r, err := zlib.NewReader(bytes.NewReader(zlibStored(p)))
				if err != nil {
					t.Fatalf("stored %d bytes: %v", m, err)
				}
				if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, p) {
					t.Fatalf("stored %d bytes: inflated %d bytes, err %v", m, len(got), err)
				}
			}
		}
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(i * 7 % 251)
		}
		z := deflateFast(p)
		r, err := zlib.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, p) {
			t.Fatalf("%d bytes: inflated %d bytes, err %v", n, len(got), err)
		}
		if stored := n < storeBelow; stored != (len(z) == n+11) {
			t.Errorf("%d bytes: %d-byte stream (stored: %v)", n, len(z), stored)
		}
	}
}

// subset assembles the program whose length and stream subsetStream
// returns, for the tests to parse and compare.
func (f *Font) subset(keep map[uint16]bool) ([]byte, string) {
	p := f.subsetProgram(keep)
	out := make([]byte, 0, len(p.dir)+len(p.l.fixed)+len(p.varying))
	return append(append(append(out, p.dir...), p.l.fixed...), p.varying...), p.tag
}
