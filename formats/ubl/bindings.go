package ubl

import (
	"strings"
	"sync"
)

// Binding maps one EN 16931 business term or group to its place in a UBL
// Invoice (relative to the root element; CreditNote documents use
// cac:CreditNoteLine and cbc:CreditedQuantity in lines and the differences
// given in Note).
type Binding struct {
	// BT is the business term or group ("BT-31", "BG-5").
	BT string
	// Name is the business term's name.
	Name string
	// XPath is the location relative to the root element.
	XPath string
	// Note explains what the reader and writer do beyond the plain mapping.
	Note string
}

// Bindings is the UBL 2.1 binding of the model, in document order. It drives
// the attribution of unconsumed nodes (BTFor) and the docs/FORMATS.md table.
var Bindings = []Binding{
	{"BT-24", "Specification identifier", "cbc:CustomizationID", "written from WriteOptions.SpecificationID or urn:cen.eu:en16931:2017 when absent"},
	{"BT-23", "Business process type", "cbc:ProfileID", ""},
	{"BT-1", "Invoice number", "cbc:ID", ""},
	{"BT-2", "Invoice issue date", "cbc:IssueDate", ""},
	{"BT-9", "Payment due date", "cbc:DueDate", "CreditNote: cac:PaymentMeans/cbc:PaymentDueDate (on the first payment means, UBL-SR-45)"},
	{"BT-3", "Invoice type code", "cbc:InvoiceTypeCode", "CreditNote: cbc:CreditNoteTypeCode; credit note codes (BR-CL-01) are written as CreditNote"},
	{"BT-22", "Invoice note", "cbc:Note", "BT-21 is written as a #CODE# prefix of the note text and split off when read"},
	{"BT-7", "Value added tax point date", "cbc:TaxPointDate", ""},
	{"BT-5", "Invoice currency code", "cbc:DocumentCurrencyCode", "every amount's @currencyID must be BT-5 (BT-111: BT-6), else it is left unconsumed"},
	{"BT-6", "VAT accounting currency code", "cbc:TaxCurrencyCode", ""},
	{"BT-19", "Buyer accounting reference", "cbc:AccountingCost", ""},
	{"BT-10", "Buyer reference", "cbc:BuyerReference", ""},
	{"BG-14", "Invoicing period", "cac:InvoicePeriod", ""},
	{"BT-73", "Invoicing period start date", "cac:InvoicePeriod/cbc:StartDate", ""},
	{"BT-74", "Invoicing period end date", "cac:InvoicePeriod/cbc:EndDate", ""},
	{"BT-8", "Value added tax point date code", "cac:InvoicePeriod/cbc:DescriptionCode", "UNTDID 2005 (3, 35, 432), the model's form; CII writes 5, 29, 72"},
	{"BT-13", "Purchase order reference", "cac:OrderReference/cbc:ID", ""},
	{"BT-14", "Sales order reference", "cac:OrderReference/cbc:SalesOrderID", "with BT-13 absent, cbc:ID is written as NA (UBL requires it) and NA is read as absent"},
	{"BG-3", "Preceding invoice reference", "cac:BillingReference/cac:InvoiceDocumentReference", ""},
	{"BT-25", "Preceding invoice reference", "cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID", ""},
	{"BT-26", "Preceding invoice issue date", "cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate", ""},
	{"BT-16", "Despatch advice reference", "cac:DespatchDocumentReference/cbc:ID", ""},
	{"BT-15", "Receiving advice reference", "cac:ReceiptDocumentReference/cbc:ID", ""},
	{"BT-17", "Tender or lot reference", "cac:OriginatorDocumentReference/cbc:ID", ""},
	{"BT-12", "Contract reference", "cac:ContractDocumentReference/cbc:ID", ""},
	{"BT-18", "Invoiced object identifier", "cac:AdditionalDocumentReference[cbc:DocumentTypeCode='130']/cbc:ID", "BT-18-1: @schemeID"},
	{"BT-11", "Project reference", "cac:ProjectReference/cbc:ID", "CreditNote: cac:AdditionalDocumentReference[cbc:DocumentTypeCode='50']/cbc:ID"},
	{"BG-24", "Additional supporting documents", "cac:AdditionalDocumentReference", ""},
	{"BT-122", "Supporting document reference", "cac:AdditionalDocumentReference/cbc:ID", ""},
	{"BT-123", "Supporting document description", "cac:AdditionalDocumentReference/cbc:DocumentDescription", ""},
	{"BT-125", "Attached document", "cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject", "BT-125-1: @mimeCode, BT-125-2: @filename; base64"},
	{"BT-124", "External document location", "cac:AdditionalDocumentReference/cac:Attachment/cac:ExternalReference/cbc:URI", ""},
	{"BG-4", "Seller", "cac:AccountingSupplierParty/cac:Party", ""},
	{"BT-34", "Seller electronic address", "cac:AccountingSupplierParty/cac:Party/cbc:EndpointID", "BT-34-1: @schemeID"},
	{"BT-29", "Seller identifier", "cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID", "BT-29-1: @schemeID; schemeID SEPA is BT-90 when there is no payee"},
	{"BT-28", "Seller trading name", "cac:AccountingSupplierParty/cac:Party/cac:PartyName/cbc:Name", ""},
	{"BG-5", "Seller postal address", "cac:AccountingSupplierParty/cac:Party/cac:PostalAddress", "address lines: cbc:StreetName, cbc:AdditionalStreetName, cac:AddressLine/cbc:Line; cbc:CityName, cbc:PostalZone, cbc:CountrySubentity, cac:Country/cbc:IdentificationCode"},
	{"BT-31", "Seller VAT identifier", "cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID", ""},
	{"BT-32", "Seller tax registration identifier", "cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID!='VAT']/cbc:CompanyID", "any tax scheme id but VAT; one other than FC (the writers' default) is kept in Seller.TaxRegistrationScheme (CII cannot hold it)"},
	{"BT-27", "Seller name", "cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName", ""},
	{"BT-30", "Seller legal registration identifier", "cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID", "BT-30-1: @schemeID"},
	{"BT-33", "Seller additional legal information", "cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyLegalForm", ""},
	{"BG-6", "Seller contact", "cac:AccountingSupplierParty/cac:Party/cac:Contact", "cbc:Name (BT-41), cbc:Telephone (BT-42), cbc:ElectronicMail (BT-43)"},
	{"BG-7", "Buyer", "cac:AccountingCustomerParty/cac:Party", ""},
	{"BT-49", "Buyer electronic address", "cac:AccountingCustomerParty/cac:Party/cbc:EndpointID", "BT-49-1: @schemeID"},
	{"BT-46", "Buyer identifier", "cac:AccountingCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID", "BT-46-1: @schemeID"},
	{"BT-45", "Buyer trading name", "cac:AccountingCustomerParty/cac:Party/cac:PartyName/cbc:Name", ""},
	{"BG-8", "Buyer postal address", "cac:AccountingCustomerParty/cac:Party/cac:PostalAddress", "as BG-5"},
	{"BT-48", "Buyer VAT identifier", "cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID", "tax scheme VAT"},
	{"BT-44", "Buyer name", "cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName", ""},
	{"BT-47", "Buyer legal registration identifier", "cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID", "BT-47-1: @schemeID"},
	{"BG-9", "Buyer contact", "cac:AccountingCustomerParty/cac:Party/cac:Contact", "cbc:Name (BT-56), cbc:Telephone (BT-57), cbc:ElectronicMail (BT-58)"},
	{"BG-10", "Payee", "cac:PayeeParty", ""},
	{"BT-60", "Payee identifier", "cac:PayeeParty/cac:PartyIdentification/cbc:ID", "BT-60-1: @schemeID; schemeID SEPA is BT-90"},
	{"BT-59", "Payee name", "cac:PayeeParty/cac:PartyName/cbc:Name", ""},
	{"BT-61", "Payee legal registration identifier", "cac:PayeeParty/cac:PartyLegalEntity/cbc:CompanyID", "BT-61-1: @schemeID"},
	{"BG-11", "Seller tax representative party", "cac:TaxRepresentativeParty", ""},
	{"BT-62", "Seller tax representative name", "cac:TaxRepresentativeParty/cac:PartyName/cbc:Name", ""},
	{"BG-12", "Seller tax representative postal address", "cac:TaxRepresentativeParty/cac:PostalAddress", "as BG-5"},
	{"BT-63", "Seller tax representative VAT identifier", "cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID", "tax scheme VAT"},
	{"BG-13", "Delivery information", "cac:Delivery", ""},
	{"BT-72", "Actual delivery date", "cac:Delivery/cbc:ActualDeliveryDate", ""},
	{"BT-71", "Deliver to location identifier", "cac:Delivery/cac:DeliveryLocation/cbc:ID", "BT-71-1: @schemeID"},
	{"BG-15", "Deliver to address", "cac:Delivery/cac:DeliveryLocation/cac:Address", "as BG-5"},
	{"BT-70", "Deliver to party name", "cac:Delivery/cac:DeliveryParty/cac:PartyName/cbc:Name", ""},
	{"BG-16", "Payment instructions", "cac:PaymentMeans", "several credit transfers (BG-17) are written as one cac:PaymentMeans each, repeating BT-81; BT-82 and BT-83 on the first only. Read: values absent from a payment means are no conflict, differing ones are left unconsumed"},
	{"BT-81", "Payment means type code", "cac:PaymentMeans/cbc:PaymentMeansCode", ""},
	{"BT-82", "Payment means text", "cac:PaymentMeans/cbc:PaymentMeansCode/@name", "once (UBL-SR-46)"},
	{"BT-83", "Remittance information", "cac:PaymentMeans/cbc:PaymentID", "one value (UBL-SR-44)"},
	{"BG-18", "Payment card information", "cac:PaymentMeans/cac:CardAccount", "BT-87: cbc:PrimaryAccountNumberID, BT-88: cbc:HolderName; cbc:NetworkID (required by UBL, not in EN 16931) is written as NA when PaymentCard.NetworkID is empty, NA is read as empty (CII cannot hold another value)"},
	{"BG-17", "Credit transfer", "cac:PaymentMeans/cac:PayeeFinancialAccount", "BT-84: cbc:ID, BT-85: cbc:Name, BT-86: cac:FinancialInstitutionBranch/cbc:ID"},
	{"BG-19", "Direct debit", "cac:PaymentMeans/cac:PaymentMandate", "BT-89: cbc:ID, BT-91: cac:PayerFinancialAccount/cbc:ID"},
	{"BT-20", "Payment terms", "cac:PaymentTerms/cbc:Note", ""},
	{"BG-20", "Document level allowances", "cac:AllowanceCharge[cbc:ChargeIndicator='false']", "BT-92 cbc:Amount, BT-93 cbc:BaseAmount, BT-94 cbc:MultiplierFactorNumeric, BT-95 cac:TaxCategory/cbc:ID, BT-96 cac:TaxCategory/cbc:Percent, BT-97 cbc:AllowanceChargeReason, BT-98 cbc:AllowanceChargeReasonCode"},
	{"BG-21", "Document level charges", "cac:AllowanceCharge[cbc:ChargeIndicator='true']", "BT-99..BT-105 as BG-20"},
	{"BT-110", "Invoice total VAT amount", "cac:TaxTotal/cbc:TaxAmount", "the cac:TaxTotal whose amount is in BT-5; mandatory with BG-23 (Write refuses BG-23 without BT-110)"},
	{"BT-111", "Invoice total VAT amount in accounting currency", "cac:TaxTotal/cbc:TaxAmount[@currencyID=BT-6]", "a second cac:TaxTotal without subtotals"},
	{"BG-23", "VAT breakdown", "cac:TaxTotal/cac:TaxSubtotal", "BT-116 cbc:TaxableAmount, BT-117 cbc:TaxAmount, BT-118 cac:TaxCategory/cbc:ID, BT-119 cac:TaxCategory/cbc:Percent, BT-121 cac:TaxCategory/cbc:TaxExemptionReasonCode, BT-120 cac:TaxCategory/cbc:TaxExemptionReason"},
	{"BG-22", "Document totals", "cac:LegalMonetaryTotal", ""},
	{"BT-106", "Sum of Invoice line net amount", "cac:LegalMonetaryTotal/cbc:LineExtensionAmount", ""},
	{"BT-109", "Invoice total amount without VAT", "cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount", ""},
	{"BT-112", "Invoice total amount with VAT", "cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount", ""},
	{"BT-107", "Sum of allowances on document level", "cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount", ""},
	{"BT-108", "Sum of charges on document level", "cac:LegalMonetaryTotal/cbc:ChargeTotalAmount", ""},
	{"BT-113", "Paid amount", "cac:LegalMonetaryTotal/cbc:PrepaidAmount", ""},
	{"BT-114", "Rounding amount", "cac:LegalMonetaryTotal/cbc:PayableRoundingAmount", ""},
	{"BT-115", "Amount due for payment", "cac:LegalMonetaryTotal/cbc:PayableAmount", ""},
	{"BG-25", "Invoice line", "cac:InvoiceLine", "CreditNote: cac:CreditNoteLine"},
	{"BT-126", "Invoice line identifier", "cac:InvoiceLine/cbc:ID", ""},
	{"BT-127", "Invoice line note", "cac:InvoiceLine/cbc:Note", ""},
	{"BT-129", "Invoiced quantity", "cac:InvoiceLine/cbc:InvoicedQuantity", "BT-130: @unitCode; CreditNote: cbc:CreditedQuantity"},
	{"BT-131", "Invoice line net amount", "cac:InvoiceLine/cbc:LineExtensionAmount", ""},
	{"BT-133", "Invoice line Buyer accounting reference", "cac:InvoiceLine/cbc:AccountingCost", ""},
	{"BG-26", "Invoice line period", "cac:InvoiceLine/cac:InvoicePeriod", "BT-134 cbc:StartDate, BT-135 cbc:EndDate"},
	{"BT-132", "Referenced purchase order line reference", "cac:InvoiceLine/cac:OrderLineReference/cbc:LineID", ""},
	{"BT-128", "Invoice line object identifier", "cac:InvoiceLine/cac:DocumentReference[cbc:DocumentTypeCode='130']/cbc:ID", "BT-128-1: @schemeID"},
	{"BG-27", "Invoice line allowances", "cac:InvoiceLine/cac:AllowanceCharge[cbc:ChargeIndicator='false']", "BT-136 cbc:Amount, BT-137 cbc:BaseAmount, BT-138 cbc:MultiplierFactorNumeric, BT-139 cbc:AllowanceChargeReason, BT-140 cbc:AllowanceChargeReasonCode"},
	{"BG-28", "Invoice line charges", "cac:InvoiceLine/cac:AllowanceCharge[cbc:ChargeIndicator='true']", "BT-141..BT-145 as BG-27"},
	{"BG-31", "Item information", "cac:InvoiceLine/cac:Item", ""},
	{"BT-154", "Item description", "cac:InvoiceLine/cac:Item/cbc:Description", ""},
	{"BT-153", "Item name", "cac:InvoiceLine/cac:Item/cbc:Name", ""},
	{"BT-156", "Item Buyer's identifier", "cac:InvoiceLine/cac:Item/cac:BuyersItemIdentification/cbc:ID", ""},
	{"BT-155", "Item Seller's identifier", "cac:InvoiceLine/cac:Item/cac:SellersItemIdentification/cbc:ID", ""},
	{"BT-157", "Item standard identifier", "cac:InvoiceLine/cac:Item/cac:StandardItemIdentification/cbc:ID", "BT-157-1: @schemeID"},
	{"BT-159", "Item country of origin", "cac:InvoiceLine/cac:Item/cac:OriginCountry/cbc:IdentificationCode", ""},
	{"BT-158", "Item classification identifier", "cac:InvoiceLine/cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode", "BT-158-1: @listID, BT-158-2: @listVersionID"},
	{"BG-30", "Line VAT information", "cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory", "BT-151 cbc:ID, BT-152 cbc:Percent, cac:TaxScheme/cbc:ID VAT"},
	{"BG-32", "Item attributes", "cac:InvoiceLine/cac:Item/cac:AdditionalItemProperty", "BT-160 cbc:Name, BT-161 cbc:Value"},
	{"BG-29", "Price details", "cac:InvoiceLine/cac:Price", ""},
	{"BT-146", "Item net price", "cac:InvoiceLine/cac:Price/cbc:PriceAmount", ""},
	{"BT-149", "Item price base quantity", "cac:InvoiceLine/cac:Price/cbc:BaseQuantity", "BT-150: @unitCode"},
	{"BT-147", "Item price discount", "cac:InvoiceLine/cac:Price/cac:AllowanceCharge/cbc:Amount", "cbc:ChargeIndicator false; read without BT-148, BT-148 = BT-146 + BT-147 (model.Line.PriceParts)"},
	{"BT-148", "Item gross price", "cac:InvoiceLine/cac:Price/cac:AllowanceCharge/cbc:BaseAmount", "Write refuses BT-148 without BT-147 (cbc:Amount is mandatory)"},
	{"BG-DEX-01", "Sub invoice line (XRechnung extension)", "cac:InvoiceLine/cac:SubInvoiceLine", "CreditNote: cac:SubCreditNoteLine; the invoice line type again (every line term at the same relative path, BG-DEX-02..08 for the line's groups), nested to any depth; model Line.SubLines; the CII writer refuses it"},
}

