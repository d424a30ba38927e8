package pdfa

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"hash/fnv"
	"slices"
)

// sfntTable is one entry of a TrueType table directory.
type sfntTable struct {
	tag      string
	off, len uint32
}

// sfntInfo is what subsetting needs of a parsed TrueType program.
type sfntInfo struct {
	tables    []sfntTable // sorted by tag
	longLoca  bool
	loca      []uint32 // numGlyphs+1 glyph offsets into glyf
	glyf      sfntTable
	numGlyphs int
}

func (s *sfntInfo) table(tag string) (sfntTable, bool) {
	for _, t := range s.tables {
		if t.tag == tag {
			return t, true
		}
	}
	return sfntTable{}, false
}

// parseSfnt reads the table directory, head, maxp and loca of ttf.
func parseSfnt(ttf []byte) (*sfntInfo, error) {
	if len(ttf) < 12 {
		return nil, errors.New("truncated font")
	}
	n := int(binary.BigEndian.Uint16(ttf[4:]))
	if len(ttf) < 12+16*n {
		return nil, errors.New("truncated table directory")
	}
	s := &sfntInfo{}
	for i := range n {
		e := ttf[12+16*i:]
		t := sfntTable{tag: string(e[:4]), off: binary.BigEndian.Uint32(e[8:]), len: binary.BigEndian.Uint32(e[12:])}
		if uint64(t.off)+uint64(t.len) > uint64(len(ttf)) {
			return nil, fmt.Errorf("table %q outside the file", t.tag)
		}
		s.tables = append(s.tables, t)
	}
	slices.SortFunc(s.tables, func(a, b sfntTable) int {
		if a.tag < b.tag {
			return -1
		}
		if a.tag > b.tag {
			return 1
		}
		return 0
	})
	head, ok1 := s.table("head")
	maxp, ok2 := s.table("maxp")
	loca, ok3 := s.table("loca")
	glyf, ok4 := s.table("glyf")
	if !ok1 || !ok2 || !ok3 || !ok4 || head.len < 54 || maxp.len < 6 {
		return nil, errors.New("not a TrueType font with glyf outlines (head, maxp, loca, glyf)")
	}
	s.glyf = glyf
	s.longLoca = binary.BigEndian.Uint16(ttf[head.off+50:]) == 1
	s.numGlyphs = int(binary.BigEndian.Uint16(ttf[maxp.off+4:]))
	s.loca = make([]uint32, s.numGlyphs+1)
	for g := range s.loca {
		var v uint32
		if s.longLoca {
			if uint32(4*g+4) > loca.len {
				return nil, errors.New("short loca table")
			}
			v = binary.BigEndian.Uint32(ttf[loca.off+uint32(4*g):])
		} else {
			if uint32(2*g+2) > loca.len {
				return nil, errors.New("short loca table")
			}
			v = 2 * uint32(binary.BigEndian.Uint16(ttf[loca.off+uint32(2*g):]))
		}
		if v > glyf.len || (g > 0 && v < s.loca[g-1]) {
			return nil, fmt.Errorf("loca entry %d out of order or range", g)
		}
		s.loca[g] = v
	}
	return s, nil
}

// glyphData is the glyf entry of g.
func (f *Font) glyphData(g uint16) []byte {
	s := f.sfnt
	if int(g) >= s.numGlyphs {
		return nil
	}
	return f.ttf[s.glyf.off+s.loca[g] : s.glyf.off+s.loca[g+1]]
}

// Composite glyph flags (TrueType glyf).
const (
	argsAreWords   = 0x0001
	haveScale      = 0x0008
	moreComponents = 0x0020
	haveXYScale    = 0x0040
	haveTwoByTwo   = 0x0080
)

// closure adds the components of every composite glyph in keep, recursively.
func (f *Font) closure(keep map[uint16]bool) {
	todo := make([]uint16, 0, len(keep))
	for g := range keep {
		todo = append(todo, g)
	}
	for len(todo) > 0 {
		g := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		d := f.glyphData(g)
		if len(d) < 10 || int16(binary.BigEndian.Uint16(d)) >= 0 {
			continue // empty or simple
		}
		for p := 10; p+4 <= len(d); {
			flags := binary.BigEndian.Uint16(d[p:])
			c := binary.BigEndian.Uint16(d[p+2:])
			if int(c) < f.sfnt.numGlyphs && !keep[c] {
				keep[c] = true
				todo = append(todo, c)
			}
			p += 4
			if flags&argsAreWords != 0 {
				p += 4
			} else {
				p += 2
			}
			switch {
			case flags&haveScale != 0:
				p += 2
			case flags&haveXYScale != 0:
				p += 4
			case flags&haveTwoByTwo != 0:
				p += 8
			}
			if flags&moreComponents == 0 {
				break
			}
		}
	}
}

