package model

// Struct tags used throughout the model:
//
//	json  the canonical JSON name (snake_case)
//	bt    the EN 16931 business term or group id(s); "BT-35|BT-50" where a
//	      type is shared by several groups (addresses, identifiers)
//	card  the EN 16931 cardinality (0..1, 1..1, 0..n, 1..n); a field whose
//	      cardinality starts with 1 is required in JSON input unless it
//	      carries calc:"1"
//	calc  "1": mandatory in EN 16931 but computed by Complete when absent
//	alt   the JSON name of a field that may be given instead of this one
//	      (vat_category_code or its named form category)
//	doc   the business term's name, used in the JSON Schema
//
// Optional scalars are pointers (*Decimal, *Date) or empty strings;
// repeatable groups are slices.

// Invoice is the EN 16931 invoice (the root of the semantic model).
type Invoice struct {
	// BT-1 Invoice number, 1..1.
	ID string `json:"id" bt:"BT-1" card:"1..1" doc:"Invoice number"`
	// BT-2 Invoice issue date, 1..1.
	IssueDate Date `json:"issue_date" bt:"BT-2" card:"1..1" doc:"Invoice issue date"`
	// BT-3 Invoice type code, 1..1 (380 invoice, 381 credit note, ...).
	TypeCode DocumentTypeCode `json:"type_code" bt:"BT-3" card:"1..1" doc:"Invoice type code (UNTDID 1001)"`
	// BT-5 Invoice currency code, 1..1 (ISO 4217).
	CurrencyCode string `json:"currency_code" bt:"BT-5" card:"1..1" doc:"Invoice currency code (ISO 4217)"`
	// BT-6 VAT accounting currency code, 0..1.
	TaxCurrencyCode string `json:"tax_currency_code,omitempty" bt:"BT-6" card:"0..1" doc:"VAT accounting currency code (ISO 4217)"`
	// BT-7 Value added tax point date, 0..1.
	TaxPointDate *Date `json:"tax_point_date,omitempty" bt:"BT-7" card:"0..1" doc:"Value added tax point date"`
	// BT-8 Value added tax point date code, 0..1 (UNTDID 2005: 3, 35, 432).
	TaxPointDateCode string `json:"tax_point_date_code,omitempty" bt:"BT-8" card:"0..1" doc:"Value added tax point date code (UNTDID 2005 subset)"`
	// BT-9 Payment due date, 0..1.
	DueDate *Date `json:"due_date,omitempty" bt:"BT-9" card:"0..1" doc:"Payment due date"`
	// BT-10 Buyer reference, 0..1.
	BuyerReference string `json:"buyer_reference,omitempty" bt:"BT-10" card:"0..1" doc:"Buyer reference"`
	// BT-11 Project reference, 0..1.
	ProjectReference string `json:"project_reference,omitempty" bt:"BT-11" card:"0..1" doc:"Project reference"`
	// The name of the project of BT-11: no business term, but CII requires
	// it (ram:SpecifiedProcuringProject/ram:Name) and a document may give
	// a real one. Empty when CII gives the placeholder "Project reference"
	// that the CII writer writes; UBL cannot hold it (its writer refuses).
	ProjectName string `json:"project_name,omitempty" card:"0..1" doc:"Project name (CII ram:SpecifiedProcuringProject/ram:Name; not an EN 16931 term, UBL cannot hold it)"`
	// BT-12 Contract reference, 0..1.
	ContractReference string `json:"contract_reference,omitempty" bt:"BT-12" card:"0..1" doc:"Contract reference"`
	// BT-13 Purchase order reference, 0..1.
	PurchaseOrderReference string `json:"purchase_order_reference,omitempty" bt:"BT-13" card:"0..1" doc:"Purchase order reference"`
	// BT-14 Sales order reference, 0..1.
	SalesOrderReference string `json:"sales_order_reference,omitempty" bt:"BT-14" card:"0..1" doc:"Sales order reference"`
	// BT-15 Receiving advice reference, 0..1.
	ReceivingAdviceReference string `json:"receiving_advice_reference,omitempty" bt:"BT-15" card:"0..1" doc:"Receiving advice reference"`
	// BT-16 Despatch advice reference, 0..1.
	DespatchAdviceReference string `json:"despatch_advice_reference,omitempty" bt:"BT-16" card:"0..1" doc:"Despatch advice reference"`
	// BT-17 Tender or lot reference, 0..1.
	TenderOrLotReference string `json:"tender_or_lot_reference,omitempty" bt:"BT-17" card:"0..1" doc:"Tender or lot reference"`
	// BT-18 Invoiced object identifier with BT-18-1 scheme identifier, 0..1.
	InvoicedObjectID *Identifier `json:"invoiced_object_id,omitempty" bt:"BT-18" card:"0..1" doc:"Invoiced object identifier (scheme_id: BT-18-1)"`
	// BT-19 Buyer accounting reference, 0..1.
	BuyerAccountingReference string `json:"buyer_accounting_reference,omitempty" bt:"BT-19" card:"0..1" doc:"Buyer accounting reference"`
	// BT-20 Payment terms, 0..1.
	PaymentTerms string `json:"payment_terms,omitempty" bt:"BT-20" card:"0..1" doc:"Payment terms"`

	// BG-1 Invoice note, 0..n.
	Notes []Note `json:"notes,omitempty" bt:"BG-1" card:"0..n" doc:"Invoice notes"`
	// BG-2 Process control, 1..1 in EN 16931; the specification identifier
	// BT-24 is chosen by the writer's profile when absent, so it is optional
	// in JSON input.
	ProcessControl *ProcessControl `json:"process_control,omitempty" bt:"BG-2" card:"1..1" calc:"1" doc:"Process control (the specification identifier is set by the output profile when absent)"`
	// BG-3 Preceding invoice reference, 0..n.
	PrecedingInvoices []PrecedingInvoice `json:"preceding_invoices,omitempty" bt:"BG-3" card:"0..n" doc:"Preceding invoice references"`
	// BG-4 Seller, 1..1.
	Seller Seller `json:"seller" bt:"BG-4" card:"1..1" doc:"Seller"`
	// BG-7 Buyer, 1..1.
	Buyer Buyer `json:"buyer" bt:"BG-7" card:"1..1" doc:"Buyer"`
	// BG-10 Payee, 0..1.
	Payee *Payee `json:"payee,omitempty" bt:"BG-10" card:"0..1" doc:"Payee"`
	// BG-11 Seller tax representative party, 0..1.
	TaxRepresentative *TaxRepresentative `json:"tax_representative,omitempty" bt:"BG-11" card:"0..1" doc:"Seller tax representative party"`
	// BG-13 Delivery information, 0..1.
	Delivery *Delivery `json:"delivery,omitempty" bt:"BG-13" card:"0..1" doc:"Delivery information"`
	// BG-14 Invoicing period, 0..1. EN 16931 places BG-14 inside BG-13; both
	// syntaxes carry it at document level, and so does this model.
	InvoicingPeriod *Period `json:"invoicing_period,omitempty" bt:"BG-14" card:"0..1" doc:"Invoicing period (start: BT-73, end: BT-74)"`
	// BG-16 Payment instructions, 0..1.
	PaymentInstructions *PaymentInstructions `json:"payment_instructions,omitempty" bt:"BG-16" card:"0..1" doc:"Payment instructions"`
	// BG-20 Document level allowances, 0..n.
	Allowances []AllowanceCharge `json:"allowances,omitempty" bt:"BG-20" card:"0..n" doc:"Document level allowances (BT-92..BT-98)"`
	// BG-21 Document level charges, 0..n.
	Charges []AllowanceCharge `json:"charges,omitempty" bt:"BG-21" card:"0..n" doc:"Document level charges (BT-99..BT-105)"`
	// BG-22 Document totals, 1..1 (computed by Complete when absent).
	Totals *Totals `json:"totals,omitempty" bt:"BG-22" card:"1..1" calc:"1" doc:"Document totals"`
	// BG-23 VAT breakdown, 1..n (computed by Complete when absent).
	VATBreakdown []VATBreakdown `json:"vat_breakdown,omitempty" bt:"BG-23" card:"1..n" calc:"1" doc:"VAT breakdown, one per VAT category code and rate"`
	// BG-24 Additional supporting documents, 0..n.
	SupportingDocuments []SupportingDocument `json:"supporting_documents,omitempty" bt:"BG-24" card:"0..n" doc:"Additional supporting documents"`
	// BG-25 Invoice line, 1..n.
	Lines []Line `json:"lines" bt:"BG-25" card:"1..n" doc:"Invoice lines"`
}

