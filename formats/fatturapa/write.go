package fatturapa

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// Namespace is the FatturaPA 1.2 namespace.
const Namespace = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2"

// Result is a generated document and the figures computed by FatturaPA's
// own rules.
type Result struct {
	XML                    []byte
	TipoDocumento          string
	FormatoTrasmissione    string
	ImportoTotaleDocumento model.Decimal
	ImportoRitenuta        *model.Decimal
	ImportoContributoCassa *model.Decimal
	// Computed lists the model values Complete derived (JSON Pointers).
	Computed []string
}

// riepilogo is one DatiRiepilogo group: a rate, a Natura, an esigibilità.
type riepilogo struct {
	rate        model.Decimal
	natura      string
	esigibilita string
	imponibile  model.Decimal
	imposta     model.Decimal
	riferimento string
}

type line struct {
	l      *model.Line
	natura string
	rate   model.Decimal
	// price is PrezzoUnitario: the gross unit price when the line has a
	// price discount, else the net unit price.
	price model.Decimal
	// sconti are the line's ScontoMaggiorazione, in order: the price
	// discount, the allowances (SC), the charges (MG).
	sconti []sconto
}

// sconto is one ScontoMaggiorazione of a line: Importo per unit (so
// PrezzoTotale = Quantita × (PrezzoUnitario - sconti + maggiorazioni)),
// Percentuale when the model gives one of the unit price, and the reason
// carried in AltriDatiGestionali.
type sconto struct {
	tipo    string // SC or MG
	pct     *model.Decimal
	importo model.Decimal
	reason  string
}

type gen struct {
	inv      *model.Invoice
	ex       *Extras
	invLoc   []any
	exLoc    []any
	problems model.Problems
}

func (g *gen) bad(loc []any, typ, msg string, input any) {
	g.problems = append(g.problems, model.Problem{Loc: loc, Type: typ, Msg: msg, Input: input})
}

func (g *gen) il(k ...any) []any { return carry.At(g.invLoc, k...) }
func (g *gen) xl(k ...any) []any { return carry.At(g.exLoc, k...) }

// Generate writes inv (completed in place by model.Complete) with ex as a
// FatturaPA 1.2.2 document. Problems (a model.Problems error, an HTTP 422)
// are located under locPrefix + "invoice" or locPrefix + "extras": a field
// FatturaPA cannot carry, a type code without TD mapping, a zero-rate line
// without Natura, totals inconsistent with FatturaPA's own. Any other
// error is internal.
func Generate(inv *model.Invoice, ex *Extras, locPrefix ...any) (*Result, error) {
	g := &gen{inv: inv, ex: ex, invLoc: carry.At(locPrefix, "invoice"), exLoc: carry.At(locPrefix, "extras")}
	computed, err := carry.Prepare(inv, carried, g.invLoc, notCarriedMsg)
	if err != nil {
		return nil, err
	}
	res := &Result{Computed: computed}
	res.TipoDocumento = g.tipoDocumento()
	lines := g.lines()
	g.parties()
	g.attachments()
	if len(g.problems) > 0 {
		return nil, g.problems
	}

	// Cassa previdenziale: the contribution and its VAT.
	lineSum := model.DecimalFromInt(0)
	for _, l := range lines {
		lineSum = lineSum.Add(*l.l.NetAmount)
	}
	var cassaAmt, cassaBase model.Decimal
	if c := ex.Cassa; c != nil {
		cassaBase = lineSum
		if c.Imponibile != nil {
			cassaBase = *c.Imponibile
		}
		cassaAmt = carry.Percent(cassaBase, c.Aliquota)
		res.ImportoContributoCassa = &cassaAmt
	}
	groups := g.riepilogo(lines, cassaAmt)
	var ritAmt model.Decimal
	if r := ex.Ritenuta; r != nil {
		base := lineSum
		if ex.Cassa != nil && ex.Cassa.Ritenuta {
			base = base.Add(cassaAmt)
		}
		ritAmt = carry.Percent(base, r.Aliquota)
		res.ImportoRitenuta = &ritAmt
	}
	total, taxSum := model.DecimalFromInt(0), model.DecimalFromInt(0)
	for _, r := range groups {
		total = total.Add(r.imponibile).Add(r.imposta)
		taxSum = taxSum.Add(r.imposta)
	}
	g.checkTotals(lineSum, taxSum, total, ex.Cassa != nil)
	if inv.Totals != nil && inv.Totals.RoundingAmount != nil {
		total = total.Add(*inv.Totals.RoundingAmount)
	}
	if !fits(total, 11) {
		g.bad(g.il("totals", "tax_inclusive_amount"), model.ProblemValueError, "FatturaPA ImportoTotaleDocumento has at most 11 integer digits", total.String())
	}
	res.ImportoTotaleDocumento = total
	if len(g.problems) > 0 {
		return nil, g.problems
	}
	res.FormatoTrasmissione = "FPR12"
	if len(ex.CodiceDestinatario) == 6 {
		res.FormatoTrasmissione = "FPA12"
	}
	doc, err := carry.WriteXML("fatturapa", func(w *xmlio.Writer) { g.write(w, res, lines, groups, cassaBase, ritAmt) })
	if err != nil {
		return nil, err
	}
	res.XML = doc
	return res, nil
}

