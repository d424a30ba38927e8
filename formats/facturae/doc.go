// Package facturae owns the generation of Spanish Facturae 3.2.2 XML
// (fe:Facturae: one batch holding one invoice, unsigned) from the one
// EN 16931 invoice model (formats/model) plus the Spanish extras the model
// has no term for (IRPF withholding, the corrective data of a credit note,
// the language, the series code).
//
// DecodeExtras strictly decodes the extras JSON (formats/strictjson);
// Generate completes the model, refuses what Facturae cannot carry (a 422
// naming the field, formats/carry), computes the batch, taxes outputs and
// withheld, and totals with Facturae's own rules, and writes the document
// with formats/xmlio. XSD validation is the caller's gate (httpapi/ops).
// The document is not signed (XAdES is the issuer's step). The mapping
// table is docs/FACTURAE.md.
package facturae
