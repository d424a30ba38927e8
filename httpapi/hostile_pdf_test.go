package httpapi

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// The PDF routes: the first five read the body with our reader; pdfa/validate
// hands it to veraPDF; pdfa/convert takes it as the pdf part of a form and
// runs our reader, Ghostscript and veraPDF.
const (
	hpExtractXML  = "/v1/extract/xml"
	hpAttachments = "/v1/extract/attachments"
	hpConsistency = "/v1/pdfa/consistency"
	hpToCII       = "/v1/convert/facturx-to-cii"
	hpToUBL       = "/v1/convert/facturx-to-ubl"
	hpValidate    = "/v1/pdfa/validate"
	hpConvert     = "/v1/pdfa/convert"
)

var hostilePDFRoutes = []string{hpExtractXML, hpAttachments, hpConsistency, hpToCII, hpToUBL, hpValidate, hpConvert}

// hostilePDFVeraTimeout is the veraPDF per-file limit of the suite's server
// (the service's default is 60 s, --verapdf-timeout): what it bounds is
// what the suite asserts, without waiting a minute per case.
const hostilePDFVeraTimeout = 10 * time.Second

// hostilePDFAnswer is a documented answer: the status and, for a 422, the
// type of the first entry and the ctx.reason veraPDF gave ("" = any).
type hostilePDFAnswer struct {
	status int
	typ    string
	reason string
}

var (
	hpValueError = hostilePDFAnswer{422, wire.TypeValueError, ""}
	hpLimit      = hostilePDFAnswer{422, wire.TypeLimitExceeded, ""}
	hpOK         = hostilePDFAnswer{200, "", ""}
	hpVeraParse  = hostilePDFAnswer{422, wire.TypeValueError, verapdf.KindParse}
)

// TestHostilePDF sends hostile PDFs, built in memory by internal/pdftestgen
// (nothing downloaded), to every route that reads a PDF, through the real
// server with the real engine, Ghostscript and veraPDF. Each answer is the
// documented one, within its time bound, with bounded Go heap (Ghostscript
// and veraPDF run in processes of their own, under an address-space limit
// and a heap limit), no leak in the body, and /health 200 afterwards. A
// converted PDF carries none of the input's active content.
func TestHostilePDF(t *testing.T) {
	pdftestgen.Need(t, "gs")
	// The walk that checks converted PDFs sees every kind the input has.
	if got := hostilePDFActiveContent(t, pdftestgen.JavaScript()); len(got) < 5 {
		t.Fatalf("active content found in the JavaScript input: %v", got)
	}
	v, err := lazyEngine()
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	vera := verapdf.New(verapdf.Options{Jar: verapdftest.JarPath(), Workers: 1, Timeout: hostilePDFVeraTimeout, StartTimeout: 2 * time.Minute})
	t.Cleanup(func() { _ = vera.Close() })
	e := newHostileEnvWith(t, func(c *Config) {
		c.Ops = &ops.Service{Validator: v, PDFAConverter: pdfaconv.New(pdfaconv.Config{Timeout: time.Minute}), VeraPDF: vera}
		c.RequestTimeout = 5 * time.Minute
	})
	e.client.Timeout = 6 * time.Minute
	// A verdict, or the per-file limit's 422 on a slow machine.
	verdictOrTimeout := []hostilePDFAnswer{hpOK, {422, wire.TypeValueError, verapdf.KindTimeout}}
	cases := []struct {
		name     string
		pdf      []byte
		want     map[string][]hostilePDFAnswer // by route; routes not named: 422 value_error
		memBound uint64                        // peak Go heap above baseline; 0: 64 MiB
	}{
		{name: "flate bomb of 256 MiB as page content", pdf: pdftestgen.FlateBomb(256),
			want: map[string][]hostilePDFAnswer{hpAttachments: {hpOK}, hpValidate: verdictOrTimeout, hpConvert: {hpOK}}},
		{name: "100,000 pages", pdf: pdftestgen.ManyPages(100_000), memBound: 128 << 20,
			want: map[string][]hostilePDFAnswer{hpExtractXML: {hpLimit}, hpAttachments: {hpLimit}, hpConsistency: {hpLimit},
				hpToCII: {hpLimit}, hpToUBL: {hpLimit}, hpValidate: verdictOrTimeout, hpConvert: {hpLimit}}},
		{name: "xref /Prev loop", pdf: pdftestgen.PrevLoop(),
			want: map[string][]hostilePDFAnswer{hpAttachments: {hpOK}, hpValidate: {hpVeraParse}, hpConvert: {hpOK}}},
		{name: "cyclic object streams", pdf: pdftestgen.CyclicObjectStreams(),
			want: map[string][]hostilePDFAnswer{hpValidate: {hpVeraParse}}},
		{name: "broken trailer", pdf: pdftestgen.BrokenTrailer(),
			want: map[string][]hostilePDFAnswer{hpAttachments: {hpOK}, hpValidate: {hpVeraParse}}},
		{name: "JavaScript and Launch actions", pdf: pdftestgen.JavaScript(),
			want: map[string][]hostilePDFAnswer{hpAttachments: {hpOK}, hpValidate: {hpOK}, hpConvert: {hpOK}}},
		{name: "ICC profile with a 1 GiB tag", pdf: pdftestgen.HugeICCTag(1 << 30),
			want: map[string][]hostilePDFAnswer{hpAttachments: {hpOK}, hpValidate: {{422, wire.TypeValueError, verapdf.KindResource}}, hpConvert: {hpOK}}},
		// veraPDF loops until its heap is exhausted, or until the per-file
		// limit when the machine is slow.
		{name: "content stream ending in a name's '#'", pdf: pdftestgen.NameEscapeAtEnd(),
			want: map[string][]hostilePDFAnswer{hpAttachments: {hpOK}, hpValidate: {{422, wire.TypeValueError, verapdf.KindResource}, {422, wire.TypeValueError, verapdf.KindTimeout}}, hpConvert: {hpOK}}},
	}
	for _, c := range cases {
		for _, route := range hostilePDFRoutes {
			label := c.name + " -> " + route
			var r hostileResult
			if route == hpConvert {
				body, ct := hostilePDFForm(t, c.pdf)
				r = e.post(route, ct, body, false)
			} else {
				r = e.post(route, mediaPDF, c.pdf, false)
			}
			t.Logf("%-60s %d %8.1f ms  peak heap +%5.1f MiB  %s", label, r.status, float64(r.elapsed.Microseconds())/1000, float64(r.peak)/(1<<20), hostileFirstType(r.body))
			want, ok := c.want[route]
			if !ok {
				want = []hostilePDFAnswer{hpValueError}
			}
			got := hostilePDFAnswerOf(r)
			if !slices.ContainsFunc(want, func(w hostilePDFAnswer) bool {
				return w.status == got.status && w.typ == got.typ && (w.reason == "" || w.reason == got.reason)
			}) {
				t.Errorf("%s: got %+v, want one of %+v; body %.400s", label, got, want, r.body)
			}
			// Our reader answers in well under a second; Ghostscript has a
			// minute, veraPDF its per-file limit plus the grace before the
			// worker is killed; the rest is slack for a loaded CI machine.
			bound := 5 * time.Second
			switch route {
			case hpValidate:
				bound = 2*hostilePDFVeraTimeout + 10*time.Second
			case hpConvert:
				bound = time.Minute
			}
			if r.elapsed > bound {
				t.Errorf("%s: took %v, bound %v", label, r.elapsed, bound)
			}
			mem := c.memBound
			if mem == 0 {
				mem = 64 << 20
			}
			if r.peak > mem {
				t.Errorf("%s: peak Go heap +%d MiB, bound %d MiB", label, r.peak>>20, mem>>20)
			}
			hostileAssertBody(t, label, r, r.status, got.typ, false)
			if r.status == http.StatusOK && route == hpConvert {
				if active := hostilePDFActiveContent(t, r.body); len(active) > 0 {
					t.Errorf("%s: the converted PDF still has active content: %v", label, active)
				}
			}
			if r.status == http.StatusOK && route == hpValidate && strings.HasPrefix(c.name, "JavaScript") {
				hostilePDFAssertActionsRule(t, label, r.body)
			}
			e.healthy(label)
		}
	}
}

