package ops_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/render"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/facturx"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"

	"github.com/einvoice-dev/einvoice/internal/benchcpu"
)

// scripts are party and item names in the scripts the property test mixes
// in: the Go fonts draw Latin, Greek and Cyrillic; CJK and Arabic are drawn
// as replacement boxes but must neither crash nor break PDF/A.
var scripts = []struct {
	name        string
	seller      string
	item        string
	extractable bool // pdftotext gives the name back in logical order
}{
	{"latin", "Société Générale d'Études GmbH & Co. KG", "Übergrößenträger «Spezial»", true},
	{"greek", "Ελληνική Εταιρεία Λογισμικού Α.Ε.", "Υπηρεσίες συμβούλου", true},
	{"cyrillic", "ООО «Рога и копыта»", "Консультационные услуги", true},
	{"cjk", "株式会社テスト商事", "软件开发服务", true},
	{"arabic", "شركة الاختبار المحدودة", "خدمات استشارية", false},
}

// facturXCase is one generated invoice of the property test.
type facturXCase struct {
	seed   uint64
	script int
	inv    *model.Invoice
	body   []byte
}

func facturXCases(t testing.TB, n int) []facturXCase {
	cases := make([]facturXCase, n)
	for i := range cases {
		seed := uint64(1000 + i)
		r := rand.New(rand.NewPCG(seed, 11))
		lines := 1 + r.IntN(12)
		if i%10 == 0 {
			lines = 40 + r.IntN(80) // several pages
		}
		inv := model.RandomInvoice(rand.New(rand.NewPCG(seed, 7)), model.RandomOptions{Lines: lines})
		sc := i % len(scripts)
		inv.Seller.Name = scripts[sc].seller
		inv.Buyer.Name = scripts[(sc+1)%len(scripts)].seller
		for j := range inv.Lines {
			if j%2 == 0 {
				inv.Lines[j].Item.Name = scripts[sc].item
			}
		}
		b, err := model.EncodeInvoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		cases[i] = facturXCase{seed: seed, script: sc, inv: inv, body: append(append([]byte(`{"invoice":`), b...), '}')}
	}
	return cases
}

// TestGenerateFacturXProperty generates 200 random invoices (1 to 12
// lines, every tenth 40 to 120 lines over several pages, every VAT
// category RandomInvoice knows, names in Latin, Greek, Cyrillic, CJK and
// Arabic) and checks each PDF: veraPDF PDF/A-3b compliant, qpdf --check
// clean, the embedded
// factur-x.xml byte-identical to the generated CII, and pdftotext finds the
// invoice id, issue date, currency, payable amount and the names.
func TestGenerateFacturXProperty(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	s := engineService(t)
	cases := facturXCases(t, n)
	type result struct {
		res *ops.FacturXResult
		err error
	}
	results := make([]result, n)
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < n; i += 2 {
				res, err := s.GenerateFacturX(context.Background(), cases[i].body)
				results[i] = result{res, err}
			}
		})
	}
	wg.Wait()
	cats := map[model.VATCategoryCode]bool{}
	multiPage := 0
	// veraPDF runs concurrently with the poppler checks
	verdicts := make(chan error, n)
	go func() {
		for i, r := range results {
			if r.err != nil {
				verdicts <- nil
				continue
			}
			res, err := verapdftest.Client(t).Validate(context.Background(), r.res.PDF, "3b")
			switch {
			case err != nil:
				verdicts <- fmt.Errorf("case %d: veraPDF: %w", i, err)
			case !res.Compliant:
				verdicts <- fmt.Errorf("case %d (seed %d): not PDF/A-3b:\n%s", i, cases[i].seed, verapdftest.Describe(res))
			default:
				verdicts <- nil
			}
		}
	}()
	for i, r := range results {
		c := cases[i]
		if r.err != nil {
			t.Errorf("case %d (seed %d, %s): %v", i, c.seed, scripts[c.script].name, r.err)
			continue
		}
		res := r.res
		if res.Level != facturx.EN16931 || res.Profile != ops.FacturXProfile {
			t.Errorf("case %d: level %q profile %q", i, res.Level, res.Profile)
		}
		pdfatest.QPDFCheck(t, res.PDF)
		files := pdfatest.Detach(t, res.PDF)
		if len(files) != 1 || !bytes.Equal(files[facturx.FileName], res.XML) {
			t.Errorf("case %d: embedded files %d, factur-x.xml identical to the CII: %v", i, len(files), bytes.Equal(files[facturx.FileName], res.XML))
		}
		text := pdfatest.Text(t, res.PDF)
		words := " " + strings.Join(strings.Fields(text), " ") + " "
		inv := c.inv
		want := []string{inv.ID, render.FormatDate(render.English, &inv.IssueDate), inv.CurrencyCode,
			render.FormatAmount(render.English, inv.Totals.PayableAmount)}
		if scripts[c.script].extractable {
			want = append(want, scripts[c.script].seller)
		}
		for _, w := range want {
			if !strings.Contains(words, " "+strings.Join(strings.Fields(w), " ")+" ") {
				t.Errorf("case %d (seed %d, %s): pdftotext does not find %q", i, c.seed, scripts[c.script].name, w)
			}
		}
		if pages := strings.Count(text, "\f"); pages > 1 {
			multiPage++
		}
		for j := range inv.Lines {
			cats[inv.Lines[j].CategoryCode()] = true
		}
	}
	for range n {
		if err := <-verdicts; err != nil {
			t.Error(err)
		}
	}
	for _, c := range []model.VATCategoryCode{model.VATStandard, model.VATZero, model.VATExempt, model.VATReverseCharge,
		model.VATIntraCommunity, model.VATExport, model.VATCanaryIGIC, model.VATCeutaMelillaIPS, model.VATOutOfScope} {
		if !cats[c] {
			t.Errorf("no generated invoice used VAT category %s", c)
		}
	}
	if multiPage < n/20 {
		t.Errorf("only %d of %d PDFs have several pages", multiPage, n)
	}
}