// Note is BG-1 Invoice note.
type Note struct {
	// BT-21 Invoice note subject code, 0..1 (UNTDID 4451).
	SubjectCode string `json:"subject_code,omitempty" bt:"BT-21" card:"0..1" doc:"Invoice note subject code (UNTDID 4451)"`
	// BT-22 Invoice note, 1..1.
	Text string `json:"text" bt:"BT-22" card:"1..1" doc:"Invoice note"`
}

// ProcessControl is BG-2 Process control.
type ProcessControl struct {
	// BT-23 Business process type, 0..1.
	BusinessProcess string `json:"business_process,omitempty" bt:"BT-23" card:"0..1" doc:"Business process type"`
	// BT-24 Specification identifier, 1..1 (set by the writer's profile when absent).
	SpecificationID string `json:"specification_id,omitempty" bt:"BT-24" card:"1..1" calc:"1" doc:"Specification identifier (CustomizationID / GuidelineSpecifiedDocumentContextParameter)"`
}

// PrecedingInvoice is BG-3 Preceding invoice reference.
type PrecedingInvoice struct {
	// BT-25 Preceding invoice reference, 1..1.
	ID string `json:"id" bt:"BT-25" card:"1..1" doc:"Preceding invoice reference"`
	// BT-26 Preceding invoice issue date, 0..1.
	IssueDate *Date `json:"issue_date,omitempty" bt:"BT-26" card:"0..1" doc:"Preceding invoice issue date"`
}

// Identifier is an identifier with an optional scheme identifier: BT-18
// (BT-18-1), BT-29 (BT-29-1), BT-30 (BT-30-1), BT-46 (BT-46-1), BT-47
// (BT-47-1), BT-60 (BT-60-1), BT-61 (BT-61-1), BT-71 (BT-71-1), BT-90,
// BT-128 (BT-128-1), BT-157 (BT-157-1).
type Identifier struct {
	// The identifier, 1..1.
	ID string `json:"id" card:"1..1" doc:"Identifier"`
	// The scheme identifier (ISO 6523 ICD, UNTDID 1153, ...), 0..1.
	SchemeID string `json:"scheme_id,omitempty" card:"0..1" doc:"Identification scheme identifier"`
}

// ElectronicAddress is BT-34 Seller / BT-49 Buyer electronic address with its
// mandatory scheme identifier BT-34-1 / BT-49-1 (EAS code list).
type ElectronicAddress struct {
	// BT-34 / BT-49 electronic address, 1..1.
	ID string `json:"id" bt:"BT-34|BT-49" card:"1..1" doc:"Electronic address"`
	// BT-34-1 / BT-49-1 scheme identifier, 1..1 (EAS).
	SchemeID string `json:"scheme_id" bt:"BT-34-1|BT-49-1" card:"1..1" doc:"Electronic address scheme identifier (EAS)"`
}

