package fatturapa

// Corpus equivalence (issue 7): each GOBL-generated FatturaPA example of
// ../shared/corpus/fatturapa/1.2.2/gobl-generated is read back (a small
// reader below), re-expressed as our JSON (invoice model + extras),
// generated again and compared field by field: parties, lines (with their
// ScontoMaggiorazione), DatiRiepilogo, ritenuta, bollo, cassa and the
// document total. What a GOBL example holds that the model cannot carry
// is detected, logged by name, and only the comparisons it changes are left
// out - each one stated.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

type fpSede struct {
	Indirizzo, NumeroCivico, CAP, Comune, Provincia, Nazione string
}

type fpParty struct {
	IdPaese       string `xml:"DatiAnagrafici>IdFiscaleIVA>IdPaese"`
	IdCodice      string `xml:"DatiAnagrafici>IdFiscaleIVA>IdCodice"`
	CodiceFiscale string `xml:"DatiAnagrafici>CodiceFiscale"`
	Denominazione string `xml:"DatiAnagrafici>Anagrafica>Denominazione"`
	Nome          string `xml:"DatiAnagrafici>Anagrafica>Nome"`
	Cognome       string `xml:"DatiAnagrafici>Anagrafica>Cognome"`
	RegimeFiscale string `xml:"DatiAnagrafici>RegimeFiscale"`
	Sede          fpSede `xml:"Sede"`
	Telefono      string `xml:"Contatti>Telefono"`
	Email         string `xml:"Contatti>Email"`
	REA           string `xml:"IscrizioneREA>NumeroREA"`
}

type fpSconto struct {
	Tipo, Percentuale, Importo string
}

type fpLine struct {
	NumeroLinea, Descrizione, Quantita, UnitaMisura, PrezzoUnitario, PrezzoTotale, AliquotaIVA, Natura, Ritenuta string
	DataInizioPeriodo, DataFinePeriodo                                                                           string
	Sconti                                                                                                       []fpSconto `xml:"ScontoMaggiorazione"`
	AltriDati                                                                                                    []string   `xml:"AltriDatiGestionali>TipoDato"`
}

type fpRiepilogo struct {
	AliquotaIVA, Natura, ImponibileImporto, Imposta, RiferimentoNormativo string
}

type fpDoc struct {
	IdTrasmittentePaese  string  `xml:"FatturaElettronicaHeader>DatiTrasmissione>IdTrasmittente>IdPaese"`
	IdTrasmittenteCodice string  `xml:"FatturaElettronicaHeader>DatiTrasmissione>IdTrasmittente>IdCodice"`
	Progressivo          string  `xml:"FatturaElettronicaHeader>DatiTrasmissione>ProgressivoInvio"`
	CodiceDestinatario   string  `xml:"FatturaElettronicaHeader>DatiTrasmissione>CodiceDestinatario"`
	PEC                  string  `xml:"FatturaElettronicaHeader>DatiTrasmissione>PECDestinatario"`
	Seller               fpParty `xml:"FatturaElettronicaHeader>CedentePrestatore"`
	Buyer                fpParty `xml:"FatturaElettronicaHeader>CessionarioCommittente"`
	Doc                  struct {
		TipoDocumento, Divisa, Data, Numero, ImportoTotaleDocumento, Arrotondamento string
		Ritenute                                                                    []struct {
			TipoRitenuta, ImportoRitenuta, AliquotaRitenuta, CausalePagamento string
		} `xml:"DatiRitenuta"`
		Bollo string `xml:"DatiBollo>ImportoBollo"`
		Casse []struct {
			TipoCassa, AlCassa, ImportoContributoCassa, ImponibileCassa, AliquotaIVA, Ritenuta, Natura string
		} `xml:"DatiCassaPrevidenziale"`
		Sconti  []fpSconto `xml:"ScontoMaggiorazione"`
		Causale []string   `xml:"Causale"`
	} `xml:"FatturaElettronicaBody>DatiGenerali>DatiGeneraliDocumento"`
	Collegate []struct {
		IdDocumento, Data string
	} `xml:"FatturaElettronicaBody>DatiGenerali>DatiFattureCollegate"`
	Ordini     []string      `xml:"FatturaElettronicaBody>DatiGenerali>DatiOrdineAcquisto>IdDocumento"`
	DDT        []string      `xml:"FatturaElettronicaBody>DatiGenerali>DatiDDT>NumeroDDT"`
	Lines      []fpLine      `xml:"FatturaElettronicaBody>DatiBeniServizi>DettaglioLinee"`
	Riepiloghi []fpRiepilogo `xml:"FatturaElettronicaBody>DatiBeniServizi>DatiRiepilogo"`
	Pagamenti  []struct {
		ModalitaPagamento, DataScadenzaPagamento, ImportoPagamento, IBAN, BIC, Beneficiario string
	} `xml:"FatturaElettronicaBody>DatiPagamento>DettaglioPagamento"`
}

