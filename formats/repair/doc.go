// Package repair owns the best-effort repair of UBL and CII invoices: dates
// not in ISO form (UBL only) and header totals that do not add up, which are
// recomputed from the lines (lines are trusted).
//
// A repair edits the source document minimally: it changes the text of the
// specific elements it repairs and keeps every other byte (declaration,
// prefixes, whitespace, comments, unknown extensions) as it was, so a
// repaired document loses nothing. Each change is listed (location, BT,
// from, to, reason); what cannot be repaired without inventing data
// (ambiguous or invalid dates, missing elements, a VAT breakdown that lacks
// a category) is listed in Result.Unfixed and left alone. Validation of the
// repaired document is the caller's (formats may not import the engine).
//
// The rewriter (rewrite.go) scans the source bytes for element tags and
// pairs the k-th element it finds with the k-th element of the
// engine/xmltree Document; an edit is made only when the raw bytes of the
// element's content are exactly its parsed text, so that entities, CDATA
// sections and comments are never rewritten. See docs/REPAIR.md.
package repair
