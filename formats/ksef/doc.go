// Package ksef owns the generation of Polish KSeF FA(3) XML (Faktura,
// schema 1-0E, for the Krajowy System e-Faktur) from the one EN 16931
// invoice model (formats/model): the seller and buyer (Podmiot1/2), the
// P_ fields of Fa, the VAT rate buckets P_13_x/P_14_x, the annotations
// (Adnotacje: reverse charge P_18, exemption P_19 with its basis), the
// lines (FaWiersz), the payment and the order/contract references.
//
// Generate completes the model, refuses what FA(3) cannot carry as this
// generator writes it (a 422 naming the field, formats/carry) and writes
// the document with formats/xmlio. XSD validation is the caller's gate
// (httpapi/ops). The mapping table is docs/KSEF.md.
package ksef
