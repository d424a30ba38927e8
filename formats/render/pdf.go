package render

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/pdf/layout"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// PDF styles.
const (
	// StyleCompact is a classic business invoice: letterhead, addresses,
	// lines, VAT summary, totals and payment details, then every further
	// value in a compact list ("Further details").
	StyleCompact = "compact"
	// StyleKosit is the full auditor view, laid out like the HTML: one
	// section per page group, page numbers, table headers repeated.
	StyleKosit = "kosit"
)

// Options configure PDF and Layout.
type Options struct {
	Lang  Lang
	Style string // StyleCompact (default) or StyleKosit
	// Time is the creation date written into the PDF; zero = now. Fix it
	// for byte-identical output.
	Time time.Time
	// ICC is the sRGB profile of the output intent; nil = the one at
	// pdfa.DefaultICCProfile (read once).
	ICC []byte
}

// icc returns the output intent's profile: opts.ICC, else the default one.
func (opts Options) icc() ([]byte, error) {
	if opts.ICC != nil {
		return opts.ICC, nil
	}
	return iccProfile()
}

// iccProfile is the sRGB output intent, read once (icc-profiles-free).
var iccProfile = sync.OnceValues(func() ([]byte, error) { return pdfa.ReadICCProfile("") })

// Colours of the PDF views.
var (
	colAccent = pdfa.Color{R: 0.12, G: 0.31, B: 0.55}
	colMuted  = pdfa.Color{R: 0.38, G: 0.40, B: 0.46}
	colLine   = pdfa.Color{R: 0.80, G: 0.83, B: 0.88}
	colFill   = pdfa.Color{R: 0.93, G: 0.95, B: 0.97}
)

// PDF renders inv as a PDF/A-3b document (fonts embedded, text
// extractable) in opts.Style.
func PDF(ctx context.Context, inv *model.Invoice, opts Options) ([]byte, error) {
	d, err := Layout(ctx, inv, opts)
	if err != nil {
		return nil, err
	}
	b, err := d.Bytes()
	if err != nil {
		return nil, fmt.Errorf("render.PDF: %w", err)
	}
	return b, nil
}

// Layout lays inv out in opts.Style and returns the unfinished document,
// so a caller can attach files (Factur-X) before calling Bytes.
func Layout(ctx context.Context, inv *model.Invoice, opts Options) (*layout.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("render.Layout: %w", err)
	}
	if opts.Lang != German {
		opts.Lang = English
	}
	icc, err := opts.icc()
	if err != nil {
		return nil, fmt.Errorf("render.Layout: %w", err)
	}
	lang := opts.Lang
	d, err := layout.New(layout.Options{
		PDF: pdfa.Options{ICC: icc, Time: opts.Time},
		PageLabel: func(page, pages int) string {
			return fmt.Sprintf("%s %d %s %d", text(lang, "page"), page, text(lang, "of"), pages)
		},
	})
	if err != nil {
		return nil, fmt.Errorf("render.Layout: %w", err)
	}
	doc := Build(inv, lang)
	d.PDF().SetInfo(pdfa.Info{Title: doc.Title(), Subject: doc.Title(), Creator: "einvoice render", Author: inv.Seller.Name})
	w := &pdfWriter{d: d, doc: doc, lang: lang}
	switch opts.Style {
	case StyleKosit:
		err = w.kosit(ctx)
	default:
		err = w.compact(ctx, inv)
	}
	if err != nil {
		return nil, fmt.Errorf("render.Layout(%s): %w", opts.Style, err)
	}
	return d, nil
}

// pdfWriter lays a Document out on a layout.Document.
type pdfWriter struct {
	d    *layout.Document
	doc  *Document
	lang Lang
}

var (
	stTitle   = layout.Style{Font: layout.Bold, Size: 16, Color: colAccent}
	stSection = layout.Style{Font: layout.Bold, Size: 13, Color: colAccent}
	stBlock   = layout.Style{Font: layout.Bold, Size: 10.5, Color: colAccent}
	stSub     = layout.Style{Font: layout.Bold, Size: 9.5}
	stBT      = layout.Style{Size: 6.5, Color: colMuted}
	stLabel   = layout.Style{Size: 8.5, Color: colMuted}
	stValue   = layout.Style{Size: 8.5}
	stHead    = layout.Style{Font: layout.Bold, Size: 8}
	stSmall   = layout.Style{Size: 8}
)

// heading writes a title with its BG id (if any) to its right, kept with
// the first lines below it, indented by indent points.
func (w *pdfWriter) heading(title, id string, st layout.Style, indent float64) {
	w.d.KeepTogether(w.d.LineHeight(st)*3 + 20)
	if id != "" {
		title += "  [" + id + "]"
	}
	w.d.TextAt(title, st, w.d.Left()+indent, w.d.Width()-indent)
	w.d.Space(2)
}

