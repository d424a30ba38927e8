// Package pdfaconv converts arbitrary PDFs to PDF/A-3b: Ghostscript's
// pdfwrite device (run as a sandboxed, time- and memory-limited subprocess
// in a private temporary directory) embeds the fonts, converts colours to
// RGB and writes an sRGB output intent; then a Go pass appends an
// incremental update that sets the XMP metadata (pdfaid part 3,
// conformance B, and any extension schema such as Factur-X's), embeds the
// attachments as embedded files with /AFRelationship, and writes the
// catalog /AF array and the /Names /EmbeddedFiles tree.
//
// The package does not decide conformance: callers check the output with
// veraPDF (pdf/verapdf) before handing it out. Failures are *Error values
// with a Kind the API maps to a status (encrypted, unreadable and
// not-conformant inputs are the caller's problem; a missing Ghostscript is
// the service's).
package pdfaconv