// matchKey reduces a binding XPath or a node path to local names without
// predicates, lines and quantities of credit notes renamed to the invoice
// form: "AccountingSupplierParty/Party/PartyName/Name".
func matchKey(p string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth > 0:
		default:
			b.WriteByte(c)
		}
	}
	parts := strings.Split(b.String(), "/")
	out := parts[:0]
	for _, s := range parts {
		if s == "" {
			continue
		}
		if i := strings.IndexByte(s, ':'); i >= 0 {
			s = s[i+1:]
		}
		switch s {
		case "CreditNoteLine":
			s = "InvoiceLine"
		case "CreditedQuantity":
			s = "InvoicedQuantity"
		case "SubCreditNoteLine":
			s = "SubInvoiceLine"
		}
		out = append(out, s)
	}
	// A sub-line is the line type again: its content has the line's
	// bindings, the sub-line element itself (and its attributes) is
	// BG-DEX-01.
	sub := out[:0]
	for i, s := range out {
		if s != "SubInvoiceLine" || i == len(out)-1 || strings.HasPrefix(out[i+1], "@") {
			sub = append(sub, s)
		}
	}
	return strings.Join(sub, "/")
}

// sharedBTIndex is the index of Bindings, built on first use and read-only
// afterwards (safe for concurrent readers).
var sharedBTIndex = sync.OnceValue(newBTIndex)