var meansOf = map[string]string{"MP01": "10", "MP02": "20", "MP05": "30", "MP08": "48", "MP19": "49"}

// categoryOf picks the model category of a zero-rate line from its Natura.
func categoryOf(natura string) string {
	switch {
	case strings.HasPrefix(natura, "N3.1"):
		return "EXPORT"
	case strings.HasPrefix(natura, "N3.2"):
		return "INTRA_COMMUNITY"
	case natura == "N4":
		return "EXEMPT"
	case strings.HasPrefix(natura, "N6"):
		return "REVERSE_CHARGE"
	}
	return "OUT_OF_SCOPE"
}

func fpPartyJSON(p *fpParty, buyer bool) map[string]any {
	name := p.Denominazione
	if name == "" {
		name = strings.TrimSpace(p.Nome + " " + p.Cognome)
	}
	out := map[string]any{"name": name, "address": map[string]any{"line1": p.Sede.Indirizzo, "post_code": p.Sede.CAP, "city": p.Sede.Comune,
		"country_code": p.Sede.Nazione}}
	if p.Sede.Provincia != "" {
		out["address"].(map[string]any)["subdivision"] = p.Sede.Provincia
	}
	if p.IdCodice != "" {
		out["vat_id"] = p.IdPaese + p.IdCodice
	}
	if p.CodiceFiscale != "" {
		if buyer {
			out["legal_registration_id"] = map[string]any{"id": p.CodiceFiscale}
		} else {
			out["tax_registration_id"] = p.CodiceFiscale
		}
	}
	if !buyer && (p.Telefono != "" || p.Email != "") {
		c := map[string]any{}
		if p.Telefono != "" {
			c["telephone"] = p.Telefono
		}
		if p.Email != "" {
			c["email"] = p.Email
		}
		out["contact"] = c
	}
	return out
}

