package orderx

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// Namespaces and identifiers of Order-X 1.0.
const (
	NamespaceRSM = "urn:un:unece:uncefact:data:SCRDMCCBDACIOMessageStructure:100"
	NamespaceRAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:128"
	NamespaceUDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:128"
	// GuidelineBasic is the BASIC profile's guideline identifier.
	GuidelineBasic = "urn:order-x.eu:1p0:basic"
	// TypeCodeOrder is the document type code of a purchase order (UNTDID 1001).
	TypeCodeOrder = "220"
)

// Result is a generated Order-X document and its computed totals.
type Result struct {
	XML []byte
	// LineTotals are the line net amounts (quantity × price / base
	// quantity, rounded to 2 decimals half away from zero), in line order;
	// LineTotal is their sum.
	LineTotals []model.Decimal
	LineTotal  model.Decimal
}

// Generate writes o as an Order-X 1.0 BASIC document. Problems (a
// model.Problems error) are located under locPrefix: a line total that
// cannot be computed. Any other error is internal (DecodeOrder already refused
// characters XML cannot carry).
func Generate(o *Order, locPrefix ...any) (*Result, error) {
	res := &Result{LineTotal: model.NewDecimal(0, 2)}
	var ps model.Problems
	for i := range o.Lines {
		l := &o.Lines[i]
		total := l.Quantity.Mul(l.NetPrice)
		if l.BaseQuantity != nil {
			var err error
			total, err = total.Div(*l.BaseQuantity, 10)
			if err != nil {
				ps = append(ps, model.Problem{Loc: append(append([]any{}, locPrefix...), "lines", i, "base_quantity"), Type: model.ProblemCalculation,
					Msg: "the line total quantity × net_price / base_quantity cannot be computed: " + err.Error()})
				continue
			}
		}
		total = total.Round(2).WithScale(2)
		res.LineTotals = append(res.LineTotals, total)
		res.LineTotal = res.LineTotal.Add(total)
	}
	if len(ps) > 0 {
		return nil, ps
	}
	doc, err := carry.WriteXML("orderx", func(w *xmlio.Writer) { write(w, o, res) })
	if err != nil {
		return nil, err
	}
	res.XML = doc
	return res, nil
}

func write(w *xmlio.Writer, o *Order, res *Result) {
	w.Root("rsm:SCRDMCCBDACIOMessageStructure", []xmlio.Namespace{
		{Prefix: "rsm", URI: NamespaceRSM}, {Prefix: "ram", URI: NamespaceRAM}, {Prefix: "udt", URI: NamespaceUDT}})
	w.Start("rsm:ExchangedDocumentContext")
	w.Start("ram:GuidelineSpecifiedDocumentContextParameter")
	w.Element("ram:ID", GuidelineBasic)
	w.End()
	w.End()

	w.Start("rsm:ExchangedDocument")
	w.Element("ram:ID", o.ID)
	opt(w, "ram:Name", o.Name)
	w.Element("ram:TypeCode", TypeCodeOrder)
	dateTime(w, "ram:IssueDateTime", o.IssueDate)
	for _, n := range o.Notes {
		note(w, n)
	}
	w.End()

	w.Start("rsm:SupplyChainTradeTransaction")
	for i := range o.Lines {
		line(w, &o.Lines[i], res.LineTotals[i])
	}
	w.Start("ram:ApplicableHeaderTradeAgreement")
	opt(w, "ram:BuyerReference", o.BuyerReference)
	party(w, "ram:SellerTradeParty", &o.Seller)
	party(w, "ram:BuyerTradeParty", &o.Buyer)
	docRef(w, "ram:QuotationReferencedDocument", o.QuotationReference)
	docRef(w, "ram:ContractReferencedDocument", o.ContractReference)
	w.End()
	w.Start("ram:ApplicableHeaderTradeDelivery")
	if o.DeliveryDate != nil {
		w.Start("ram:RequestedDeliverySupplyChainEvent")
		dateTime(w, "ram:OccurrenceDateTime", *o.DeliveryDate)
		w.End()
	}
	w.End()
	w.Start("ram:ApplicableHeaderTradeSettlement")
	w.Element("ram:OrderCurrencyCode", o.Currency)
	w.Start("ram:SpecifiedTradeSettlementHeaderMonetarySummation")
	w.Element("ram:LineTotalAmount", res.LineTotal.String())
	w.Element("ram:TaxBasisTotalAmount", res.LineTotal.String())
	w.End()
	w.End()
	w.End() // SupplyChainTradeTransaction
	w.End() // root
}

func opt(w *xmlio.Writer, name, text string, attrs ...xmlio.Attr) {
	if text != "" {
		w.Element(name, text, attrs...)
	}
}

