package render

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
)

// coverageGlobs are the corpus examples of the coverage test: EN 16931,
// Peppol BIS Billing, XRechnung, Factur-X EN16931 and EXTENDED.
var coverageGlobs = []string{
	"corpus/en16931/ubl/examples/*.xml", "corpus/en16931/ubl/examples/*.XML", "corpus/en16931/cii/examples/*.xml",
	"corpus/peppol-bis-billing/*/examples/*.xml", "corpus/peppol-bis-billing/*/self-billing-examples/*.xml",
	"corpus/xrechnung/test/instances/*/*.xml", "corpus/xrechnung-testsuite/technical-cases/*/*.xml",
	"corpus/factur-x/1.09.2/phive-test-files/en16931/*.xml", "corpus/factur-x/1.09.2/phive-test-files/extended/*.xml",
	"corpus/factur-x/akretion/*en16931*.xml", "corpus/factur-x/akretion/*extended*.xml", "corpus/factur-x/akretion/zugferd-comfort.xml",
	// Sub-invoice lines: the XRechnung BR-DEX instances are under
	// xrechnung/test/instances above; Mustang's CII hierarchy example:
	"corpus/mustang/validator-test-resources/invalidSubInvoiceLineHierarchy.xml",
}

func coverageFiles(t *testing.T) []string {
	t.Helper()
	dir := testshared.Dir(t)
	var files []string
	for _, g := range coverageGlobs {
		m, err := filepath.Glob(filepath.Join(dir, g))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) < 400 {
		t.Fatalf("only %d corpus examples under %s", len(files), dir)
	}
	return files
}

// notShown are the consumed source values the views deliberately do not
// print (docs/RENDERING.md, "Not shown"): the end of the source path with
// the positions removed, optionally "=value" when only that value is left
// out. Each entry says why.
var notShown = map[string]string{
	"/ChargeIndicator":                                  "UBL true/false: the row is listed under allowances or under charges",
	"/ChargeIndicator/Indicator":                        "CII true/false: as UBL ChargeIndicator",
	"/@format":                                          "CII date format 102: the date is shown formatted",
	"/EmbeddedDocumentBinaryObject":                     "attachment content (base64): file name, MIME code and size are shown",
	"/AttachmentBinaryObject":                           "CII attachment content (base64): file name, MIME code and size are shown",
	"/@currencyID":                                      "the currency of every amount is BT-5 (BT-6 for BT-111), shown once",
	"/@schemaLocation":                                  "xsi:schemaLocation: a hint for XML tools, no invoice content",
	"/TaxScheme/ID":                                     "UBL tax scheme VAT (or the scheme that marks BT-32): fixed by EN 16931",
	"/SpecifiedTaxRegistration/ID/@schemeID":            "CII VA/FC: says whether the identifier is the VAT identifier or the tax registration identifier, shown under its BT",
	"/CategoryTradeTax/TypeCode":                        "CII tax type VAT: fixed by EN 16931",
	"/ApplicableTradeTax/TypeCode":                      "CII tax type VAT: fixed by EN 16931",
	"/AdditionalReferencedDocument/TypeCode":            "CII 916/50/130: says which business term the reference is, shown under that BT",
	"/AdditionalDocumentReference/DocumentTypeCode":     "UBL 130/50: says which business term the reference is, shown under that BT",
	"/DocumentReference/DocumentTypeCode=130":           "UBL line 130: marks the line object identifier BT-128, shown under its BT",
	"/SpecifiedProcuringProject/Name=Project reference": "CII placeholder name of BT-11 (the model keeps no placeholder)",
	"/OrderReference/ID=NA":                             "UBL placeholder purchase order reference when only a sales order reference exists",
}

var positionRE = regexp.MustCompile(`\[[0-9]+\]`)

// skipLeaf reports whether the consumed leaf at path with value is one of
// notShown.
func skipLeaf(path, value string) bool {
	p := positionRE.ReplaceAllString(path, "")
	for k := range notShown {
		suffix, want, hasValue := strings.Cut(k, "=")
		if strings.HasSuffix(p, suffix) && (!hasValue || want == value) {
			return true
		}
	}
	return false
}

// leaf is one consumed source value.
type leaf struct {
	path, value string
}