// fpRequest re-expresses a FatturaPA document as our invoice and extras.
func fpRequest(d *fpDoc) (inv, ex map[string]any) {
	g := &d.Doc
	inv = map[string]any{"id": g.Numero, "issue_date": g.Data, "currency_code": g.Divisa, "type_code": "380",
		"seller": fpPartyJSON(&d.Seller, false), "buyer": fpPartyJSON(&d.Buyer, true)}
	ex = map[string]any{"trasmittente_id_paese": d.IdTrasmittentePaese, "trasmittente_id_codice": d.IdTrasmittenteCodice,
		"progressivo_invio": d.Progressivo, "regime_fiscale": d.Seller.RegimeFiscale}
	switch g.TipoDocumento {
	case "TD01":
	case "TD04":
		inv["type_code"] = "381"
	default:
		ex["tipo_documento"] = g.TipoDocumento
	}
	if d.PEC != "" {
		ex["pec"] = d.PEC
	}
	if d.CodiceDestinatario != "" && (d.PEC == "" || d.CodiceDestinatario != "0000000") {
		ex["codice_destinatario"] = d.CodiceDestinatario
	}
	var prec []any
	for _, c := range d.Collegate {
		prec = append(prec, map[string]any{"id": c.IdDocumento, "issue_date": c.Data})
	}
	if prec != nil {
		inv["preceding_invoices"] = prec
	}
	if len(g.Causale) > 0 {
		inv["notes"] = []any{map[string]any{"text": strings.Join(g.Causale, "")}}
	}
	if g.Arrotondamento != "" {
		inv["totals"] = map[string]any{"rounding_amount": g.Arrotondamento}
	}
	if len(g.Ritenute) > 0 {
		r := g.Ritenute[0]
		ex["ritenuta"] = map[string]any{"tipo": r.TipoRitenuta, "aliquota": r.AliquotaRitenuta, "causale": r.CausalePagamento}
	}
	if g.Bollo != "" {
		ex["bollo"] = map[string]any{"importo": g.Bollo}
	}
	if len(g.Casse) > 0 {
		c := g.Casse[0]
		cassa := map[string]any{"tipo": c.TipoCassa, "aliquota": c.AlCassa, "aliquota_iva": c.AliquotaIVA, "ritenuta": c.Ritenuta == "SI"}
		if c.Natura != "" {
			cassa["natura"] = c.Natura
		}
		if c.ImponibileCassa != "" {
			cassa["imponibile"] = c.ImponibileCassa
		}
		ex["cassa"] = cassa
	}
	natura := map[string]any{}
	var lines []any
	for _, l := range d.Lines {
		unit := l.UnitaMisura
		if unit == "" {
			unit = "C62"
		}
		ln := map[string]any{"id": l.NumeroLinea, "quantity": l.Quantita, "unit_code": unit, "net_price": l.PrezzoUnitario,
			"vat_rate": l.AliquotaIVA, "item": map[string]any{"name": l.Descrizione}}
		if num(l.AliquotaIVA).IsZero() {
			ln["category"] = categoryOf(l.Natura)
			if def, _ := NaturaFor(model.VATCategory(ln["category"].(string)).Code()); def != l.Natura {
				natura[l.NumeroLinea] = l.Natura
			}
		} else {
			ln["category"] = "STANDARD"
		}
		if l.DataInizioPeriodo != "" {
			ln["period"] = map[string]any{"start": l.DataInizioPeriodo, "end": l.DataFinePeriodo}
		}
		var allowances, charges []any
		for _, s := range l.Sconti {
			amount := num(s.Importo).Mul(num(l.Quantita)).Round(2)
			if num(l.PrezzoUnitario).Sign() < 0 {
				// GOBL applies a sconto to a negative price towards zero:
				// in EN 16931 terms an allowance of the opposite sign.
				amount = amount.Neg()
			}
			a := map[string]any{"amount": amount.String(), "reason": "sconto"}
			if s.Percentuale != "" {
				a["percentage"] = s.Percentuale
			}
			if s.Tipo == "SC" {
				allowances = append(allowances, a)
			} else {
				a["reason"] = "maggiorazione"
				charges = append(charges, a)
			}
		}
		if allowances != nil {
			ln["allowances"] = allowances
		}
		if charges != nil {
			ln["charges"] = charges
		}
		lines = append(lines, ln)
	}
	inv["lines"] = lines
	if len(natura) > 0 {
		ex["natura"] = natura
	}
	var vb []any
	for _, r := range d.Riepiloghi {
		if r.Natura != "" && r.RiferimentoNormativo != "" {
			vb = append(vb, map[string]any{"category": categoryOf(r.Natura), "exemption_reason": r.RiferimentoNormativo})
		}
	}
	if vb != nil {
		inv["vat_breakdown"] = vb
	}
	if len(d.Pagamenti) > 0 {
		p := d.Pagamenti[0]
		pi := map[string]any{"means_code": meansOf[p.ModalitaPagamento]}
		if p.IBAN != "" {
			ct := map[string]any{"account_id": p.IBAN}
			if p.BIC != "" {
				ct["service_provider_id"] = p.BIC
			}
			if p.Beneficiario != "" {
				ct["account_name"] = p.Beneficiario
			}
			pi["credit_transfers"] = []any{ct}
		}
		inv["payment_instructions"] = pi
		if p.DataScadenzaPagamento != "" {
			inv["due_date"] = p.DataScadenzaPagamento
		}
	}
	return inv, ex
}

func num(s string) model.Decimal {
	if s == "" {
		return model.DecimalFromInt(0)
	}
	return model.MustParseDecimal(s)
}