// TestGenerateFacturXRefusals: a body the generate gate refuses is the same
// 422 (*ops.RequestError) as generate/cii, and no PDF is produced.
func TestGenerateFacturXRefusals(t *testing.T) {
	s := engineService(t)
	for name, body := range map[string]string{
		"not json":        `{"invoice":`,
		"missing invoice": `{}`,
		"no lines":        `{"invoice":{"id":"X","issue_date":"2025-01-01","type_code":"380","currency_code":"EUR","seller":{"name":"S","address":{"country_code":"DE"}},"buyer":{"name":"B","address":{"country_code":"DE"}},"lines":[]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.GenerateFacturX(context.Background(), []byte(body))
			_, cerr := s.Generate(context.Background(), ops.GenerateRequest{Syntax: "cii", Profile: ops.FacturXProfile, Validate: true, Body: []byte(body)})
			var re, cre *ops.RequestError
			if !errors.As(err, &re) || !errors.As(cerr, &cre) {
				t.Fatalf("want *ops.RequestError from both, got %v and %v", err, cerr)
			}
			if fmt.Sprint(re.Fields) != fmt.Sprint(cre.Fields) {
				t.Errorf("facturx 422 differs from generate/cii's:\n%v\n%v", re.Fields, cre.Fields)
			}
		})
	}
}

// TestGenerateFacturXNoICC: without the sRGB profile the operation is not
// available (501 naming the profile), never a PDF without output intent.
func TestGenerateFacturXNoICC(t *testing.T) {
	s := engineService(t)
	s2 := *s
	s2.ICCProfile = "/nonexistent/sRGB.icc"
	_, err := s2.GenerateFacturX(context.Background(), randomBody(t, 1, model.RandomOptions{Lines: 2}))
	var ni *ops.NotImplementedError
	if !errors.As(err, &ni) || !strings.Contains(err.Error(), "icc-profiles-free") {
		t.Fatalf("want a NotImplementedError naming icc-profiles-free, got %v", err)
	}
}

// TestConvertToFacturX: official UBL and CII examples become Factur-X
// PDFs; the CII source is embedded unchanged, the UBL one as the ubl-to-cii
// conversion writes it; a profile outside the Factur-X ones is a 422.
func TestConvertToFacturX(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	ublSrc := readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	ciiSrc := readShared(t, "corpus/en16931/cii/examples/CII_business_example_01.xml")

	u, err := s.ConvertToFacturX(ctx, ops.ConvertRequest{Direction: "ubl-to-facturx", Body: ublSrc})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.Convert(ctx, ops.ConvertRequest{Direction: "ubl-to-cii", Profile: ops.FacturXProfile, Body: ublSrc})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(u.XML, conv.XML) || !bytes.Equal(pdfatest.Detach(t, u.PDF)[facturx.FileName], conv.XML) {
		t.Error("ubl-to-facturx does not embed the ubl-to-cii conversion")
	}
	c, err := s.ConvertToFacturX(ctx, ops.ConvertRequest{Direction: "cii-to-facturx", Profile: "facturx_en16931", Body: ciiSrc})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pdfatest.Detach(t, c.PDF)[facturx.FileName], ciiSrc) {
		t.Error("cii-to-facturx does not embed the source unchanged")
	}
	ext, err := s.ConvertToFacturX(ctx, ops.ConvertRequest{Direction: "cii-to-facturx", Profile: "facturx_extended",
		Body: readShared(t, "corpus/factur-x/akretion/factur-x-extended.xml")})
	if err != nil {
		t.Fatal(err)
	}
	if ext.Level != facturx.Extended || !bytes.Contains(ext.PDF, []byte("<fx:ConformanceLevel>EXTENDED</fx:ConformanceLevel>")) {
		t.Errorf("EXTENDED source: level %q", ext.Level)
	}
	for _, p := range [][]byte{u.PDF, c.PDF, ext.PDF} {
		verapdftest.AssertPDFA3B(t, p)
	}
	if !strings.Contains(pdfatest.Text(t, c.PDF), "TOSL108") {
		t.Error("the CII example's invoice number is not printed")
	}
	for _, bad := range []ops.ConvertRequest{
		{Direction: "ubl-to-facturx", Profile: "peppol", Body: ublSrc},
		{Direction: "cii-to-facturx", Body: ublSrc},
		{Direction: "cii-to-facturx", Body: []byte("<a")},
		{Direction: "xrechnung-to-facturx", Body: ciiSrc},
	} {
		_, err := s.ConvertToFacturX(ctx, bad)
		var re *ops.RequestError
		if !errors.As(err, &re) {
			t.Errorf("%s profile %q: want a 422, got %v", bad.Direction, bad.Profile, err)
		}
	}
}

// BenchmarkGenerateFacturX is generate/facturx of a 10-line invoice:
// decode, complete, CII, gate, layout, PDF/A-3b with the CII embedded
// ("total"), and the gated CII generation alone ("gate"). cpu-ms/op is the
// process CPU time per operation (getrusage), which a loaded machine
// inflates far less than the wall time.
func BenchmarkGenerateFacturX(b *testing.B) {
	s := engineService(b)
	body := randomBody(b, 42, model.RandomOptions{Lines: 10})
	for name, op := range map[string]func() error{
		"total": func() error { _, err := s.GenerateFacturX(context.Background(), body); return err },
		"gate": func() error {
			_, err := s.Generate(context.Background(), ops.GenerateRequest{Syntax: "cii", Profile: ops.FacturXProfile, Validate: true, Body: body})
			return err
		},
	} {
		b.Run(name, func(b *testing.B) {
			if err := op(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu0 := benchcpu.Process()
			for b.Loop() {
				if err := op(); err != nil {
					b.Fatal(err)
				}
			}
			benchcpu.ReportMS(b, cpu0)
		})
	}
}

// BenchmarkFacturXPDF is the PDF part alone (layout and serialization of a
// 10-line invoice with its CII embedded).
func BenchmarkFacturXPDF(b *testing.B) {
	inv := model.RandomInvoice(rand.New(rand.NewPCG(42, 7)), model.RandomOptions{Lines: 10})
	xml := []byte("<rsm:CrossIndustryInvoice/>")
	b.ReportAllocs()
	cpu0 := benchcpu.Process()
	for b.Loop() {
		if _, err := ops.FacturXPDF(context.Background(), inv, xml, facturx.EN16931, time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportMS(b, cpu0)
}
