package pdfa

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Font is a parsed TrueType font, immutable and safe for concurrent use by
// any number of documents. Documents embed a subset of the font program
// (the outlines of the glyphs they draw; glyph ids unchanged) and give
// every character they use their own CID.
type Font struct {
	name      string // PostScript name, the /BaseFont
	sf        *sfnt.Font
	ttf       []byte
	sfnt      *sfntInfo
	upem      int
	bbox      [4]int // in 1000ths of the em
	ascent    int
	descent   int
	capHeight int
	flags     int
	italic    float64
	// widths of glyph ids in 1000ths of the em
	widths []uint16
	// gids of the runes below len(low), 0 when the font lacks the rune
	low []uint16
	// replacement is the glyph drawn for a rune the font lacks
	replacement uint16
	bufs        sync.Pool // *sfnt.Buffer for runes above low
	layoutOnce  sync.Once
	layout      *programLayout // see programLayout; built on first use
}

// lowRunes is how many runes get a precomputed glyph lookup: Latin, Greek,
// Cyrillic, general punctuation, currency symbols and the box-drawing and
// geometric shapes blocks.
const lowRunes = 0x2600

// ParseFont parses a TrueType font program (a .ttf file's bytes).
func ParseFont(ttf []byte) (*Font, error) {
	sf, err := sfnt.Parse(ttf)
	if err != nil {
		return nil, fmt.Errorf("pdfa.ParseFont: %w", err)
	}
	var buf sfnt.Buffer
	info, err := parseSfnt(ttf)
	if err != nil {
		return nil, fmt.Errorf("pdfa.ParseFont: %w", err)
	}
	f := &Font{sf: sf, ttf: ttf, sfnt: info, upem: int(sf.UnitsPerEm())}
	if f.upem <= 0 {
		return nil, fmt.Errorf("pdfa.ParseFont: units per em %d", f.upem)
	}
	f.name, err = sf.Name(&buf, sfnt.NameIDPostScript)
	if err != nil || f.name == "" {
		f.name, _ = sf.Name(&buf, sfnt.NameIDFull)
	}
	f.name = strings.Map(func(r rune) rune {
		if r <= ' ' || r > '~' || strings.ContainsRune("()<>[]{}/%#", r) {
			return -1
		}
		return r
	}, f.name)
	if f.name == "" {
		f.name = "Font"
	}
	ppem := fixed.Int26_6(f.upem << 6)
	scale := func(v fixed.Int26_6) int { return int(math.Round(float64(v) / 64 * 1000 / float64(f.upem))) }
	n := sf.NumGlyphs()
	f.widths = make([]uint16, n)
	for g := range n {
		adv, err := sf.GlyphAdvance(&buf, sfnt.GlyphIndex(g), ppem, font.HintingNone)
		if err != nil {
			return nil, fmt.Errorf("pdfa.ParseFont: advance of glyph %d: %w", g, err)
		}
		f.widths[g] = uint16(max(0, scale(adv)))
	}
	b, err := sf.Bounds(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, fmt.Errorf("pdfa.ParseFont: bounds: %w", err)
	}
	// sfnt's bounds are y-down
	f.bbox = [4]int{scale(b.Min.X), scale(-b.Max.Y), scale(b.Max.X), scale(-b.Min.Y)}
	m, err := sf.Metrics(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, fmt.Errorf("pdfa.ParseFont: metrics: %w", err)
	}
	f.ascent, f.descent, f.capHeight = scale(m.Ascent), -scale(m.Descent), scale(m.CapHeight)
	if f.capHeight == 0 {
		f.capHeight = f.ascent
	}
	f.flags = 32 // nonsymbolic
	if pt := sf.PostTable(); pt != nil {
		f.italic = pt.ItalicAngle
		if pt.IsFixedPitch {
			f.flags |= 1
		}
	}
	if f.italic != 0 {
		f.flags |= 64
	}
	f.low = make([]uint16, lowRunes)
	for r := range rune(lowRunes) {
		g, err := sf.GlyphIndex(&buf, r)
		if err == nil {
			f.low[r] = uint16(g)
		}
	}
	switch {
	case f.low[0x25A1] != 0:
		f.replacement = f.low[0x25A1]
	case f.low['?'] != 0:
		f.replacement = f.low['?']
	default:
		return nil, fmt.Errorf("pdfa.ParseFont: %s has neither U+25A1 nor '?' to draw missing glyphs with", f.name)
	}
	f.bufs.New = func() any { return new(sfnt.Buffer) }
	return f, nil
}

// Name is the font's PostScript name.
func (f *Font) Name() string { return f.name }

// Ascent and Descent are the font's ascender and (negative) descender in
// 1000ths of the em.
func (f *Font) Ascent() int  { return f.ascent }
func (f *Font) Descent() int { return f.descent }

// glyph returns the glyph id drawn for r and whether the font has r.
func (f *Font) glyph(r rune) (uint16, bool) {
	var g uint16
	if r >= 0 && r < lowRunes {
		g = f.low[r]
	} else {
		buf := f.bufs.Get().(*sfnt.Buffer)
		gi, err := f.sf.GlyphIndex(buf, r)
		f.bufs.Put(buf)
		if err == nil {
			g = uint16(gi)
		}
	}
	if g == 0 {
		return f.replacement, false
	}
	return g, true
}

// Has reports whether the font has a glyph for r (else the replacement
// glyph is drawn).
func (f *Font) Has(r rune) bool { _, ok := f.glyph(r); return ok }

// RuneWidth is the advance of r in 1000ths of the em (the replacement
// glyph's for a rune the font lacks; 0 for control characters, which are
// not drawn).
func (f *Font) RuneWidth(r rune) int {
	if r < ' ' || r == 0x7f {
		return 0
	}
	g, _ := f.glyph(r)
	return int(f.widths[g])
}

// Width is the advance of s set in size points, in points.
func (f *Font) Width(s string, size float64) float64 {
	w := 0
	for _, r := range s {
		w += f.RuneWidth(r)
	}
	return float64(w) * size / 1000
}