// btIndex is the binding table keyed by matchKey.
type btIndex struct {
	byKey   map[string]string
	ordered []keyBT
}

type keyBT struct{ key, bt string }

func newBTIndex() *btIndex {
	ix := &btIndex{byKey: make(map[string]string, len(Bindings)), ordered: make([]keyBT, 0, len(Bindings))}
	for _, b := range Bindings {
		k := matchKey(b.XPath)
		if _, ok := ix.byKey[k]; !ok {
			ix.byKey[k] = b.BT
		}
		ix.ordered = append(ix.ordered, keyBT{k, b.BT})
	}
	return ix
}

// BTFor returns the business term or group the node at path (in
// xmltree.Path form, "/Invoice[1]/InvoiceLine[2]/Price[1]/@currencyID")
// belongs to: the binding with the longest matching prefix, or the first
// binding below the deepest ancestor that contains one; "" if none.
func (ix *btIndex) BTFor(path string) string {
	k := matchKey(path)
	// drop the root element
	if i := strings.IndexByte(k, '/'); i >= 0 {
		k = k[i+1:]
	} else {
		return ""
	}
	for {
		if bt, ok := ix.byKey[k]; ok {
			return bt
		}
		// A container of bound elements (cac:TaxTotal,
		// cac:ContractDocumentReference): the first binding below it.
		for _, b := range ix.ordered {
			if strings.HasPrefix(b.key, k+"/") {
				return b.bt
			}
		}
		i := strings.LastIndexByte(k, '/')
		if i < 0 {
			return ""
		}
		k = k[:i]
	}
}
