package wire

// Order is the JSON body of generate/orderx: an Order-X purchase order
// (formats/orderx, docs/ORDERX.md). It has no VAT breakdown and no payment
// terms. Unknown members are refused (extra_forbidden). Its JSON Schema
// (GET /v1/schema/order and the OpenAPI component) is generated from these
// types; a test keeps the member names equal to the decoder's
// (orderx.Members).
type Order struct {
	ID                 string      `json:"id" required:"true" doc:"ExchangedDocument/ID: the order number."`
	IssueDate          string      `json:"issue_date" required:"true" format:"date" doc:"ExchangedDocument/IssueDateTime, YYYY-MM-DD."`
	Currency           string      `json:"currency" required:"true" doc:"OrderCurrencyCode: ISO 4217 code, 3 capital letters."`
	Name               string      `json:"name,omitempty" doc:"ExchangedDocument/Name."`
	BuyerReference     string      `json:"buyer_reference,omitempty" doc:"BuyerReference."`
	Notes              []string    `json:"notes,omitempty" doc:"ExchangedDocument/IncludedNote/Content, one note per item."`
	Seller             OrderParty  `json:"seller" required:"true" doc:"SellerTradeParty."`
	Buyer              OrderParty  `json:"buyer" required:"true" doc:"BuyerTradeParty (address required)."`
	QuotationReference string      `json:"quotation_reference,omitempty" doc:"QuotationReferencedDocument/IssuerAssignedID."`
	ContractReference  string      `json:"contract_reference,omitempty" doc:"ContractReferencedDocument/IssuerAssignedID."`
	DeliveryDate       string      `json:"delivery_date,omitempty" format:"date" doc:"RequestedDeliverySupplyChainEvent/OccurrenceDateTime, YYYY-MM-DD."`
	Lines              []OrderLine `json:"lines" required:"true" doc:"IncludedSupplyChainTradeLineItem, at least one; line ids are distinct."`
}

// OrderParty is the seller or the buyer of an order.
type OrderParty struct {
	Name                string           `json:"name" required:"true" doc:"Name."`
	ID                  string           `json:"id,omitempty" doc:"ID: the party's identifier assigned by its trading partner."`
	GlobalID            *OrderIdentifier `json:"global_id,omitempty" doc:"GlobalID with its scheme (ISO 6523 ICD, required)."`
	LegalRegistrationID *OrderIdentifier `json:"legal_registration_id,omitempty" doc:"SpecifiedLegalOrganization/ID."`
	TradingName         string           `json:"trading_name,omitempty" doc:"SpecifiedLegalOrganization/TradingBusinessName."`
	Contact             *OrderContact    `json:"contact,omitempty" doc:"DefinedTradeContact."`
	Address             *OrderAddress    `json:"address,omitempty" doc:"PostalTradeAddress; required for the buyer."`
	ElectronicEmail     string           `json:"electronic_email,omitempty" doc:"URIUniversalCommunication/URIID with schemeID EM."`
	VATID               string           `json:"vat_id,omitempty" doc:"SpecifiedTaxRegistration/ID with schemeID VA."`
}

// OrderIdentifier is an identifier with its scheme.
type OrderIdentifier struct {
	ID       string `json:"id" required:"true" doc:"The identifier."`
	SchemeID string `json:"scheme_id,omitempty" doc:"Its scheme (ISO 6523 ICD, e.g. 0088 for a GLN); required for global_id and item.standard_id."`
}

// OrderContact is a party's contact.
type OrderContact struct {
	Name       string `json:"name,omitempty" doc:"PersonName."`
	Department string `json:"department,omitempty" doc:"DepartmentName."`
	Telephone  string `json:"telephone,omitempty" doc:"TelephoneUniversalCommunication/CompleteNumber."`
	Email      string `json:"email,omitempty" doc:"EmailURIUniversalCommunication/URIID."`
}

// OrderAddress is a postal address.
type OrderAddress struct {
	Line1       string `json:"line1,omitempty" doc:"LineOne."`
	Line2       string `json:"line2,omitempty" doc:"LineTwo."`
	Line3       string `json:"line3,omitempty" doc:"LineThree."`
	City        string `json:"city,omitempty" doc:"CityName."`
	PostCode    string `json:"post_code,omitempty" doc:"PostcodeCode."`
	Subdivision string `json:"subdivision,omitempty" doc:"CountrySubDivisionName."`
	CountryCode string `json:"country_code" required:"true" doc:"CountryID: ISO 3166-1 alpha-2."`
}