// Address is a postal address: BG-5 Seller, BG-8 Buyer, BG-12 Tax
// representative, BG-15 Deliver to.
type Address struct {
	// BT-35 / BT-50 / BT-64 / BT-75 Address line 1, 0..1.
	Line1 string `json:"line1,omitempty" bt:"BT-35|BT-50|BT-64|BT-75" card:"0..1" doc:"Address line 1"`
	// BT-36 / BT-51 / BT-65 / BT-76 Address line 2, 0..1.
	Line2 string `json:"line2,omitempty" bt:"BT-36|BT-51|BT-65|BT-76" card:"0..1" doc:"Address line 2"`
	// BT-162 / BT-163 / BT-164 / BT-165 Address line 3, 0..1.
	Line3 string `json:"line3,omitempty" bt:"BT-162|BT-163|BT-164|BT-165" card:"0..1" doc:"Address line 3"`
	// BT-37 / BT-52 / BT-66 / BT-77 City, 0..1.
	City string `json:"city,omitempty" bt:"BT-37|BT-52|BT-66|BT-77" card:"0..1" doc:"City"`
	// BT-38 / BT-53 / BT-67 / BT-78 Post code, 0..1.
	PostCode string `json:"post_code,omitempty" bt:"BT-38|BT-53|BT-67|BT-78" card:"0..1" doc:"Post code"`
	// BT-39 / BT-54 / BT-68 / BT-79 Country subdivision, 0..1.
	Subdivision string `json:"subdivision,omitempty" bt:"BT-39|BT-54|BT-68|BT-79" card:"0..1" doc:"Country subdivision"`
	// BT-40 / BT-55 / BT-69 / BT-80 Country code, 1..1 (ISO 3166-1 alpha-2).
	CountryCode string `json:"country_code" bt:"BT-40|BT-55|BT-69|BT-80" card:"1..1" doc:"Country code (ISO 3166-1 alpha-2)"`
}

// Contact is BG-6 Seller contact / BG-9 Buyer contact.
type Contact struct {
	// BT-41 / BT-56 Contact point, 0..1.
	Name string `json:"name,omitempty" bt:"BT-41|BT-56" card:"0..1" doc:"Contact point"`
	// BT-42 / BT-57 Contact telephone number, 0..1.
	Telephone string `json:"telephone,omitempty" bt:"BT-42|BT-57" card:"0..1" doc:"Contact telephone number"`
	// BT-43 / BT-58 Contact email address, 0..1.
	Email string `json:"email,omitempty" bt:"BT-43|BT-58" card:"0..1" doc:"Contact email address"`
	// The contact point is a department, not a person: CII gives BT-41 /
	// BT-56 as ram:DepartmentName instead of ram:PersonName. UBL has one
	// cbc:Name and cannot tell them apart (its writer refuses the flag).
	NameIsDepartment bool `json:"name_is_department,omitempty" card:"0..1" doc:"The contact point names a department (CII ram:DepartmentName; UBL cannot hold the distinction)"`
}

// Seller is BG-4 Seller.
type Seller struct {
	// BT-27 Seller name, 1..1.
	Name string `json:"name" bt:"BT-27" card:"1..1" doc:"Seller name"`
	// BT-28 Seller trading name, 0..1.
	TradingName string `json:"trading_name,omitempty" bt:"BT-28" card:"0..1" doc:"Seller trading name"`
	// BT-29 Seller identifier with BT-29-1 scheme identifier, 0..n.
	Identifiers []Identifier `json:"identifiers,omitempty" bt:"BT-29" card:"0..n" doc:"Seller identifiers (scheme_id: BT-29-1)"`
	// BT-30 Seller legal registration identifier with BT-30-1 scheme, 0..1.
	LegalRegistrationID *Identifier `json:"legal_registration_id,omitempty" bt:"BT-30" card:"0..1" doc:"Seller legal registration identifier (scheme_id: BT-30-1)"`
	// BT-31 Seller VAT identifier, 0..1.
	VATID string `json:"vat_id,omitempty" bt:"BT-31" card:"0..1" doc:"Seller VAT identifier"`
	// BT-32 Seller tax registration identifier, 0..1.
	TaxRegistrationID string `json:"tax_registration_id,omitempty" bt:"BT-32" card:"0..1" doc:"Seller tax registration identifier"`
	// The UBL tax scheme id of BT-32 when it is not FC (e.g. LOC): no
	// business term (EN 16931 UBL takes any scheme but VAT as BT-32), but
	// CII marks BT-32 by scheme FC and cannot hold another (its writer
	// refuses). Empty for FC, which both writers use.
	TaxRegistrationScheme string `json:"tax_registration_scheme,omitempty" card:"0..1" doc:"UBL tax scheme id of the seller tax registration identifier when not FC (e.g. LOC; not an EN 16931 term, CII cannot hold it)"`
	// BT-33 Seller additional legal information, 0..1.
	AdditionalLegalInfo string `json:"additional_legal_info,omitempty" bt:"BT-33" card:"0..1" doc:"Seller additional legal information"`
	// BT-34 Seller electronic address with BT-34-1 scheme, 0..1.
	ElectronicAddress *ElectronicAddress `json:"electronic_address,omitempty" bt:"BT-34" card:"0..1" doc:"Seller electronic address"`
	// BG-5 Seller postal address, 1..1.
	Address Address `json:"address" bt:"BG-5" card:"1..1" doc:"Seller postal address (BT-35..BT-40, BT-162)"`
	// BG-6 Seller contact, 0..1.
	Contact *Contact `json:"contact,omitempty" bt:"BG-6" card:"0..1" doc:"Seller contact (BT-41..BT-43)"`
}