// hostilePDFAnswerOf reads the status, the first 422 entry's type and its
// ctx.reason.
func hostilePDFAnswerOf(r hostileResult) hostilePDFAnswer {
	a := hostilePDFAnswer{status: r.status}
	var b struct {
		Detail []struct {
			Type string         `json:"type"`
			Ctx  map[string]any `json:"ctx"`
		} `json:"detail"`
	}
	if r.status == http.StatusUnprocessableEntity && json.Unmarshal(r.body, &b) == nil && len(b.Detail) > 0 {
		a.typ = b.Detail[0].Type
		a.reason, _ = b.Detail[0].Ctx["reason"].(string)
	}
	return a
}

// hostilePDFAssertActionsRule: veraPDF's verdict on the JavaScript PDF is
// non-compliant and names the rules on actions (ISO 19005-3 6.5.1: no
// JavaScript or Launch action; 6.5.2: no additional actions on a page).
func hostilePDFAssertActionsRule(t *testing.T, label string, body []byte) {
	t.Helper()
	var v wire.PDFAValidation
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	for _, clause := range []string{"6.5.1", "6.5.2"} {
		if v.Compliant || !slices.ContainsFunc(v.FailedRules, func(r wire.PDFARule) bool { return r.Clause == clause }) {
			t.Errorf("%s: want a non-compliant verdict naming clause %s: %+v", label, clause, v.FailedRules)
		}
	}
}

// hostilePDFActiveContent lists what in pdf a reader could run: JavaScript
// and Launch actions, /JS entries, additional actions, a /JavaScript name
// tree (every object our reader can load, followed inside).
func hostilePDFActiveContent(t *testing.T, pdf []byte) []string {
	t.Helper()
	doc, err := pdfread.Open(pdf, pdfread.DefaultLimits())
	if err != nil {
		t.Fatalf("converted PDF does not open: %v", err)
	}
	var found []string
	var walk func(o pdfread.Object, depth int)
	walk = func(o pdfread.Object, depth int) {
		if depth > 32 {
			return
		}
		switch x := o.(type) {
		case pdfread.Stream:
			walk(x.Dict, depth+1)
		case pdfread.Array:
			for _, e := range x {
				walk(e, depth+1)
			}
		case pdfread.Dict:
			for k, val := range x {
				switch {
				case k == "JS" || k == "AA" || k == "JavaScript":
					found = append(found, "/"+string(k))
				case k == "S" && (val == pdfread.Name("JavaScript") || val == pdfread.Name("Launch")):
					found = append(found, "/S /"+string(val.(pdfread.Name)))
				}
				walk(val, depth+1)
			}
		}
	}
	for _, n := range doc.Objects() {
		o, err := doc.Resolve(pdfread.Ref{Num: n})
		if err != nil {
			continue
		}
		walk(o, 0)
	}
	return found
}

// hostilePDFForm is the pdfa/convert form carrying pdf as its pdf part.
func hostilePDFForm(t *testing.T, pdf []byte) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="pdf"; filename="in.pdf"`)
	h.Set("Content-Type", mediaPDF)
	w, err := mw.CreatePart(h)
	if err == nil {
		_, err = w.Write(pdf)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), mw.FormDataContentType()
}
