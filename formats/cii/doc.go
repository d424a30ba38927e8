// Package cii owns the UN/CEFACT Cross Industry Invoice D16B syntax
// (rsm:CrossIndustryInvoice, the EN 16931 CII binding): a reader from an
// engine/xmltree Document into the semantic model (formats/model) and a
// writer from the model back to XML.
//
// The reader records every element and attribute it carries into the model
// (formats/xmlio Tracker); whatever it did not carry is listed in
// ReadResult.Unconsumed with its path in the reference Schematron form and
// the business term it sits under, so that a conversion can refuse with the
// exact loss instead of dropping data. A value that does not parse (a
// malformed amount, a date not in format 102) is left unconsumed and named
// in ReadResult.Warnings. Fixed syntax values that carry no business term
// (ram:TypeCode "VAT" of a tax, ram:ChargeIndicator, the format="102"
// attribute, the name of a procuring project, xsi: attributes on the root)
// are consumed when they hold the value the writer would write.
//
// The writer emits elements in the sequence order of the CII D16B XSD
// (CrossIndustryInvoice_100pD16B.xsd) and writes every model field CII can
// carry; what it cannot carry makes Write fail with an error naming the
// business term (see docs/FORMATS.md, section CII).
//
// The mapping of each BT/BG to its XPath is the one of the official
// EN 16931 CII Schematron (EN16931-CII-model.sch); the table in
// docs/FORMATS.md is generated from this package (TestFormatsDoc), by
// reading a document in which every field is set and recording where each
// business term was consumed.
package cii
