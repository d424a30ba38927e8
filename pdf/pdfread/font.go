package pdfread

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

// font decodes the bytes of shown strings into text and widths.
type font struct {
	twoByte  bool            // Type0 with a two-byte CMap (Identity-H/V and most others)
	toUni    *cmap           // /ToUnicode
	enc      [256]rune       // simple fonts: code -> Unicode (0: unknown)
	widths   map[int]float64 // code -> width in glyph space/1000
	dw       float64         // default width (/1000 units)
	scale    float64         // glyph space -> text space (0.001, Type3: FontMatrix)
	spaceCID int             // code of the space (for Tw), -1 none
}

type glyph struct {
	code  int
	text  string
	width float64 // text space, before size scaling
	space bool    // single-byte code 32 (word spacing applies)
}

func (f *font) decode(s String) []glyph {
	b := []byte(s)
	var out []glyph
	for i := 0; i < len(b); {
		code, n := int(b[i]), 1
		switch {
		case f.toUni != nil && len(f.toUni.ranges) > 0:
			n = f.toUni.codeLen(b[i:], f.twoByte)
			code = 0
			for k := 0; k < n && i+k < len(b); k++ {
				code = code<<8 | int(b[i+k])
			}
		case f.twoByte && i+1 < len(b):
			code, n = int(b[i])<<8|int(b[i+1]), 2
		}
		i += n
		g := glyph{code: code, space: n == 1 && code == 32}
		if f.toUni != nil {
			if t, ok := f.toUni.m[code]; ok {
				g.text = t
			}
		}
		if g.text == "" && !f.twoByte && code < 256 && f.enc[code] != 0 {
			g.text = string(f.enc[code])
		}
		w, ok := f.widths[code]
		if !ok {
			w = f.dw
		}
		g.width = w * f.scale
		out = append(out, g)
	}
	return out
}

// loadFont builds the decoder of a font dictionary.
func (d *Doc) loadFont(fd Dict) *font {
	f := &font{widths: map[int]float64{}, dw: 500, scale: 0.001, spaceCID: -1}
	sub, _ := d.Get(fd, "Subtype").(Name)
	if tu, ok := d.Get(fd, "ToUnicode").(*Stream); ok {
		if data, err := d.decodeStream(tu); err == nil {
			f.toUni = parseCMap(data)
		}
	}
	if sub == "Type0" {
		f.twoByte = true
		f.dw = 1000
		desc, _ := AsDict(d.mustResolve(firstOf(d.Get(fd, "DescendantFonts"))))
		if v, ok := AsNumber(d.Get(desc, "DW")); ok {
			f.dw = v
		}
		w := d.GetArray(desc, "W")
		for i := 0; i < len(w) && len(f.widths) < 1<<16; {
			c1, ok := AsInt(d.mustResolve(w[i]))
			if !ok || i+1 >= len(w) {
				break
			}
			switch nx := d.mustResolve(w[i+1]).(type) {
			case Array:
				for k, x := range nx {
					if v, ok := AsNumber(d.mustResolve(x)); ok {
						f.widths[int(c1)+k] = v
					}
				}
				i += 2
			default:
				c2, ok := AsInt(nx)
				if !ok || i+2 >= len(w) || c2-c1 > 1<<16 || c2 < c1 {
					i = len(w)
					break
				}
				v, _ := AsNumber(d.mustResolve(w[i+2]))
				for c := c1; c <= c2; c++ {
					f.widths[int(c)] = v
				}
				i += 3
			}
		}
		return f
	}
	// Simple fonts.
	base := stdEncoding(sub, d.Get(fd, "BaseFont"))
	encObj := d.Get(fd, "Encoding")
	switch e := encObj.(type) {
	case Name:
		base = namedEncoding(e, base)
	case Dict:
		if bn, ok := d.Get(e, "BaseEncoding").(Name); ok {
			base = namedEncoding(bn, base)
		}
	}
	f.enc = base
	if e, ok := encObj.(Dict); ok {
		code := 0
		for _, x := range d.GetArray(e, "Differences") {
			switch v := d.mustResolve(x).(type) {
			case Int:
				code = int(v)
			case Real:
				code = int(v)
			case Name:
				if code >= 0 && code < 256 {
					if r := glyphRune(string(v)); r != 0 {
						f.enc[code] = r
					}
				}
				code++
			}
		}
	}
	if sub == "Type3" {
		if fm := d.GetArray(fd, "FontMatrix"); len(fm) == 6 {
			if v, ok := AsNumber(d.mustResolve(fm[0])); ok {
				f.scale = v
			}
		}
	}
	if desc := d.GetDict(fd, "FontDescriptor"); desc != nil {
		if v, ok := AsNumber(d.Get(desc, "MissingWidth")); ok && v > 0 {
			f.dw = v
		}
	}
	first, _ := AsInt(d.Get(fd, "FirstChar"))
	for i, x := range d.GetArray(fd, "Widths") {
		if v, ok := AsNumber(d.mustResolve(x)); ok {
			f.widths[int(first)+i] = v
		}
		if i > 256 {
			break
		}
	}
	return f
}

