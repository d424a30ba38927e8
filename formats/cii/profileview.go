package cii

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// View is the part of the model a CII profile carries. Factur-X MINIMUM and
// BASIC WL are not EN 16931 invoices: their XSDs have no invoice line
// (BG-25), and MINIMUM keeps only the header identification, the parties'
// names and tax identifiers and four totals. Writing the whole model for
// them can never pass their XSD, so the writer writes the profile's view and
// reports every term it left out (Dropped).
type View int

const (
	// ViewFull writes every term CII D16B can carry (EN 16931 and above).
	ViewFull View = iota
	// ViewBasicWL is Factur-X BASIC WL: the header of EN 16931 without
	// lines and without the terms its XSD lacks.
	ViewBasicWL
	// ViewMinimum is Factur-X MINIMUM.
	ViewMinimum
)

// Dropped is one term of the model that has a value but is not written in
// a profile view.
type Dropped struct {
	// Pointer is the JSON Pointer of the value inside the invoice object
	// ("/lines/0/item/name").
	Pointer string `json:"pointer"`
	// Term is the business term or group the value is ("BT-153"); a value
	// that is part of a term (a scheme identifier, a flag) names that term.
	Term string `json:"bt"`
}

// String is "BT-153=/lines/0/item/name".
func (d Dropped) String() string { return d.Term + "=" + d.Pointer }

// ProfileView returns the invoice v carries: for ViewFull inv itself, else
// a copy with only the terms the profile's XSD and Schematron allow, and
// the list of every value of inv the copy does not have (in field order).
// inv is not modified. Terms the profile requires are kept as they are:
// when the model lacks one the profile's gate refuses the document; nothing
// is invented.
func ProfileView(inv *model.Invoice, v View) (*model.Invoice, []Dropped) {
	var out *model.Invoice
	switch v {
	case ViewBasicWL:
		out = basicWLView(inv)
	case ViewMinimum:
		out = minimumView(inv)
	default:
		return inv, nil
	}
	var dropped []Dropped
	diffDropped(reflect.ValueOf(inv).Elem(), reflect.ValueOf(out).Elem(), nil, "", -1, &dropped)
	return out, dropped
}

// basicWLView is the Factur-X 1.0 BASIC WL view (FACTUR-X_BASIC-WL.xsd):
// no BG-25, no contacts (BG-6, BG-9), no BT-7, BT-11, BT-14, BT-15, BT-17,
// BT-18, BT-33, BG-18, BT-82, BT-85, BT-86, BT-114, no BG-24.
func basicWLView(inv *model.Invoice) *model.Invoice {
	out := *inv
	out.Lines = nil
	out.Seller.AdditionalLegalInfo = ""
	out.Seller.Contact = nil
	out.Buyer.Contact = nil
	out.SalesOrderReference = ""
	out.ReceivingAdviceReference = ""
	out.TenderOrLotReference = ""
	out.InvoicedObjectID = nil
	out.SupportingDocuments = nil
	out.ProjectReference, out.ProjectName = "", ""
	out.TaxPointDate = nil
	if pi := inv.PaymentInstructions; pi != nil {
		p := *pi
		p.MeansText = ""
		p.Card = nil
		p.CreditTransfers = make([]model.CreditTransfer, len(pi.CreditTransfers))
		for i, ct := range pi.CreditTransfers {
			ct.AccountName, ct.ServiceProviderID = "", ""
			p.CreditTransfers[i] = ct
		}
		if len(pi.CreditTransfers) == 0 {
			p.CreditTransfers = pi.CreditTransfers
		}
		out.PaymentInstructions = &p
	}
	if t := inv.Totals; t != nil {
		tt := *t
		tt.RoundingAmount = nil
		out.Totals = &tt
	}
	return &out
}

