package pdfread

import (
	"math"
	"sort"
	"strings"
)

// TextLine is one line of page text, reconstructed by position.
type TextLine struct {
	Text string
	X, Y float64 // user-space origin of the first span (Y up)
	Size float64 // font size of the first span (user space)
}

type span struct {
	x, y, endX float64
	size       float64
	text       string
}

type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

type gstate struct {
	ctm                   matrix
	font                  *font
	size                  float64
	tc, tw, th, tl, trise float64
}

// textRun interprets content streams and collects spans.
type textRun struct {
	d      *Doc
	spans  []span
	fonts  map[Ref]*font
	depth  int
	budget int // operators left
}

// PageText returns the lines of text on a page, top to bottom, left to
// right; spans on one baseline are joined, with a space where the gap
// between them is wider than a fraction of the font size.
func (d *Doc) PageText(p Page) (lines []TextLine, err error) {
	defer recoverErr(&err)
	content, err := d.PageContent(p)
	if err != nil {
		return nil, err
	}
	t := &textRun{d: d, budget: 2_000_000}
	gs := gstate{ctm: pageRotation(p), th: 1}
	if err := t.run(content, p.Resources, gs); err != nil {
		return nil, err
	}
	if err := t.annotations(p, gs); err != nil {
		return nil, err
	}
	return buildLines(t.spans), nil
}

// annotations adds the text of the visible annotations' normal
// appearances (filled form fields, free text), as viewers draw them: the
// appearance's /BBox (through its /Matrix) is placed on the /Rect.
func (t *textRun) annotations(p Page, gs gstate) error {
	for _, a := range t.d.GetArray(p.Dict, "Annots") {
		ad, ok := AsDict(t.d.mustResolve(a))
		if !ok {
			continue
		}
		if f, _ := AsInt(t.d.Get(ad, "F")); f&(1<<1|1<<5) != 0 { // Hidden, NoView
			continue
		}
		ap := t.d.GetDict(ad, "AP")
		var s *Stream
		switch n := t.d.Get(ap, "N").(type) {
		case *Stream:
			s = n
		case Dict: // appearance states: the one /AS names
			if as, ok := t.d.Get(ad, "AS").(Name); ok {
				s, _ = t.d.Get(n, as).(*Stream)
			}
		}
		rect := t.d.GetArray(ad, "Rect")
		if s == nil || len(rect) != 4 {
			continue
		}
		data, err := t.d.decodeStream(s)
		if err != nil {
			if isLimit(err) {
				return err
			}
			continue
		}
		m := identity
		if mm := t.d.GetArray(s.Dict, "Matrix"); len(mm) == 6 {
			for i := range m {
				m[i] = num(t.d.mustResolve(mm[i]))
			}
		}
		var bx, by float64
		if bb := t.d.GetArray(s.Dict, "BBox"); len(bb) == 4 {
			bx, by = m.apply(num(t.d.mustResolve(bb[0])), num(t.d.mustResolve(bb[1])))
		}
		rx, ry := num(t.d.mustResolve(rect[0])), num(t.d.mustResolve(rect[1]))
		if r2 := num(t.d.mustResolve(rect[2])); r2 < rx {
			rx = r2
		}
		if r3 := num(t.d.mustResolve(rect[3])); r3 < ry {
			ry = r3
		}
		ags := gs
		ags.ctm = m.mul(matrix{1, 0, 0, 1, rx - bx, ry - by}).mul(gs.ctm)
		res, ok := AsDict(t.d.Get(s.Dict, "Resources"))
		if !ok {
			res = p.Resources
		}
		if err := t.run(data, res, ags); err != nil {
			return err
		}
	}
	return nil
}

// pageRotation maps user space to the page as displayed (/Rotate), so
// that lines are rebuilt as a reader sees them.
func pageRotation(p Page) matrix {
	switch (p.Rotate%360 + 360) % 360 {
	case 90:
		return matrix{0, -1, 1, 0, 0, 0}
	case 180:
		return matrix{-1, 0, 0, -1, 0, 0}
	case 270:
		return matrix{0, 1, -1, 0, 0, 0}
	}
	return identity
}

// Text returns the text of every page (at most maxPages; 0: all), pages
// separated by a form feed, lines by newlines.
func (d *Doc) Text(maxPages int) (string, error) {
	pages, err := d.Pages()
	if err != nil && len(pages) == 0 {
		return "", err
	}
	var b strings.Builder
	for i, p := range pages {
		if maxPages > 0 && i >= maxPages {
			break
		}
		if i > 0 {
			b.WriteString("\f")
		}
		lines, err := d.PageText(p)
		if err != nil {
			return b.String(), err
		}
		for _, l := range lines {
			b.WriteString(l.Text)
			b.WriteByte('\n')
		}
	}
	return b.String(), nil
}