// Buyer is BG-7 Buyer.
type Buyer struct {
	// BT-44 Buyer name, 1..1.
	Name string `json:"name" bt:"BT-44" card:"1..1" doc:"Buyer name"`
	// BT-45 Buyer trading name, 0..1.
	TradingName string `json:"trading_name,omitempty" bt:"BT-45" card:"0..1" doc:"Buyer trading name"`
	// BT-46 Buyer identifier with BT-46-1 scheme identifier, 0..1.
	Identifier *Identifier `json:"identifier,omitempty" bt:"BT-46" card:"0..1" doc:"Buyer identifier (scheme_id: BT-46-1)"`
	// BT-47 Buyer legal registration identifier with BT-47-1 scheme, 0..1.
	LegalRegistrationID *Identifier `json:"legal_registration_id,omitempty" bt:"BT-47" card:"0..1" doc:"Buyer legal registration identifier (scheme_id: BT-47-1)"`
	// BT-48 Buyer VAT identifier, 0..1.
	VATID string `json:"vat_id,omitempty" bt:"BT-48" card:"0..1" doc:"Buyer VAT identifier"`
	// BT-49 Buyer electronic address with BT-49-1 scheme, 0..1.
	ElectronicAddress *ElectronicAddress `json:"electronic_address,omitempty" bt:"BT-49" card:"0..1" doc:"Buyer electronic address"`
	// BG-8 Buyer postal address, 1..1.
	Address Address `json:"address" bt:"BG-8" card:"1..1" doc:"Buyer postal address (BT-50..BT-55, BT-163)"`
	// BG-9 Buyer contact, 0..1.
	Contact *Contact `json:"contact,omitempty" bt:"BG-9" card:"0..1" doc:"Buyer contact (BT-56..BT-58)"`
}

// Payee is BG-10 Payee.
type Payee struct {
	// BT-59 Payee name, 1..1.
	Name string `json:"name" bt:"BT-59" card:"1..1" doc:"Payee name"`
	// BT-60 Payee identifier with BT-60-1 scheme identifier, 0..1.
	Identifier *Identifier `json:"identifier,omitempty" bt:"BT-60" card:"0..1" doc:"Payee identifier (scheme_id: BT-60-1)"`
	// BT-61 Payee legal registration identifier with BT-61-1 scheme, 0..1.
	LegalRegistrationID *Identifier `json:"legal_registration_id,omitempty" bt:"BT-61" card:"0..1" doc:"Payee legal registration identifier (scheme_id: BT-61-1)"`
}

// TaxRepresentative is BG-11 Seller tax representative party.
type TaxRepresentative struct {
	// BT-62 Seller tax representative name, 1..1.
	Name string `json:"name" bt:"BT-62" card:"1..1" doc:"Seller tax representative name"`
	// BT-63 Seller tax representative VAT identifier, 1..1.
	VATID string `json:"vat_id" bt:"BT-63" card:"1..1" doc:"Seller tax representative VAT identifier"`
	// BG-12 Seller tax representative postal address, 1..1.
	Address Address `json:"address" bt:"BG-12" card:"1..1" doc:"Seller tax representative postal address (BT-64..BT-69, BT-164)"`
}

// Delivery is BG-13 Delivery information.
type Delivery struct {
	// BT-70 Deliver to party name, 0..1.
	PartyName string `json:"party_name,omitempty" bt:"BT-70" card:"0..1" doc:"Deliver to party name"`
	// BT-71 Deliver to location identifier with BT-71-1 scheme, 0..1.
	LocationID *Identifier `json:"location_id,omitempty" bt:"BT-71" card:"0..1" doc:"Deliver to location identifier (scheme_id: BT-71-1)"`
	// BT-72 Actual delivery date, 0..1.
	Date *Date `json:"date,omitempty" bt:"BT-72" card:"0..1" doc:"Actual delivery date"`
	// BG-15 Deliver to address, 0..1.
	Address *Address `json:"address,omitempty" bt:"BG-15" card:"0..1" doc:"Deliver to address (BT-75..BT-80, BT-165)"`
}

// Period is BG-14 Invoicing period or BG-26 Invoice line period.
type Period struct {
	// BT-73 / BT-134 Start date, 0..1.
	Start *Date `json:"start,omitempty" bt:"BT-73|BT-134" card:"0..1" doc:"Period start date"`
	// BT-74 / BT-135 End date, 0..1.
	End *Date `json:"end,omitempty" bt:"BT-74|BT-135" card:"0..1" doc:"Period end date"`
}

// PaymentInstructions is BG-16 Payment instructions.
type PaymentInstructions struct {
	// BT-81 Payment means type code, 1..1 (UNTDID 4461).
	MeansCode string `json:"means_code" bt:"BT-81" card:"1..1" doc:"Payment means type code (UNTDID 4461)"`
	// BT-82 Payment means text, 0..1.
	MeansText string `json:"means_text,omitempty" bt:"BT-82" card:"0..1" doc:"Payment means text"`
	// BT-83 Remittance information, 0..1.
	RemittanceInformation string `json:"remittance_information,omitempty" bt:"BT-83" card:"0..1" doc:"Remittance information"`
	// BG-17 Credit transfer, 0..n.
	CreditTransfers []CreditTransfer `json:"credit_transfers,omitempty" bt:"BG-17" card:"0..n" doc:"Credit transfers"`
	// BG-18 Payment card information, 0..1.
	Card *PaymentCard `json:"card,omitempty" bt:"BG-18" card:"0..1" doc:"Payment card information"`
	// BG-19 Direct debit, 0..1.
	DirectDebit *DirectDebit `json:"direct_debit,omitempty" bt:"BG-19" card:"0..1" doc:"Direct debit"`
}

