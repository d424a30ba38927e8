package fatturapa

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/carry"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/golden"
	"github.com/einvoice-dev/einvoice/internal/nationaltest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.xml")

// patch returns the JSON js with the top-level members of p set (a nil
// value deletes the member).
func patch(t testing.TB, js string, p map[string]any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range p {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func zeroLine(id, cat string) map[string]any {
	return map[string]any{"id": id, "quantity": "1", "unit_code": "C62", "net_price": "100.00", "category": cat, "vat_rate": "0", "item": map[string]any{"name": "Servizio " + id}}
}

func TestGenerateGolden(t *testing.T) {
	cases := []struct {
		name          string
		inv, extras   map[string]any
		wantTD        string
		wantTotal     string
		wantFragments []string
	}{
		{name: "invoice_td01", wantTD: "TD01", wantTotal: "30.50",
			wantFragments: []string{"<Imposta>5.50</Imposta>", "<ModalitaPagamento>MP05</ModalitaPagamento>", "<ImportoPagamento>30.50</ImportoPagamento>", "<FormatoTrasmissione>FPR12</FormatoTrasmissione>"}},
		{name: "credit_note_td04", inv: map[string]any{"type_code": "381", "preceding_invoices": []any{map[string]any{"id": "FT-2024-000", "issue_date": "2024-01-10"}}},
			wantTD: "TD04", wantTotal: "30.50", wantFragments: []string{"<DatiFattureCollegate>"}},
		{name: "td05_explicit", extras: map[string]any{"tipo_documento": "TD05"}, wantTD: "TD05", wantTotal: "30.50"},
		{name: "every_natura", inv: map[string]any{"lines": []any{
			zeroLine("1", "EXEMPT"), zeroLine("2", "INTRA_COMMUNITY"), zeroLine("3", "EXPORT"),
			zeroLine("4", "REVERSE_CHARGE"), zeroLine("5", "OUT_OF_SCOPE"), zeroLine("A-6", "REVERSE_CHARGE"),
			zeroLine("7", "ZERO")},
			"vat_breakdown": []any{map[string]any{"category": "EXEMPT", "vat_rate": "0", "exemption_reason": "Art. 10 DPR 633/72"}}},
			extras: map[string]any{"natura": map[string]any{"A-6": "N6.3", "7": "N1"}}, wantTD: "TD01", wantTotal: "700.00",
			wantFragments: []string{"<Natura>N4</Natura>", "<Natura>N3.2</Natura>", "<Natura>N3.1</Natura>", "<Natura>N6.9</Natura>",
				"<Natura>N2.2</Natura>", "<Natura>N6.3</Natura>", "<Natura>N1</Natura>", "<RiferimentoNormativo>Art. 10 DPR 633/72</RiferimentoNormativo>",
				"<TipoDato>IDLINEA</TipoDato>", "<RiferimentoTesto>A-6</RiferimentoTesto>"}},
		{name: "ritenuta", extras: map[string]any{"regime_fiscale": "RF19", "ritenuta": map[string]any{"tipo": "RT02", "aliquota": "20", "causale": "A"}},
			wantTD: "TD01", wantTotal: "30.50", wantFragments: []string{"<ImportoRitenuta>5.00</ImportoRitenuta>", "<ImportoPagamento>25.50</ImportoPagamento>", "<Ritenuta>SI</Ritenuta>"}},
		{name: "bollo_pa", extras: map[string]any{"codice_destinatario": "UFY9MH", "bollo": map[string]any{"importo": "2.00"}},
			inv: map[string]any{"lines": []any{zeroLine("1", "EXEMPT")}}, wantTD: "TD01", wantTotal: "100.00",
			wantFragments: []string{"<BolloVirtuale>SI</BolloVirtuale>", "<ImportoBollo>2.00</ImportoBollo>", `versione="FPA12"`}},
		{name: "cassa", extras: map[string]any{"cassa": map[string]any{"tipo": "TC22", "aliquota": "4", "aliquota_iva": "22", "ritenuta": true},
			"ritenuta": map[string]any{"tipo": "RT01", "aliquota": "20", "causale": "A"}},
			wantTD: "TD01", wantTotal: "31.72", // 25 + 1.00 cassa = 26.00 imponibile, 5.72 IVA
			wantFragments: []string{"<ImportoContributoCassa>1.00</ImportoContributoCassa>", "<ImponibileImporto>26.00</ImponibileImporto>",
				"<Imposta>5.72</Imposta>", "<ImportoRitenuta>5.20</ImportoRitenuta>"}},
		{name: "cassa_natura", extras: map[string]any{"cassa": map[string]any{"tipo": "TC04", "aliquota": "2", "imponibile": "100", "aliquota_iva": "0", "natura": "N4"}},
			wantTD: "TD01", wantTotal: "32.50", wantFragments: []string{"<ImportoContributoCassa>2.00</ImportoContributoCassa>"}},
		{name: "sconto_maggiorazione", inv: map[string]any{"lines": []any{
			map[string]any{"id": "1", "quantity": "20", "unit_code": "HUR", "net_price": "90", "category": "STANDARD", "vat_rate": "22", "item": map[string]any{"name": "Sviluppo"},
				"allowances": []any{map[string]any{"amount": "180", "percentage": "10", "reason": "Sconto fedeltà"}}},
			map[string]any{"id": "2", "quantity": "2", "unit_code": "C62", "gross_price": "12", "price_discount": "2", "net_price": "10", "category": "STANDARD", "vat_rate": "22",
				"item": map[string]any{"name": "Cavo"}, "charges": []any{map[string]any{"amount": "1", "reason_code": "FC"}}},
		}}, wantTD: "TD01", wantTotal: "2002.02",
			wantFragments: []string{"<Tipo>SC</Tipo>", "<Percentuale>10.00</Percentuale>", "<Importo>9.00</Importo>",
				"<PrezzoTotale>1620.00</PrezzoTotale>", "<PrezzoUnitario>12.00</PrezzoUnitario>", "<Tipo>MG</Tipo>", "<Importo>0.50</Importo>",
				"<TipoDato>SCONTO</TipoDato>", "<RiferimentoTesto>Sconto fedeltà</RiferimentoTesto>", "<TipoDato>MAGGIORAZ</TipoDato>", "<RiferimentoTesto>FC</RiferimentoTesto>"}},
		{name: "allegati", inv: map[string]any{"supporting_documents": []any{
			map[string]any{"id": "DDT-12", "description": "Documento di trasporto", "attachment": map[string]any{"content": "JVBERi0xLjQK", "mime_code": "application/pdf", "filename": "ddt-12.pdf"}},
			map[string]any{"id": "TS-1", "attachment": map[string]any{"content": "YSxiCg==", "mime_code": "text/csv", "filename": "timesheet.csv"}},
		}}, wantTD: "TD01", wantTotal: "30.50",
			wantFragments: []string{"<NomeAttachment>ddt-12.pdf</NomeAttachment>", "<FormatoAttachment>PDF</FormatoAttachment>",
				"<DescrizioneAttachment>DDT-12 - Documento di trasporto</DescrizioneAttachment>", "<Attachment>JVBERi0xLjQK</Attachment>",
				"<DescrizioneAttachment>TS-1</DescrizioneAttachment>", "<FormatoAttachment>CSV</FormatoAttachment>"}},
		{name: "rounding_and_pec", inv: map[string]any{"totals": map[string]any{"rounding_amount": "-0.50"}},
			extras: map[string]any{"codice_destinatario": nil, "pec": "beta@pec.it"}, wantTD: "TD01", wantTotal: "30.00",
			wantFragments: []string{"<Arrotondamento>-0.50</Arrotondamento>", "<CodiceDestinatario>0000000</CodiceDestinatario>", "<PECDestinatario>beta@pec.it</PECDestinatario>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := decodeInv(t, patch(t, baseInvoice, c.inv))
			ex := decodeEx(t, patch(t, baseExtras, c.extras))
			res, err := Generate(inv, ex)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			xsdValid(t, res.XML)
			if res.TipoDocumento != c.wantTD || !bytes.Contains(res.XML, []byte("<TipoDocumento>"+c.wantTD+"<")) {
				t.Errorf("TipoDocumento %s, want %s", res.TipoDocumento, c.wantTD)
			}
			if got := res.ImportoTotaleDocumento.StringFixed(2); got != c.wantTotal {
				t.Errorf("ImportoTotaleDocumento %s, want %s", got, c.wantTotal)
			}
			for _, f := range c.wantFragments {
				if !bytes.Contains(res.XML, []byte(f)) {
					t.Errorf("missing %s", f)
				}
			}
			checkRiepilogo(t, res.XML)
			golden.Check(t, filepath.Join("testdata", c.name+".golden.xml"), res.XML, *update)
		})
	}
}

var (
	reRiep  = regexp.MustCompile(`(?s)<DatiRiepilogo>.*?</DatiRiepilogo>`)
	reField = func(n string) *regexp.Regexp { return regexp.MustCompile("<" + n + ">([^<]*)</" + n + ">") }
)

// checkRiepilogo recomputes FatturaPA's own rules on the written document:
// each DatiRiepilogo's Imposta = ImponibileImporto × AliquotaIVA / 100, and
// ImportoTotaleDocumento = Σ (ImponibileImporto + Imposta) + Arrotondamento.
func checkRiepilogo(t *testing.T, doc []byte) {
	t.Helper()
	sum := model.DecimalFromInt(0)
	for _, r := range reRiep.FindAll(doc, -1) {
		rate := model.MustParseDecimal(string(reField("AliquotaIVA").FindSubmatch(r)[1]))
		imp := model.MustParseDecimal(string(reField("ImponibileImporto").FindSubmatch(r)[1]))
		tax := model.MustParseDecimal(string(reField("Imposta").FindSubmatch(r)[1]))
		if want := carry.Percent(imp, rate); !want.Equal(tax) {
			t.Errorf("Imposta %s, want %s", tax, want)
		}
		sum = sum.Add(imp).Add(tax)
	}
	if m := reField("Arrotondamento").FindSubmatch(doc); m != nil {
		sum = sum.Add(model.MustParseDecimal(string(m[1])))
	}
	tot := model.MustParseDecimal(string(reField("ImportoTotaleDocumento").FindSubmatch(doc)[1]))
	if !tot.Equal(sum) {
		t.Errorf("ImportoTotaleDocumento %s, Σ DatiRiepilogo %s", tot, sum)
	}
}

func problemsOf(t *testing.T, err error) model.Problems {
	t.Helper()
	var ps model.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("want model.Problems, got %v", err)
	}
	return ps
}

func hasLoc(ps model.Problems, loc string) bool {
	for _, p := range ps {
		if model.LocString(p.Loc) == loc {
			return true
		}
	}
	return false
}

func TestGenerateRefuses(t *testing.T) {
	cases := []struct {
		name        string
		inv, extras map[string]any
		loc, typ    string
	}{
		{"unknown_type_code", map[string]any{"type_code": "386"}, nil, "body.invoice.type_code", model.ProblemValueError},
		{"zero_rate_without_natura", map[string]any{"lines": []any{zeroLine("1", "STANDARD")}}, nil, "body.invoice.lines[0].category", model.ProblemValueError},
		{"zero_rate_zero_category", map[string]any{"lines": []any{zeroLine("1", "ZERO")}}, nil, "body.invoice.lines[0].category", model.ProblemValueError},
		{"not_carried_buyer_reference", map[string]any{"buyer_reference": "REF-1"}, nil, "body.invoice.buyer_reference", ProblemNotCarried},
		{"not_carried_item_description", map[string]any{"lines": []any{map[string]any{"id": "1", "quantity": "1", "unit_code": "C62", "net_price": "1", "category": "STANDARD", "vat_rate": "22", "item": map[string]any{"name": "x", "description": "long"}}}}, nil, "body.invoice.lines[0].item.description", ProblemNotCarried},
		{"not_carried_document_allowance", map[string]any{"allowances": []any{map[string]any{"amount": "1", "category": "STANDARD", "vat_rate": "22"}}}, nil, "body.invoice.allowances[0].amount", ProblemNotCarried},
		{"natura_on_taxed_line", nil, map[string]any{"natura": map[string]any{"1": "N4"}}, "body.extras.natura.1", model.ProblemValueError},
		{"natura_unknown_line", nil, map[string]any{"natura": map[string]any{"99": "N4"}}, "body.extras.natura.99", model.ProblemValueError},
		{"seller_without_vat", map[string]any{"seller": map[string]any{"name": "A", "address": map[string]any{"line1": "x", "city": "y", "post_code": "00100", "country_code": "IT"}}}, nil, "body.invoice.seller.vat_id", model.ProblemMissing},
		{"quantity_too_large", map[string]any{"lines": []any{map[string]any{"id": "1", "quantity": "1234567890123", "unit_code": "C62", "net_price": "0.01", "category": "STANDARD", "vat_rate": "22", "item": map[string]any{"name": "x"}}}}, nil, "body.invoice.lines[0].quantity", model.ProblemValueError},
		{"inconsistent_payable", map[string]any{"totals": map[string]any{"payable_amount": "30.00"}}, nil, "body.invoice.totals.payable_amount", model.ProblemCalculation},
		{"inconsistent_vat", map[string]any{"vat_breakdown": []any{map[string]any{"category": "STANDARD", "vat_rate": "22", "tax_amount": "5.60"}}}, nil, "body.invoice.totals.tax_amount", model.ProblemCalculation},
		{"sconto_not_per_unit", map[string]any{"lines": []any{map[string]any{"id": "1", "quantity": "3", "unit_code": "C62", "net_price": "10", "category": "STANDARD", "vat_rate": "22",
			"item": map[string]any{"name": "x"}, "allowances": []any{map[string]any{"amount": "1", "reason": "r"}}}}}, nil, "body.invoice.lines[0].allowances[0].amount", model.ProblemValueError},
		{"reference_without_attachment", map[string]any{"supporting_documents": []any{map[string]any{"id": "X-1", "description": "only a reference"}}}, nil, "body.invoice.supporting_documents[0].attachment", model.ProblemMissing},
		{"external_location", map[string]any{"supporting_documents": []any{map[string]any{"id": "X-1", "external_location": "https://example.com/x"}}}, nil, "body.invoice.supporting_documents[0].external_location", ProblemNotCarried},
		{"inconsistent_total", map[string]any{"totals": map[string]any{"tax_inclusive_amount": "31.00"}}, nil, "body.invoice.totals.tax_inclusive_amount", model.ProblemCalculation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := decodeInv(t, patch(t, baseInvoice, c.inv))
			ex := decodeEx(t, patch(t, baseExtras, c.extras))
			res, err := Generate(inv, ex, "body")
			if err == nil {
				t.Fatalf("accepted:\n%s", res.XML)
			}
			ps := problemsOf(t, err)
			if !hasLoc(ps, c.loc) {
				t.Fatalf("no problem at %s: %v", c.loc, ps)
			}
			for _, p := range ps {
				if model.LocString(p.Loc) == c.loc && p.Type != c.typ {
					t.Errorf("type %s, want %s", p.Type, c.typ)
				}
			}
		})
	}
}

