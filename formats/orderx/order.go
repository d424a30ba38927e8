package orderx

import "github.com/einvoice-dev/einvoice/formats/model"

// Order is the JSON input of generate/orderx. Every member is decoded
// strictly (DecodeOrder): unknown members are refused, required ones must
// be present. The tags name the JSON member, whether it is required and its
// Order-X element (the mapping table of docs/ORDERX.md); the API's wire type
// and JSON Schema (httpapi/wire.Order) are checked against them by a test.
type Order struct {
	ID             string     `json:"id" required:"true" xml:"ExchangedDocument/ID"`
	IssueDate      model.Date `json:"issue_date" required:"true" xml:"ExchangedDocument/IssueDateTime"`
	Currency       string     `json:"currency" required:"true" xml:"ApplicableHeaderTradeSettlement/OrderCurrencyCode"`
	Name           string     `json:"name,omitempty" xml:"ExchangedDocument/Name"`
	BuyerReference string     `json:"buyer_reference,omitempty" xml:"ApplicableHeaderTradeAgreement/BuyerReference"`
	Notes          []string   `json:"notes,omitempty" xml:"ExchangedDocument/IncludedNote/Content"`
	Seller         Party      `json:"seller" required:"true" xml:"SellerTradeParty"`
	Buyer          Party      `json:"buyer" required:"true" xml:"BuyerTradeParty"`
	// QuotationReference and ContractReference are the header
	// QuotationReferencedDocument and ContractReferencedDocument.
	QuotationReference string `json:"quotation_reference,omitempty" xml:"QuotationReferencedDocument/IssuerAssignedID"`
	ContractReference  string `json:"contract_reference,omitempty" xml:"ContractReferencedDocument/IssuerAssignedID"`
	// DeliveryDate is the requested delivery date.
	DeliveryDate *model.Date `json:"delivery_date,omitempty" xml:"ApplicableHeaderTradeDelivery/RequestedDeliverySupplyChainEvent/OccurrenceDateTime"`
	Lines        []Line      `json:"lines" required:"true" xml:"IncludedSupplyChainTradeLineItem"`
}

// Party is the seller or the buyer.
type Party struct {
	Name                string      `json:"name" required:"true" xml:"Name"`
	ID                  string      `json:"id,omitempty" xml:"ID"`
	GlobalID            *Identifier `json:"global_id,omitempty" xml:"GlobalID"`
	LegalRegistrationID *Identifier `json:"legal_registration_id,omitempty" xml:"SpecifiedLegalOrganization/ID"`
	TradingName         string      `json:"trading_name,omitempty" xml:"SpecifiedLegalOrganization/TradingBusinessName"`
	Contact             *Contact    `json:"contact,omitempty" xml:"DefinedTradeContact"`
	// Address is required for the buyer (Order-X BASIC); DecodeOrder says so.
	Address         *Address `json:"address,omitempty" xml:"PostalTradeAddress"`
	ElectronicEmail string   `json:"electronic_email,omitempty" xml:"URIUniversalCommunication/URIID[@schemeID='EM']"`
	VATID           string   `json:"vat_id,omitempty" xml:"SpecifiedTaxRegistration/ID[@schemeID='VA']"`
}

// Identifier is an identifier with an optional scheme (ISO 6523 ICD).
type Identifier struct {
	ID       string `json:"id" required:"true" xml:"."`
	SchemeID string `json:"scheme_id,omitempty" xml:"@schemeID"`
}

// Contact is a party's DefinedTradeContact.
type Contact struct {
	Name       string `json:"name,omitempty" xml:"PersonName"`
	Department string `json:"department,omitempty" xml:"DepartmentName"`
	Telephone  string `json:"telephone,omitempty" xml:"TelephoneUniversalCommunication/CompleteNumber"`
	Email      string `json:"email,omitempty" xml:"EmailURIUniversalCommunication/URIID"`
}

// Address is a PostalTradeAddress.
type Address struct {
	Line1       string `json:"line1,omitempty" xml:"LineOne"`
	Line2       string `json:"line2,omitempty" xml:"LineTwo"`
	Line3       string `json:"line3,omitempty" xml:"LineThree"`
	City        string `json:"city,omitempty" xml:"CityName"`
	PostCode    string `json:"post_code,omitempty" xml:"PostcodeCode"`
	Subdivision string `json:"subdivision,omitempty" xml:"CountrySubDivisionName"`
	CountryCode string `json:"country_code" required:"true" xml:"CountryID"`
}

// Line is one ordered item.
type Line struct {
	ID           string         `json:"id" required:"true" xml:"AssociatedDocumentLineDocument/LineID"`
	Note         string         `json:"note,omitempty" xml:"AssociatedDocumentLineDocument/IncludedNote/Content"`
	Item         Item           `json:"item" required:"true" xml:"SpecifiedTradeProduct"`
	Quantity     model.Decimal  `json:"quantity" required:"true" xml:"SpecifiedLineTradeDelivery/RequestedQuantity"`
	UnitCode     string         `json:"unit_code" required:"true" xml:"RequestedQuantity/@unitCode"`
	NetPrice     model.Decimal  `json:"net_price" required:"true" xml:"NetPriceProductTradePrice/ChargeAmount"`
	BaseQuantity *model.Decimal `json:"base_quantity,omitempty" xml:"NetPriceProductTradePrice/BasisQuantity"`
	// PartialDeliveryAllowed is PartialDeliveryAllowedIndicator.
	PartialDeliveryAllowed *bool `json:"partial_delivery_allowed,omitempty" xml:"SpecifiedLineTradeDelivery/PartialDeliveryAllowedIndicator"`
}

// Item is the ordered product.
type Item struct {
	Name       string      `json:"name" required:"true" xml:"Name"`
	SellerID   string      `json:"seller_id,omitempty" xml:"SellerAssignedID"`
	BuyerID    string      `json:"buyer_id,omitempty" xml:"BuyerAssignedID"`
	StandardID *Identifier `json:"standard_id,omitempty" xml:"GlobalID"`
}
