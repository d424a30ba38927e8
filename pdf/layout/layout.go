package layout

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// FontStyle selects a font of the document's FontSet.
type FontStyle uint8

// The font styles.
const (
	Regular FontStyle = iota
	Bold
	Italic
	BoldItalic
	Mono
)

// Align is a horizontal alignment; AlignDefault takes the column's (in a
// table) or left.
type Align uint8

// The alignments.
const (
	AlignDefault Align = iota
	Left
	Center
	Right
)

// Style is how text is set. Zero fields take the defaults: Regular, the
// document's base size, black, the column's alignment, leading 1.25.
type Style struct {
	Font    FontStyle
	Size    float64 // points
	Color   pdfa.Color
	Align   Align
	Leading float64 // line height as a multiple of Size
}

// Margins are page margins in points.
type Margins struct{ Top, Right, Bottom, Left float64 }

// Options configure a Document. Zero fields take the defaults.
type Options struct {
	PageWidth, PageHeight float64 // default A4 portrait
	Margins               Margins // default 42 pt (about 15 mm) each side
	Fonts                 *pdfa.FontSet
	BaseSize              float64 // default 9 pt
	// PageLabel is the footer of page (1-based) of pages; nil = "Page x of
	// y"; a function returning "" writes no footer.
	PageLabel func(page, pages int) string
	// PDF configures the underlying pdfa.Document (ICC profile, time).
	PDF pdfa.Options
}

// Document lays out blocks onto pages of a pdfa.Document.
type Document struct {
	pdf     *pdfa.Document
	fonts   *pdfa.FontSet
	opts    Options
	page    *pdfa.Page
	y       float64 // distance of the cursor from the page top
	footerH float64
	footed  bool // page footers drawn
}

// New starts a document with one empty page.
func New(opts Options) (*Document, error) {
	if opts.PageWidth <= 0 || opts.PageHeight <= 0 {
		opts.PageWidth, opts.PageHeight = pdfa.A4Width, pdfa.A4Height
	}
	if opts.Margins == (Margins{}) {
		opts.Margins = Margins{42, 42, 42, 42}
	}
	if opts.BaseSize <= 0 {
		opts.BaseSize = 9
	}
	if opts.PageLabel == nil {
		opts.PageLabel = func(page, pages int) string { return fmt.Sprintf("Page %d of %d", page, pages) }
	}
	if opts.Fonts == nil {
		fs, err := pdfa.GoFonts()
		if err != nil {
			return nil, fmt.Errorf("layout.New: %w", err)
		}
		opts.Fonts = fs
	}
	if opts.PageWidth-opts.Margins.Left-opts.Margins.Right < 50 || opts.PageHeight-opts.Margins.Top-opts.Margins.Bottom < 100 {
		return nil, fmt.Errorf("layout.New: margins leave no room on a %gx%g page", opts.PageWidth, opts.PageHeight)
	}
	p, err := pdfa.New(opts.PDF)
	if err != nil {
		return nil, fmt.Errorf("layout.New: %w", err)
	}
	d := &Document{pdf: p, fonts: opts.Fonts, opts: opts, footerH: 2 * opts.BaseSize}
	d.newPage()
	return d, nil
}

// PDF is the underlying document (for Info, attachments, XMP schemas, or
// drawing directly on its pages).
func (d *Document) PDF() *pdfa.Document { return d.pdf }

// Fonts is the document's font set.
func (d *Document) Fonts() *pdfa.FontSet { return d.fonts }

// Page is the page being filled.
func (d *Document) Page() *pdfa.Page { return d.page }

// Width is the width between the margins.
func (d *Document) Width() float64 {
	return d.opts.PageWidth - d.opts.Margins.Left - d.opts.Margins.Right
}

// Left is the x coordinate of the left margin.
func (d *Document) Left() float64 { return d.opts.Margins.Left }

// Y is the cursor's distance from the top of the page; PDFY converts such a
// distance into the page's PDF coordinate.
func (d *Document) Y() float64 { return d.y }

// PDFY converts a distance from the top of the page into a PDF y.
func (d *Document) PDFY(y float64) float64 { return d.opts.PageHeight - y }

// Remaining is the height left on the current page above the footer.
func (d *Document) Remaining() float64 { return d.bottom() - d.y }

func (d *Document) bottom() float64 {
	return d.opts.PageHeight - d.opts.Margins.Bottom - d.footerH
}

func (d *Document) newPage() {
	d.page = d.pdf.AddPage(d.opts.PageWidth, d.opts.PageHeight)
	d.y = d.opts.Margins.Top
}

// atTop reports whether nothing has been placed on the current page.
func (d *Document) atTop() bool { return d.y <= d.opts.Margins.Top }

// PageBreak starts a new page (unless the current one is still empty).
func (d *Document) PageBreak() {
	if !d.atTop() {
		d.newPage()
	}
}

// KeepTogether starts a new page when less than h points are left, so a
// block of height h is not split.
func (d *Document) KeepTogether(h float64) {
	if h > d.Remaining() && !d.atTop() {
		d.newPage()
	}
}

// Space moves the cursor down by h points (not past the page end).
func (d *Document) Space(h float64) { d.y = min(d.y+h, d.bottom()) }

// Rule draws a horizontal line across the content width.
func (d *Document) Rule(width float64, c pdfa.Color) {
	d.KeepTogether(width + 2)
	d.y += 1
	d.page.SetStroke(c)
	d.page.SetLineWidth(width)
	y := d.PDFY(d.y + width/2)
	d.page.Line(d.Left(), y, d.Left()+d.Width(), y)
	d.y += width + 1
}

