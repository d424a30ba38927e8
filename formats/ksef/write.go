package ksef

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// Namespace is the FA(3) namespace.
const Namespace = "http://crd.gov.pl/wzor/2025/06/25/13775/"

// Options are the values of a generation that are not invoice data.
type Options struct {
	// Created is Naglowek/DataWytworzeniaFa (the generation time, UTC).
	Created time.Time
	// SystemInfo names the generating system (default "einvoice").
	SystemInfo string
}

// Result is a generated document and its totals.
type Result struct {
	XML []byte
	// P15 is the amount due (P_15, BT-112).
	P15 model.Decimal
	// Buckets are the P_13_x fields written, with their net amounts.
	Buckets map[string]model.Decimal
	// Computed lists the model values Complete derived (JSON Pointers).
	Computed []string
}

// bucket is one VAT rate field pair of Fa.
type bucket struct {
	net, tax string // P_13_x, P_14_x ("" when the bucket has no tax field)
	order    int
}

// rate is a P_12 value and its bucket.
type rate struct {
	p12 string
	b   bucket
}

var (
	b1  = bucket{"P_13_1", "P_14_1", 1}
	b2  = bucket{"P_13_2", "P_14_2", 2}
	b3  = bucket{"P_13_3", "P_14_3", 3}
	b4  = bucket{"P_13_4", "P_14_4", 4}
	b61 = bucket{"P_13_6_1", "", 6}
	b62 = bucket{"P_13_6_2", "", 7}
	b63 = bucket{"P_13_6_3", "", 8}
	b7  = bucket{"P_13_7", "", 9}
	b8  = bucket{"P_13_8", "", 10}
	b10 = bucket{"P_13_10", "", 12}
)

// rateOf maps a VAT category and rate to P_12 and its bucket: the
// standard rates 23/22 (P_13_1), the reduced 8/7 (P_13_2) and 5 (P_13_3),
// the taxi flat rates 4/3 (P_13_4); 0 KR for Z, 0 WDT for K (intra-EU
// supply), 0 EX for G (export), zw for E (exempt), np I for O (not subject
// in Poland), oo for AE (domestic reverse charge).
func rateOf(code model.VATCategoryCode, r model.Decimal) (rate, bool) {
	switch code {
	case model.VATStandard:
		switch {
		case r.Equal(model.DecimalFromInt(23)), r.Equal(model.DecimalFromInt(22)):
			return rate{r.Round(0).String(), b1}, true
		case r.Equal(model.DecimalFromInt(8)), r.Equal(model.DecimalFromInt(7)):
			return rate{r.Round(0).String(), b2}, true
		case r.Equal(model.DecimalFromInt(5)):
			return rate{"5", b3}, true
		case r.Equal(model.DecimalFromInt(4)), r.Equal(model.DecimalFromInt(3)):
			return rate{r.Round(0).String(), b4}, true
		}
	case model.VATZero:
		return rate{"0 KR", b61}, true
	case model.VATIntraCommunity:
		return rate{"0 WDT", b62}, true
	case model.VATExport:
		return rate{"0 EX", b63}, true
	case model.VATExempt:
		return rate{"zw", b7}, true
	case model.VATOutOfScope:
		return rate{"np I", b8}, true
	case model.VATReverseCharge:
		return rate{"oo", b10}, true
	}
	return rate{}, false
}

