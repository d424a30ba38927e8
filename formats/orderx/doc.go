// Package orderx owns the Order-X purchase order: its JSON input (Order,
// decoded strictly by DecodeOrder with every problem located) and the
// generation of Order-X 1.0 BASIC XML (Generate), a CII-family document
// (rsm:SCRDMCCBDACIOMessageStructure) written with formats/xmlio. An order
// has no VAT breakdown and no payment terms. Validation against the
// official XSD and Schematron is the caller's gate (httpapi/ops uses the
// engineval validator with syntax orderx). The mapping table is
// docs/ORDERX.md.
package orderx
