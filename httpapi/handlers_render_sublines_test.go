package httpapi

import (
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/verapdftest"
)

// TestRenderSubLinesRoute renders an XRechnung document with sub-invoice
// lines (BG-DEX-01) through the real routes: the sub-lines are under their
// line, labelled in the requested language, in the HTML and the PDF.
func TestRenderSubLinesRoute(t *testing.T) {
	s, _ := newTestServer(t, nil)
	src := readShared(t, "corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-02-check-correct-sums-sub-invoice-line.xml")
	for lang, title := range map[string]string{"en": "Sub invoice line 1 2", "de": "Unterposition 1 2"} {
		w := do(t, s, "POST", "/v1/render/html?lang="+lang, src, xmlCT, keyHdr)
		if w.Code != 200 {
			t.Fatalf("render/html?lang=%s: %d %.300s", lang, w.Code, w.Body.String())
		}
		body := w.Body.String()
		for _, want := range []string{`<tr class="sub1"><td dir="auto">1 1</td>`, "Hose Bernhard ws UKD", "Kasack Bodo blau UKD",
			"<h4>" + title + ` <span class="bt">BG-DEX-01</span></h4>`} {
			if !strings.Contains(body, want) {
				t.Errorf("render/html?lang=%s lacks %q", lang, want)
			}
		}
		if i, j := strings.Index(body, "<h3>"), strings.Index(body, "<h4>"+title); i < 0 || j < i {
			t.Errorf("render/html?lang=%s: the sub-line is not under a line block", lang)
		}
	}
	w := do(t, s, "POST", "/v1/render/pdf?lang=de&style=kosit", src, xmlCT, keyHdr)
	if w.Code != 200 || w.Header().Get("Content-Type") != mediaPDF {
		t.Fatalf("render/pdf: %d %.200q", w.Code, w.Body.String())
	}
	verapdftest.AssertPDFA3B(t, w.Body.Bytes())
}