// CreditTransfer is BG-17 Credit transfer.
type CreditTransfer struct {
	// BT-84 Payment account identifier (IBAN), 1..1.
	AccountID string `json:"account_id" bt:"BT-84" card:"1..1" doc:"Payment account identifier"`
	// BT-84 is a proprietary (national) account number, not an IBAN: CII
	// ram:ProprietaryID instead of ram:IBANID. UBL has one cbc:ID and cannot
	// tell them apart (its writer refuses the flag).
	ProprietaryAccountID bool `json:"proprietary_account_id,omitempty" card:"0..1" doc:"The payment account identifier is proprietary, not an IBAN (CII ram:ProprietaryID; UBL cannot hold the distinction)"`
	// BT-85 Payment account name, 0..1.
	AccountName string `json:"account_name,omitempty" bt:"BT-85" card:"0..1" doc:"Payment account name"`
	// BT-86 Payment service provider identifier (BIC), 0..1.
	ServiceProviderID string `json:"service_provider_id,omitempty" bt:"BT-86" card:"0..1" doc:"Payment service provider identifier"`
}

// PaymentCard is BG-18 Payment card information.
type PaymentCard struct {
	// BT-87 Payment card primary account number, 1..1 (at most the last 4-6 digits).
	PrimaryAccountNumber string `json:"primary_account_number" bt:"BT-87" card:"1..1" doc:"Payment card primary account number"`
	// BT-88 Payment card holder name, 0..1.
	HolderName string `json:"holder_name,omitempty" bt:"BT-88" card:"0..1" doc:"Payment card holder name"`
	// UBL cac:CardAccount/cbc:NetworkID (mandatory in UBL, no business
	// term) when it is not the writer's placeholder NA; CII cannot hold it
	// (its writer refuses).
	NetworkID string `json:"network_id,omitempty" card:"0..1" doc:"UBL card network id (e.g. VISA; not an EN 16931 term, CII cannot hold it)"`
}

// DirectDebit is BG-19 Direct debit.
type DirectDebit struct {
	// BT-89 Mandate reference identifier, 0..1.
	MandateReference string `json:"mandate_reference,omitempty" bt:"BT-89" card:"0..1" doc:"Mandate reference identifier"`
	// BT-90 Bank assigned creditor identifier, 0..1.
	CreditorID string `json:"creditor_id,omitempty" bt:"BT-90" card:"0..1" doc:"Bank assigned creditor identifier"`
	// BT-91 Debited account identifier, 0..1.
	DebitedAccountID string `json:"debited_account_id,omitempty" bt:"BT-91" card:"0..1" doc:"Debited account identifier"`
}

// AllowanceCharge is BG-20 Document level allowance (BT-92..BT-98) or BG-21
// Document level charge (BT-99..BT-105). Whether it is an allowance or a
// charge follows from the slice that holds it.
type AllowanceCharge struct {
	// BT-92 / BT-99 Amount, 1..1 (computed from base × percentage / 100 when absent).
	Amount *Decimal `json:"amount,omitempty" bt:"BT-92|BT-99" card:"1..1" calc:"1" alt:"base_amount+percentage" doc:"Amount (computed as base_amount × percentage / 100 when absent)"`
	// BT-93 / BT-100 Base amount, 0..1.
	BaseAmount *Decimal `json:"base_amount,omitempty" bt:"BT-93|BT-100" card:"0..1" doc:"Base amount"`
	// BT-94 / BT-101 Percentage, 0..1.
	Percentage *Decimal `json:"percentage,omitempty" bt:"BT-94|BT-101" card:"0..1" doc:"Percentage"`
	// BT-95 / BT-102 VAT category code, 1..1 (or its named form in Category).
	VATCategoryCode VATCategoryCode `json:"vat_category_code,omitempty" bt:"BT-95|BT-102" card:"1..1" alt:"category" doc:"VAT category code (give this or category)"`
	// Named form of the VAT category code (STANDARD, ZERO, ...).
	Category VATCategory `json:"category,omitempty" bt:"BT-95|BT-102" card:"0..1" doc:"Named VAT category (give this or vat_category_code)"`
	// BT-96 / BT-103 VAT rate, 0..1.
	VATRate *Decimal `json:"vat_rate,omitempty" bt:"BT-96|BT-103" card:"0..1" doc:"VAT rate (percent)"`
	// BT-97 / BT-104 Reason, 0..1.
	Reason string `json:"reason,omitempty" bt:"BT-97|BT-104" card:"0..1" doc:"Reason"`
	// BT-98 / BT-105 Reason code, 0..1 (UNTDID 5189 / 7161).
	ReasonCode string `json:"reason_code,omitempty" bt:"BT-98|BT-105" card:"0..1" doc:"Reason code (UNTDID 5189 for allowances, 7161 for charges)"`
}

// LineAllowanceCharge is BG-27 Invoice line allowance (BT-136..BT-140) or
// BG-28 Invoice line charge (BT-141..BT-145).
type LineAllowanceCharge struct {
	// BT-136 / BT-141 Amount, 1..1 (computed from base × percentage / 100 when absent).
	Amount *Decimal `json:"amount,omitempty" bt:"BT-136|BT-141" card:"1..1" calc:"1" alt:"base_amount+percentage" doc:"Amount (computed as base_amount × percentage / 100 when absent)"`
	// BT-137 / BT-142 Base amount, 0..1.
	BaseAmount *Decimal `json:"base_amount,omitempty" bt:"BT-137|BT-142" card:"0..1" doc:"Base amount"`
	// BT-138 / BT-143 Percentage, 0..1.
	Percentage *Decimal `json:"percentage,omitempty" bt:"BT-138|BT-143" card:"0..1" doc:"Percentage"`
	// BT-139 / BT-144 Reason, 0..1.
	Reason string `json:"reason,omitempty" bt:"BT-139|BT-144" card:"0..1" doc:"Reason"`
	// BT-140 / BT-145 Reason code, 0..1.
	ReasonCode string `json:"reason_code,omitempty" bt:"BT-140|BT-145" card:"0..1" doc:"Reason code (UNTDID 5189 for allowances, 7161 for charges)"`
}

