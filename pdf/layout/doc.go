// Package layout is a small flow layout engine on top of pdf/pdfa: A4 pages
// with margins, paragraphs of wrapped text in the Go fonts, tables with
// fixed or weighted column widths, per-column alignment, row fills, rules
// and borders, header rows repeated on every page a table spans, rows split
// across pages when they are taller than a page, horizontal rules, boxes,
// and a "Page x of y" footer written once the page count is known.
//
// The caller adds blocks top to bottom (Paragraph, Runs for mixed styles
// on the same lines, Table, Rule, Box, Space, KeepTogether, PageBreak); the
// engine breaks pages. Everything is plain
// structs and slices, no reflection. Text is measured with the embedded
// fonts' advance widths, so what is measured is what is drawn. Characters
// the fonts lack are drawn as a visible replacement box (see pdf/pdfa) but
// stay in the extractable text. Right-to-left scripts are drawn in logical
// order without shaping (readable by extraction, not typographically
// correct); the document is still valid PDF/A-3b.
//
// A view built on this package (formats/render) should also offer its
// *Document before Bytes: Factur-X generation lays the invoice out with the
// same view, then attaches factur-x.xml (facturx.Embed(doc.PDF(), ...))
// and serializes once.
package layout