func (g *gen) tipoDocumento() string {
	if g.ex.TipoDocumento != "" {
		return g.ex.TipoDocumento
	}
	switch g.inv.TypeCode {
	case "380":
		return "TD01"
	case "381":
		return "TD04"
	}
	g.bad(g.il("type_code"), model.ProblemValueError,
		"type code "+string(g.inv.TypeCode)+" has no FatturaPA TipoDocumento: give extras.tipo_documento (380 -> TD01, 381 -> TD04)", string(g.inv.TypeCode))
	return ""
}

func (g *gen) lines() []line {
	out := make([]line, len(g.inv.Lines))
	used := map[string]bool{}
	for i := range g.inv.Lines {
		l := &g.inv.Lines[i]
		rate := model.DecimalFromInt(0)
		if l.VATRate != nil {
			rate = *l.VATRate
		}
		out[i] = line{l: l, rate: rate}
		code := l.CategoryCode()
		override, has := g.ex.Natura[l.ID]
		if has {
			used[l.ID] = true
		}
		if !rate.Round(2).Equal(rate) || rate.Sign() < 0 || rate.Cmp(model.DecimalFromInt(100)) > 0 {
			g.bad(g.il("lines", i, "vat_rate"), model.ProblemValueError, "FatturaPA AliquotaIVA is a percentage with at most 2 decimals", rate.String())
		}
		switch {
		case rate.IsZero() && has:
			out[i].natura = override
		case rate.IsZero():
			n, ok := NaturaFor(code)
			if !ok {
				g.bad(g.il("lines", i, "category"), model.ProblemValueError,
					"a zero-rate line needs a category with a Natura (EXEMPT, INTRA_COMMUNITY, EXPORT, REVERSE_CHARGE, OUT_OF_SCOPE) or extras.natura for its id", string(code))
			}
			out[i].natura = n
		case has:
			g.bad(g.xl("natura", l.ID), model.ProblemValueError, "Natura is only for lines at VAT rate 0", override)
		case code != model.VATStandard && code != model.VATSplitPayment:
			g.bad(g.il("lines", i, "category"), model.ProblemValueError, "FatturaPA taxes a non-zero rate only as STANDARD (S) or split payment (B)", string(code))
		}
		if l.Quantity.Sign() < 0 || l.Quantity.Scale() > 8 {
			g.bad(g.il("lines", i, "quantity"), model.ProblemValueError, "FatturaPA Quantita is non-negative with at most 8 decimals", l.Quantity.String())
		}
		if !fits(l.Quantity, 12) {
			g.bad(g.il("lines", i, "quantity"), model.ProblemValueError, "FatturaPA Quantita has at most 12 integer digits", l.Quantity.String())
		}
		if l.NetAmount != nil && !fits(*l.NetAmount, 11) {
			g.bad(g.il("lines", i, "net_amount"), model.ProblemValueError, "FatturaPA amounts have at most 11 integer digits", l.NetAmount.String())
		}
		if l.NetPrice != nil && (!fits(*l.NetPrice, 11) || l.NetPrice.Scale() > 8) {
			g.bad(g.il("lines", i, "net_price"), model.ProblemValueError, "FatturaPA PrezzoUnitario has at most 11 integer digits and 8 decimals", l.NetPrice.String())
		}
		if len(l.ID) > 60 {
			g.bad(g.il("lines", i, "id"), model.ProblemValueError, "a line id is carried in AltriDatiGestionali/RiferimentoTesto: at most 60 characters", l.ID)
		}
		out[i].price, out[i].sconti = g.sconti(i, l)
	}
	ids := make([]string, 0, len(g.ex.Natura))
	for id := range g.ex.Natura {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if !used[id] {
			g.bad(g.xl("natura", id), model.ProblemValueError, "no invoice line has this id", id)
		}
	}
	return out
}