// minimumView is the Factur-X 1.0 MINIMUM view (FACTUR-X_MINIMUM.xsd and
// its Schematron): BG-2, BT-1, BT-2, BT-3, BT-5, BT-10, BT-13, the seller's
// BT-27, BT-30, BT-31, BT-32 and country BT-40, the buyer's BT-44 and
// BT-47, and the totals BT-109, BT-110, BT-112, BT-115.
func minimumView(inv *model.Invoice) *model.Invoice {
	s, b := &inv.Seller, &inv.Buyer
	out := &model.Invoice{
		ID:                     inv.ID,
		IssueDate:              inv.IssueDate,
		TypeCode:               inv.TypeCode,
		CurrencyCode:           inv.CurrencyCode,
		BuyerReference:         inv.BuyerReference,
		PurchaseOrderReference: inv.PurchaseOrderReference,
		ProcessControl:         inv.ProcessControl,
		Seller: model.Seller{
			Name:                  s.Name,
			LegalRegistrationID:   s.LegalRegistrationID,
			VATID:                 s.VATID,
			TaxRegistrationID:     s.TaxRegistrationID,
			TaxRegistrationScheme: s.TaxRegistrationScheme, // refused by Write, as for every profile
			Address:               model.Address{CountryCode: s.Address.CountryCode},
		},
		Buyer: model.Buyer{Name: b.Name, LegalRegistrationID: b.LegalRegistrationID},
	}
	if t := inv.Totals; t != nil {
		out.Totals = &model.Totals{
			TaxExclusiveAmount: t.TaxExclusiveAmount,
			TaxAmount:          t.TaxAmount,
			TaxInclusiveAmount: t.TaxInclusiveAmount,
			PayableAmount:      t.PayableAmount,
		}
	}
	return out
}

// altIndex tells which alternative of a shared type's tag
// ("BT-35|BT-50|BT-64|BT-75") a value is, from the nearest enclosing
// member: the order of the alternatives in the model's tags.
var altIndex = map[string]int{
	"seller": 0, "buyer": 1, "tax_representative": 2, "delivery": 3,
	"allowances": 0, "charges": 1,
	"invoicing_period": 0, "period": 1,
}

var (
	typeDecimal = reflect.TypeFor[model.Decimal]()
	typeDate    = reflect.TypeFor[model.Date]()
)

// diffDropped appends to out every non-zero value of orig that view does
// not have, with its JSON Pointer (the reference tokens in path, joined
// only for a dropped value) and the nearest business term.
func diffDropped(orig, view reflect.Value, path []string, term string, alt int, out *[]Dropped) {
	switch orig.Kind() {
	case reflect.Pointer:
		if orig.IsNil() {
			return
		}
		if view.IsNil() {
			view = reflect.New(orig.Type().Elem())
		}
		diffDropped(orig.Elem(), view.Elem(), path, term, alt, out)
		return
	case reflect.Slice:
		if orig.Type().Elem().Kind() == reflect.Uint8 {
			break
		}
		for i := range orig.Len() {
			v := reflect.New(orig.Type().Elem()).Elem()
			if i < view.Len() {
				v = view.Index(i)
			}
			diffDropped(orig.Index(i), v, append(path, strconv.Itoa(i)), term, alt, out)
		}
		return
	case reflect.Struct:
		if orig.Type() == typeDecimal || orig.Type() == typeDate {
			break
		}
		t := orig.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" || !f.IsExported() {
				continue
			}
			a := alt
			if n, ok := altIndex[name]; ok {
				a = n
			}
			ft := term
			if bt := f.Tag.Get("bt"); bt != "" {
				ft = pickAlt(bt, a)
			}
			diffDropped(orig.Field(i), view.Field(i), append(path, name), ft, a, out)
		}
		return
	}
	if orig.IsZero() || !view.IsZero() && reflect.DeepEqual(orig.Interface(), view.Interface()) {
		return
	}
	*out = append(*out, Dropped{Pointer: "/" + strings.Join(path, "/"), Term: term})
}

// pickAlt returns alternative i of a "BT-35|BT-50" tag (the whole tag when
// i does not name one).
func pickAlt(tag string, i int) string {
	alts := strings.Split(tag, "|")
	if len(alts) == 1 || i < 0 || i >= len(alts) {
		return tag
	}
	return alts[i]
}

// ViewOf returns the view a generate profile name writes (ViewFull for
// every profile but facturx_minimum and facturx_basicwl).
func ViewOf(profile string) View {
	switch profile {
	case "facturx_minimum":
		return ViewMinimum
	case "facturx_basicwl":
		return ViewBasicWL
	}
	return ViewFull
}

// String names the view.
func (v View) String() string {
	switch v {
	case ViewFull:
		return "full"
	case ViewBasicWL:
		return "basicwl"
	case ViewMinimum:
		return "minimum"
	}
	return fmt.Sprintf("View(%d)", int(v))
}
