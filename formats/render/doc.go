// Package render turns an EN 16931 invoice (formats/model, as read by
// formats/ubl and formats/cii) into views for people: a self-contained HTML
// page and, on pdf/layout and pdf/pdfa, PDF/A-3b documents in two styles,
// "kosit" (the full auditor view) and "compact" (a classic business
// invoice).
//
// It owns the view model (Document: sections, blocks of labelled fields and
// tables, built once from the invoice by Build), the one translation table
// of labels (English and German, every business term with its BT id), the
// per-language formatting of dates, numbers and amounts, and the writers
// that lay a Document out as HTML or PDF. The structure, sections and labels
// follow the official XRechnung visualization (overview; details of the
// lines; additional data; attachments). Nothing here parses XML or
// validates: callers read the document with the syntax readers first.
//
// What is deliberately not shown is listed in docs/RENDERING.md; the
// coverage test (coverage_test.go) proves that every other value a reader
// carries into the model appears in the HTML and in the text of both PDFs.
package render