// Totals is BG-22 Document totals.
type Totals struct {
	// BT-106 Sum of Invoice line net amount, 1..1.
	LineNetTotal *Decimal `json:"line_net_total,omitempty" bt:"BT-106" card:"1..1" calc:"1" doc:"Sum of invoice line net amounts"`
	// BT-107 Sum of allowances on document level, 0..1.
	AllowanceTotal *Decimal `json:"allowance_total,omitempty" bt:"BT-107" card:"0..1" calc:"1" doc:"Sum of allowances on document level"`
	// BT-108 Sum of charges on document level, 0..1.
	ChargeTotal *Decimal `json:"charge_total,omitempty" bt:"BT-108" card:"0..1" calc:"1" doc:"Sum of charges on document level"`
	// BT-109 Invoice total amount without VAT, 1..1.
	TaxExclusiveAmount *Decimal `json:"tax_exclusive_amount,omitempty" bt:"BT-109" card:"1..1" calc:"1" doc:"Invoice total amount without VAT"`
	// BT-110 Invoice total VAT amount, 0..1.
	TaxAmount *Decimal `json:"tax_amount,omitempty" bt:"BT-110" card:"0..1" calc:"1" doc:"Invoice total VAT amount"`
	// BT-111 Invoice total VAT amount in accounting currency (BT-6), 0..1.
	TaxAmountInTaxCurrency *Decimal `json:"tax_amount_in_tax_currency,omitempty" bt:"BT-111" card:"0..1" doc:"Invoice total VAT amount in accounting currency"`
	// BT-112 Invoice total amount with VAT, 1..1.
	TaxInclusiveAmount *Decimal `json:"tax_inclusive_amount,omitempty" bt:"BT-112" card:"1..1" calc:"1" doc:"Invoice total amount with VAT"`
	// BT-113 Paid amount, 0..1.
	PaidAmount *Decimal `json:"paid_amount,omitempty" bt:"BT-113" card:"0..1" doc:"Paid amount"`
	// BT-114 Rounding amount, 0..1.
	RoundingAmount *Decimal `json:"rounding_amount,omitempty" bt:"BT-114" card:"0..1" doc:"Rounding amount"`
	// BT-115 Amount due for payment, 1..1.
	PayableAmount *Decimal `json:"payable_amount,omitempty" bt:"BT-115" card:"1..1" calc:"1" doc:"Amount due for payment"`
}

// VATBreakdown is BG-23 VAT breakdown.
type VATBreakdown struct {
	// BT-116 VAT category taxable amount, 1..1.
	TaxableAmount *Decimal `json:"taxable_amount,omitempty" bt:"BT-116" card:"1..1" calc:"1" doc:"VAT category taxable amount"`
	// BT-117 VAT category tax amount, 1..1.
	TaxAmount *Decimal `json:"tax_amount,omitempty" bt:"BT-117" card:"1..1" calc:"1" doc:"VAT category tax amount"`
	// BT-118 VAT category code, 1..1 (or its named form in Category).
	VATCategoryCode VATCategoryCode `json:"vat_category_code,omitempty" bt:"BT-118" card:"1..1" alt:"category" doc:"VAT category code (give this or category)"`
	// Named form of BT-118.
	Category VATCategory `json:"category,omitempty" bt:"BT-118" card:"0..1" doc:"Named VAT category (give this or vat_category_code)"`
	// BT-119 VAT category rate, 0..1.
	VATRate *Decimal `json:"vat_rate,omitempty" bt:"BT-119" card:"0..1" doc:"VAT category rate (percent)"`
	// BT-120 VAT exemption reason text, 0..1.
	ExemptionReason string `json:"exemption_reason,omitempty" bt:"BT-120" card:"0..1" doc:"VAT exemption reason text"`
	// BT-121 VAT exemption reason code, 0..1 (VATEX).
	ExemptionReasonCode string `json:"exemption_reason_code,omitempty" bt:"BT-121" card:"0..1" doc:"VAT exemption reason code (VATEX)"`
}

// SupportingDocument is BG-24 Additional supporting documents.
type SupportingDocument struct {
	// BT-122 Supporting document reference, 1..1.
	ID string `json:"id" bt:"BT-122" card:"1..1" doc:"Supporting document reference"`
	// BT-123 Supporting document description, 0..1.
	Description string `json:"description,omitempty" bt:"BT-123" card:"0..1" doc:"Supporting document description"`
	// BT-124 External document location (URL), 0..1.
	ExternalLocation string `json:"external_location,omitempty" bt:"BT-124" card:"0..1" doc:"External document location"`
	// BT-125 Attached document with BT-125-1 MIME code and BT-125-2 file name, 0..1.
	Attachment *Attachment `json:"attachment,omitempty" bt:"BT-125" card:"0..1" doc:"Attached document"`
}

// Attachment is BT-125 Attached document (a binary object).
type Attachment struct {
	// BT-125 The content; base64 (RFC 4648 standard alphabet, padded) in JSON, 1..1.
	Content []byte `json:"content" bt:"BT-125" card:"1..1" doc:"Attached document content (base64)"`
	// BT-125-1 Attached document MIME code, 1..1.
	MimeCode string `json:"mime_code" bt:"BT-125-1" card:"1..1" doc:"Attached document MIME code"`
	// BT-125-2 Attached document file name, 1..1.
	Filename string `json:"filename" bt:"BT-125-2" card:"1..1" doc:"Attached document file name"`
}

