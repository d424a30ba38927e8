// Package facturx owns what makes a PDF/A-3 a Factur-X (ZUGFeRD 2.x)
// invoice: the conformance levels with their exact XMP spelling, the fx:
// XMP extension schema (DocumentType, DocumentFileName, Version,
// ConformanceLevel) and its pdfaExtension description, the
// AFRelationship each level takes, and embedding factur-x.xml into a
// pdf/pdfa document. XMP builds the whole metadata packet for PDFs we did
// not write ourselves (pdfa/convert, facturx/embed).
package facturx