// sconti returns PrezzoUnitario and the ScontoMaggiorazione of line i:
// the price discount (BT-147, per unit of the gross price's base), then
// each allowance (SC) and charge (MG) spread over the quantity. Every
// Importo must be exact with 8 decimals.
func (g *gen) sconti(i int, l *model.Line) (model.Decimal, []sconto) {
	price := unitPrice(l)
	var out []sconto
	perUnit := func(loc []any, amount, per model.Decimal, what string) (model.Decimal, bool) {
		if per.IsZero() {
			g.bad(loc, model.ProblemValueError, "FatturaPA spreads "+what+" over the quantity (ScontoMaggiorazione/Importo per unit): the quantity is 0", amount.String())
			return model.Decimal{}, false
		}
		q, err := amount.Div(per, 20)
		if err != nil || !q.Round(8).Equal(q) {
			g.bad(loc, model.ProblemValueError, "FatturaPA ScontoMaggiorazione/Importo is per unit with at most 8 decimals: "+what+" / quantity is not", amount.String())
			return model.Decimal{}, false
		}
		return shortest(q.Round(8)), true
	}
	base := model.DecimalFromInt(1)
	if l.BaseQuantity != nil && !l.BaseQuantity.IsZero() {
		base = *l.BaseQuantity
	}
	if l.PriceDiscount != nil && !l.PriceDiscount.IsZero() && l.GrossPrice != nil {
		gross, okG := perUnit(g.il("lines", i, "gross_price"), *l.GrossPrice, base, "the gross price")
		disc, okD := perUnit(g.il("lines", i, "price_discount"), *l.PriceDiscount, base, "the price discount")
		if okG && okD {
			price = gross
			out = append(out, sconto{tipo: "SC", importo: disc})
		}
	}
	adjust := func(kind, tipo string, j int, a *model.LineAllowanceCharge) {
		loc := g.il("lines", i, kind, j)
		imp, ok := perUnit(carry.At(loc, "amount"), *a.Amount, l.Quantity, "the amount")
		if !ok {
			return
		}
		sc := sconto{tipo: tipo, importo: imp, reason: a.Reason}
		if sc.reason == "" {
			sc.reason = a.ReasonCode
		}
		if len([]rune(sc.reason)) > 60 {
			g.bad(carry.At(loc, "reason"), model.ProblemValueError, "the reason is carried in AltriDatiGestionali/RiferimentoTesto: at most 60 characters", sc.reason)
		}
		// Percentuale is of the unit price: written when the percentage's
		// base is the line's quantity × price (or not given).
		if a.Percentage != nil && (a.BaseAmount == nil || a.BaseAmount.Equal(l.Quantity.Mul(price).Round(2))) {
			sc.pct = a.Percentage
		}
		out = append(out, sc)
	}
	for j := range l.Allowances {
		adjust("allowances", "SC", j, &l.Allowances[j])
	}
	for j := range l.Charges {
		adjust("charges", "MG", j, &l.Charges[j])
	}
	return price, out
}