// subIndent is the indentation (points) of one sub-line level; levels
// deeper than maxSubLevel are set like maxSubLevel (the page stays wide
// enough for the values however deep the nesting).
const (
	subIndent   = 14
	maxSubLevel = 8
)

// indented prepends an empty column of indent points to t (a sub-line's
// tables sit under its indented heading).
func indented(t *layout.Table, indent float64) {
	if indent <= 0 {
		return
	}
	t.Columns = append([]layout.Column{{Width: indent}}, t.Columns...)
	for _, rows := range [][]layout.Row{t.Header, t.Rows} {
		for i := range rows {
			rows[i].Cells = append([]layout.Cell{{}}, rows[i].Cells...)
		}
	}
}

// subLineMark prefixes the first cell of a sub-line row: one "›" per
// level (the PDF text cannot be indented by spaces).
func subLineMark(level int, v string) string {
	if level <= 0 {
		return v
	}
	return strings.Repeat("›", min(level, maxSubLevel)) + " " + v
}

// fields writes labelled values as a three-column table: BT id, label,
// value.
func (w *pdfWriter) fields(fs []Field, indent float64) {
	if len(fs) == 0 {
		return
	}
	t := &layout.Table{
		Columns:     []layout.Column{{Width: 46}, {Weight: 4}, {Weight: 6}},
		Style:       stValue,
		Border:      layout.BorderRows,
		BorderColor: colLine,
		Padding:     2,
	}
	for _, f := range fs {
		t.Rows = append(t.Rows, layout.Row{Cells: []layout.Cell{
			{Text: f.BT, Style: &stBT}, {Text: f.Label, Style: &stLabel}, {Text: f.Value},
		}})
	}
	indented(t, indent)
	w.d.Table(t)
}

// table writes a Table with its header (label over BT id) repeated on
// every page; sub-line rows are marked by subLineMark.
func (w *pdfWriter) table(tb *Table, indent float64) {
	t := &layout.Table{
		Style:       stSmall,
		HeaderStyle: stHead,
		HeaderFill:  &colFill,
		Border:      layout.BorderRows,
		BorderColor: colLine,
		Padding:     2,
	}
	head := layout.Row{}
	for _, c := range tb.Cols {
		col := layout.Column{Weight: 1}
		if wideColumns[c.BT] {
			col.Weight = 2.5
		}
		if c.Num {
			col.Align = layout.Right
		}
		t.Columns = append(t.Columns, col)
		cell := layout.Cell{Text: c.Label}
		if c.BT != "" {
			cell.More = []layout.Para{{Text: c.BT, Style: stBT}}
		}
		head.Cells = append(head.Cells, cell)
	}
	t.Header = []layout.Row{head}
	// pdf/layout keeps a header with one line of the first row; keep
	// room for a few lines so a short first row is not split from it.
	w.d.KeepTogether(tableKeep)
	for i, r := range tb.Rows {
		row := layout.Row{}
		for j, v := range r {
			if j == 0 {
				v = subLineMark(tb.Level(i), v)
			}
			row.Cells = append(row.Cells, layout.Cell{Text: v})
		}
		t.Rows = append(t.Rows, row)
	}
	indented(t, indent)
	w.d.Table(t)
}

// tableKeep is the room (points) a table needs below the cursor to start
// on the current page: its header and a first row of several lines.
const tableKeep = 110

// wideColumns are the table columns of free text, set wider.
var wideColumns = setOf("BT-153 BT-22 BT-97 BT-104 BT-120 BT-123 BT-124 BT-139 BT-144 BT-161")

// block writes a block: heading, fields, tables, nested blocks.
// A sub invoice line (Level > 0) and everything in it is indented by
// its level (level is the enclosing block's).
func (w *pdfWriter) block(b *Block, depth, level int) {
	st := stBlock
	if depth > 0 {
		st = stSub
	}
	level = max(level, b.Level)
	indent := float64(min(level, maxSubLevel)) * subIndent
	w.heading(b.Title, b.Badge, st, indent)
	w.fields(b.Fields, indent)
	for _, t := range b.Tables {
		w.table(t, indent)
		w.d.Space(3)
	}
	for _, c := range b.Blocks {
		w.d.Space(3)
		w.block(c, depth+1, level)
	}
}

// checkEvery is how many blocks are laid out between context checks.
const checkEvery = 64

// kosit writes the full auditor view: the title, then each section from a
// new page.
func (w *pdfWriter) kosit(ctx context.Context) error {
	w.d.Paragraph(w.doc.Title(), stTitle)
	w.d.Rule(1.5, colAccent)
	first := true
	n := 0
	for _, s := range w.doc.Sections {
		if len(s.Blocks) == 0 {
			continue
		}
		if !first {
			w.d.PageBreak()
		}
		first = false
		w.heading(s.Title, "", stSection, 0)
		w.d.Rule(0.5, colLine)
		for _, b := range s.Blocks {
			if n++; n%checkEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			w.block(b, 0, 0)
			w.d.Space(8)
		}
	}
	return nil
}