// goblGaps names what a GOBL document holds that the model cannot carry
// (and that the comparison therefore leaves out).
func goblGaps(d *fpDoc) []string {
	var out []string
	add := func(cond bool, s string) {
		if cond {
			out = append(out, s)
		}
	}
	add(len(d.Doc.Sconti) > 0, "document ScontoMaggiorazione (changes ImportoTotaleDocumento)")
	add(len(d.Doc.Ritenute) > 1, "a second DatiRitenuta")
	add(len(d.Doc.Casse) > 1, "a second DatiCassaPrevidenziale")
	add(len(d.Pagamenti) > 1, "payment installments (DettaglioPagamento beyond the first)")
	add(d.Seller.Sede.NumeroCivico != "" || d.Buyer.Sede.NumeroCivico != "", "Sede/NumeroCivico")
	add(d.Buyer.Nome != "" || d.Seller.Nome != "", "Anagrafica Nome/Cognome (one party name in the model)")
	add(d.Seller.REA != "", "IscrizioneREA")
	add(len(d.Ordini) > 0, "DatiOrdineAcquisto (CodiceCIG, ...)")
	add(len(d.DDT) > 0, "DatiDDT")
	return out
}

func TestCorpusEquivalence(t *testing.T) {
	nationaltest.Corpus(t, "corpus/fatturapa/1.2.2/gobl-generated/*.xml", func(t *testing.T, name string, src []byte) {
		theirs := nationaltest.ReadXML[fpDoc](t, src)
		gaps := goblGaps(theirs)
		if len(gaps) > 0 {
			t.Logf("not carried (left out of the comparison): %s", strings.Join(gaps, "; "))
		}
		if len(theirs.Doc.Sconti) > 0 {
			// Known: GOBL's document-level sconto keeps DatiRiepilogo at the
			// line amounts while lowering ImportoTotaleDocumento; the model
			// has no term for a discount outside the VAT base.
			t.Logf("ImportoTotaleDocumento not compared (document sconto)")
		}
		invJ, exJ := fpRequest(theirs)
		inv, ex := nationaltest.Reexpressed(t, invJ, exJ, DecodeExtras)
		res, err := Generate(inv, ex, "body")
		if err != nil {
			t.Fatalf("generate: %v\n%v\n%v", err, invJ, exJ)
		}
		xsdValid(t, res.XML)
		compareFatturaPA(t, theirs, nationaltest.ReadXML[fpDoc](t, res.XML))
	})
}

// precise reports whether GOBL wrote a line total with more than 2
// decimals (its prices were derived from tax-inclusive ones); the model's
// line net amount has 2, so such totals are compared rounded to 2 and the
// sums within 0.01 - a stated, known difference.
func precise(d *fpDoc) bool {
	for _, l := range d.Lines {
		if num(l.PrezzoTotale).Round(2).Cmp(num(l.PrezzoTotale)) != 0 {
			return true
		}
	}
	return false
}

