package layout

import "github.com/einvoice-dev/einvoice/pdf/pdfa"

// Column is one table column: Width points when positive, else a share of
// the width the fixed columns leave, proportional to Weight (0 = 1).
type Column struct {
	Width  float64
	Weight float64
	Align  Align // of the column's cells unless their style says otherwise
}

// Cell is one table cell: Text, wrapped to the column, then each of More
// below it (a name in bold above an address, say).
type Cell struct {
	Text  string
	Style *Style // nil = the row's, else the table's style
	Span  int    // columns spanned; 0 or 1 = one
	More  []Para
}

// Para is a paragraph of a cell.
type Para struct {
	Text  string
	Style Style
}

// Row is one table row.
type Row struct {
	Cells []Cell
	Style *Style      // nil = the table's (or header's) style
	Fill  *pdfa.Color // background
}

// Border says which lines a table draws.
type Border uint8

// The borders.
const (
	BorderNone    Border = iota
	BorderRows           // a rule below the header and below every row
	BorderGrid           // every cell outlined
	BorderOutline        // the table's outline (per page)
)

// Table is a table: the Header rows are repeated at the top of every page
// the table spans; a body row moves to the next page when it does not fit,
// and is split between lines when it is taller than a page.
type Table struct {
	Columns     []Column
	Header      []Row
	Rows        []Row
	Style       Style // body cells
	HeaderStyle Style // header cells; zero = Style in bold
	HeaderFill  *pdfa.Color
	Border      Border
	BorderColor pdfa.Color
	Padding     float64 // inside every cell; 0 = 2.5 pt, negative = none
}

// laidCell is a cell broken into lines.
type laidCell struct {
	x, w  float64
	lines []laidLine
	h     float64
}

type laidLine struct {
	text string
	st   Style
}