// Line is BG-25 Invoice line. BG-29 Price details and BG-30 Line VAT
// information (each 1..1 with a few scalars) are flattened into the line;
// the interface fixes the names vat_rate and category there.
type Line struct {
	// BT-126 Invoice line identifier, 1..1.
	ID string `json:"id" bt:"BT-126" card:"1..1" doc:"Invoice line identifier"`
	// BT-127 Invoice line note, 0..1.
	Note string `json:"note,omitempty" bt:"BT-127" card:"0..1" doc:"Invoice line note"`
	// BT-128 Invoice line object identifier with BT-128-1 scheme, 0..1.
	ObjectID *Identifier `json:"object_id,omitempty" bt:"BT-128" card:"0..1" doc:"Invoice line object identifier (scheme_id: BT-128-1)"`
	// BT-129 Invoiced quantity, 1..1.
	Quantity Decimal `json:"quantity" bt:"BT-129" card:"1..1" doc:"Invoiced quantity"`
	// BT-130 Invoiced quantity unit of measure code, 1..1 (UN/ECE Rec 20/21).
	UnitCode string `json:"unit_code" bt:"BT-130" card:"1..1" doc:"Invoiced quantity unit of measure code (UN/ECE Rec 20/21)"`
	// BT-131 Invoice line net amount, 1..1 (computed when absent).
	NetAmount *Decimal `json:"net_amount,omitempty" bt:"BT-131" card:"1..1" calc:"1" doc:"Invoice line net amount (computed as quantity × net_price / base_quantity − allowances + charges when absent)"`
	// BT-132 Referenced purchase order line reference, 0..1.
	OrderLineReference string `json:"order_line_reference,omitempty" bt:"BT-132" card:"0..1" doc:"Referenced purchase order line reference"`
	// BT-133 Invoice line Buyer accounting reference, 0..1.
	BuyerAccountingReference string `json:"buyer_accounting_reference,omitempty" bt:"BT-133" card:"0..1" doc:"Invoice line buyer accounting reference"`
	// BG-26 Invoice line period, 0..1.
	Period *Period `json:"period,omitempty" bt:"BG-26" card:"0..1" doc:"Invoice line period (start: BT-134, end: BT-135)"`
	// BG-27 Invoice line allowances, 0..n.
	Allowances []LineAllowanceCharge `json:"allowances,omitempty" bt:"BG-27" card:"0..n" doc:"Invoice line allowances (BT-136..BT-140)"`
	// BG-28 Invoice line charges, 0..n.
	Charges []LineAllowanceCharge `json:"charges,omitempty" bt:"BG-28" card:"0..n" doc:"Invoice line charges (BT-141..BT-145)"`

	// BG-29 Price details, 1..1 (flattened):
	// BT-146 Item net price, 1..1 (derived from net_amount / quantity when
	// absent and the division is exact).
	NetPrice *Decimal `json:"net_price,omitempty" bt:"BT-146" card:"1..1" calc:"1" alt:"net_amount" doc:"Item net price (give net_price or net_amount)"`
	// BT-147 Item price discount, 0..1.
	PriceDiscount *Decimal `json:"price_discount,omitempty" bt:"BT-147" card:"0..1" doc:"Item price discount"`
	// BT-148 Item gross price, 0..1.
	GrossPrice *Decimal `json:"gross_price,omitempty" bt:"BT-148" card:"0..1" doc:"Item gross price"`
	// BT-149 Item price base quantity, 0..1 (1 when absent).
	BaseQuantity *Decimal `json:"base_quantity,omitempty" bt:"BT-149" card:"0..1" doc:"Item price base quantity"`
	// BT-150 Item price base quantity unit of measure code, 0..1.
	BaseQuantityUnitCode string `json:"base_quantity_unit_code,omitempty" bt:"BT-150" card:"0..1" doc:"Item price base quantity unit of measure code"`
	// The base quantity of the gross price when a CII document gives it
	// apart from BT-149 (ram:GrossPriceProductTradePrice/ram:BasisQuantity
	// differing from the net price's): no business term (EN 16931 has one
	// base quantity for BT-146..BT-148); UBL cannot hold it (its writer
	// refuses), and BT-147 is then not derived from BT-148 − BT-146.
	GrossBaseQuantity *Decimal `json:"gross_base_quantity,omitempty" card:"0..1" doc:"Base quantity of the gross price when it differs from base_quantity (CII only; not an EN 16931 term)"`
	// Unit code of GrossBaseQuantity.
	GrossBaseQuantityUnitCode string `json:"gross_base_quantity_unit_code,omitempty" card:"0..1" doc:"Unit code of gross_base_quantity (CII only; not an EN 16931 term)"`

	// BG-30 Line VAT information, 1..1 (flattened):
	// BT-151 Invoiced item VAT category code, 1..1 (or its named form in Category).
	VATCategoryCode VATCategoryCode `json:"vat_category_code,omitempty" bt:"BT-151" card:"1..1" alt:"category" doc:"Invoiced item VAT category code (give this or category)"`
	// Named form of BT-151 (STANDARD, ZERO, EXEMPT, INTRA_COMMUNITY, EXPORT,
	// REVERSE_CHARGE, OUT_OF_SCOPE).
	Category VATCategory `json:"category,omitempty" bt:"BT-151" card:"0..1" doc:"Named VAT category (give this or vat_category_code)"`
	// BT-152 Invoiced item VAT rate, 0..1.
	VATRate *Decimal `json:"vat_rate,omitempty" bt:"BT-152" card:"0..1" doc:"Invoiced item VAT rate (percent)"`

	// BG-31 Item information, 1..1.
	Item Item `json:"item" bt:"BG-31" card:"1..1" doc:"Item information"`

	// BG-DEX-01 Sub invoice lines, 0..n: the XRechnung extension's
	// breakdown of this line (UBL cac:SubInvoiceLine / cac:SubCreditNoteLine,
	// an invoice line type of its own, nested to any depth). A sub-line
	// has the terms of an invoice line under the extension's group ids
	// (BG-DEX-02 item, BG-DEX-03/04 allowances and charges, BG-DEX-05
	// period, BG-DEX-06 VAT, BG-DEX-07 price, BG-DEX-08 attributes). Sub-lines
	// are detail of their parent: they never enter the document totals
	// (BR-DEX-02 wants the parent's BT-131 to be the sum of its sub-lines'
	// BT-131, as a warning). CII cannot hold them (its writer refuses).
	SubLines []Line `json:"sub_lines,omitempty" bt:"BG-DEX-01" card:"0..n" doc:"Sub invoice lines (XRechnung extension; each has the terms of an invoice line and may have sub-lines of its own; informational detail of this line, not part of the document totals; UBL only)"`
}

