package ubl

// Namespaces of UBL 2.1.
const (
	NSInvoice    = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
	NSCreditNote = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
	NSCAC        = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
	NSCBC        = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
)

// DefaultSpecificationID is written as BT-24 (cbc:CustomizationID) when the
// model has none and WriteOptions.SpecificationID is empty.
const DefaultSpecificationID = "urn:cen.eu:en16931:2017"