// widths resolves the column widths against the content width.
func (t *Table) widths(total float64) []float64 {
	ws := make([]float64, len(t.Columns))
	fixed, weights := 0.0, 0.0
	for _, c := range t.Columns {
		if c.Width > 0 {
			fixed += c.Width
		} else {
			weights += max(c.Weight, 0) + boolf(c.Weight <= 0)
		}
	}
	rest := max(total-fixed, 0)
	for i, c := range t.Columns {
		if c.Width > 0 {
			ws[i] = c.Width
		} else {
			ws[i] = rest * (max(c.Weight, 0) + boolf(c.Weight <= 0)) / weights
		}
	}
	return ws
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// layRow breaks a row's cells into lines.
func (d *Document) layRow(t *Table, r Row, base Style, ws []float64, pad float64) []laidCell {
	cells := make([]laidCell, 0, len(r.Cells))
	x, col := d.Left(), 0
	for _, c := range r.Cells {
		if col >= len(ws) {
			break
		}
		span := max(c.Span, 1)
		w := 0.0
		for k := col; k < min(col+span, len(ws)); k++ {
			w += ws[k]
		}
		st := base
		if r.Style != nil {
			st = *r.Style
		}
		if c.Style != nil {
			st = *c.Style
		}
		if st.Align == AlignDefault {
			st.Align = t.Columns[col].Align
		}
		lc := laidCell{x: x, w: w}
		add := func(text string, st Style) {
			st = d.resolve(st)
			for _, l := range d.Wrap(text, st, max(w-2*pad, 1)) {
				lc.lines = append(lc.lines, laidLine{l, st})
				lc.h += st.Size * st.Leading
			}
		}
		if c.Text != "" || len(c.More) == 0 {
			add(c.Text, st)
		}
		for _, p := range c.More {
			ps := p.Style
			if ps.Align == AlignDefault {
				ps.Align = st.Align
			}
			add(p.Text, ps)
		}
		cells = append(cells, lc)
		x += w
		col += span
	}
	return cells
}

func rowHeight(cells []laidCell, pad float64) float64 {
	h := 0.0
	for _, c := range cells {
		h = max(h, c.h)
	}
	return h + 2*pad
}

// Table lays out t at the cursor.
func (d *Document) Table(t *Table) {
	if len(t.Columns) == 0 {
		return
	}
	pad := t.Padding
	switch {
	case pad == 0:
		pad = 2.5
	case pad < 0:
		pad = 0
	}
	ws := d.widths(t)
	hs := t.HeaderStyle
	if hs == (Style{}) {
		hs = t.Style
		hs.Font = Bold
	}
	header := make([][]laidCell, len(t.Header))
	headerH := 0.0
	for i, r := range t.Header {
		header[i] = d.layRow(t, r, hs, ws, pad)
		headerH += rowHeight(header[i], pad)
	}
	pageTop := d.y
	drawHeader := func() {
		for i, cells := range header {
			fill := t.Header[i].Fill
			if fill == nil {
				fill = t.HeaderFill
			}
			d.drawRow(t, fill, cells, pad, rowHeight(cells, pad))
		}
		if headerH > (d.bottom()-d.opts.Margins.Top)/2 {
			header, headerH = nil, 0 // too tall to repeat
		}
	}
	finishPage := func() {
		if t.Border == BorderOutline && d.y > pageTop {
			d.page.SetStroke(t.BorderColor)
			d.page.SetLineWidth(0.5)
			d.page.Rect(d.Left(), d.PDFY(d.y), d.Width(), d.y-pageTop, false, true)
		}
		d.newPage()
		pageTop = d.y
		drawHeader()
	}
	// the header with at least one line of the first row stays together
	first := 0.0
	if len(t.Rows) > 0 {
		first = 2*pad + d.LineHeight(t.Style)
	}
	if headerH+first > d.Remaining() && !d.atTop() {
		d.newPage()
		pageTop = d.y
	}
	drawHeader()
	for _, r := range t.Rows {
		cells := d.layRow(t, r, t.Style, ws, pad)
		for {
			h := rowHeight(cells, pad)
			if h <= d.Remaining() {
				d.drawRow(t, r.Fill, cells, pad, h)
				break
			}
			if d.y > pageTop+headerH+0.01 && h <= d.bottom()-d.opts.Margins.Top-headerH {
				finishPage() // fits on a fresh page
				continue
			}
			// split: the lines of every cell that fit here, the rest below
			avail := d.Remaining() - 2*pad
			part := make([]laidCell, len(cells))
			rest := make([]laidCell, len(cells))
			moved := false
			fresh := d.y <= pageTop+headerH+0.01
			for i, c := range cells {
				part[i], rest[i] = c, c
				part[i].lines, part[i].h = nil, 0
				rest[i].lines, rest[i].h = nil, 0
				for k, l := range c.lines {
					lh := l.st.Size * l.st.Leading
					if part[i].h+lh > avail && (len(part[i].lines) > 0 || !fresh) {
						rest[i].lines = c.lines[k:]
						for _, l2 := range rest[i].lines {
							rest[i].h += l2.st.Size * l2.st.Leading
						}
						break
					}
					part[i].lines = append(part[i].lines, l)
					part[i].h += lh
					moved = true
				}
			}
			if moved {
				d.drawRow(t, r.Fill, part, pad, d.Remaining())
				cells = rest
			}
			finishPage()
		}
	}
	if t.Border == BorderOutline && d.y > pageTop {
		d.page.SetStroke(t.BorderColor)
		d.page.SetLineWidth(0.5)
		d.page.Rect(d.Left(), d.PDFY(d.y), d.Width(), d.y-pageTop, false, true)
	}
}

func (d *Document) widths(t *Table) []float64 { return t.widths(d.Width()) }

// drawRow draws a laid-out row of height h at the cursor and moves below it.
func (d *Document) drawRow(t *Table, fill *pdfa.Color, cells []laidCell, pad, h float64) {
	top := d.y
	if fill != nil {
		d.page.SetFill(*fill)
		d.page.Rect(d.Left(), d.PDFY(top+h), d.Width(), h, true, false)
	}
	for _, c := range cells {
		y := top + pad
		for _, l := range c.lines {
			d.drawLine(l.text, l.st, c.x+pad, y, c.w-2*pad)
			y += l.st.Size * l.st.Leading
		}
	}
	switch t.Border {
	case BorderRows:
		d.page.SetStroke(t.BorderColor)
		d.page.SetLineWidth(0.5)
		d.page.Line(d.Left(), d.PDFY(top+h), d.Left()+d.Width(), d.PDFY(top+h))
	case BorderGrid:
		d.page.SetStroke(t.BorderColor)
		d.page.SetLineWidth(0.5)
		for _, c := range cells {
			d.page.Rect(c.x, d.PDFY(top+h), c.w, h, false, true)
		}
	}
	d.y = top + h
}