// varyingTable reports whether a table of a subset depends on its glyph
// set; every other table is the same in every subset of a font.
func varyingTable(tag string) bool { return tag == "glyf" || tag == "loca" || tag == "head" }

// programLayout is what every subset of a font shares: the table directory
// order and the tables that do not depend on the glyph set, already laid out
// and already compressed. A subset program is the directory, then these
// fixed tables, then head, loca and glyf; its zlib stream reuses the fixed
// tables' deflate blocks, so only the varying tables are compressed per
// document (the directory is stored).
type programLayout struct {
	tags     []string          // directory order (by tag), every table a subset has
	fixed    []byte            // the fixed tables, each padded to 4 bytes, in tag order
	fixedAt  map[string]uint32 // offset of each fixed table in fixed
	fixedLen map[string]uint32 // its unpadded length
	fixedSum map[string]uint32 // its checksum
	sum      uint32            // checksum of all of fixed
	adler    uint32            // Adler-32 of fixed
	deflated []byte            // fixed as non-final deflate blocks ending on a byte boundary
}

// programLayout builds f's layout once; a Font is shared by every document.
func (f *Font) programLayout() *programLayout {
	f.layoutOnce.Do(func() {
		s := f.sfnt
		l := &programLayout{fixedAt: map[string]uint32{}, fixedLen: map[string]uint32{}, fixedSum: map[string]uint32{}}
		for _, t := range s.tables {
			if varyingTable(t.tag) {
				l.tags = append(l.tags, t.tag)
				continue
			}
			var b []byte
			switch t.tag {
			case "post":
				if t.len < 32 {
					continue // dropped: no usable post table
				}
				// format 3: no glyph names
				b = slices.Clone(f.ttf[t.off : t.off+32])
				binary.BigEndian.PutUint32(b, 0x00030000)
				clear(b[16:32])
			default:
				b = f.ttf[t.off : t.off+t.len]
			}
			l.tags = append(l.tags, t.tag)
			l.fixedAt[t.tag] = uint32(len(l.fixed))
			l.fixedLen[t.tag] = uint32(len(b))
			l.fixedSum[t.tag] = sfntChecksum(b)
			l.fixed = pad4(append(l.fixed, b...))
		}
		l.sum = sfntChecksum(l.fixed)
		l.adler = adler32.Checksum(l.fixed)
		var buf bytes.Buffer
		w := flateWriters.Get().(*flate.Writer)
		w.Reset(&buf)
		_, _ = w.Write(l.fixed)
		_ = w.Flush()
		flateWriters.Put(w)
		l.deflated = buf.Bytes()
		f.layout = l
	})
	return f.layout
}