func compareFatturaPA(t *testing.T, a, b *fpDoc) {
	t.Helper()
	loose := precise(a)
	if loose {
		t.Logf("GOBL line totals have more than 2 decimals: compared rounded to 2, sums within 0.01")
	}
	cent := model.NewDecimal(1, 2)
	c := nationaltest.Cmp{T: t}
	eq, eqNum, near := c.Eq, c.Num, c.Near
	eq("TipoDocumento", a.Doc.TipoDocumento, b.Doc.TipoDocumento)
	eq("Numero", a.Doc.Numero, b.Doc.Numero)
	eq("Data", a.Doc.Data, b.Doc.Data)
	for _, p := range []struct {
		who  string
		x, y *fpParty
	}{{"seller", &a.Seller, &b.Seller}, {"buyer", &a.Buyer, &b.Buyer}} {
		eq(p.who+" IdFiscaleIVA", p.x.IdPaese+p.x.IdCodice, p.y.IdPaese+p.y.IdCodice)
		eq(p.who+" CodiceFiscale", p.x.CodiceFiscale, p.y.CodiceFiscale)
		eq(p.who+" name", strings.TrimSpace(p.x.Denominazione+p.x.Nome+" "+p.x.Cognome), strings.TrimSpace(p.y.Denominazione))
		eq(p.who+" Indirizzo", p.x.Sede.Indirizzo, p.y.Sede.Indirizzo)
		eq(p.who+" CAP", p.x.Sede.CAP, p.y.Sede.CAP)
		eq(p.who+" Comune", p.x.Sede.Comune, p.y.Sede.Comune)
		eq(p.who+" Provincia", p.x.Sede.Provincia, p.y.Sede.Provincia)
		eq(p.who+" Nazione", p.x.Sede.Nazione, p.y.Sede.Nazione)
	}
	if len(a.Lines) != len(b.Lines) {
		t.Fatalf("lines: GOBL %d, ours %d", len(a.Lines), len(b.Lines))
	}
	for i := range a.Lines {
		x, y := &a.Lines[i], &b.Lines[i]
		w := fmt.Sprintf("line %d ", i+1)
		eq(w+"Descrizione", x.Descrizione, y.Descrizione)
		eqNum(w+"Quantita", x.Quantita, y.Quantita)
		eqNum(w+"PrezzoUnitario", x.PrezzoUnitario, y.PrezzoUnitario)
		if loose {
			eqNum(w+"PrezzoTotale", num(x.PrezzoTotale).Round(2).String(), y.PrezzoTotale)
		} else {
			eqNum(w+"PrezzoTotale", x.PrezzoTotale, y.PrezzoTotale)
		}
		eqNum(w+"AliquotaIVA", x.AliquotaIVA, y.AliquotaIVA)
		eq(w+"Natura", x.Natura, y.Natura)
		eq(w+"Ritenuta", x.Ritenuta, y.Ritenuta)
		if len(x.Sconti) != len(y.Sconti) {
			t.Errorf(w+"ScontoMaggiorazione: GOBL %d, ours %d", len(x.Sconti), len(y.Sconti))
			continue
		}
		for j := range x.Sconti {
			eq(w+"sconto Tipo", x.Sconti[j].Tipo, y.Sconti[j].Tipo)
			eqNum(w+"sconto Percentuale", x.Sconti[j].Percentuale, y.Sconti[j].Percentuale)
			xi, yi := num(x.Sconti[j].Importo), num(y.Sconti[j].Importo)
			if num(x.PrezzoUnitario).Sign() < 0 {
				yi = yi.Neg() // see fpRequest: the opposite sign for a negative price
			}
			if loose {
				xi, yi = xi.Round(2), yi.Round(2)
			}
			eqNum(w+"sconto Importo", xi.String(), yi.String())
		}
	}
	if len(a.Riepiloghi) != len(b.Riepiloghi) {
		t.Fatalf("DatiRiepilogo: GOBL %d, ours %d", len(a.Riepiloghi), len(b.Riepiloghi))
	}
	for i := range a.Riepiloghi {
		x, y := &a.Riepiloghi[i], &b.Riepiloghi[i]
		w := fmt.Sprintf("DatiRiepilogo %s%s ", x.AliquotaIVA, x.Natura)
		eqNum(w+"AliquotaIVA", x.AliquotaIVA, y.AliquotaIVA)
		eq(w+"Natura", x.Natura, y.Natura)
		if len(a.Doc.Casse) <= 1 {
			if loose {
				near(w+"ImponibileImporto", x.ImponibileImporto, y.ImponibileImporto, cent)
				near(w+"Imposta", x.Imposta, y.Imposta, cent)
			} else {
				eqNum(w+"ImponibileImporto", x.ImponibileImporto, y.ImponibileImporto)
				eqNum(w+"Imposta", x.Imposta, y.Imposta)
			}
		}
	}
	if len(a.Doc.Ritenute) == 1 {
		eqNum("ImportoRitenuta", a.Doc.Ritenute[0].ImportoRitenuta, b.Doc.Ritenute[0].ImportoRitenuta)
	}
	eqNum("ImportoBollo", a.Doc.Bollo, b.Doc.Bollo)
	if len(a.Doc.Casse) == 1 {
		eqNum("ImportoContributoCassa", a.Doc.Casse[0].ImportoContributoCassa, b.Doc.Casse[0].ImportoContributoCassa)
	}
	if len(a.Doc.Sconti) == 0 && len(a.Doc.Casse) <= 1 {
		if loose {
			near("ImportoTotaleDocumento", a.Doc.ImportoTotaleDocumento, b.Doc.ImportoTotaleDocumento, cent)
		} else {
			eqNum("ImportoTotaleDocumento", a.Doc.ImportoTotaleDocumento, b.Doc.ImportoTotaleDocumento)
		}
	}
}
