// Package pdfa owns our PDF/A-3b writer: a small object serializer (classic
// cross-reference table, Flate streams), TrueType fonts embedded as subsets
// (the outlines of the glyphs drawn, glyph ids unchanged) as CIDFontType2
// with /W widths, a CIDToGIDMap and a /ToUnicode CMap, an sRGB
// output intent whose ICC profile is read at run time (Debian's
// icc-profiles-free), XMP metadata consistent with the Info dictionary
// (pdfaid part 3, conformance B, plus caller extension schemas such as
// Factur-X's), a document /ID and embedded files with /AFRelationship,
// MIME /Subtype, /Params and the catalog /AF and /Names /EmbeddedFiles.
//
// It draws only what the layout engine (pdf/layout) needs: text, lines and
// rectangles in DeviceRGB. It imports nothing of the engine, formats or
// httpapi. Output is deterministic for a fixed Options.Time: the same calls
// give the same bytes (the /ID is a digest of the body).
//
// Glyphs a font lacks (CJK, Arabic, ... with the Go fonts) are drawn as a
// visible replacement glyph (U+25A1 WHITE SQUARE, or '?' when the font has
// none) under their own character code, whose /ToUnicode entry is still the
// original character: the page shows boxes, text extraction gives the text,
// and no .notdef glyph is ever referenced (PDF/A-3 6.2.11.8).
package pdfa
