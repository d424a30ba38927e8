package render

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestReportPDF prints a report with enough findings for several pages:
// the verdict, versions and counts are in the text, the findings table's
// header is repeated on every page, and the PDF is PDF/A-3b.
func TestReportPDF(t *testing.T) {
	rep := &Report{Profile: "xrechnung", Syntax: "ubl", Complete: true, Rulesets: []RulesetVersion{{"CEN-EN16931-UBL", "1.3.14"}, {"XRechnung-UBL", "3.0.2"}}}
	for i := range 120 {
		flag := "fatal"
		if i%3 == 0 {
			flag = "warning"
		}
		rep.Findings = append(rep.Findings, ReportFinding{RuleID: fmt.Sprintf("BR-%03d", i), Flag: flag,
			Message: "Message <b>&amp; " + strings.Repeat("long text ", i%7), Location: fmt.Sprintf("/Invoice/cac:InvoiceLine[%d]", i), Line: 10 + i})
		if flag == "fatal" {
			rep.Fatal++
		} else {
			rep.Warning++
		}
	}
	for _, lang := range []Lang{English, German} {
		pdf, err := ReportPDF(context.Background(), rep, Options{Lang: lang})
		if err != nil {
			t.Fatal(err)
		}
		txt := pdfText(t, pdf)
		banner, rule := "INVALID", "Rule"
		if lang == German {
			banner, rule = "UNGÜLTIG", "Regel"
		}
		for _, want := range []string{banner, "xrechnung", "XRechnung-UBL", "3.0.2", "80", "40", "BR-119", "/Invoice/cac:InvoiceLine[119]", "Message <b>&amp;"} {
			if !strings.Contains(txt, want) {
				t.Errorf("%s: report text lacks %q", lang, want)
			}
		}
		pages := strings.Count(txt, "\f")
		if pages < 2 || strings.Count(txt, rule+" ") < pages {
			t.Errorf("%s: %d pages, header %q %d times", lang, pages, rule, strings.Count(txt, rule+" "))
		}
		checkPDFA(t, "report-"+string(lang), pdf)
	}
	rep.Findings, rep.Fatal, rep.Warning, rep.Complete = nil, 0, 0, true
	rep.Valid = true
	pdf, err := ReportPDF(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if txt := pdfText(t, pdf); !strings.Contains(txt, "VALID") || strings.Contains(txt, "INVALID") || !strings.Contains(txt, "No findings.") {
		t.Errorf("valid report: %.300s", txt)
	}
}
