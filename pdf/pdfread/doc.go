// Package pdfread is our own reader of the PDF object structure, written to
// survive malformed and hostile input: the classic cross-reference table and
// cross-reference streams, object streams, /Prev chains (with loop
// detection), reconstruction by scanning for "n g obj" when the
// cross-reference data is broken, stream decoding (FlateDecode with bounded
// output, LZW, ASCIIHex, ASCII85, RunLength, PNG/TIFF predictors), and the
// serialization of objects for incremental updates (AppendObject).
//
// Everything is bounded by Limits (object count, nesting depth, stream size,
// decoded size, total work); reference cycles never loop; a panic inside the
// reader is recovered into an error wrapping ErrMalformed. Encrypted
// documents are refused with ErrEncrypted.
//
// On top of the object layer it owns the things the service reads from a
// PDF: the page tree (Pages), embedded files (the /EmbeddedFiles name tree,
// the catalog /AF array, file-attachment annotations: Attachments), the XMP
// metadata stream, and page text (PageText, Text) with lines reconstructed
// by position.
//
// A Doc is not safe for concurrent use: it caches resolved objects.
package pdfread