func note(w *xmlio.Writer, text string) {
	w.Start("ram:IncludedNote")
	w.Element("ram:Content", text)
	w.End()
}

func dateTime(w *xmlio.Writer, name string, d model.Date) {
	w.Start(name)
	w.Element("udt:DateTimeString", d.Compact(), xmlio.Attr{Name: "format", Value: "102"})
	w.End()
}

func docRef(w *xmlio.Writer, name, id string) {
	if id == "" {
		return
	}
	w.Start(name)
	w.Element("ram:IssuerAssignedID", id)
	w.End()
}

func ident(w *xmlio.Writer, name string, id *Identifier) {
	if id == nil {
		return
	}
	if id.SchemeID != "" {
		w.Element(name, id.ID, xmlio.Attr{Name: "schemeID", Value: id.SchemeID})
		return
	}
	w.Element(name, id.ID)
}

func line(w *xmlio.Writer, l *Line, total model.Decimal) {
	w.Start("ram:IncludedSupplyChainTradeLineItem")
	w.Start("ram:AssociatedDocumentLineDocument")
	w.Element("ram:LineID", l.ID)
	if l.Note != "" {
		note(w, l.Note)
	}
	w.End()
	w.Start("ram:SpecifiedTradeProduct")
	ident(w, "ram:GlobalID", l.Item.StandardID)
	opt(w, "ram:SellerAssignedID", l.Item.SellerID)
	opt(w, "ram:BuyerAssignedID", l.Item.BuyerID)
	w.Element("ram:Name", l.Item.Name)
	w.End()
	w.Start("ram:SpecifiedLineTradeAgreement")
	w.Start("ram:NetPriceProductTradePrice")
	w.Element("ram:ChargeAmount", l.NetPrice.String())
	if l.BaseQuantity != nil {
		w.Element("ram:BasisQuantity", l.BaseQuantity.String(), xmlio.Attr{Name: "unitCode", Value: l.UnitCode})
	}
	w.End()
	w.End()
	w.Start("ram:SpecifiedLineTradeDelivery")
	if l.PartialDeliveryAllowed != nil {
		w.Start("ram:PartialDeliveryAllowedIndicator")
		w.Element("udt:Indicator", fmt.Sprint(*l.PartialDeliveryAllowed))
		w.End()
	}
	w.Element("ram:RequestedQuantity", l.Quantity.String(), xmlio.Attr{Name: "unitCode", Value: l.UnitCode})
	w.End()
	w.Start("ram:SpecifiedLineTradeSettlement")
	w.Start("ram:SpecifiedTradeSettlementLineMonetarySummation")
	w.Element("ram:LineTotalAmount", total.String())
	w.End()
	w.End()
	w.End()
}

func party(w *xmlio.Writer, name string, p *Party) {
	w.Start(name)
	opt(w, "ram:ID", p.ID)
	ident(w, "ram:GlobalID", p.GlobalID)
	w.Element("ram:Name", p.Name)
	if p.LegalRegistrationID != nil || p.TradingName != "" {
		w.Start("ram:SpecifiedLegalOrganization")
		ident(w, "ram:ID", p.LegalRegistrationID)
		opt(w, "ram:TradingBusinessName", p.TradingName)
		w.End()
	}
	if c := p.Contact; c != nil && *c != (Contact{}) {
		w.Start("ram:DefinedTradeContact")
		opt(w, "ram:PersonName", c.Name)
		opt(w, "ram:DepartmentName", c.Department)
		if c.Telephone != "" {
			w.Start("ram:TelephoneUniversalCommunication")
			w.Element("ram:CompleteNumber", c.Telephone)
			w.End()
		}
		if c.Email != "" {
			w.Start("ram:EmailURIUniversalCommunication")
			w.Element("ram:URIID", c.Email)
			w.End()
		}
		w.End()
	}
	if a := p.Address; a != nil {
		w.Start("ram:PostalTradeAddress")
		opt(w, "ram:PostcodeCode", a.PostCode)
		opt(w, "ram:LineOne", a.Line1)
		opt(w, "ram:LineTwo", a.Line2)
		opt(w, "ram:LineThree", a.Line3)
		opt(w, "ram:CityName", a.City)
		w.Element("ram:CountryID", a.CountryCode)
		opt(w, "ram:CountrySubDivisionName", a.Subdivision)
		w.End()
	}
	if p.ElectronicEmail != "" {
		w.Start("ram:URIUniversalCommunication")
		w.Element("ram:URIID", p.ElectronicEmail, xmlio.Attr{Name: "schemeID", Value: "EM"})
		w.End()
	}
	if p.VATID != "" {
		w.Start("ram:SpecifiedTaxRegistration")
		w.Element("ram:ID", p.VATID, xmlio.Attr{Name: "schemeID", Value: "VA"})
		w.End()
	}
	w.End()
}