func firstOf(o Object) Object {
	if a, ok := o.(Array); ok && len(a) > 0 {
		return a[0]
	}
	return nil
}

// stdEncoding is the default encoding of a simple font without /Encoding.
func stdEncoding(sub Name, baseFont Object) [256]rune {
	bf, _ := baseFont.(Name)
	if strings.Contains(string(bf), "Symbol") || strings.Contains(string(bf), "Dingbats") {
		var e [256]rune
		for i := 32; i < 127; i++ {
			e[i] = rune(i)
		}
		return e
	}
	if sub == "TrueType" {
		return winAnsi
	}
	return standard
}

func namedEncoding(n Name, def [256]rune) [256]rune {
	switch n {
	case "WinAnsiEncoding":
		return winAnsi
	case "MacRomanEncoding":
		return macRoman
	case "StandardEncoding":
		return standard
	case "PDFDocEncoding":
		return pdfDoc
	}
	return def
}

var winAnsi, macRoman, standard, pdfDoc = buildEncodings()

func buildEncodings() (w, m, s, p [256]rune) {
	for i := 0; i < 256; i++ {
		w[i] = charmap.Windows1252.DecodeByte(byte(i))
		m[i] = charmap.Macintosh.DecodeByte(byte(i))
		if i >= 32 && i < 127 {
			s[i] = rune(i)
		}
		p[i] = []rune(TextString(String([]byte{byte(i)})))[0]
	}
	for i := 0; i < 32; i++ {
		w[i], m[i] = 0, 0
	}
	w[32], m[32] = ' ', ' '
	s['\''], s['`'] = '\u2019', '\u2018'
	for code, r := range map[int]rune{0xA1: '¡', 0xA2: '¢', 0xA3: '£', 0xA5: '¥', 0xA7: '§', 0xAB: '«', 0xB1: '–', 0xB7: '•', 0xBB: '»', 0xBC: '…', 0xC1: '`', 0xC2: '´', 0xC8: '¨', 0xD0: '—', 0xE1: 'Æ', 0xE8: 'Ł', 0xE9: 'Ø', 0xEA: 'Œ', 0xF1: 'æ', 0xF5: 'ı', 0xF8: 'ł', 0xF9: 'ø', 0xFA: 'œ', 0xFB: 'ß'} {
		s[code] = r
	}
	return
}

// glyphNames maps the common Adobe glyph names that are not a single
// letter or an accented letter (those are composed in glyphRune).
var glyphNames = map[string]rune{
	"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$', "percent": '%',
	"ampersand": '&', "quotesingle": '\'', "parenleft": '(', "parenright": ')', "asterisk": '*',
	"plus": '+', "comma": ',', "hyphen": '-', "period": '.', "slash": '/', "colon": ':',
	"semicolon": ';', "less": '<', "equal": '=', "greater": '>', "question": '?', "at": '@',
	"bracketleft": '[', "backslash": '\\', "bracketright": ']', "asciicircum": '^', "underscore": '_',
	"grave": '`', "braceleft": '{', "bar": '|', "braceright": '}', "asciitilde": '~',
	"zero": '0', "one": '1', "two": '2', "three": '3', "four": '4', "five": '5', "six": '6',
	"seven": '7', "eight": '8', "nine": '9', "quoteright": '\u2019', "quoteleft": '\u2018',
	"Euro": '€', "bullet": '•', "endash": '–', "emdash": '—', "quotedblleft": '“', "quotedblright": '”',
	"quotesinglbase": '‚', "quotedblbase": '„', "ellipsis": '…', "dagger": '†', "daggerdbl": '‡',
	"perthousand": '‰', "trademark": '™', "sterling": '£', "yen": '¥', "cent": '¢', "currency": '¤',
	"section": '§', "copyright": '©', "registered": '®', "degree": '°', "plusminus": '±', "mu": 'µ',
	"paragraph": '¶', "periodcentered": '·', "guillemotleft": '«', "guillemotright": '»',
	"germandbls": 'ß', "AE": 'Æ', "ae": 'æ', "OE": 'Œ', "oe": 'œ', "Oslash": 'Ø', "oslash": 'ø',
	"Lslash": 'Ł', "lslash": 'ł', "dotlessi": 'ı', "Eth": 'Ð', "eth": 'ð', "Thorn": 'Þ', "thorn": 'þ',
	"nbspace": '\u00a0', "uni00A0": '\u00a0', "minus": '−', "multiply": '×', "divide": '÷',
	"exclamdown": '¡', "questiondown": '¿', "brokenbar": '¦', "ordfeminine": 'ª', "ordmasculine": 'º',
	"onehalf": '½', "onequarter": '¼', "threequarters": '¾', "twosuperior": '²', "threesuperior": '³',
	"onesuperior": '¹', "logicalnot": '¬', "macron": '¯', "acute": '´', "cedilla": '¸', "dieresis": '¨',
	"fi": 'ﬁ', "fl": 'ﬂ', "florin": 'ƒ', "fraction": '⁄', "guilsinglleft": '‹', "guilsinglright": '›',
	"sfthyphen": '\u00ad', "circumflex": 'ˆ', "tilde": '˜', "caron": 'ˇ', "ring": '˚',
}

