package httpapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// corpusRefusals are the corpus PDFs pdfa/convert and facturx/embed refuse,
// with the reason the 422 must name. corruptedV2PDF has a page boundary
// veraPDF rejects (ISO 19005-3 6.1.13: under 3 units); Ghostscript keeps
// the page as it is, so the converted file fails veraPDF and is refused.
var corpusRefusals = map[string]string{
	"corruptedV2PDF": "6.1.13",
}

// newConvServer is a test server with the real converter, engine and
// veraPDF worker, and a request time limit for loaded CI machines.
func newConvServer(t *testing.T, mutate func(*ops.Service)) *Server {
	t.Helper()
	pdftestgen.Need(t, "gs", "pdfdetach")
	v, err := lazyEngine()
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	svc := &ops.Service{Validator: v, PDFAConverter: pdfaconv.New(pdfaconv.Config{Timeout: 3 * time.Minute}), VeraPDF: verapdftest.Client(t)}
	if mutate != nil {
		mutate(svc)
	}
	s, _ := newTestServer(t, func(c *Config) { c.Ops = svc; c.RequestTimeout = 5 * time.Minute })
	return s
}

type formFile struct {
	field, name, mime string
	data              []byte
}

// multipartBody writes values and files as multipart/form-data.
func multipartBody(t testing.TB, values map[string]string, files ...formFile) ([]byte, reqOpt) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range values {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{`form-data; name="` + f.field + `"; filename="` + f.name + `"`}
		if f.mime != "" {
			h["Content-Type"] = []string{f.mime}
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(f.data)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), withHeader("Content-Type", mw.FormDataContentType())
}

func corpusPDFs(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	root := filepath.Join(testshared.Dir(t), "corpus", "pdf")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".pdf") {
			return err
		}
		b, err := os.ReadFile(p)
		out[strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))] = b
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("no corpus PDFs under %s: %v", root, err)
	}
	return out
}