var (
	reNIP   = regexp.MustCompile(`^[1-9]((\d[1-9])|([1-9]\d))\d{7}$`)
	reVATUE = regexp.MustCompile(`^(\d|[A-Z]|\+|\*){1,12}$`)
	reSWIFT = regexp.MustCompile(`^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$`)
	euCodes = []string{"AT", "BE", "BG", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "EL", "HR", "HU", "IE", "IT", "LV", "LT",
		"LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "XI"}
)

// formaPlatnosci maps UNTDID 4461 to FormaPlatnosci: 1 cash, 2 card, 4
// cheque, 6 transfer; other codes are PlatnoscInna with a description.
var formaPlatnosci = map[string]string{"10": "1", "48": "2", "54": "2", "55": "2", "20": "4", "30": "6", "31": "6", "42": "6", "58": "6"}

type gen struct {
	carry.Problems
	inv *model.Invoice
}

func (g *gen) bad(loc []any, typ, msg string, input any)      { g.Bad(loc, typ, msg, input) }
func (g *gen) il(k ...any) []any                              { return g.IL(k...) }
func (g *gen) maxLen(loc []any, s string, n int, elem string) { g.MaxLen(loc, s, n, "FA(3) "+elem) }

// Generate writes inv (completed in place by model.Complete) as a KSeF
// FA(3) invoice (RodzajFaktury VAT). Problems (a model.Problems error, an
// HTTP 422) are located under locPrefix + "invoice": a field FA(3) cannot
// carry, a seller without a Polish NIP, a VAT rate FA(3) has no field for,
// a credit note (corrections, KOR, are not generated). Any other error is
// internal.
func Generate(inv *model.Invoice, opts Options, locPrefix ...any) (*Result, error) {
	g := &gen{Problems: carry.NewProblems(locPrefix...), inv: inv}
	computed, err := carry.Prepare(inv, carried, g.Inv, "KSeF FA(3) cannot carry this field (see docs/KSEF.md)")
	if err != nil {
		return nil, err
	}
	if opts.SystemInfo == "" {
		opts.SystemInfo = "einvoice"
	}
	g.header()
	nip := g.sellerNIP()
	g.party("seller", &inv.Seller.Address, inv.Seller.Contact, true)
	g.party("buyer", &inv.Buyer.Address, inv.Buyer.Contact, false)
	rates := g.lines()
	buckets, basis := g.buckets()
	g.payment()
	if len(g.List) > 0 {
		return nil, g.List
	}
	res := &Result{P15: carry.Round2(*inv.Totals.TaxInclusiveAmount), Computed: computed, Buckets: map[string]model.Decimal{}}
	for _, b := range buckets {
		res.Buckets[b.b.net] = b.net
	}
	doc, err := carry.WriteXML("ksef", func(w *xmlio.Writer) { g.write(w, opts, res, nip, rates, buckets, basis) })
	if err != nil {
		return nil, err
	}
	res.XML = doc
	return res, nil
}

func (g *gen) header() {
	inv := g.inv
	if inv.TypeCode != "380" {
		g.bad(g.il("type_code"), model.ProblemValueError,
			"this generator writes FA(3) invoices (RodzajFaktury VAT, type code 380); corrections (KOR) and the other kinds are not generated yet", string(inv.TypeCode))
	}
	g.maxLen(g.il("id"), inv.ID, 256, "P_2")
	if p := inv.InvoicingPeriod; p != nil && (p.Start == nil || p.End == nil) {
		g.bad(g.il("invoicing_period"), model.ProblemMissing, "FA(3) OkresFa needs both start and end", nil)
	}
	if inv.InvoicingPeriod != nil && inv.Delivery != nil && inv.Delivery.Date != nil {
		g.bad(g.il("delivery", "date"), model.ProblemValueError, "FA(3) has P_6 (delivery date) or OkresFa (period), not both", inv.Delivery.Date.String())
	}
	for i, n := range inv.Notes {
		g.maxLen(g.il("notes", i, "text"), n.Text, 256, "DodatkowyOpis/Wartosc")
	}
	g.maxLen(g.il("purchase_order_reference"), inv.PurchaseOrderReference, 256, "NrZamowienia")
	g.maxLen(g.il("contract_reference"), inv.ContractReference, 256, "NrUmowy")
}

// sellerNIP is the seller's NIP: a Polish VAT identifier without its PL
// prefix (KSeF invoices are issued by Polish taxpayers).
func (g *gen) sellerNIP() string {
	v := g.inv.Seller.VATID
	nip, ok := strings.CutPrefix(v, "PL")
	switch {
	case v == "":
		g.bad(g.il("seller", "vat_id"), model.ProblemMissing, "KSeF requires the seller's Polish NIP (vat_id PL + 10 digits)", nil)
	case !ok || !reNIP.MatchString(nip):
		g.bad(g.il("seller", "vat_id"), model.ProblemValueError, "KSeF requires the seller's Polish NIP: PL and 10 digits", v)
	}
	return nip
}

func (g *gen) party(who string, a *model.Address, c *model.Contact, required bool) {
	if a.Line1 == "" && (required || a.City != "" || a.PostCode != "") {
		g.bad(g.il(who, "address", "line1"), model.ProblemMissing, "FA(3) Adres/AdresL1 is required", nil)
	}
	g.maxLen(g.il(who, "address", "line1"), addressL1(a), 512, "AdresL1")
	if c != nil {
		g.maxLen(g.il(who, "contact", "telephone"), c.Telephone, 16, "Telefon")
		if c.Email != "" && (len(c.Email) < 3 || !strings.Contains(c.Email, "@")) {
			g.bad(g.il(who, "contact", "email"), model.ProblemValueError, "FA(3) Email is an address with @", c.Email)
		}
	}
}

func addressL1(a *model.Address) string {
	if a.Line2 != "" {
		return a.Line1 + ", " + a.Line2
	}
	return a.Line1
}

func addressL2(a *model.Address) string { return strings.TrimSpace(a.PostCode + " " + a.City) }

type lineRate struct {
	rate  rate
	price string // P_9A
}

func (g *gen) lines() []lineRate {
	out := make([]lineRate, len(g.inv.Lines))
	for i := range g.inv.Lines {
		l := &g.inv.Lines[i]
		r := model.DecimalFromInt(0)
		if l.VATRate != nil {
			r = *l.VATRate
		}
		var ok bool
		if out[i].rate, ok = rateOf(l.CategoryCode(), r); !ok {
			g.bad(g.il("lines", i, "vat_rate"), model.ProblemValueError,
				"FA(3) has no VAT rate field for this category and rate (S at 23, 22, 8, 7, 5, 4, 3; Z, E, AE, K, G, O)", string(l.CategoryCode())+" "+r.String())
		}
		out[i].price = g.UnitPrice(l, i, "FA(3) P_9A")
		if l.Quantity.Scale() > 6 {
			g.bad(g.il("lines", i, "quantity"), model.ProblemValueError, "FA(3) P_8B has at most 6 decimals", l.Quantity.String())
		}
		g.maxLen(g.il("lines", i, "id"), l.ID, 50, "UU_ID")
		g.maxLen(g.il("lines", i, "item", "name"), l.Item.Name, 512, "P_7")
		g.maxLen(g.il("lines", i, "item", "seller_id"), l.Item.SellerID, 50, "Indeks")
	}
	return out
}

type bucketSum struct {
	b        bucket
	net, tax model.Decimal
}

// buckets sums the model's VAT breakdown into the P_13_x / P_14_x fields
// and returns the exemption basis (P_19A) when a bucket is zw.
func (g *gen) buckets() ([]*bucketSum, string) {
	var out []*bucketSum
	basis := ""
	for i := range g.inv.VATBreakdown {
		v := &g.inv.VATBreakdown[i]
		r := model.DecimalFromInt(0)
		if v.VATRate != nil {
			r = *v.VATRate
		}
		rt, ok := rateOf(v.CategoryCode(), r)
		if !ok {
			continue // the lines' problem already names it
		}
		var s *bucketSum
		for _, x := range out {
			if x.b == rt.b {
				s = x
			}
		}
		if s == nil {
			s = &bucketSum{b: rt.b, net: model.NewDecimal(0, 2), tax: model.NewDecimal(0, 2)}
			out = append(out, s)
		}
		s.net = s.net.Add(carry.Round2(*v.TaxableAmount))
		s.tax = s.tax.Add(carry.Round2(*v.TaxAmount))
		if v.CategoryCode() == model.VATExempt {
			basis = v.ExemptionReason
			if basis == "" {
				basis = v.ExemptionReasonCode
			}
			if basis == "" {
				g.bad(g.il("vat_breakdown", i, "exemption_reason"), model.ProblemMissing,
					"an exempt (zw) sale needs its legal basis (P_19A): give the exemption reason", nil)
			}
			g.maxLen(g.il("vat_breakdown", i, "exemption_reason"), basis, 256, "P_19A")
		}
	}
	slices.SortFunc(out, func(a, b *bucketSum) int { return a.b.order - b.b.order })
	return out, basis
}

func (g *gen) payment() {
	pi := g.inv.PaymentInstructions
	if pi == nil {
		return
	}
	if len(pi.CreditTransfers) > 100 {
		g.bad(g.il("payment_instructions", "credit_transfers"), model.ProblemValueError, "FA(3) carries at most 100 bank accounts", nil)
	}
	for i, ct := range pi.CreditTransfers {
		if n := len(ct.AccountID); n < 10 || n > 34 {
			g.bad(g.il("payment_instructions", "credit_transfers", i, "account_id"), model.ProblemValueError, "FA(3) NrRB has 10 to 34 characters", ct.AccountID)
		}
		if ct.ServiceProviderID != "" && !reSWIFT.MatchString(ct.ServiceProviderID) {
			g.bad(g.il("payment_instructions", "credit_transfers", i, "service_provider_id"), model.ProblemValueError, "FA(3) SWIFT is a BIC (8 or 11 characters)", ct.ServiceProviderID)
		}
	}
	g.maxLen(g.il("payment_instructions", "means_text"), pi.MeansText, 256, "OpisPlatnosci")
}

// buyerID writes Podmiot2/DaneIdentyfikacyjne's identification: a Polish
// NIP, an EU VAT number (KodUE, NrVatUE), another tax number (KodKraju,
// NrID), or BrakID.
func buyerID(w *xmlio.Writer, b *model.Buyer) {
	v := b.VATID
	if nip, ok := strings.CutPrefix(v, "PL"); ok && reNIP.MatchString(nip) {
		w.Element("NIP", nip)
		return
	}
	if len(v) > 2 {
		prefix, rest := v[:2], v[2:]
		if prefix == "GR" {
			prefix = "EL"
		}
		if prefix != "PL" && slices.Contains(euCodes, prefix) && reVATUE.MatchString(rest) {
			w.Element("KodUE", prefix)
			w.Element("NrVatUE", rest)
			return
		}
	}
	id := v
	if id == "" && b.LegalRegistrationID != nil {
		id = b.LegalRegistrationID.ID
	}
	if id == "" {
		w.Element("BrakID", "1")
		return
	}
	if b.Address.CountryCode != "" {
		w.Element("KodKraju", string(b.Address.CountryCode))
	}
	w.Element("NrID", id)
}

func (g *gen) write(w *xmlio.Writer, opts Options, res *Result, nip string, rates []lineRate, buckets []*bucketSum, basis string) {
	inv := g.inv
	w.Root("Faktura", []xmlio.Namespace{{URI: Namespace}})
	w.Start("Naglowek")
	w.Element("KodFormularza", "FA", xmlio.Attr{Name: "kodSystemowy", Value: "FA (3)"}, xmlio.Attr{Name: "wersjaSchemy", Value: "1-0E"})
	w.Element("WariantFormularza", "3")
	w.Element("DataWytworzeniaFa", opts.Created.UTC().Format("2006-01-02T15:04:05Z"))
	w.Element("SystemInfo", opts.SystemInfo)
	w.End()

	s := &inv.Seller
	w.Start("Podmiot1")
	w.Start("DaneIdentyfikacyjne")
	w.Element("NIP", nip)
	w.Element("Nazwa", s.Name)
	w.End()
	address(w, &s.Address)
	contact(w, s.Contact)
	w.End()

	b := &inv.Buyer
	w.Start("Podmiot2")
	w.Start("DaneIdentyfikacyjne")
	buyerID(w, b)
	w.Element("Nazwa", b.Name)
	w.End()
	if b.Address.Line1 != "" {
		address(w, &b.Address)
	}
	contact(w, b.Contact)
	w.Element("JST", "2")
	w.Element("GV", "2")
	w.End()

	w.Start("Fa")
	w.Element("KodWaluty", string(inv.CurrencyCode))
	w.Element("P_1", inv.IssueDate.String())
	w.Element("P_2", inv.ID)
	switch {
	case inv.Delivery != nil && inv.Delivery.Date != nil:
		w.Element("P_6", inv.Delivery.Date.String())
	case inv.InvoicingPeriod != nil:
		w.Start("OkresFa")
		w.Element("P_6_Od", inv.InvoicingPeriod.Start.String())
		w.Element("P_6_Do", inv.InvoicingPeriod.End.String())
		w.End()
	}
	reverse := false
	for _, bs := range buckets {
		w.Element(bs.b.net, bs.net.String())
		if bs.b.tax != "" {
			w.Element(bs.b.tax, bs.tax.String())
		}
		reverse = reverse || bs.b == b10
	}
	w.Element("P_15", res.P15.String())
	w.Start("Adnotacje")
	w.Element("P_16", "2")
	w.Element("P_17", "2")
	w.Element("P_18", yesNo(reverse))
	w.Element("P_18A", "2")
	w.Start("Zwolnienie")
	if basis != "" {
		w.Element("P_19", "1")
		w.Element("P_19A", basis)
	} else {
		w.Element("P_19N", "1")
	}
	w.End()
	w.Start("NoweSrodkiTransportu")
	w.Element("P_22N", "1")
	w.End()
	w.Element("P_23", "2")
	w.Start("PMarzy")
	w.Element("P_PMarzyN", "1")
	w.End()
	w.End()
	w.Element("RodzajFaktury", "VAT")
	for _, n := range inv.Notes {
		w.Start("DodatkowyOpis")
		w.Element("Klucz", "Uwagi")
		w.Element("Wartosc", n.Text)
		w.End()
	}
	for i := range inv.Lines {
		l := &inv.Lines[i]
		w.Start("FaWiersz")
		w.Element("NrWierszaFa", strconv.Itoa(i+1))
		w.Element("UU_ID", l.ID)
		w.Element("P_7", l.Item.Name)
		if l.Item.SellerID != "" {
			w.Element("Indeks", l.Item.SellerID)
		}
		w.Element("P_8A", l.UnitCode)
		w.Element("P_8B", l.Quantity.String())
		w.Element("P_9A", rates[i].price)
		w.Element("P_11", carry.Round2(*l.NetAmount).String())
		w.Element("P_12", rates[i].rate.p12)
		w.End()
	}
	if pi := inv.PaymentInstructions; pi != nil || inv.DueDate != nil {
		w.Start("Platnosc")
		if inv.DueDate != nil {
			w.Start("TerminPlatnosci")
			w.Element("Termin", inv.DueDate.String())
			w.End()
		}
		if pi != nil {
			if f, ok := formaPlatnosci[pi.MeansCode]; ok {
				w.Element("FormaPlatnosci", f)
			} else {
				w.Element("PlatnoscInna", "1")
				desc := pi.MeansText
				if desc == "" {
					desc = "UNTDID 4461 " + pi.MeansCode
				}
				w.Element("OpisPlatnosci", desc)
			}
			for _, ct := range pi.CreditTransfers {
				w.Start("RachunekBankowy")
				w.Element("NrRB", ct.AccountID)
				if ct.ServiceProviderID != "" {
					w.Element("SWIFT", ct.ServiceProviderID)
				}
				w.End()
			}
		}
		w.End()
	}
	if inv.ContractReference != "" || inv.PurchaseOrderReference != "" {
		w.Start("WarunkiTransakcji")
		if inv.ContractReference != "" {
			w.Start("Umowy")
			w.Element("NrUmowy", inv.ContractReference)
			w.End()
		}
		if inv.PurchaseOrderReference != "" {
			w.Start("Zamowienia")
			w.Element("NrZamowienia", inv.PurchaseOrderReference)
			w.End()
		}
		w.End()
	}
	w.End() // Fa
	w.End() // Faktura
}

func yesNo(b bool) string {
	if b {
		return "1"
	}
	return "2"
}

func address(w *xmlio.Writer, a *model.Address) {
	w.Start("Adres")
	w.Element("KodKraju", string(a.CountryCode))
	w.Element("AdresL1", addressL1(a))
	if l2 := addressL2(a); l2 != "" {
		w.Element("AdresL2", l2)
	}
	w.End()
}

func contact(w *xmlio.Writer, c *model.Contact) {
	if c == nil || (c.Email == "" && c.Telephone == "") {
		return
	}
	w.Start("DaneKontaktowe")
	if c.Email != "" {
		w.Element("Email", c.Email)
	}
	if c.Telephone != "" {
		w.Element("Telefon", c.Telephone)
	}
	w.End()
}