// WalkLines calls fn for every line of lines and, right after each, its
// sub-lines (BG-DEX-01), depth first. loc is the line's JSON path below
// the invoice ("lines", 0, "sub_lines", 1); fn must not keep it.
func WalkLines(lines []Line, fn func(l *Line, loc []any)) {
	walkLines(lines, []any{"lines"}, fn)
}

func walkLines(lines []Line, loc []any, fn func(l *Line, loc []any)) {
	for i := range lines {
		at := append(loc, i)
		fn(&lines[i], at)
		if len(lines[i].SubLines) > 0 {
			walkLines(lines[i].SubLines, append(at, "sub_lines"), fn)
		}
	}
}

// HasSubLines reports whether any line of inv has sub-lines (BG-DEX-01).
func (inv *Invoice) HasSubLines() bool {
	for i := range inv.Lines {
		if len(inv.Lines[i].SubLines) > 0 {
			return true
		}
	}
	return false
}

// Item is BG-31 Item information.
type Item struct {
	// BT-153 Item name, 1..1.
	Name string `json:"name" bt:"BT-153" card:"1..1" doc:"Item name"`
	// BT-154 Item description, 0..1.
	Description string `json:"description,omitempty" bt:"BT-154" card:"0..1" doc:"Item description"`
	// BT-155 Item Seller's identifier, 0..1.
	SellerID string `json:"seller_id,omitempty" bt:"BT-155" card:"0..1" doc:"Item seller's identifier"`
	// BT-156 Item Buyer's identifier, 0..1.
	BuyerID string `json:"buyer_id,omitempty" bt:"BT-156" card:"0..1" doc:"Item buyer's identifier"`
	// BT-157 Item standard identifier with BT-157-1 scheme identifier (1..1), 0..1.
	StandardID *Identifier `json:"standard_id,omitempty" bt:"BT-157" card:"0..1" doc:"Item standard identifier (scheme_id: BT-157-1, required by BR-64)"`
	// BT-158 Item classification identifier with BT-158-1 scheme and BT-158-2 version, 0..n.
	Classifications []Classification `json:"classifications,omitempty" bt:"BT-158" card:"0..n" doc:"Item classification identifiers"`
	// BT-159 Item country of origin, 0..1.
	OriginCountryCode string `json:"origin_country_code,omitempty" bt:"BT-159" card:"0..1" doc:"Item country of origin (ISO 3166-1 alpha-2)"`
	// BG-32 Item attributes, 0..n.
	Attributes []ItemAttribute `json:"attributes,omitempty" bt:"BG-32" card:"0..n" doc:"Item attributes"`
}

// Classification is BT-158 Item classification identifier.
type Classification struct {
	// BT-158 Item classification identifier, 1..1.
	ID string `json:"id" bt:"BT-158" card:"1..1" doc:"Item classification identifier"`
	// BT-158-1 Scheme identifier, 1..1 (UNTDID 7143).
	SchemeID string `json:"scheme_id" bt:"BT-158-1" card:"1..1" doc:"Item classification scheme identifier (UNTDID 7143)"`
	// BT-158-2 Scheme version identifier, 0..1.
	SchemeVersion string `json:"scheme_version,omitempty" bt:"BT-158-2" card:"0..1" doc:"Item classification scheme version identifier"`
}

// ItemAttribute is BG-32 Item attributes.
type ItemAttribute struct {
	// BT-160 Item attribute name, 1..1.
	Name string `json:"name" bt:"BT-160" card:"1..1" doc:"Item attribute name"`
	// BT-161 Item attribute value, 1..1.
	Value string `json:"value" bt:"BT-161" card:"1..1" doc:"Item attribute value"`
}

// CategoryCode returns the line's VAT category code: VATCategoryCode, or the
// code of the named Category when only that is set.
func (l *Line) CategoryCode() VATCategoryCode {
	if l.VATCategoryCode != "" {
		return l.VATCategoryCode
	}
	return l.Category.Code()
}

// CategoryCode returns the VAT category code (from the named form if needed).
func (a *AllowanceCharge) CategoryCode() VATCategoryCode {
	if a.VATCategoryCode != "" {
		return a.VATCategoryCode
	}
	return a.Category.Code()
}

// CategoryCode returns the VAT category code (from the named form if needed).
func (v *VATBreakdown) CategoryCode() VATCategoryCode {
	if v.VATCategoryCode != "" {
		return v.VATCategoryCode
	}
	return v.Category.Code()
}