// checkConverted asserts a 200 PDF/A-3b answer with want embedded
// byte-identical (pdfdetach) and every new file of rel related.
func checkConverted(t *testing.T, w *httptest.ResponseRecorder, want map[string][]byte, rels map[string]string) {
	t.Helper()
	if w.Code != http.StatusOK {
		t.Fatalf("%d %.600s", w.Code, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != mediaPDF {
		t.Errorf("Content-Type %q", ct)
	}
	pdf := w.Body.Bytes()
	verapdftest.AssertCompliant(t, pdf, "3b")
	got := pdfatest.Detach(t, pdf)
	for n, b := range want {
		if !bytes.Equal(got[n], b) {
			t.Errorf("embedded %s: %d bytes, want %d identical bytes", n, len(got[n]), len(b))
		}
	}
	doc, err := pdfread.Open(pdf, pdfread.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	atts, err := doc.Attachments()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range atts {
		if !a.InAF {
			t.Errorf("%s is not in the catalog /AF", a.Name)
		}
		if r, ok := rels[a.Name]; ok && a.Relationship != r {
			t.Errorf("%s: AFRelationship %q, want %q", a.Name, a.Relationship, r)
		}
	}
}

func TestPDFAConvertRoute(t *testing.T) {
	s := newConvServer(t, nil)
	extra := []formFile{
		{"attachments", "notes.txt", "text/plain; charset=utf-8", []byte("hello\n")},
		{"attachments", "data.xml", "", []byte("<d>1</d>")},
	}
	for _, tc := range pdftestgen.All() {
		t.Run(tc.Name, func(t *testing.T) {
			body, ct := multipartBody(t, nil, append([]formFile{{"pdf", tc.Name + ".pdf", mediaPDF, tc.PDF}}, extra...)...)
			w := do(t, s, "POST", "/v1/pdfa/convert?relationship=Source", body, ct, keyHdr)
			want := map[string][]byte{}
			for _, n := range tc.Attachments {
				want[n] = pdftestgen.AttachedFiles[n]
			}
			// An uploaded file replaces the input's own file of that name.
			want["notes.txt"], want["data.xml"] = []byte("hello\n"), []byte("<d>1</d>")
			checkConverted(t, w, want, map[string]string{"notes.txt": "Source", "data.xml": "Source"})
			if got := w.Header().Get(HeaderPDFAPages); got != strconv.Itoa(tc.Pages) {
				t.Errorf("%s = %q, want %d", HeaderPDFAPages, got, tc.Pages)
			}
		})
	}
}

func TestPDFAConvertRouteCorpus(t *testing.T) {
	s := newConvServer(t, nil)
	for name, pdf := range corpusPDFs(t) {
		t.Run(name, func(t *testing.T) {
			body, ct := multipartBody(t, nil, formFile{"pdf", name + ".pdf", mediaPDF, pdf}, formFile{"attachments", "extra.txt", "text/plain", []byte("x")})
			w := do(t, s, "POST", "/v1/pdfa/convert", body, ct, keyHdr)
			if reason, refused := corpusRefusals[name]; refused {
				if w.Code != 422 || !strings.Contains(w.Body.String(), reason) {
					t.Fatalf("want 422 naming %s, got %d %.400s", reason, w.Code, w.Body.String())
				}
				return
			}
			want := map[string][]byte{"extra.txt": []byte("x")}
			for n, b := range pdfatest.Detach(t, pdf) {
				want[n] = b
			}
			checkConverted(t, w, want, map[string]string{"extra.txt": "Data"})
		})
	}
}

func TestPDFAConvertRouteErrors(t *testing.T) {
	pdftestgen.Need(t, "qpdf")
	s := newConvServer(t, nil)
	plain := pdftestgen.Helvetica().PDF
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, plain, 0o600); err != nil {
		t.Fatal(err)
	}
	encrypted := pdftestgen.Encrypt(t, in, "user")
	pdfPart := func(b []byte) formFile { return formFile{"pdf", "in.pdf", mediaPDF, b} }
	cases := []struct {
		name   string
		target string
		files  []formFile
		values map[string]string
		code   int
		typ    string
		loc    []any
		detail string
	}{
		{name: "encrypted", files: []formFile{pdfPart(encrypted)}, code: 422, typ: "value_error", loc: []any{"body", "pdf"}, detail: "encrypted"},
		{name: "not a PDF", files: []formFile{pdfPart([]byte("hello"))}, code: 422, typ: "value_error", loc: []any{"body", "pdf"}, detail: "not a PDF"},
		{name: "truncated", files: []formFile{pdfPart(plain[:len(plain)/3])}, code: 422, typ: "value_error", loc: []any{"body", "pdf"}, detail: "page"},
		{name: "no pdf", files: []formFile{{"attachments", "a.txt", "", []byte("a")}}, code: 422, typ: "missing", loc: []any{"body", "pdf"}},
		{name: "unknown field", files: []formFile{pdfPart(plain)}, values: map[string]string{"foo": "1"}, code: 422, typ: "extra_forbidden", loc: []any{"body", "foo"}},
		{name: "bad relationship", target: "?relationship=Friend", files: []formFile{pdfPart(plain)}, code: 422, typ: "enum", loc: []any{"query", "relationship"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, ct := multipartBody(t, tc.values, tc.files...)
			w := do(t, s, "POST", "/v1/pdfa/convert"+tc.target, body, ct, keyHdr)
			if w.Code != tc.code {
				t.Fatalf("%d %s", w.Code, w.Body.String())
			}
			if fs := fieldErrors(t, w); !hasField(fs, tc.typ, tc.loc...) {
				t.Fatalf("want %s at %v: %s", tc.typ, tc.loc, w.Body.String())
			}
			if !strings.Contains(w.Body.String(), tc.detail) {
				t.Errorf("body does not name %q: %s", tc.detail, w.Body.String())
			}
		})
	}
	body, ct := multipartBody(t, nil, pdfPart(plain))
	if w := do(t, s, "POST", "/v1/pdfa/convert", body, ct); w.Code != http.StatusUnauthorized {
		t.Errorf("no key: %d", w.Code)
	}

	// Ghostscript or veraPDF missing: 503 saying so, never an unchecked PDF.
	noGS := newConvServer(t, func(svc *ops.Service) {
		svc.PDFAConverter = pdfaconv.New(pdfaconv.Config{Ghostscript: "/nonexistent/gs"})
	})
	if w := do(t, noGS, "POST", "/v1/pdfa/convert", body, ct, keyHdr); w.Code != http.StatusServiceUnavailable || !strings.Contains(detailString(t, w), "Ghostscript") {
		t.Errorf("without Ghostscript: %d %s", w.Code, w.Body.String())
	}
	noVera := newConvServer(t, func(svc *ops.Service) { svc.VeraPDF = nil })
	if w := do(t, noVera, "POST", "/v1/pdfa/convert", body, ct, keyHdr); w.Code != http.StatusServiceUnavailable || !strings.Contains(detailString(t, w), "veraPDF") {
		t.Errorf("without veraPDF: %d %s", w.Code, w.Body.String())
	}
}

// embedInvoice is a random EN 16931 invoice as JSON text (the form's
// invoice field) and the same as a generate body.
func embedInvoice(t *testing.T, seed uint64) (invoice, generateBody []byte) {
	t.Helper()
	inv, err := model.EncodeInvoice(model.RandomInvoice(rand.New(rand.NewPCG(seed, 5)), model.RandomOptions{Lines: 3, Categories: []model.VATCategoryCode{model.VATStandard}}))
	if err != nil {
		t.Fatal(err)
	}
	return inv, append(append([]byte(`{"invoice":`), inv...), '}')
}

func TestEmbedFacturXRoute(t *testing.T) {
	s := newConvServer(t, nil)
	invoice, genBody := embedInvoice(t, 7)
	w := do(t, s, "POST", "/v1/generate/cii?profile=facturx_en16931", genBody, jsonCT, keyHdr)
	if w.Code != 200 {
		t.Fatalf("generate/cii: %d %s", w.Code, w.Body.String())
	}
	cii := w.Body.Bytes()

	pdfs := corpusPDFs(t)
	for _, tc := range pdftestgen.All() {
		pdfs["generated-"+tc.Name] = tc.PDF
	}
	for name, pdf := range pdfs {
		t.Run(name, func(t *testing.T) {
			field := invoice
			if name == "generated-helvetica" {
				field = genBody // a generate body {"invoice": ...} is taken too
			}
			body, ct := multipartBody(t, map[string]string{"invoice": string(field)}, formFile{"pdf", name + ".pdf", mediaPDF, pdf})
			w := do(t, s, "POST", "/v1/generate/facturx/embed", body, ct, keyHdr)
			if reason, refused := corpusRefusals[name]; refused {
				if w.Code != 422 || !strings.Contains(w.Body.String(), reason) {
					t.Fatalf("want 422 naming %s, got %d %.400s", reason, w.Code, w.Body.String())
				}
				return
			}
			want := map[string][]byte{}
			for n, b := range pdfatest.Detach(t, pdf) {
				want[n] = b
			}
			want["factur-x.xml"] = cii // replaces a factur-x.xml the PDF had
			checkConverted(t, w, want, map[string]string{"factur-x.xml": "Alternative"})
			doc, err := pdfread.Open(w.Body.Bytes(), pdfread.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			xmp, err := doc.Metadata()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>", "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>", "<fx:DocumentType>INVOICE</fx:DocumentType>", "<pdfaid:part>3</pdfaid:part>"} {
				if !bytes.Contains(xmp, []byte(s)) {
					t.Errorf("XMP lacks %s", s)
				}
			}
		})
	}
}

func TestEmbedFacturXRouteErrors(t *testing.T) {
	s := newConvServer(t, nil)
	plain := pdftestgen.Helvetica().PDF
	invoice, _ := embedInvoice(t, 8)
	var inv map[string]any
	mustJSON(t, invoice, &inv)
	delete(inv, "seller")
	noSeller, _ := json.Marshal(inv)
	cases := []struct {
		name    string
		invoice string
		pdf     []byte
		typ     string
		loc     []any
	}{
		{"invoice not JSON", "{nope", plain, "json_invalid", []any{"body", "invoice"}},
		{"invoice without seller", string(noSeller), plain, "missing", []any{"body", "invoice", "seller"}},
		{"not a PDF", string(invoice), []byte("%!PS"), "value_error", []any{"body", "pdf"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, ct := multipartBody(t, map[string]string{"invoice": tc.invoice}, formFile{"pdf", "in.pdf", mediaPDF, tc.pdf})
			w := do(t, s, "POST", "/v1/generate/facturx/embed", body, ct, keyHdr)
			if w.Code != 422 || !hasField(fieldErrors(t, w), tc.typ, tc.loc...) {
				t.Fatalf("want 422 %s at %v: %d %s", tc.typ, tc.loc, w.Code, w.Body.String())
			}
		})
	}
}
