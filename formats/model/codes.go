package model

// DocumentTypeCode is the invoice type code BT-3 (UNTDID 1001, the subset
// that EN 16931 rule BR-CL-01 allows). 380 is a commercial invoice, 381 a
// credit note. In JSON it may be given as a string or an integer.
type DocumentTypeCode string

// Common type codes.
const (
	TypeCommercialInvoice DocumentTypeCode = "380"
	TypeCreditNote        DocumentTypeCode = "381"
	TypeCorrectedInvoice  DocumentTypeCode = "384"
	TypePrepaymentInvoice DocumentTypeCode = "386"
	TypeSelfBilled        DocumentTypeCode = "389"
)

// enumValues lists the allowed values: the union of both BR-CL-01 lists
// (81 is in both), invoice codes first.
func (DocumentTypeCode) enumValues() []string {
	return []string{"71", "80", "81", "82", "84", "102", "130", "202", "203", "204", "211", "218", "219",
		"295", "325", "326", "331", "380", "382", "383", "384", "385", "386", "387", "388", "389", "390", "393", "394",
		"395", "456", "457", "471", "472", "473", "500", "501", "527", "553", "575", "623", "633", "751", "780", "817",
		"870", "875", "876", "877", "935", "83", "261", "262", "296", "308", "381", "396", "420", "458", "502", "503", "532"}
}

// acceptsInteger: BT-3 may be given as a JSON integer (380).
func (DocumentTypeCode) acceptsInteger() bool { return true }

// IsCreditNote reports whether the code belongs to the credit note list of
// BR-CL-01 (so that UBL writes a CreditNote document). 81 is in both lists
// and is treated as an invoice.
func (c DocumentTypeCode) IsCreditNote() bool {
	switch c {
	case "83", "261", "262", "296", "308", "381", "396", "420", "458", "502", "503", "532":
		return true
	}
	return false
}

// VATCategoryCode is an EN 16931 VAT category code (UNTDID 5305 subset,
// BR-CL-17/18): BT-95, BT-102, BT-118, BT-151.
type VATCategoryCode string

// VAT category codes.
const (
	VATStandard        VATCategoryCode = "S"  // standard rate
	VATZero            VATCategoryCode = "Z"  // zero rated goods
	VATExempt          VATCategoryCode = "E"  // exempt from tax
	VATReverseCharge   VATCategoryCode = "AE" // VAT reverse charge
	VATIntraCommunity  VATCategoryCode = "K"  // intra-community supply (EEA)
	VATExport          VATCategoryCode = "G"  // free export item, tax not charged
	VATOutOfScope      VATCategoryCode = "O"  // services outside scope of tax
	VATCanaryIGIC      VATCategoryCode = "L"  // Canary Islands general indirect tax
	VATCeutaMelillaIPS VATCategoryCode = "M"  // tax for production, services and importation in Ceuta and Melilla
	VATSplitPayment    VATCategoryCode = "B"  // transferred (Italian split payment)
)

func (VATCategoryCode) enumValues() []string {
	return []string{"S", "Z", "E", "AE", "K", "G", "O", "L", "M", "B"}
}

// VATCategory is the named form of a VAT category code that the service
// interface fixes for a line's `category` (and that the model accepts
// wherever a VAT category code is given).
type VATCategory string

// Named VAT categories.
const (
	CategoryStandard       VATCategory = "STANDARD"
	CategoryZero           VATCategory = "ZERO"
	CategoryExempt         VATCategory = "EXEMPT"
	CategoryIntraCommunity VATCategory = "INTRA_COMMUNITY"
	CategoryExport         VATCategory = "EXPORT"
	CategoryReverseCharge  VATCategory = "REVERSE_CHARGE"
	CategoryOutOfScope     VATCategory = "OUT_OF_SCOPE"
)

func (VATCategory) enumValues() []string {
	return []string{"STANDARD", "ZERO", "EXEMPT", "INTRA_COMMUNITY", "EXPORT", "REVERSE_CHARGE", "OUT_OF_SCOPE"}
}

// Code returns the VAT category code of a named category ("" if unknown).
func (c VATCategory) Code() VATCategoryCode {
	switch c {
	case CategoryStandard:
		return VATStandard
	case CategoryZero:
		return VATZero
	case CategoryExempt:
		return VATExempt
	case CategoryIntraCommunity:
		return VATIntraCommunity
	case CategoryExport:
		return VATExport
	case CategoryReverseCharge:
		return VATReverseCharge
	case CategoryOutOfScope:
		return VATOutOfScope
	}
	return ""
}

// Category returns the named category of a code ("" for L, M, B, which
// have no name and are given as raw codes only).
func (c VATCategoryCode) Category() VATCategory {
	switch c {
	case VATStandard:
		return CategoryStandard
	case VATZero:
		return CategoryZero
	case VATExempt:
		return CategoryExempt
	case VATIntraCommunity:
		return CategoryIntraCommunity
	case VATExport:
		return CategoryExport
	case VATReverseCharge:
		return CategoryReverseCharge
	case VATOutOfScope:
		return CategoryOutOfScope
	}
	return ""
}

// RequiresExemptionReason reports whether EN 16931 requires a VAT exemption
// reason (BT-120 or BT-121) in the VAT breakdown of this category
// (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10).
func (c VATCategoryCode) RequiresExemptionReason() bool {
	switch c {
	case VATExempt, VATReverseCharge, VATIntraCommunity, VATExport, VATOutOfScope:
		return true
	}
	return false
}

// ZeroRate reports whether the category's rate must be 0 (Z, E, AE, K, G);
// O carries no rate at all.
func (c VATCategoryCode) ZeroRate() bool {
	switch c {
	case VATZero, VATExempt, VATReverseCharge, VATIntraCommunity, VATExport:
		return true
	}
	return false
}

// enumType is implemented by the code types with a closed list of values;
// the decoder and the JSON Schema use it.
type enumType interface{ enumValues() []string }

// integerEnum is implemented by code types that may also be given as a JSON
// integer.
type integerEnum interface{ acceptsInteger() bool }

// BT-8 Value added tax point date code. The model holds the UNTDID 2005
// code that UBL writes (cbc:DescriptionCode, BR-CL-06: 3, 35, 432); CII
// writes the UNTDID 2475 code of the same event (ram:DueDateTypeCode: 5, 29,
// 72). The pairs are the EN 16931 code lists of both syntaxes: invoice date,
// delivery date, payment date.
var taxPointCodes2005To2475 = [...][2]string{{"3", "5"}, {"35", "29"}, {"432", "72"}}

// TaxPointCodeToCII translates a BT-8 code of the model (UNTDID 2005) into
// the CII code (UNTDID 2475); ok is false for a code outside the pairs.
func TaxPointCodeToCII(code string) (cii string, ok bool) {
	for _, p := range taxPointCodes2005To2475 {
		if p[0] == code {
			return p[1], true
		}
	}
	return "", false
}

// TaxPointCodeFromCII translates a CII BT-8 code (UNTDID 2475) into the
// model's (UNTDID 2005); ok is false for a code outside the pairs.
func TaxPointCodeFromCII(cii string) (code string, ok bool) {
	for _, p := range taxPointCodes2005To2475 {
		if p[1] == cii {
			return p[0], true
		}
	}
	return "", false
}
