// Package ubl owns the UBL 2.1 syntax binding of the EN 16931 model: a
// reader (Read) from an engine/xmltree Document of an Invoice or CreditNote
// to a formats/model Invoice, and a writer (Write) from the model to UBL.
//
// The reader is exhaustive and honest: it marks, with an xmlio.Tracker,
// every element and attribute whose content it carried into the model, and
// lists everything else in ReadResult.Unconsumed (with the reference XPath
// form and the business term it belongs to), so that a conversion can refuse
// instead of dropping data silently. A value that cannot be carried (an
// unparseable amount or date, a currencyID that is not the document
// currency, a second value where the model has one) is left unconsumed and
// explained in Warnings.
//
// The writer writes every model field, in the element order of the UBL 2.1
// XSD, deterministically; type codes of credit notes (model
// DocumentTypeCode.IsCreditNote) give a CreditNote document.
//
// The binding (BT/BG to XPath) is the table Bindings, which also attributes
// unconsumed nodes to business terms and generates the UBL section of
// docs/FORMATS.md. It follows the EN 16931 UBL syntax binding as checked
// against the parameters of EN16931-UBL-model.sch.
package ubl