// pad4 pads b with zeros to a multiple of 4 bytes.
func pad4(b []byte) []byte {
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// subsetStream returns the length of the font program with the outlines
// of the glyphs in keep (plus .notdef and the components of composites)
// and empty outlines for every other glyph (glyph ids, metrics and hinting
// stay as they are, so the PDF's CIDToGIDMap and widths are unchanged;
// glyph names (post) are dropped), its zlib stream
// (FlateDecode), which shares the compressed fixed tables of the font's
// layout, and a six-letter subset tag derived from keep. The program itself
// is never assembled.
func (f *Font) subsetStream(keep map[uint16]bool) (length int, stream []byte, tag string) {
	p := f.subsetProgram(keep)
	var buf bytes.Buffer
	buf.Grow(len(zlibHeader) + len(p.dir) + 5 + len(p.l.deflated) + len(p.varying)/2 + 64)
	buf.Write(zlibHeader)
	// The directory (a few hundred bytes) is stored: a Huffman-coded block
	// of it would cost more to build than it saves.
	buf.Write(appendStored(nil, p.dir, false))
	buf.Write(p.l.deflated)
	w := flateWriters.Get().(*flate.Writer)
	w.Reset(&buf)
	_, _ = w.Write(p.varying)
	_ = w.Close()
	flateWriters.Put(w)
	a := adler32.Checksum(p.dir)
	a = adler32Append(a, p.l.adler, len(p.l.fixed))
	a = adler32Append(a, adler32.Checksum(p.varying), len(p.varying))
	buf.Write(binary.BigEndian.AppendUint32(nil, a))
	return len(p.dir) + len(p.l.fixed) + len(p.varying), buf.Bytes(), p.tag
}

// subsetProgram is a subset in its three parts: the directory, the font's
// fixed tables and the varying tables (head, loca, glyf).
type subsetProgram struct {
	l            *programLayout
	dir, varying []byte
	tag          string
}

func (f *Font) subsetProgram(keep map[uint16]bool) *subsetProgram {
	keep[0] = true
	f.closure(keep)
	s := f.sfnt
	l := f.programLayout()
	var glyf []byte
	loca := make([]uint32, s.numGlyphs+1)
	for g := range s.numGlyphs {
		loca[g] = uint32(len(glyf))
		if keep[uint16(g)] {
			glyf = pad4(append(glyf, f.glyphData(uint16(g))...))
		}
	}
	loca[s.numGlyphs] = uint32(len(glyf))
	var locaB []byte
	for _, v := range loca {
		if s.longLoca {
			locaB = binary.BigEndian.AppendUint32(locaB, v)
		} else {
			locaB = binary.BigEndian.AppendUint16(locaB, uint16(v/2))
		}
	}
	head, _ := s.table("head")
	headB := slices.Clone(f.ttf[head.off : head.off+head.len])
	clear(headB[8:12]) // checkSumAdjustment, set below

	n := len(l.tags)
	sel := 0
	for 1<<(sel+1) <= n {
		sel++
	}
	dir := make([]byte, 12+16*n)
	binary.BigEndian.PutUint32(dir, 0x00010000)
	binary.BigEndian.PutUint16(dir[4:], uint16(n))
	binary.BigEndian.PutUint16(dir[6:], uint16(16<<sel))
	binary.BigEndian.PutUint16(dir[8:], uint16(sel))
	binary.BigEndian.PutUint16(dir[10:], uint16(16*n-16<<sel))
	varyingAt := uint32(len(dir) + len(l.fixed))
	varying := make([]byte, 0, len(headB)+len(locaB)+len(glyf)+8)
	sum := l.sum
	for i, tag := range l.tags {
		e := dir[12+16*i:]
		copy(e, tag)
		if at, ok := l.fixedAt[tag]; ok {
			binary.BigEndian.PutUint32(e[4:], l.fixedSum[tag])
			binary.BigEndian.PutUint32(e[8:], uint32(len(dir))+at)
			binary.BigEndian.PutUint32(e[12:], l.fixedLen[tag])
			continue
		}
		var b []byte
		switch tag {
		case "glyf":
			b = glyf
		case "loca":
			b = locaB
		case "head":
			b = headB
		}
		tsum := sfntChecksum(b)
		sum += tsum
		binary.BigEndian.PutUint32(e[4:], tsum)
		binary.BigEndian.PutUint32(e[8:], varyingAt+uint32(len(varying)))
		binary.BigEndian.PutUint32(e[12:], uint32(len(b)))
		varying = pad4(append(varying, b...))
	}
	// the head table is first among the varying ones (tags are sorted: glyf,
	// head, loca — so find it rather than assume)
	headAt := binary.BigEndian.Uint32(dir[12+16*slices.Index(l.tags, "head")+8:]) - varyingAt
	sum += sfntChecksum(dir)
	binary.BigEndian.PutUint32(varying[headAt+8:], 0xB1B0AFBA-sum)

	h := fnv.New64a()
	gs := make([]uint16, 0, len(keep))
	for g := range keep {
		gs = append(gs, g)
	}
	slices.Sort(gs)
	for _, g := range gs {
		_, _ = h.Write([]byte{byte(g >> 8), byte(g)})
	}
	hs := h.Sum64()
	tag := make([]byte, 6)
	for i := range tag {
		tag[i] = 'A' + byte(hs%26)
		hs /= 26
	}
	return &subsetProgram{l: l, dir: dir, varying: varying, tag: string(tag)}
}

// adler32Append is the Adler-32 of x followed by y, from a = Adler-32(x),
// b = Adler-32(y) and n = len(y). With A = 1 + the sum of the bytes and B =
// the sum of the A after each byte: A(xy) = A(x) + A(y) - 1, and each of
// y's n running sums starts A(x) - 1 higher, so B(xy) = B(x) + B(y) +
// n(A(x) - 1), all modulo 65521.
func adler32Append(a, b uint32, n int) uint32 {
	const mod = 65521
	aLo, aHi := uint64(a&0xffff), uint64(a>>16)
	bLo, bHi := uint64(b&0xffff), uint64(b>>16)
	lo := (aLo + bLo + mod - 1) % mod
	hi := (aHi + bHi + uint64(n%mod)*((aLo+mod-1)%mod)) % mod
	return uint32(hi<<16 | lo)
}

// sfntChecksum is the TrueType table checksum (sum of big-endian uint32s,
// zero-padded).
func sfntChecksum(b []byte) uint32 {
	var sum uint32
	for len(b) >= 4 {
		sum += binary.BigEndian.Uint32(b)
		b = b[4:]
	}
	if len(b) > 0 {
		var last [4]byte
		copy(last[:], b)
		sum += binary.BigEndian.Uint32(last[:])
	}
	return sum
}