// consumedLeaves lists the text of every consumed leaf element and the
// value of every consumed attribute of src (the reader's Unconsumed roots
// and everything below them are left out).
func consumedLeaves(src *Source) []leaf {
	doc := src.Doc
	unc := map[string]bool{}
	for _, u := range src.Unconsumed {
		unc[u.Path] = true
	}
	skip := make([]bool, doc.Len())
	var out []leaf
	for n := xmltree.NodeID(1); int(n) < doc.Len(); n++ {
		k := doc.Kind(n)
		if k != xmltree.KindElement && k != xmltree.KindAttribute {
			continue
		}
		if skip[n] {
			continue
		}
		path := doc.Path(n)
		if unc[path] {
			for i := n; i < doc.SubtreeEnd(n) && int(i) < len(skip); i++ {
				skip[i] = true
			}
			continue
		}
		if k == xmltree.KindElement {
			hasChild := false
			for c := doc.FirstChild(n); c != xmltree.None; c = doc.NextSibling(c) {
				if doc.Kind(c) == xmltree.KindElement {
					hasChild = true
					break
				}
			}
			if hasChild {
				continue
			}
			v := strings.TrimSpace(doc.StringValue(n))
			if v == "" || skipLeaf(path, v) {
				continue
			}
			// A UBL note "#ADU#text" is read as subject code and text.
			if m := notePrefixRE.FindStringSubmatch(v); m != nil && doc.NameLocal(doc.Name(n)) == "Note" {
				out = append(out, leaf{path + " (BT-21)", m[1]}, leaf{path + " (BT-22)", m[2]})
				continue
			}
			out = append(out, leaf{path, v})
			continue
		}
		if v := strings.TrimSpace(doc.Value(n)); v != "" && !skipLeaf(path, v) {
			out = append(out, leaf{path, v})
		}
	}
	return out
}

var notePrefixRE = regexp.MustCompile(`(?s)^#([A-Z]{3})#(.*)$`)

// footerRE matches the page footers, which the text extraction places
// between the parts of a value that continues on the next page.
var footerRE = regexp.MustCompile(`(?m)^(Page|Seite) [0-9]+ (of|von) [0-9]+$`)

// squash removes every white-space character: values are compared without
// white space, since the PDFs wrap long values across lines.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
}

// candidates are the forms a source value may take in a view: as written,
// and formatted like the renderer formats dates, numbers and amounts.
func candidates(lang Lang, v string) []string {
	out := []string{v}
	if d, err := model.ParseDecimal(v); err == nil {
		out = append(out, FormatNumber(lang, &d), FormatAmount(lang, &d))
	}
	if dt, err := model.ParseDate(v); err == nil {
		out = append(out, FormatDate(lang, &dt))
	}
	if len(v) == 8 {
		if dt, err := model.ParseDate(v[:4] + "-" + v[4:6] + "-" + v[6:]); err == nil {
			out = append(out, FormatDate(lang, &dt))
		}
	}
	if c, ok := model.TaxPointCodeFromCII(v); ok {
		out = append(out, c)
	}
	return out
}

var tagRE = regexp.MustCompile(`(?s)<style.*?</style>|<[^>]*>`)

// htmlText is the text of an HTML page (tags removed, entities decoded).
func htmlText(page []byte) string {
	return html.UnescapeString(tagRE.ReplaceAllString(string(page), " "))
}

// pdfText is the text of a PDF as pdftotext (poppler-utils) extracts it.
func pdfText(t testing.TB, pdf []byte) string {
	t.Helper()
	s, err := extractText(pdf)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func extractText(pdf []byte) (string, error) {
	cmd := exec.Command("pdftotext", "-raw", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("pdftotext: %w: %s", err, stderr.String())
	}
	return string(out), nil
}

// veraPDFEvery is 1: the coverage test sends every PDF it renders to
// veraPDF (issue 8), two at a time while the rendering goes on (about 55 ms
// of CPU per PDF, docs/PERFORMANCE.md). For a quicker local run,
// EINVOICE_COVERAGE_VERAPDF_EVERY=n checks only the PDFs of every n-th example.
func veraPDFEvery(t *testing.T) int {
	t.Helper()
	v := os.Getenv("EINVOICE_COVERAGE_VERAPDF_EVERY")
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("EINVOICE_COVERAGE_VERAPDF_EVERY=%q: want a positive integer", v)
	}
	return n
}

