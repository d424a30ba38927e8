package pdfa

import (
	"bytes"
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
