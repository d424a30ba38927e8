package cii

import (
	"time"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// fullInvoice returns a hand-made model in which every field CII can carry
// is set (two lines; the second uses the other alternatives). Its amounts
// add up, so the written document passes the EN 16931 rules
// (conformance/formats_cii_test.go checks the golden file).
func fullInvoice() *model.Invoice {
	d := model.MustParseDecimal
	dp := func(s string) *model.Decimal { return model.Dec(d(s)) }
	dt := func(y int, m time.Month, day int) *model.Date { return model.Dt(model.NewDate(y, m, day)) }
	return &model.Invoice{
		ID:                       "INV-2024-0001",
		IssueDate:                model.NewDate(2024, 3, 15),
		TypeCode:                 model.TypeCommercialInvoice,
		CurrencyCode:             "EUR",
		TaxCurrencyCode:          "SEK",
		TaxPointDateCode:         "",
		TaxPointDate:             dt(2024, 3, 14),
		DueDate:                  dt(2024, 4, 14),
		BuyerReference:           "BUYER-REF-7",
		ProjectReference:         "PROJ-42",
		ContractReference:        "CONTRACT-9",
		PurchaseOrderReference:   "PO-1234",
		SalesOrderReference:      "SO-5678",
		ReceivingAdviceReference: "RA-1",
		DespatchAdviceReference:  "DA-1",
		TenderOrLotReference:     "LOT-3",
		InvoicedObjectID:         &model.Identifier{ID: "METER-88", SchemeID: "AAV"},
		BuyerAccountingReference: "4711-000",
		PaymentTerms:             "30 days net, 2% within 10 days",
		Notes: []model.Note{
			{SubjectCode: "AAI", Text: "General note & <markup> \"quoted\""},
			{Text: "Second note without subject"},
		},
		ProcessControl:    &model.ProcessControl{BusinessProcess: "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0", SpecificationID: "urn:cen.eu:en16931:2017"},
		PrecedingInvoices: []model.PrecedingInvoice{{ID: "INV-2023-0999", IssueDate: dt(2023, 12, 1)}},
		Seller: model.Seller{
			Name:                "Seller GmbH",
			TradingName:         "Seller Trading",
			Identifiers:         []model.Identifier{{ID: "SUPPLIER-123"}, {ID: "4000001123452", SchemeID: "0088"}},
			LegalRegistrationID: &model.Identifier{ID: "HRB 12345", SchemeID: "0002"},
			VATID:               "DE123456789",
			TaxRegistrationID:   "201/113/40209",
			AdditionalLegalInfo: "Registered at Amtsgericht Berlin",
			ElectronicAddress:   &model.ElectronicAddress{ID: "seller@example.com", SchemeID: "EM"},
			Address: model.Address{Line1: "Main Street 1", Line2: "Building B", Line3: "Floor 3", City: "Berlin",
				PostCode: "10115", Subdivision: "Berlin", CountryCode: "DE"},
			Contact: &model.Contact{Name: "Jane Seller", Telephone: "+49 30 123456", Email: "jane@seller.example"},
		},
		Buyer: model.Buyer{
			Name:                "Buyer AB",
			TradingName:         "Buyer Trading",
			Identifier:          &model.Identifier{ID: "7300010000001", SchemeID: "0088"},
			LegalRegistrationID: &model.Identifier{ID: "5560000001", SchemeID: "0007"},
			VATID:               "SE556000000101",
			ElectronicAddress:   &model.ElectronicAddress{ID: "7300010000001", SchemeID: "0088"},
			Address: model.Address{Line1: "Storgatan 2", Line2: "Box 12", Line3: "c/o Finance", City: "Stockholm",
				PostCode: "111 22", Subdivision: "Stockholm", CountryCode: "SE"},
			Contact: &model.Contact{Name: "Bo Buyer", Telephone: "+46 8 123456", Email: "bo@buyer.example"},
		},
		Payee: &model.Payee{Name: "Factoring Ltd", Identifier: &model.Identifier{ID: "PAYEE-1"},
			LegalRegistrationID: &model.Identifier{ID: "FC-99", SchemeID: "0002"}},
		TaxRepresentative: &model.TaxRepresentative{Name: "Tax Rep BV", VATID: "NL123456789B01",
			Address: model.Address{Line1: "Keizersgracht 1", Line2: "Suite 2", Line3: "Attic", City: "Amsterdam",
				PostCode: "1015 CJ", Subdivision: "Noord-Holland", CountryCode: "NL"}},
		Delivery: &model.Delivery{PartyName: "Warehouse 7", LocationID: &model.Identifier{ID: "7300010000099", SchemeID: "0088"},
			Date: dt(2024, 3, 10),
			Address: &model.Address{Line1: "Dock 4", Line2: "Gate 2", Line3: "Bay 9", City: "Gothenburg",
				PostCode: "411 01", Subdivision: "Vastra Gotaland", CountryCode: "SE"}},
		InvoicingPeriod: &model.Period{Start: dt(2024, 2, 1), End: dt(2024, 2, 29)},
		PaymentInstructions: &model.PaymentInstructions{
			MeansCode: "58", MeansText: "SEPA credit transfer", RemittanceInformation: "INV-2024-0001",
			CreditTransfers: []model.CreditTransfer{
				{AccountID: "DE89370400440532013000", AccountName: "Seller GmbH", ServiceProviderID: "COBADEFFXXX"},
				{AccountID: "DE02120300000000202051", AccountName: "Seller GmbH second"},
			},
			Card:        &model.PaymentCard{PrimaryAccountNumber: "1234", HolderName: "J SELLER"},
			DirectDebit: &model.DirectDebit{MandateReference: "MANDATE-1", CreditorID: "DE98ZZZ09999999999", DebitedAccountID: "SE4550000000058398257466"},
		},
		Allowances: []model.AllowanceCharge{{Amount: dp("10.00"), BaseAmount: dp("100.00"), Percentage: dp("10"),
			VATCategoryCode: "S", Category: model.CategoryStandard, VATRate: dp("19"), Reason: "Discount", ReasonCode: "95"}},
		Charges: []model.AllowanceCharge{{Amount: dp("5.00"), BaseAmount: dp("100.00"), Percentage: dp("5"), VATCategoryCode: "S", Category: model.CategoryStandard,
			VATRate: dp("19"), Reason: "Freight", ReasonCode: "FC"}},
		Totals: &model.Totals{LineNetTotal: dp("200.00"), AllowanceTotal: dp("10.00"), ChargeTotal: dp("5.00"),
			TaxExclusiveAmount: dp("195.00"), TaxAmount: dp("46.55"), TaxAmountInTaxCurrency: dp("640.00"),
			TaxInclusiveAmount: dp("241.55"), PaidAmount: dp("50.00"), RoundingAmount: dp("-0.05"), PayableAmount: dp("191.50")},
		VATBreakdown: []model.VATBreakdown{
			{TaxableAmount: dp("245.00"), TaxAmount: dp("46.55"), VATCategoryCode: "S", Category: model.CategoryStandard, VATRate: dp("19")},
			{TaxableAmount: dp("-50.00"), TaxAmount: dp("0.00"), VATCategoryCode: "E", Category: model.CategoryExempt, VATRate: dp("0"),
				ExemptionReason: "Exempt under Article 132", ExemptionReasonCode: "VATEX-EU-132"},
		},
		SupportingDocuments: []model.SupportingDocument{
			{ID: "TIMESHEET-1", Description: "Timesheet", ExternalLocation: "https://example.com/ts.csv",
				Attachment: &model.Attachment{Content: []byte("date,hours\n2024-02-01,8\n"), MimeCode: "text/csv", Filename: "ts.csv"}},
			{ID: "DELIVERY-NOTE-1"},
		},
		Lines: []model.Line{
			{
				ID: "1", Note: "Line note", ObjectID: &model.Identifier{ID: "OBJ-1", SchemeID: "ABZ"},
				Quantity: d("2.5"), UnitCode: "HUR", NetAmount: dp("250.00"), OrderLineReference: "PO-LINE-1",
				BuyerAccountingReference: "ACC-LINE-1", Period: &model.Period{Start: dt(2024, 2, 1), End: dt(2024, 2, 15)},
				Allowances: []model.LineAllowanceCharge{{Amount: dp("5.00"), BaseAmount: dp("50.00"), Percentage: dp("10"), Reason: "Line discount", ReasonCode: "95"}},
				Charges:    []model.LineAllowanceCharge{{Amount: dp("5.00"), BaseAmount: dp("50.00"), Percentage: dp("10"), Reason: "Packing", ReasonCode: "ABL"}},
				NetPrice:   dp("100.00"), PriceDiscount: dp("10.00"), GrossPrice: dp("110.00"), BaseQuantity: dp("1"), BaseQuantityUnitCode: "HUR",
				VATCategoryCode: "S", Category: model.CategoryStandard, VATRate: dp("19"),
				Item: model.Item{Name: "Consulting", Description: "Senior consulting hours", SellerID: "CONS-1", BuyerID: "B-CONS",
					StandardID:        &model.Identifier{ID: "4000001000005", SchemeID: "0160"},
					Classifications:   []model.Classification{{ID: "72221000", SchemeID: "STI", SchemeVersion: "2008"}, {ID: "86101", SchemeID: "TST"}},
					OriginCountryCode: "DE",
					Attributes:        []model.ItemAttribute{{Name: "Level", Value: "Senior"}, {Name: "Language", Value: "German"}}},
			},
			{
				ID: "2", Quantity: d("-1"), UnitCode: "C62", NetAmount: dp("-50.00"), NetPrice: dp("50.00"),
				VATCategoryCode: "E", Category: model.CategoryExempt, VATRate: dp("0"),
				Item: model.Item{Name: "Training (credit)", StandardID: &model.Identifier{ID: "X1", SchemeID: "0088"}},
			},
		},
	}
}
