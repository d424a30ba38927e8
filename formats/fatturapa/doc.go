// Package fatturapa owns the generation of Italian FatturaPA 1.2.2 XML
// (FatturaElettronica, formats FPA12 and FPR12) from the one EN 16931
// invoice model (formats/model) plus the Italian extras that the model has
// no term for (transmission data, regime fiscale, ritenuta, bollo, cassa
// previdenziale, per-line Natura overrides).
//
// DecodeExtras strictly decodes the extras JSON (every problem located);
// Generate completes the model, refuses what FatturaPA cannot carry (a 422
// naming the field, never a silent drop), maps VAT categories to Natura
// codes (NaturaFor) and writes the document with formats/xmlio. XSD
// validation is the caller's gate (httpapi uses the engineval validator).
// The mapping table is docs/FATTURAPA.md.
package fatturapa
