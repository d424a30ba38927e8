package pdfa

import (
	"encoding/binary"
	"errors"
	"fmt"
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

// subset returns the font program with the outlines of the glyphs in keep
// (plus .notdef and the components of composites) and empty outlines for
// every other glyph: glyph ids, metrics and hinting stay as they are, so
// the PDF's CIDToGIDMap and widths are unchanged. Glyph names (post) are
// dropped. It also returns a six-letter subset tag derived from keep.
func (f *Font) subset(keep map[uint16]bool) ([]byte, string) {
	keep[0] = true
	f.closure(keep)
	s := f.sfnt
	var glyf []byte
	loca := make([]uint32, s.numGlyphs+1)
	for g := range s.numGlyphs {
		loca[g] = uint32(len(glyf))
		if keep[uint16(g)] {
			glyf = append(glyf, f.glyphData(uint16(g))...)
			for len(glyf)%4 != 0 {
				glyf = append(glyf, 0)
			}
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
	data := make(map[string][]byte, len(s.tables))
	for _, t := range s.tables {
		switch t.tag {
		case "glyf":
			data[t.tag] = glyf
		case "loca":
			data[t.tag] = locaB
		case "post":
			if t.len >= 32 { // format 3: no glyph names
				p := slices.Clone(f.ttf[t.off : t.off+32])
				binary.BigEndian.PutUint32(p, 0x00030000)
				clear(p[16:32])
				data[t.tag] = p
			}
		case "head":
			h := slices.Clone(f.ttf[t.off : t.off+t.len])
			clear(h[8:12]) // checkSumAdjustment, set below
			data[t.tag] = h
		default:
			data[t.tag] = f.ttf[t.off : t.off+t.len]
		}
	}
	tags := make([]string, 0, len(data))
	for _, t := range s.tables {
		if _, ok := data[t.tag]; ok {
			tags = append(tags, t.tag)
		}
	}
	n := len(tags)
	sel := 0
	for 1<<(sel+1) <= n {
		sel++
	}
	out := make([]byte, 12+16*n, 12+16*n+len(glyf)+64*1024)
	binary.BigEndian.PutUint32(out, 0x00010000)
	binary.BigEndian.PutUint16(out[4:], uint16(n))
	binary.BigEndian.PutUint16(out[6:], uint16(16<<sel))
	binary.BigEndian.PutUint16(out[8:], uint16(sel))
	binary.BigEndian.PutUint16(out[10:], uint16(16*n-16<<sel))
	headOff := 0
	for i, tag := range tags {
		b := data[tag]
		e := out[12+16*i:]
		copy(e, tag)
		binary.BigEndian.PutUint32(e[4:], sfntChecksum(b))
		binary.BigEndian.PutUint32(e[8:], uint32(len(out)))
		binary.BigEndian.PutUint32(e[12:], uint32(len(b)))
		if tag == "head" {
			headOff = len(out)
		}
		out = append(out, b...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	binary.BigEndian.PutUint32(out[headOff+8:], 0xB1B0AFBA-sfntChecksum(out))

	h := fnv.New64a()
	gs := make([]uint16, 0, len(keep))
	for g := range keep {
		gs = append(gs, g)
	}
	slices.Sort(gs)
	for _, g := range gs {
		_, _ = h.Write([]byte{byte(g >> 8), byte(g)})
	}
	sum := h.Sum64()
	tag := make([]byte, 6)
	for i := range tag {
		tag[i] = 'A' + byte(sum%26)
		sum /= 26
	}
	return out, string(tag)
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
