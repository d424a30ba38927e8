package layout

import "strings"

// Run is a piece of text in one style; Runs sets several on the same lines
// (a bold label followed by a regular value, a larger amount in a
// sentence).
type Run struct {
	Text  string
	Style Style
}

// runWord is one word of a run, measured.
type runWord struct {
	text  string
	st    Style
	w     float64 // points
	space bool    // a space precedes it on its line
	brk   bool    // a "\n" precedes it
}

// Runs sets runs as one paragraph wrapped to the content width, aligned by
// align; see RunsAt.
func (d *Document) Runs(runs []Run, align Align) {
	d.RunsAt(runs, align, d.Left(), d.Width())
}

// RunsAt sets runs as one paragraph wrapped to width starting at x (from
// the page's left edge): words keep their run's style, lines break at
// spaces and "\n" (inside words longer than the line, as Wrap does), each
// line is as tall as its tallest run and its runs share one baseline. Pages
// break between lines; the cursor ends below the text.
func (d *Document) RunsAt(runs []Run, align Align, x, width float64) {
	var words []runWord
	space, brk := false, false
	for _, r := range runs {
		st := d.resolve(r.Style)
		f := d.Font(st.Font)
		for i, para := range strings.Split(r.Text, "\n") {
			if i > 0 {
				brk = true
			}
			if strings.HasPrefix(para, " ") || strings.HasPrefix(para, "\t") {
				space = true
			}
			for _, w := range strings.Fields(para) {
				for _, piece := range d.Wrap(w, st, width) { // cuts over-long words
					words = append(words, runWord{text: piece, st: st, w: f.Width(piece, st.Size), space: space, brk: brk})
					space, brk = false, false
				}
				space = true
			}
			if !strings.HasSuffix(para, " ") && !strings.HasSuffix(para, "\t") && len(strings.Fields(para)) > 0 {
				space = false
			}
		}
	}
	var line []runWord
	lineW := 0.0
	flush := func() {
		if len(line) == 0 {
			return
		}
		d.drawRuns(line, lineW, align, x, width)
		line, lineW = line[:0], 0
	}
	for _, w := range words {
		gap := 0.0
		if w.space && len(line) > 0 {
			gap = d.Font(w.st.Font).Width(" ", w.st.Size)
		}
		if w.brk || (len(line) > 0 && lineW+gap+w.w > width) {
			flush()
			gap = 0
		}
		w.space = gap > 0
		line = append(line, w)
		lineW += gap + w.w
	}
	flush()
}

// drawRuns draws one line of words (total width lineW) at the cursor and
// moves below it.
func (d *Document) drawRuns(line []runWord, lineW float64, align Align, x, width float64) {
	lh, asc, desc := 0.0, 0.0, 0.0
	for _, w := range line {
		f := d.Font(w.st.Font)
		lh = max(lh, w.st.Size*w.st.Leading)
		asc = max(asc, float64(f.Ascent())/1000*w.st.Size)
		desc = min(desc, float64(f.Descent())/1000*w.st.Size)
	}
	if lh > d.Remaining() && !d.atTop() {
		d.newPage()
	}
	switch align {
	case Right:
		x += width - lineW
	case Center:
		x += (width - lineW) / 2
	}
	base := d.PDFY(d.y + (lh-(asc-desc))/2 + asc)
	for _, w := range line {
		if w.space {
			x += d.Font(w.st.Font).Width(" ", w.st.Size)
		}
		d.page.SetFill(w.st.Color)
		d.page.Text(d.Font(w.st.Font), w.st.Size, x, base, w.text)
		x += w.w
	}
	d.y += lh
}