// OrderLine is one ordered item.
type OrderLine struct {
	ID                     string    `json:"id" required:"true" doc:"AssociatedDocumentLineDocument/LineID."`
	Note                   string    `json:"note,omitempty" doc:"AssociatedDocumentLineDocument/IncludedNote/Content."`
	Item                   OrderItem `json:"item" required:"true" doc:"SpecifiedTradeProduct."`
	Quantity               any       `json:"quantity" required:"true" doc:"RequestedQuantity: a decimal (JSON string or number) greater than 0."`
	UnitCode               string    `json:"unit_code" required:"true" doc:"The quantity's unitCode (UN/ECE Recommendation 20/21, e.g. C62, H87, KGM)."`
	NetPrice               any       `json:"net_price" required:"true" doc:"NetPriceProductTradePrice/ChargeAmount: a decimal >= 0."`
	BaseQuantity           any       `json:"base_quantity,omitempty" doc:"NetPriceProductTradePrice/BasisQuantity: the quantity the price is for (decimal > 0, default 1)."`
	PartialDeliveryAllowed *bool     `json:"partial_delivery_allowed,omitempty" doc:"PartialDeliveryAllowedIndicator."`
}

// OrderItem is the ordered product.
type OrderItem struct {
	Name       string           `json:"name" required:"true" doc:"Name."`
	SellerID   string           `json:"seller_id,omitempty" doc:"SellerAssignedID."`
	BuyerID    string           `json:"buyer_id,omitempty" doc:"BuyerAssignedID."`
	StandardID *OrderIdentifier `json:"standard_id,omitempty" doc:"GlobalID with its scheme (required), e.g. a GTIN with 0160."`
}

// FacturaeGenerateRequest is the JSON body of generate/facturae: the
// canonical invoice model and the optional Spanish extras
// (formats/facturae, docs/FACTURAE.md). A test keeps the extras' members
// equal to the decoder's.
type FacturaeGenerateRequest struct {
	Invoice Object          `json:"invoice" required:"true" doc:"The canonical EN 16931 invoice model (GET /v1/schema/invoice). A given field Facturae cannot carry is a 422 naming it (docs/FACTURAE.md)."`
	Extras  *FacturaeExtras `json:"extras,omitempty" doc:"Spanish data the model has no term for. Unknown members are refused."`
}

// FacturaeExtras are the Facturae extras.
type FacturaeExtras struct {
	IRPFRate   any                 `json:"irpf_rate,omitempty" doc:"IRPF withholding percentage (decimal, 0-100, at most 2 decimals): TaxesWithheld TaxTypeCode 04 on the lines subject to it (irpf_lines) and the invoice; the amounts are computed and subtracted from InvoiceTotal."`
	IRPFLines  []string            `json:"irpf_lines,omitempty" doc:"Ids of the lines subject to the IRPF (default: every line); the withholding base is the sum of their GrossAmount."`
	Corrective *FacturaeCorrective `json:"corrective,omitempty" doc:"Required for a credit note (type_code 381, InvoiceClass OR)."`
	Language   string              `json:"language,omitempty" enum:"ar,be,bg,ca,cs,da,de,el,en,es,et,eu,fi,fr,ga,gl,hr,hu,is,it,lv,lt,mk,mt,nl,no,pl,pt,ro,ru,sk,sl,sq,sr,sv,tr,uk" doc:"LanguageName (default es)."`
	SeriesCode string              `json:"series_code,omitempty" doc:"InvoiceSeriesCode, at most 20 characters."`
}

// FacturaeCorrective is the Corrective group of a credit note.
type FacturaeCorrective struct {
	ReasonCode       string `json:"reason_code" required:"true" enum:"01,02,03,04,05,06,07,08,09,10,11,12,13,14,15,16,80,81,82,83,84,85" doc:"ReasonCode; ReasonDescription is written from it."`
	CorrectionMethod string `json:"correction_method" required:"true" enum:"01,02,03,04" doc:"CorrectionMethod: 01 full, 02 differences, 03 volume discount, 04 authorised by the Agencia Tributaria."`
}