// veraPDFChecker validates PDFs from two goroutines (the test binary's
// client runs up to two veraPDF workers) while the rendering continues.
type veraPDFChecker struct {
	t       *testing.T
	pdfs    chan namedPDF
	wg      sync.WaitGroup
	checked atomic.Int64
}

type namedPDF struct {
	name string
	pdf  []byte
}

func newVeraPDFChecker(t *testing.T, buffer int) *veraPDFChecker {
	c := &veraPDFChecker{t: t, pdfs: make(chan namedPDF, buffer)}
	client := verapdftest.Client(t)
	for range 2 {
		c.wg.Go(func() {
			for p := range c.pdfs {
				res, err := client.Validate(context.Background(), p.pdf, "3b")
				switch {
				case err != nil:
					t.Errorf("%s: veraPDF: %v", p.name, err)
				case !res.Compliant:
					t.Errorf("%s: not PDF/A-3b compliant:\n%s", p.name, verapdftest.Describe(res))
				}
				c.checked.Add(1)
			}
		})
	}
	return c
}

func (c *veraPDFChecker) check(name string, pdf []byte) { c.pdfs <- namedPDF{name, pdf} }

// wait returns the number of PDFs checked once all are.
func (c *veraPDFChecker) wait() int {
	close(c.pdfs)
	c.wg.Wait()
	return int(c.checked.Load())
}

// missing lists the leaves none of whose candidates is in text.
func missing(lang Lang, leaves []leaf, text string) []string {
	text = squash(footerRE.ReplaceAllString(text, ""))
	var out []string
	for _, l := range leaves {
		found := false
		for _, c := range candidates(lang, l.value) {
			if strings.Contains(text, squash(c)) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("%s = %q", l.path, l.value))
		}
	}
	return out
}

// TestCoverage renders every corpus example as HTML and as both PDFs and
// requires every consumed source value in each (see docs/RENDERING.md).
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus coverage: not in -short")
	}
	files := coverageFiles(t)
	dir := testshared.Dir(t)
	ctx := context.Background()
	var mu sync.Mutex
	rendered, refused := 0, 0
	every := veraPDFEvery(t)
	vera := newVeraPDFChecker(t, 2*len(files))
	work := make(chan string)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				name, _ := filepath.Rel(dir, f)
				b, err := os.ReadFile(f)
				if err != nil {
					t.Error(err)
					continue
				}
				src, err := Read(b)
				if err != nil {
					mu.Lock()
					refused++
					mu.Unlock()
					continue // not an invoice (a few test instances are other documents or broken on purpose)
				}
				leaves := consumedLeaves(src)
				lang := English
				if len(name)%2 == 0 {
					lang = German
				}
				page, err := HTML(ctx, src.Invoice, lang)
				if err != nil {
					t.Errorf("%s: HTML: %v", name, err)
					continue
				}
				if m := missing(lang, leaves, htmlText(page)); len(m) > 0 {
					t.Errorf("%s: HTML (%s) lacks %d values:\n  %s", name, lang, len(m), strings.Join(m, "\n  "))
				}
				for _, style := range []string{StyleCompact, StyleKosit} {
					pdf, err := PDF(ctx, src.Invoice, Options{Lang: lang, Style: style})
					if err != nil {
						t.Errorf("%s: PDF %s: %v", name, style, err)
						continue
					}
					if i := sort.SearchStrings(files, f); i%every == 0 {
						vera.check(name+" "+style, pdf)
					}
					txt, err := extractText(pdf)
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					if m := missing(lang, leaves, txt); len(m) > 0 {
						t.Errorf("%s: PDF %s (%s) lacks %d values:\n  %s", name, style, lang, len(m), strings.Join(m, "\n  "))
					}
				}
				mu.Lock()
				rendered++
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	checked := vera.wait()
	t.Logf("%d examples rendered and covered, %d not invoices, %d PDFs checked by veraPDF", rendered, refused, checked)
	if every == 1 && checked != 2*rendered {
		t.Errorf("veraPDF checked %d PDFs, want all %d", checked, 2*rendered)
	}
	if rendered < 350 {
		t.Errorf("only %d examples rendered", rendered)
	}
}
