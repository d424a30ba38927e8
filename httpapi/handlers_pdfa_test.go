package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/internal/golden"
	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// pdfaServer is a real HTTP server whose ops use the test binary's veraPDF worker.
func pdfaServer(t *testing.T, c *verapdf.Client) *httptest.Server {
	t.Helper()
	s, _ := newTestServer(t, func(cfg *Config) {
		cfg.Ops = &ops.Service{VeraPDF: c}
		cfg.RequestTimeout = 5 * time.Minute // the test machines are shared and loaded
	})
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func postPDF(t *testing.T, ts *httptest.Server, query string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := http.Post(ts.URL+"/v1/pdfa/validate"+query, "application/pdf", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func corpusPDF(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testshared.Dir(t), "corpus", "pdf", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeValidation(t *testing.T, body []byte) wire.PDFAValidation {
	t.Helper()
	var v wire.PDFAValidation
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	return v
}

func TestPDFAValidateHTTP(t *testing.T) {
	ts := pdfaServer(t, verapdftest.Client(t))

	code, body := postPDF(t, ts, "?flavour=3b", corpusPDF(t, "mustang/zugferd_invoice.pdf"))
	if code != http.StatusOK {
		t.Fatalf("compliant PDF/A-3b: %d %s", code, body)
	}
	v := decodeValidation(t, body)
	if !v.Compliant || v.Flavour != "3b" || v.CheckedFlavour != "3b" || len(v.FailedRules) != 0 ||
		v.Validator.Name != "veraPDF" || v.Validator.Version == "" || !strings.Contains(string(body), `"failed_rules":[]`) {
		t.Fatalf("compliant PDF/A-3b: %s", body)
	}

	code, body = postPDF(t, ts, "", corpusPDF(t, "mustang/veraPDFtestsuite6-7-11-t01-fail-a.pdf"))
	if code != http.StatusOK {
		t.Fatalf("failing PDF/A-1a: %d %s", code, body)
	}
	v = decodeValidation(t, body)
	if v.Compliant || v.Flavour != "1a" || v.CheckedFlavour != "1a" || len(v.FailedRules) != 1 {
		t.Fatalf("failing PDF/A-1a: %s", body)
	}
	if r := v.FailedRules[0]; r.Specification != "ISO 19005-1:2005" || r.Clause != "6.7.11" || r.TestNumber <= 0 ||
		r.FailedChecks != 1 || !strings.Contains(r.Description, "pdfaid:conformance") {
		t.Fatalf("failing PDF/A-1a rule: %+v", r)
	}

	// A PDF/A-3u file checked as 3b under an explicit flavour.
	code, body = postPDF(t, ts, "?flavour=3b", corpusPDF(t, "mustang/validXRechnung.pdf"))
	if v = decodeValidation(t, body); code != http.StatusOK || v.Flavour != "3u" || v.CheckedFlavour != "3b" {
		t.Fatalf("3u checked as 3b: %d %s", code, body)
	}
}

func TestPDFAValidateBadInputHTTP(t *testing.T) {
	ts := pdfaServer(t, verapdftest.Client(t))
	good := corpusPDF(t, "mustang/zugferd_invoice.pdf")
	for name, tc := range map[string]struct {
		query string
		body  []byte
		want  string
	}{
		"not a PDF":      {"", []byte("<Invoice/>"), "not a PDF"},
		"truncated":      {"", good[:len(good)/3], "veraPDF cannot parse the PDF"},
		"corrupted":      {"", corpusPDF(t, "mustang/corruptedV2PDF.pdf"), "veraPDF cannot parse the PDF"},
		"header only":    {"", []byte("%PDF-1.7\n"), "veraPDF cannot parse the PDF"},
		"unknown flavor": {"?flavour=5x", good, "Input should be"},
	} {
		code, body := postPDF(t, ts, tc.query, tc.body)
		if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	// An empty body is refused before veraPDF is asked.
	code, body := postPDF(t, ts, "", nil)
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "missing") {
		t.Errorf("empty body: %d %s", code, body)
	}
	// /health still reports a running worker.
	if h := getHealth(t, ts); h.Components.VeraPDF.Status != "ok" || !strings.Contains(h.Components.VeraPDF.Detail, "running") {
		t.Fatalf("health after bad input: %+v", h.Components.VeraPDF)
	}
}

// TestPDFAValidateEncryptedHTTP: a PDF veraPDF cannot open is a 422 saying
// so; one it can open (empty user password) gets the verdict naming the
// Encrypt rule.
func TestPDFAValidateEncryptedHTTP(t *testing.T) {
	ts := pdfaServer(t, verapdftest.Client(t))
	src := filepath.Join(testshared.Dir(t), "corpus", "pdf", "mustang", "zugferd_invoice.pdf")
	encrypt := func(user string) []byte { return pdftestgen.Encrypt(t, src, user) }
	code, body := postPDF(t, ts, "?flavour=3b", encrypt("secret"))
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "encrypted") {
		t.Fatalf("password-protected: %d %s", code, body)
	}
	code, body = postPDF(t, ts, "", encrypt(""))
	v := decodeValidation(t, body)
	if code != http.StatusOK || v.Compliant || len(v.FailedRules) == 0 || v.FailedRules[0].Clause != "6.1.3" {
		t.Fatalf("encrypted, empty user password: %d %s", code, body)
	}
}

// TestPDFAValidateHeapExhaustionHTTP: small PDFs that exhaust veraPDF's
// heap, the shapes FuzzValidate found: an ICC profile that declares a 1 GiB
// tag (veraPDF allocates it) and a content stream that ends in the '#' of
// a name escape (veraPDF loops, growing the name). The answer is the
// documented 422 (reason resource), the worker is replaced, and the next
// PDF gets its verdict from the new one. Its own one-worker client, so that
// the restarts are counted here and no other test waits for them.
func TestPDFAValidateHeapExhaustionHTTP(t *testing.T) {
	c := verapdf.New(verapdf.Options{Jar: verapdftest.JarPath(), Workers: 1, Timeout: 3 * time.Minute, StartTimeout: 2 * time.Minute})
	t.Cleanup(func() { _ = c.Close() })
	ts := pdfaServer(t, c)
	good := corpusPDF(t, "mustang/zugferd_invoice.pdf")
	if code, body := postPDF(t, ts, "?flavour=3b", good); code != http.StatusOK {
		t.Fatalf("before: %d %s", code, body)
	}
	for _, tc := range []struct {
		name  string
		pdf   []byte
		bound time.Duration
	}{
		// A warm worker fails the allocation in ~0.2 s; the loop fills the
		// 768 MB heap in ~12 s on the 2-core machine under load. Each
		// bound leaves room for a loaded CI machine and is far below the
		// per-file time limit, so the answer is the heap's, not the clock's.
		{"1 GiB ICC tag", pdftestgen.HugeICCTag(1 << 30), 20 * time.Second},
		{"name escape at the end of a content stream", pdftestgen.NameEscapeAtEnd(), 90 * time.Second},
	} {
		before := c.Health(context.Background()).Restarts
		start := time.Now()
		code, body := postPDF(t, ts, "", tc.pdf)
		took := time.Since(start)
		if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"reason":"resource"`) ||
			!strings.Contains(string(body), "veraPDF ran out of memory") {
			t.Fatalf("%s: %d %s", tc.name, code, body)
		}
		t.Logf("%s: 422 resource after %v", tc.name, took.Round(time.Millisecond))
		if took > tc.bound {
			t.Errorf("%s: answered after %v, bound %v", tc.name, took, tc.bound)
		}
		code, body = postPDF(t, ts, "?flavour=3b", good)
		if v := decodeValidation(t, body); code != http.StatusOK || !v.Compliant {
			t.Fatalf("after %s: %d %s", tc.name, code, body)
		}
		if after := c.Health(context.Background()).Restarts; after != before+1 {
			t.Errorf("%s: worker restarts: %d before, %d after; want one more", tc.name, before, after)
		}
		if h := getHealth(t, ts); h.Components.VeraPDF.Status != "ok" {
			t.Errorf("health after %s: %+v", tc.name, h.Components.VeraPDF)
		}
	}
}

func getHealth(t *testing.T, ts *httptest.Server) wire.Health {
	t.Helper()
	resp, err := http.Get(ts.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var h wire.Health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestPDFAValidateUnavailableHTTP(t *testing.T) {
	c := verapdf.New(verapdf.Options{Jar: filepath.Join(t.TempDir(), "missing.jar")})
	ts := pdfaServer(t, c)
	code, body := postPDF(t, ts, "", corpusPDF(t, "mustang/zugferd_invoice.pdf"))
	if code != http.StatusServiceUnavailable || !strings.Contains(string(body), "make verapdf") ||
		strings.Contains(string(body), "compliant") {
		t.Fatalf("missing jar: %d %s", code, body)
	}
	if h := getHealth(t, ts); h.Status != "degraded" || h.Components.VeraPDF.Status != "unavailable" || !strings.Contains(h.Components.VeraPDF.Detail, "missing.jar") {
		t.Fatalf("health with a missing jar: %+v", h)
	}

	// No client configured at all: 503 as well, never a verdict.
	s, _ := newTestServer(t, nil)
	w := do(t, s, "POST", "/v1/pdfa/validate", corpusPDF(t, "mustang/zugferd_invoice.pdf"), withHeader("Content-Type", "application/pdf"))
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(detailString(t, w), "no veraPDF worker is configured") {
		t.Fatalf("no client: %d %s", w.Code, w.Body.String())
	}
}

// TestPDFAValidateCorpusHTTP sends every PDF of the corpus: each gets a
// verdict (200) or, when veraPDF cannot parse it, a 422; never a 5xx.
func TestPDFAValidateCorpusHTTP(t *testing.T) {
	ts := pdfaServer(t, verapdftest.Client(t))
	files, err := filepath.Glob(filepath.Join(testshared.Dir(t), "corpus", "pdf", "*", "*.pdf"))
	if err != nil || len(files) < 20 {
		t.Fatalf("corpus PDFs: %d %v", len(files), err)
	}
	verdicts := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code, body := postPDF(t, ts, "", b)
		name := filepath.Base(f)
		switch {
		case code == http.StatusOK:
			v := decodeValidation(t, body)
			verdicts++
			if v.CheckedFlavour == "" || v.Compliant != (len(v.FailedRules) == 0) {
				t.Errorf("%s: inconsistent verdict %s", name, body)
			}
		case code == http.StatusUnprocessableEntity && strings.Contains(string(body), "veraPDF cannot parse the PDF"):
			if name != "corruptedV2PDF.pdf" {
				t.Errorf("%s: unexpected parse failure %s", name, body)
			}
		default:
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	if verdicts != len(files)-1 {
		t.Errorf("verdicts for %d of %d files", verdicts, len(files))
	}
}

// BenchmarkPDFAValidateHTTP is pdfa/validate through the HTTP stack with a
// warm worker (one page):
//
//	go test -run '^$' -bench PDFAValidateHTTP -benchtime 20x ./httpapi
func BenchmarkPDFAValidateHTTP(b *testing.B) {
	s, _ := newTestServer(b, func(cfg *Config) { cfg.Ops = &ops.Service{VeraPDF: verapdftest.Client(b)} })
	pdf, err := os.ReadFile(filepath.Join(testshared.Dir(b), "corpus", "pdf", "mustang", "zugferd_invoice.pdf"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if w := do(b, s, "POST", "/v1/pdfa/validate?flavour=3b", pdf, withHeader("Content-Type", "application/pdf")); w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body.String())
		}
	}
}

// TestPDFAValidateGolden keeps the whole answer for the veraPDF test-suite
// file (duration_ms zeroed) in testdata; -update rewrites it, e.g. after a
// veraPDF upgrade changes a description.
func TestPDFAValidateGolden(t *testing.T) {
	ts := pdfaServer(t, verapdftest.Client(t))
	code, body := postPDF(t, ts, "", corpusPDF(t, "mustang/veraPDFtestsuite6-7-11-t01-fail-a.pdf"))
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	v := decodeValidation(t, body)
	v.DurationMS = 0
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden.Check(t, filepath.Join("testdata", "pdfa_validate_fail_a.golden.json"), got, *update)
}