var accents = map[string]rune{
	"acute": '\u0301', "grave": '\u0300', "circumflex": '\u0302', "dieresis": '\u0308',
	"tilde": '\u0303', "ring": '\u030A', "cedilla": '\u0327', "caron": '\u030C',
	"ogonek": '\u0328', "macron": '\u0304', "breve": '\u0306', "dotaccent": '\u0307',
	"hungarumlaut": '\u030B', "commaaccent": '\u0326',
}

// glyphRune maps a glyph name to a rune (0 when unknown).
func glyphRune(name string) rune {
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i] // "a.sc", "one.oldstyle"
	}
	if r, ok := glyphNames[name]; ok {
		return r
	}
	if len(name) == 1 && (name[0] >= 'A' && name[0] <= 'Z' || name[0] >= 'a' && name[0] <= 'z') {
		return rune(name[0])
	}
	if strings.HasPrefix(name, "uni") && len(name) == 7 {
		if v, err := strconv.ParseUint(name[3:], 16, 32); err == nil {
			return rune(v)
		}
	}
	if strings.HasPrefix(name, "u") && len(name) >= 5 && len(name) <= 7 {
		if v, err := strconv.ParseUint(name[1:], 16, 32); err == nil {
			return rune(v)
		}
	}
	if len(name) > 1 {
		if acc, ok := accents[name[1:]]; ok {
			c := norm.NFC.String(string([]rune{rune(name[0]), acc}))
			if r := []rune(c); len(r) == 1 {
				return r[0]
			}
		}
	}
	return 0
}

// cmap is a parsed ToUnicode CMap.
type cmap struct {
	m      map[int]string
	ranges []codeRange // codespace ranges
}

type codeRange struct {
	n      int // bytes
	lo, hi int
}

// codeLen returns the byte length of the code at the start of b.
func (c *cmap) codeLen(b []byte, twoByte bool) int {
	for n := 1; n <= 4 && n <= len(b); n++ {
		v := 0
		for k := 0; k < n; k++ {
			v = v<<8 | int(b[k])
		}
		for _, r := range c.ranges {
			if r.n == n && v >= r.lo && v <= r.hi {
				return n
			}
		}
	}
	if twoByte && len(b) >= 2 {
		return 2
	}
	return 1
}

// parseCMap reads codespace ranges, bfchar and bfrange of a ToUnicode CMap.
func parseCMap(data []byte) *cmap {
	c := &cmap{m: map[int]string{}}
	p := &parser{data: data, max: 8}
	var stack []Object
	const maxEntries = 1 << 17
	for p.pos < len(data) {
		o, err := p.parseObject()
		if err != nil {
			break
		}
		k, isKw := o.(keyword)
		if !isKw {
			if len(stack) < 1024 {
				stack = append(stack, o)
			}
			continue
		}
		switch k {
		case "endcodespacerange":
			for i := 0; i+1 < len(stack); i += 2 {
				lo, _ := stack[i].(String)
				hi, _ := stack[i+1].(String)
				if len(lo) > 0 && len(lo) <= 4 {
					c.ranges = append(c.ranges, codeRange{n: len(lo), lo: bytesInt(lo), hi: bytesInt(hi)})
				}
			}
		case "endbfchar":
			for i := 0; i+1 < len(stack) && len(c.m) < maxEntries; i += 2 {
				src, _ := stack[i].(String)
				if dst, ok := stack[i+1].(String); ok {
					c.m[bytesInt(src)] = utf16String(dst)
				} else if n, ok := stack[i+1].(Name); ok {
					if r := glyphRune(string(n)); r != 0 {
						c.m[bytesInt(src)] = string(r)
					}
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(stack) && len(c.m) < maxEntries; i += 3 {
				lo, _ := stack[i].(String)
				hi, _ := stack[i+1].(String)
				l, h := bytesInt(lo), bytesInt(hi)
				if h < l || h-l > 1<<16 {
					continue
				}
				switch dst := stack[i+2].(type) {
				case String:
					base := []rune(utf16String(dst))
					if len(base) == 0 {
						continue
					}
					for code := l; code <= h && len(c.m) < maxEntries; code++ {
						r := append([]rune(nil), base...)
						r[len(r)-1] += rune(code - l)
						c.m[code] = string(r)
					}
				case Array:
					for j, x := range dst {
						if s, ok := x.(String); ok && l+j <= h {
							c.m[l+j] = utf16String(s)
						}
					}
				}
			}
		}
		stack = stack[:0]
	}
	return c
}

func bytesInt(s String) int {
	v := 0
	for i := 0; i < len(s) && i < 4; i++ {
		v = v<<8 | int(s[i])
	}
	return v
}

func utf16String(s String) string {
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	if len(s)%2 == 1 {
		u = append(u, uint16(s[len(s)-1]))
	}
	return string(utf16.Decode(u))
}