func (g *gen) parties() {
	s, b := &g.inv.Seller, &g.inv.Buyer
	if s.VATID == "" {
		g.bad(g.il("seller", "vat_id"), model.ProblemMissing, "FatturaPA requires the seller's VAT identifier (IdFiscaleIVA)", nil)
	} else if !vatIDOK(s.VATID) {
		g.bad(g.il("seller", "vat_id"), model.ProblemValueError, "a VAT identifier is a 2-letter country prefix and 1 to 28 characters", s.VATID)
	}
	if b.VATID != "" && !vatIDOK(b.VATID) {
		g.bad(g.il("buyer", "vat_id"), model.ProblemValueError, "a VAT identifier is a 2-letter country prefix and 1 to 28 characters", b.VATID)
	}
	if b.VATID == "" && b.LegalRegistrationID == nil {
		g.bad(g.il("buyer", "vat_id"), model.ProblemMissing, "FatturaPA requires the buyer's VAT identifier or codice fiscale (legal_registration_id)", nil)
	}
	for _, p := range []struct {
		who string
		a   *model.Address
	}{{"seller", &s.Address}, {"buyer", &b.Address}} {
		if p.a.Line1 == "" {
			g.bad(g.il(p.who, "address", "line1"), model.ProblemMissing, "FatturaPA requires Sede/Indirizzo", nil)
		}
		if p.a.City == "" {
			g.bad(g.il(p.who, "address", "city"), model.ProblemMissing, "FatturaPA requires Sede/Comune", nil)
		}
		if !isDigits(p.a.PostCode, 5) {
			g.bad(g.il(p.who, "address", "post_code"), model.ProblemValueError, "FatturaPA Sede/CAP is 5 digits (00000 abroad)", p.a.PostCode)
		}
	}
	if c := s.Contact; c != nil && c.Telephone != "" && (len(c.Telephone) < 5 || len(c.Telephone) > 12) {
		g.bad(g.il("seller", "contact", "telephone"), model.ProblemValueError, "FatturaPA Contatti/Telefono has 5 to 12 characters", c.Telephone)
	}
	if len(g.inv.ID) > 20 {
		g.bad(g.il("id"), model.ProblemValueError, "FatturaPA Numero is at most 20 characters", g.inv.ID)
	}
	if pi := g.inv.PaymentInstructions; pi != nil {
		if _, ok := modalita[pi.MeansCode]; !ok {
			g.bad(g.il("payment_instructions", "means_code"), model.ProblemValueError, "no FatturaPA ModalitaPagamento for this payment means code (see docs/FATTURAPA.md)", pi.MeansCode)
		}
		if len(pi.CreditTransfers) > 1 {
			g.bad(g.il("payment_instructions", "credit_transfers", 1), model.ProblemValueError, "FatturaPA carries one account per payment detail: give at most one credit transfer", nil)
		}
	} else if g.inv.DueDate != nil {
		g.bad(g.il("due_date"), model.ProblemValueError, "FatturaPA carries the due date in DettaglioPagamento, which needs payment_instructions.means_code", g.inv.DueDate.String())
	}
}

// modalita maps UNTDID 4461 payment means to ModalitaPagamento.
var modalita = map[string]string{
	"10": "MP01", "20": "MP02", "30": "MP05", "31": "MP05", "42": "MP05", "58": "MP05",
	"48": "MP08", "54": "MP08", "55": "MP08", "49": "MP19", "59": "MP19",
}

