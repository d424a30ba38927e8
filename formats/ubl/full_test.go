package ubl

import (
	"github.com/einvoice-dev/einvoice/formats/model"
)

func dec(s string) *model.Decimal { return model.Dec(model.MustParseDecimal(s)) }

func day(s string) *model.Date {
	d, err := model.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return &d
}

// fullInvoice sets every field of the model (values need not be
// consistent: it tests the binding, not the rules).
func fullInvoice() *model.Invoice {
	addr := func(p string) model.Address {
		return model.Address{Line1: p + " street 1", Line2: p + " building", Line3: p + " floor 3", City: p + " city",
			PostCode: "1234", Subdivision: p + " region", CountryCode: "DE"}
	}
	return &model.Invoice{
		ID: "INV-1 & <co>", IssueDate: *day("2024-03-01"), TypeCode: "380", CurrencyCode: "EUR", TaxCurrencyCode: "SEK",
		TaxPointDate: day("2024-03-02"), TaxPointDateCode: "35", DueDate: day("2024-04-01"),
		BuyerReference: "BR", ProjectReference: "PRJ", ContractReference: "CON", PurchaseOrderReference: "PO",
		SalesOrderReference: "SO", ReceivingAdviceReference: "RA", DespatchAdviceReference: "DA", TenderOrLotReference: "LOT",
		InvoicedObjectID: &model.Identifier{ID: "OBJ", SchemeID: "AAB"}, BuyerAccountingReference: "ACC",
		PaymentTerms: "30 days",
		Notes:        []model.Note{{SubjectCode: "AAI", Text: "note one"}, {Text: "note two"}},
		ProcessControl: &model.ProcessControl{BusinessProcess: "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0",
			SpecificationID: "urn:cen.eu:en16931:2017"},
		PrecedingInvoices: []model.PrecedingInvoice{{ID: "P1", IssueDate: day("2024-01-01")}, {ID: "P2"}},
		Seller: model.Seller{Name: "Seller AG", TradingName: "Seller", VATID: "DE123456789", TaxRegistrationID: "201/113/40209",
			Identifiers:         []model.Identifier{{ID: "S1", SchemeID: "0088"}, {ID: "S2"}},
			LegalRegistrationID: &model.Identifier{ID: "HRB 1", SchemeID: "0002"}, AdditionalLegalInfo: "Capital 1 EUR",
			ElectronicAddress: &model.ElectronicAddress{ID: "s@example.com", SchemeID: "EM"}, Address: addr("seller"),
			Contact: &model.Contact{Name: "Ann", Telephone: "+49 1", Email: "ann@example.com"}},
		Buyer: model.Buyer{Name: "Buyer BV", TradingName: "Buyer", Identifier: &model.Identifier{ID: "B1", SchemeID: "0088"},
			LegalRegistrationID: &model.Identifier{ID: "KVK1", SchemeID: "0106"}, VATID: "NL123456789B01",
			ElectronicAddress: &model.ElectronicAddress{ID: "b@example.com", SchemeID: "EM"}, Address: addr("buyer"),
			Contact: &model.Contact{Name: "Bob", Telephone: "+31 2", Email: "bob@example.com"}},
		Payee: &model.Payee{Name: "Factor", Identifier: &model.Identifier{ID: "PY1", SchemeID: "0088"},
			LegalRegistrationID: &model.Identifier{ID: "PYL", SchemeID: "0002"}},
		TaxRepresentative: &model.TaxRepresentative{Name: "Rep", VATID: "DE999999999", Address: addr("rep")},
		Delivery: &model.Delivery{PartyName: "Warehouse", LocationID: &model.Identifier{ID: "LOC1", SchemeID: "0088"},
			Date: day("2024-02-28"), Address: &model.Address{City: "Dock", CountryCode: "NL"}},
		InvoicingPeriod: &model.Period{Start: day("2024-02-01"), End: day("2024-02-29")},
		PaymentInstructions: &model.PaymentInstructions{MeansCode: "58", MeansText: "SEPA credit transfer", RemittanceInformation: "REF 1",
			CreditTransfers: []model.CreditTransfer{{AccountID: "DE89370400440532013000", AccountName: "Seller", ServiceProviderID: "COBADEFFXXX"},
				{AccountID: "NL91ABNA0417164300"}},
			Card:        &model.PaymentCard{PrimaryAccountNumber: "1234", HolderName: "A Holder"},
			DirectDebit: &model.DirectDebit{MandateReference: "M1", CreditorID: "DE98ZZZ09999999999", DebitedAccountID: "DE02120300000000202051"}},
		Allowances: []model.AllowanceCharge{{Amount: dec("10.00"), BaseAmount: dec("100.00"), Percentage: dec("10"),
			VATCategoryCode: "S", VATRate: dec("19"), Reason: "Discount", ReasonCode: "95"}},
		Charges: []model.AllowanceCharge{{Amount: dec("5.00"), Category: model.VATCategory("STANDARD"), VATRate: dec("19.00"), Reason: "Freight", ReasonCode: "FC"}},
		Totals: &model.Totals{LineNetTotal: dec("100.00"), AllowanceTotal: dec("10.00"), ChargeTotal: dec("5.00"),
			TaxExclusiveAmount: dec("95.00"), TaxAmount: dec("18.05"), TaxAmountInTaxCurrency: dec("200.50"),
			TaxInclusiveAmount: dec("113.05"), PaidAmount: dec("3.05"), RoundingAmount: dec("0.00"), PayableAmount: dec("110.00")},
		VATBreakdown: []model.VATBreakdown{{TaxableAmount: dec("95.00"), TaxAmount: dec("18.05"), VATCategoryCode: "S", VATRate: dec("19")},
			{TaxableAmount: dec("0.00"), TaxAmount: dec("0.00"), VATCategoryCode: "E", VATRate: dec("0"), ExemptionReason: "Exempt", ExemptionReasonCode: "VATEX-EU-132"}},
		SupportingDocuments: []model.SupportingDocument{
			{ID: "D1", Description: "Timesheet", ExternalLocation: "https://example.com/t.csv",
				Attachment: &model.Attachment{Content: []byte("a,b\n1,2\n\x00\xff"), MimeCode: "text/csv", Filename: "t.csv"}},
			{ID: "D2"}},
		Lines: []model.Line{{
			ID: "1", Note: "line note", ObjectID: &model.Identifier{ID: "LOBJ", SchemeID: "AAB"},
			Quantity: model.MustParseDecimal("2.500"), UnitCode: "KGM", NetAmount: dec("100.00"),
			OrderLineReference: "3", BuyerAccountingReference: "LACC",
			Period:     &model.Period{Start: day("2024-02-01")},
			Allowances: []model.LineAllowanceCharge{{Amount: dec("1.00"), BaseAmount: dec("10.00"), Percentage: dec("10"), Reason: "r", ReasonCode: "95"}},
			Charges:    []model.LineAllowanceCharge{{Amount: dec("1.00"), Reason: "c", ReasonCode: "ABL"}},
			NetPrice:   dec("40.00"), PriceDiscount: dec("2.00"), GrossPrice: dec("42.00"), BaseQuantity: dec("1"), BaseQuantityUnitCode: "KGM",
			VATCategoryCode: "S", VATRate: dec("19"),
			Item: model.Item{Name: "Widget", Description: "A widget", SellerID: "SKU1", BuyerID: "B-SKU1",
				StandardID:        &model.Identifier{ID: "4000001000005", SchemeID: "0160"},
				Classifications:   []model.Classification{{ID: "12345", SchemeID: "STI", SchemeVersion: "1"}, {ID: "9", SchemeID: "MP"}},
				OriginCountryCode: "CN", Attributes: []model.ItemAttribute{{Name: "Colour", Value: "red"}, {Name: "Size", Value: "L"}}},
		}, {
			ID: "2", Quantity: model.MustParseDecimal("-1"), UnitCode: "C62", NetAmount: dec("-5.00"), NetPrice: dec("5.00"),
			Category: model.VATCategory("EXEMPT"), Item: model.Item{Name: "Return"},
		}},
	}
}