func TestNaturaDefaults(t *testing.T) {
	want := map[model.VATCategoryCode]string{"E": "N4", "K": "N3.2", "G": "N3.1", "AE": "N6.9", "O": "N2.2"}
	for code, n := range want {
		if got, ok := NaturaFor(code); !ok || got != n {
			t.Errorf("%s -> %s %v, want %s", code, got, ok, n)
		}
	}
	for _, code := range []model.VATCategoryCode{"S", "Z", "L", "M", "B"} {
		if n, ok := NaturaFor(code); ok {
			t.Errorf("%s has default %s", code, n)
		}
	}
	for _, n := range want {
		if !strings.HasPrefix(n, "N") {
			t.Fatal(n)
		}
	}
}

// TestXSDGateBites makes sure the XSD check of these tests would catch an
// invalid document (a TD code outside the list, an element out of order).
func TestXSDGateBites(t *testing.T) {
	res, err := Generate(decodeInv(t, baseInvoice), decodeEx(t, baseExtras))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schemaOnce()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{
		bytes.Replace(res.XML, []byte("<TipoDocumento>TD01"), []byte("<TipoDocumento>TD99"), 1),
		bytes.Replace(res.XML, []byte("<Numero>"), []byte("<Natura>N4</Natura><Numero>"), 1),
	} {
		errs, err := s.Validate(t.Context(), bad)
		if err != nil {
			t.Fatal(err)
		}
		if len(errs) == 0 {
			t.Errorf("invalid document accepted")
		}
	}
}

func TestFits(t *testing.T) {
	for _, c := range []struct {
		v    string
		d    int32
		want bool
	}{{"999999999999.99", 12, true}, {"1000000000000", 12, false}, {"-99999999999.99", 11, true}, {"-100000000000", 11, false}, {"0", 1, true}} {
		if got := fits(model.MustParseDecimal(c.v), c.d); got != c.want {
			t.Errorf("fits(%s, %d) = %v", c.v, c.d, got)
		}
	}
}

// TestRandomRequests: 500 random invoices within FatturaPA's scope
// (RandomRequest, from model.RandomInvoice) are written XSD-valid.
func TestRandomRequests(t *testing.T) {
	for seed := range nationaltest.Seeds(500) {
		inv, ex, err := RandomRequest(rand.New(rand.NewPCG(seed, 0x17)))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		res, err := Generate(inv, ex, "body")
		if err != nil {
			b, _ := model.EncodeInvoice(inv)
			t.Fatalf("seed %d: %v\n%s", seed, err, b)
		}
		xsdValid(t, res.XML)
	}
}