func (t *textRun) fontOf(res Dict, name Name) *font {
	fonts := t.d.GetDict(res, "Font")
	raw := fonts[name]
	ref, isRef := raw.(Ref)
	if f, ok := t.fonts[ref]; ok && isRef {
		return f
	}
	fd, ok := AsDict(t.d.mustResolve(raw))
	if !ok {
		return &font{widths: map[int]float64{}, dw: 500, scale: 0.001, enc: standard}
	}
	f := t.d.loadFont(fd)
	if isRef {
		if t.fonts == nil {
			t.fonts = map[Ref]*font{}
		}
		t.fonts[ref] = f
	}
	return f
}

func num(o Object) float64 {
	v, _ := AsNumber(o)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// run interprets one content stream (recursing into form XObjects).
func (t *textRun) run(content []byte, res Dict, gs gstate) error {
	t.depth++
	defer func() { t.depth-- }()
	if t.depth > 12 {
		return nil
	}
	p := &parser{data: content, max: t.d.lim.MaxDepth}
	var args []Object
	var stack []gstate
	tm, tlm := identity, identity
	for p.pos < len(content) {
		o, err := p.parseObject()
		if err != nil {
			if isLimit(err) {
				return err
			}
			break
		}
		k, isOp := o.(keyword)
		if !isOp {
			if len(args) < 64 {
				args = append(args, o)
			}
			continue
		}
		t.budget--
		if t.budget < 0 {
			return limitErr("content stream has too many operators")
		}
		arg := func(i int) Object {
			if i >= 0 && i < len(args) {
				return args[i]
			}
			return nil
		}
		switch k {
		case "q":
			if len(stack) < 256 {
				stack = append(stack, gs)
			}
		case "Q":
			if len(stack) > 0 {
				gs = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
		case "cm":
			if len(args) == 6 {
				var m matrix
				for i := range m {
					m[i] = num(args[i])
				}
				gs.ctm = m.mul(gs.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if n, ok := arg(0).(Name); ok {
				gs.font = t.fontOf(res, n)
			}
			gs.size = num(arg(1))
		case "Tc":
			gs.tc = num(arg(0))
		case "Tw":
			gs.tw = num(arg(0))
		case "Tz":
			gs.th = num(arg(0)) / 100
		case "TL":
			gs.tl = num(arg(0))
		case "Ts":
			gs.trise = num(arg(0))
		case "Td", "TD":
			tx, ty := num(arg(0)), num(arg(1))
			if k == "TD" {
				gs.tl = -ty
			}
			tlm = matrix{1, 0, 0, 1, tx, ty}.mul(tlm)
			tm = tlm
		case "Tm":
			if len(args) == 6 {
				for i := range tm {
					tm[i] = num(args[i])
				}
				tlm = tm
			}
		case "T*":
			tlm = matrix{1, 0, 0, 1, 0, -gs.tl}.mul(tlm)
			tm = tlm
		case "Tj":
			if s, ok := arg(0).(String); ok {
				tm = t.show(s, gs, tm)
			}
		case "'", "\"":
			if k == "\"" && len(args) == 3 {
				gs.tw, gs.tc = num(args[0]), num(args[1])
			}
			tlm = matrix{1, 0, 0, 1, 0, -gs.tl}.mul(tlm)
			tm = tlm
			if s, ok := arg(len(args) - 1).(String); ok {
				tm = t.show(s, gs, tm)
			}
		case "TJ":
			if a, ok := arg(0).(Array); ok {
				for _, x := range a {
					switch v := x.(type) {
					case String:
						tm = t.show(v, gs, tm)
					case Int, Real:
						tx := -num(v) / 1000 * gs.size * gs.th
						tm = matrix{1, 0, 0, 1, tx, 0}.mul(tm)
					}
				}
			}
		case "Do":
			if n, ok := arg(0).(Name); ok {
				xo := t.d.GetDict(res, "XObject")
				if s, ok := t.d.Get(xo, n).(*Stream); ok {
					if st, _ := s.Dict["Subtype"].(Name); st == "Form" {
						if data, err := t.d.decodeStream(s); err == nil {
							fgs := gs
							if m := t.d.GetArray(s.Dict, "Matrix"); len(m) == 6 {
								var mm matrix
								for i := range mm {
									mm[i] = num(t.d.mustResolve(m[i]))
								}
								fgs.ctm = mm.mul(gs.ctm)
							}
							fres, ok := AsDict(t.d.Get(s.Dict, "Resources"))
							if !ok {
								fres = res
							}
							if err := t.run(data, fres, fgs); err != nil {
								return err
							}
						} else if isLimit(err) {
							return err
						}
					}
				}
			}
		case "BI":
			// Inline image: skip to "EI" after "ID".
			i := indexToken(content, p.pos, "ID")
			if i < 0 {
				return nil
			}
			j := indexToken(content, i+3, "EI")
			if j < 0 {
				return nil
			}
			p.pos = j + 2
		}
		args = args[:0]
	}
	return nil
}

// indexToken finds tok delimited by white space at or after from.
func indexToken(b []byte, from int, tok string) int {
	for i := from; i+len(tok) <= len(b); i++ {
		if string(b[i:i+len(tok)]) == tok && (i == 0 || isSpace(b[i-1])) && (i+len(tok) == len(b) || isSpace(b[i+len(tok)]) || isDelim(b[i+len(tok)])) {
			return i
		}
	}
	return -1
}

// show records the glyphs of s and returns the advanced text matrix.
func (t *textRun) show(s String, gs gstate, tm matrix) matrix {
	f := gs.font
	if f == nil {
		f = &font{widths: map[int]float64{}, dw: 500, scale: 0.001, enc: standard}
	}
	glyphs := f.decode(s)
	trm := matrix{gs.size * gs.th, 0, 0, gs.size, 0, gs.trise}.mul(tm).mul(gs.ctm)
	x0, y0 := trm.apply(0, 0)
	// Effective size in user space: length of the transformed unit vertical.
	sx, sy := trm[2], trm[3]
	size := math.Hypot(sx, sy)
	var b strings.Builder
	for _, g := range glyphs {
		b.WriteString(g.text)
		adv := g.width*gs.size + gs.tc
		if g.space {
			adv += gs.tw
		}
		tm = matrix{1, 0, 0, 1, adv * gs.th, 0}.mul(tm)
	}
	trm2 := matrix{gs.size * gs.th, 0, 0, gs.size, 0, gs.trise}.mul(tm).mul(gs.ctm)
	x1, _ := trm2.apply(0, 0)
	if txt := b.String(); txt != "" {
		t.spans = append(t.spans, span{x: x0, y: y0, endX: x1, size: size, text: txt})
	}
	return tm
}

// buildLines groups spans into lines by baseline and orders them.
func buildLines(spans []span) []TextLine {
	if len(spans) == 0 {
		return nil
	}
	spans = dropOverprint(spans)
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].y > spans[j].y })
	var groups [][]span
	for _, s := range spans {
		tol := math.Max(s.size*0.4, 1)
		if n := len(groups); n > 0 {
			g := groups[n-1]
			if math.Abs(g[0].y-s.y) <= tol {
				groups[n-1] = append(g, s)
				continue
			}
		}
		groups = append(groups, []span{s})
	}
	lines := make([]TextLine, 0, len(groups))
	for _, g := range groups {
		sort.SliceStable(g, func(i, j int) bool { return g[i].x < g[j].x })
		var b strings.Builder
		lastEnd := math.Inf(-1)
		for _, s := range g {
			if b.Len() > 0 {
				gap := s.x - lastEnd
				if gap > s.size*0.15 && !strings.HasSuffix(b.String(), " ") && !strings.HasPrefix(s.text, " ") {
					b.WriteByte(' ')
				}
			}
			b.WriteString(s.text)
			if s.endX > lastEnd {
				lastEnd = s.endX
			}
		}
		text := strings.TrimRight(b.String(), " ")
		if strings.TrimSpace(text) == "" {
			continue
		}
		lines = append(lines, TextLine{Text: text, X: g[0].x, Y: g[0].y, Size: g[0].size})
	}
	return lines
}

// dropOverprint removes a span that repeats the text of an earlier one at
// (almost) the same place: writers fake bold or shadows by drawing twice.
func dropOverprint(spans []span) []span {
	type key struct {
		text string
		x, y int
	}
	seen := make(map[key]bool, len(spans))
	out := spans[:0]
	for _, s := range spans {
		qx, qy := int(math.Round(s.x)), int(math.Round(s.y))
		dup := false
		for dx := -1; dx <= 1 && !dup; dx++ {
			for dy := -1; dy <= 1 && !dup; dy++ {
				dup = seen[key{s.text, qx + dx, qy + dy}]
			}
		}
		if dup {
			continue
		}
		seen[key{s.text, qx, qy}] = true
		out = append(out, s)
	}
	return out
}