func vatIDOK(s string) bool {
	return len(s) > 2 && len(s) <= 30 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (g *gen) riepilogo(lines []line, cassaAmt model.Decimal) []*riepilogo {
	var out []*riepilogo
	find := func(rate model.Decimal, natura, esig string) *riepilogo {
		for _, r := range out {
			if r.rate.Equal(rate) && r.natura == natura && r.esigibilita == esig {
				return r
			}
		}
		r := &riepilogo{rate: rate, natura: natura, esigibilita: esig, imponibile: model.NewDecimal(0, 2)}
		out = append(out, r)
		return r
	}
	for _, l := range lines {
		esig := "I"
		if l.l.CategoryCode() == model.VATSplitPayment {
			esig = "S"
		}
		r := find(l.rate, l.natura, esig)
		r.imponibile = r.imponibile.Add(*l.l.NetAmount)
		if r.natura != "" && r.riferimento == "" {
			r.riferimento = g.exemptionReason(l.l.CategoryCode())
		}
	}
	if c := g.ex.Cassa; c != nil {
		r := find(c.AliquotaIVA, c.Natura, "I")
		r.imponibile = r.imponibile.Add(cassaAmt)
	}
	for _, r := range out {
		r.imposta = carry.Percent(r.imponibile, r.rate)
	}
	return out
}

func (g *gen) exemptionReason(code model.VATCategoryCode) string {
	for i := range g.inv.VATBreakdown {
		v := &g.inv.VATBreakdown[i]
		if v.CategoryCode() != code {
			continue
		}
		switch {
		case v.ExemptionReason != "" && len(v.ExemptionReason) <= 100:
			return v.ExemptionReason
		case v.ExemptionReason != "":
			g.bad(g.il("vat_breakdown", i, "exemption_reason"), model.ProblemValueError, "FatturaPA RiferimentoNormativo is at most 100 characters", v.ExemptionReason)
		case v.ExemptionReasonCode != "":
			return v.ExemptionReasonCode
		}
	}
	return ""
}

// checkTotals compares the model's totals (given or completed) with
// FatturaPA's: BT-106 and BT-109 = Σ PrezzoTotale; without a cassa (whose
// contribution the model lacks) BT-110 = Σ Imposta, BT-112 = Σ (Imponibile
// + Imposta) and BT-115 = BT-112 + Arrotondamento.
func (g *gen) checkTotals(lineSum, taxSum, total model.Decimal, cassa bool) {
	t := g.inv.Totals
	if t == nil {
		return
	}
	check := func(name string, got *model.Decimal, want model.Decimal) {
		if got != nil && !got.Equal(want) {
			g.bad(g.il("totals", name), model.ProblemCalculation,
				"differs from FatturaPA's own total ("+want.StringFixed(2)+"): VAT is computed per DatiRiepilogo (rate and Natura)", got.String())
		}
	}
	check("line_net_total", t.LineNetTotal, lineSum)
	check("tax_exclusive_amount", t.TaxExclusiveAmount, lineSum)
	if cassa {
		return
	}
	check("tax_amount", t.TaxAmount, taxSum)
	check("tax_inclusive_amount", t.TaxInclusiveAmount, total)
	payable := total
	if t.RoundingAmount != nil {
		payable = payable.Add(*t.RoundingAmount)
	}
	check("payable_amount", t.PayableAmount, payable)
}

// fits reports whether |d| < 10^digits (the XSD's integer-digit limit).
func fits(d model.Decimal, digits int32) bool {
	return d.Abs().Cmp(model.NewDecimal(1, -digits)) < 0
}

func amount2(d model.Decimal) string { return d.Round(2).StringFixed(2) }

// amount8 writes d with 2 to 8 decimals (Amount8DecimalType, QuantitaType).
func amount8(d model.Decimal) string {
	s := d.DisplayScale()
	if d.Scale() > s {
		s = d.Scale()
	}
	return d.StringFixed(min(max(s, 2), 8))
}

func (g *gen) write(w *xmlio.Writer, res *Result, lines []line, groups []*riepilogo, cassaBase, ritAmt model.Decimal) {
	inv, ex := g.inv, g.ex
	w.Root("p:FatturaElettronica", []xmlio.Namespace{{Prefix: "p", URI: Namespace}}, xmlio.Attr{Name: "versione", Value: res.FormatoTrasmissione})
	w.Start("FatturaElettronicaHeader")
	w.Start("DatiTrasmissione")
	w.Start("IdTrasmittente")
	w.Element("IdPaese", ex.TrasmittenteIDPaese)
	w.Element("IdCodice", ex.TrasmittenteIDCodice)
	w.End()
	w.Element("ProgressivoInvio", ex.ProgressivoInvio)
	w.Element("FormatoTrasmissione", res.FormatoTrasmissione)
	cd := ex.CodiceDestinatario
	if cd == "" {
		cd = "0000000"
	}
	w.Element("CodiceDestinatario", cd)
	if ex.PEC != "" {
		w.Element("PECDestinatario", ex.PEC)
	}
	w.End()

	s := &inv.Seller
	w.Start("CedentePrestatore")
	w.Start("DatiAnagrafici")
	idFiscale(w, s.VATID)
	if s.TaxRegistrationID != "" {
		w.Element("CodiceFiscale", s.TaxRegistrationID)
	}
	w.Start("Anagrafica")
	w.Element("Denominazione", s.Name)
	w.End()
	w.Element("RegimeFiscale", ex.RegimeFiscale)
	w.End()
	sede(w, &s.Address)
	if c := s.Contact; c != nil && (c.Telephone != "" || c.Email != "") {
		w.Start("Contatti")
		if c.Telephone != "" {
			w.Element("Telefono", c.Telephone)
		}
		if c.Email != "" {
			w.Element("Email", c.Email)
		}
		w.End()
	}
	w.End()

	b := &inv.Buyer
	w.Start("CessionarioCommittente")
	w.Start("DatiAnagrafici")
	if b.VATID != "" {
		idFiscale(w, b.VATID)
	}
	if b.LegalRegistrationID != nil {
		w.Element("CodiceFiscale", b.LegalRegistrationID.ID)
	}
	w.Start("Anagrafica")
	w.Element("Denominazione", b.Name)
	w.End()
	w.End()
	sede(w, &b.Address)
	w.End()
	w.End() // FatturaElettronicaHeader

	w.Start("FatturaElettronicaBody")
	w.Start("DatiGenerali")
	w.Start("DatiGeneraliDocumento")
	w.Element("TipoDocumento", res.TipoDocumento)
	w.Element("Divisa", inv.CurrencyCode)
	w.Element("Data", inv.IssueDate.String())
	w.Element("Numero", inv.ID)
	if r := ex.Ritenuta; r != nil {
		w.Start("DatiRitenuta")
		w.Element("TipoRitenuta", r.Tipo)
		w.Element("ImportoRitenuta", amount2(ritAmt))
		w.Element("AliquotaRitenuta", amount2(r.Aliquota))
		w.Element("CausalePagamento", r.Causale)
		w.End()
	}
	if bo := ex.Bollo; bo != nil {
		w.Start("DatiBollo")
		w.Element("BolloVirtuale", "SI")
		w.Element("ImportoBollo", amount2(bo.Importo))
		w.End()
	}
	if c := ex.Cassa; c != nil {
		w.Start("DatiCassaPrevidenziale")
		w.Element("TipoCassa", c.Tipo)
		w.Element("AlCassa", amount2(c.Aliquota))
		w.Element("ImportoContributoCassa", amount2(*res.ImportoContributoCassa))
		w.Element("ImponibileCassa", amount2(cassaBase))
		w.Element("AliquotaIVA", amount2(c.AliquotaIVA))
		if c.Ritenuta {
			w.Element("Ritenuta", "SI")
		}
		if c.Natura != "" {
			w.Element("Natura", c.Natura)
		}
		w.End()
	}
	w.Element("ImportoTotaleDocumento", amount2(res.ImportoTotaleDocumento))
	if inv.Totals != nil && inv.Totals.RoundingAmount != nil {
		w.Element("Arrotondamento", amount2(*inv.Totals.RoundingAmount))
	}
	for _, n := range inv.Notes {
		for _, part := range chunks(n.Text, 200) {
			w.Element("Causale", part)
		}
	}
	w.End() // DatiGeneraliDocumento
	if inv.PurchaseOrderReference != "" {
		w.Start("DatiOrdineAcquisto")
		w.Element("IdDocumento", inv.PurchaseOrderReference)
		w.End()
	}
	if inv.ContractReference != "" {
		w.Start("DatiContratto")
		w.Element("IdDocumento", inv.ContractReference)
		w.End()
	}
	for _, p := range inv.PrecedingInvoices {
		w.Start("DatiFattureCollegate")
		w.Element("IdDocumento", p.ID)
		if p.IssueDate != nil {
			w.Element("Data", p.IssueDate.String())
		}
		w.End()
	}
	w.End() // DatiGenerali

	w.Start("DatiBeniServizi")
	for i, l := range lines {
		w.Start("DettaglioLinee")
		pos := strconv.Itoa(i + 1)
		w.Element("NumeroLinea", pos)
		w.Element("Descrizione", l.l.Item.Name)
		w.Element("Quantita", amount8(l.l.Quantity))
		w.Element("UnitaMisura", l.l.UnitCode)
		if p := l.l.Period; p != nil {
			if p.Start != nil {
				w.Element("DataInizioPeriodo", p.Start.String())
			}
			if p.End != nil {
				w.Element("DataFinePeriodo", p.End.String())
			}
		}
		w.Element("PrezzoUnitario", amount8(l.price))
		for _, sc := range l.sconti {
			w.Start("ScontoMaggiorazione")
			w.Element("Tipo", sc.tipo)
			if sc.pct != nil {
				w.Element("Percentuale", amount2(*sc.pct))
			}
			w.Element("Importo", amount8(sc.importo))
			w.End()
		}
		w.Element("PrezzoTotale", amount8(*l.l.NetAmount))
		w.Element("AliquotaIVA", amount2(l.rate))
		if ex.Ritenuta != nil {
			w.Element("Ritenuta", "SI")
		}
		if l.natura != "" {
			w.Element("Natura", l.natura)
		}
		if l.l.ID != pos {
			w.Start("AltriDatiGestionali")
			w.Element("TipoDato", "IDLINEA")
			w.Element("RiferimentoTesto", l.l.ID)
			w.End()
		}
		for _, sc := range l.sconti {
			if sc.reason == "" {
				continue
			}
			w.Start("AltriDatiGestionali")
			w.Element("TipoDato", map[string]string{"SC": "SCONTO", "MG": "MAGGIORAZ"}[sc.tipo])
			w.Element("RiferimentoTesto", sc.reason)
			w.End()
		}
		w.End()
	}
	for _, r := range groups {
		w.Start("DatiRiepilogo")
		w.Element("AliquotaIVA", amount2(r.rate))
		if r.natura != "" {
			w.Element("Natura", r.natura)
		}
		w.Element("ImponibileImporto", amount2(r.imponibile))
		w.Element("Imposta", amount2(r.imposta))
		if r.natura == "" || !strings.HasPrefix(r.natura, "N6") {
			w.Element("EsigibilitaIVA", r.esigibilita)
		}
		if r.riferimento != "" {
			w.Element("RiferimentoNormativo", r.riferimento)
		}
		w.End()
	}
	w.End() // DatiBeniServizi

	if pi := inv.PaymentInstructions; pi != nil {
		w.Start("DatiPagamento")
		w.Element("CondizioniPagamento", "TP02")
		w.Start("DettaglioPagamento")
		var ct *model.CreditTransfer
		if len(pi.CreditTransfers) > 0 {
			ct = &pi.CreditTransfers[0]
		}
		if ct != nil && ct.AccountName != "" {
			w.Element("Beneficiario", ct.AccountName)
		}
		w.Element("ModalitaPagamento", modalita[pi.MeansCode])
		if inv.DueDate != nil {
			w.Element("DataScadenzaPagamento", inv.DueDate.String())
		}
		w.Element("ImportoPagamento", amount2(res.ImportoTotaleDocumento.Sub(ritAmt)))
		if ct != nil {
			w.Element("IBAN", ct.AccountID)
			if ct.ServiceProviderID != "" {
				w.Element("BIC", ct.ServiceProviderID)
			}
		}
		w.End()
		w.End()
	}
	for i := range inv.SupportingDocuments {
		d := &inv.SupportingDocuments[i]
		w.Start("Allegati")
		w.Element("NomeAttachment", d.Attachment.Filename)
		w.Element("FormatoAttachment", formatOf(d.Attachment.MimeCode))
		w.Element("DescrizioneAttachment", attachmentDescription(d))
		w.Element("Attachment", base64.StdEncoding.EncodeToString(d.Attachment.Content))
		w.End()
	}
	w.End() // FatturaElettronicaBody
	w.End() // root
}

// attachmentFormat is FormatoAttachment per BT-125-1 MIME code.
var attachmentFormat = map[string]string{
	"application/pdf": "PDF", "image/png": "PNG", "image/jpeg": "JPG", "text/csv": "CSV",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
	"application/vnd.oasis.opendocument.spreadsheet":                    "ODS",
}

// formatOf is FormatoAttachment of a MIME code: the table's name, else
// the subtype in capitals ("application/xml" -> "XML"); "" when that has
// more than 10 characters (attachments refuses it).
func formatOf(mime string) string {
	if f := attachmentFormat[mime]; f != "" {
		return f
	}
	_, sub, _ := strings.Cut(mime, "/")
	if sub == "" || len(sub) > 10 {
		return ""
	}
	return strings.ToUpper(sub)
}

// attachmentDescription is DescrizioneAttachment: the reference (BT-122)
// and, after " - ", the description (BT-123).
func attachmentDescription(d *model.SupportingDocument) string {
	if d.Description == "" {
		return d.ID
	}
	return d.ID + " - " + d.Description
}

// attachments checks the supporting documents FatturaPA carries as
// Allegati: each with its attached content, a file name of at most 60
// Latin characters and a description of at most 100.
func (g *gen) attachments() {
	for i := range g.inv.SupportingDocuments {
		d := &g.inv.SupportingDocuments[i]
		loc := g.il("supporting_documents", i)
		if d.Attachment == nil {
			g.bad(carry.At(loc, "attachment"), model.ProblemMissing, "FatturaPA carries a supporting document as Allegati with its content: give attachment (a reference alone has no FatturaPA element)", nil)
			continue
		}
		if n := len([]rune(d.Attachment.Filename)); n == 0 || n > 60 {
			g.bad(carry.At(loc, "attachment", "filename"), model.ProblemValueError, "FatturaPA NomeAttachment has 1 to 60 characters", d.Attachment.Filename)
		}
		if formatOf(d.Attachment.MimeCode) == "" {
			g.bad(carry.At(loc, "attachment", "mime_code"), model.ProblemValueError, "FatturaPA FormatoAttachment has at most 10 characters: the MIME subtype is longer and has no short name here", d.Attachment.MimeCode)
		}
		if desc := attachmentDescription(d); len([]rune(desc)) > 100 {
			g.bad(carry.At(loc, "description"), model.ProblemValueError, "FatturaPA DescrizioneAttachment (id - description) has at most 100 characters", desc)
		}
	}
}

// shortest is d with the fewest decimals that keep its value.
func shortest(d model.Decimal) model.Decimal {
	for sc := int32(0); sc < 8; sc++ {
		if r := d.Round(sc); r.Equal(d) {
			return r.WithScale(sc)
		}
	}
	return d
}

// unitPrice is BT-146 / BT-149 (the price of one unit), to 8 decimals.
func unitPrice(l *model.Line) model.Decimal {
	if l.NetPrice == nil { // Complete derives it; a zero quantity leaves none
		return *l.NetAmount
	}
	p := *l.NetPrice
	if l.BaseQuantity == nil || l.BaseQuantity.IsZero() || l.BaseQuantity.Equal(model.DecimalFromInt(1)) {
		return p
	}
	q, err := p.Div(*l.BaseQuantity, 8)
	if err != nil {
		return p
	}
	return q
}

func idFiscale(w *xmlio.Writer, vatID string) {
	w.Start("IdFiscaleIVA")
	w.Element("IdPaese", vatID[:2])
	w.Element("IdCodice", vatID[2:])
	w.End()
}

func sede(w *xmlio.Writer, a *model.Address) {
	w.Start("Sede")
	w.Element("Indirizzo", a.Line1)
	w.Element("CAP", a.PostCode)
	w.Element("Comune", a.City)
	if a.Subdivision != "" {
		w.Element("Provincia", a.Subdivision)
	}
	w.Element("Nazione", a.CountryCode)
	w.End()
}

// chunks splits s into pieces of at most n runes (Causale is 200 long).
func chunks(s string, n int) []string {
	r := []rune(s)
	var out []string
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return append(out, string(r))
}