// resolve fills the zero fields of st.
func (d *Document) resolve(st Style) Style {
	if st.Size <= 0 {
		st.Size = d.opts.BaseSize
	}
	if st.Leading <= 0 {
		st.Leading = 1.25
	}
	return st
}

// Font is the font of a style.
func (d *Document) Font(fs FontStyle) *pdfa.Font {
	switch fs {
	case Bold:
		return d.fonts.Bold
	case Italic:
		return d.fonts.Italic
	case BoldItalic:
		return d.fonts.BoldItalic
	case Mono:
		return d.fonts.Mono
	}
	return d.fonts.Regular
}

// Measure is the width of s set in st.
func (d *Document) Measure(s string, st Style) float64 {
	st = d.resolve(st)
	return d.Font(st.Font).Width(s, st.Size)
}

// LineHeight is the height of one line set in st.
func (d *Document) LineHeight(st Style) float64 {
	st = d.resolve(st)
	return st.Size * st.Leading
}

// Wrap breaks s into lines no wider than width: at spaces (runs of spaces
// become one), at "\n", and inside words longer than a line (which also
// wraps text without spaces, such as CJK). Tabs count as spaces.
func (d *Document) Wrap(s string, st Style, width float64) []string {
	st = d.resolve(st)
	f := d.Font(st.Font)
	limit := int(width * 1000 / st.Size) // in 1000ths of the em
	words := func(s string) int {
		w := 0
		for _, r := range s {
			w += f.RuneWidth(r)
		}
		return w
	}
	space := f.RuneWidth(' ')
	var lines []string
	for para := range strings.SplitSeq(s, "\n") {
		var line strings.Builder
		lw := 0
		for _, word := range strings.Fields(para) {
			ww := words(word)
			if line.Len() > 0 && lw+space+ww <= limit {
				line.WriteByte(' ')
				line.WriteString(word)
				lw += space + ww
				continue
			}
			if line.Len() > 0 {
				lines = append(lines, line.String())
				line.Reset()
			}
			for ww > limit { // a word longer than the line: cut it
				cut, cw := 0, 0
				for i := 0; i < len(word); {
					r, size := utf8.DecodeRuneInString(word[i:])
					rw := f.RuneWidth(r)
					if cw+rw > limit && i > 0 {
						break
					}
					cut, cw = i+size, cw+rw
					i += size
				}
				lines = append(lines, word[:cut])
				word = word[cut:]
				ww -= cw
			}
			line.WriteString(word)
			lw = ww
		}
		lines = append(lines, line.String())
	}
	return lines
}

// drawLine draws one line of text in the box [x, x+width] with its top at
// y (from the page top).
func (d *Document) drawLine(s string, st Style, x, y, width float64) {
	if s == "" {
		return
	}
	f := d.Font(st.Font)
	switch st.Align {
	case Right:
		x += width - f.Width(s, st.Size)
	case Center:
		x += (width - f.Width(s, st.Size)) / 2
	}
	lh := st.Size * st.Leading
	asc, desc := float64(f.Ascent())/1000*st.Size, float64(f.Descent())/1000*st.Size
	base := y + (lh-(asc-desc))/2 + asc
	d.page.SetFill(st.Color)
	d.page.Text(f, st.Size, x, d.PDFY(base), s)
}

// Paragraph sets s wrapped to the content width, breaking pages between
// lines.
func (d *Document) Paragraph(s string, st Style) {
	d.TextAt(s, st, d.Left(), d.Width())
}

// TextAt sets s wrapped to width starting at x (from the page's left edge),
// breaking pages between lines; the cursor ends below the text.
func (d *Document) TextAt(s string, st Style, x, width float64) {
	st = d.resolve(st)
	lh := st.Size * st.Leading
	for _, line := range d.Wrap(s, st, width) {
		if lh > d.Remaining() && !d.atTop() {
			d.newPage()
		}
		d.drawLine(line, st, x, d.y, width)
		d.y += lh
	}
}

// Box draws a rectangle from the cursor down h points across the content
// width (filled with fill when non-nil, outlined in stroke when non-nil),
// without moving the cursor: draw the box, then its content.
func (d *Document) Box(h float64, fill, stroke *pdfa.Color) {
	d.KeepTogether(h)
	if fill != nil {
		d.page.SetFill(*fill)
	}
	if stroke != nil {
		d.page.SetStroke(*stroke)
		d.page.SetLineWidth(0.5)
	}
	d.page.Rect(d.Left(), d.PDFY(d.y+h), d.Width(), h, fill != nil, stroke != nil)
}

// Bytes writes the page footers ("Page x of y") and serializes the PDF/A-3b
// document.
func (d *Document) Bytes() ([]byte, error) {
	pages := d.pdf.Pages()
	if d.footed {
		pages = nil
	}
	d.footed = true
	st := d.resolve(Style{Size: d.opts.BaseSize * 0.85, Color: pdfa.Color{R: 0.35, G: 0.35, B: 0.35}, Align: Right})
	for i, p := range pages {
		label := d.opts.PageLabel(i+1, len(pages))
		if label == "" {
			continue
		}
		cur := d.page
		d.page = p
		d.drawLine(label, st, d.Left(), d.opts.PageHeight-d.opts.Margins.Bottom-d.LineHeight(st), d.Width())
		d.page = cur
	}
	b, err := d.pdf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("layout.Bytes: %w", err)
	}
	return b, nil
}
