// Package convert owns the conversion of an invoice between syntaxes (UBL
// 2.1, CII D16B) and to and from the XRechnung CIUS, lossless or refused.
//
// A conversion reads the source with its syntax package (formats/ubl,
// formats/cii), refuses if the reader left any element or attribute
// unconsumed, applies the changes the direction makes on purpose (BT-24 and
// BT-23 for XRechnung, each listed in Result.Changes), writes the target,
// reads the target back and requires the model read back to equal the
// model written (formats/model Diff). Every node the mapping did not carry
// and every difference after the round trip is one Loss (source XPath or
// model pointer, BT/BG, reason); a conversion with losses returns no
// document.
//
// Validation of the target for its profile is not done here (formats may
// not import the engine): the caller passes a Gate in Options, or validates
// Result.XML itself. See docs/CONVERSION.md.
package convert
