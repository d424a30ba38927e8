package render

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestHTMLSelfContainedAccessible checks the page's promises: lang, no
// script, no external reference, tables with captions and scoped headers,
// print and small-screen CSS, escaped values.
func TestHTMLSelfContainedAccessible(t *testing.T) {
	inv := fullInvoice()
	inv.Seller.Name = `<img src="https://evil.example/x.png" onerror="alert(1)">`
	for _, lang := range []Lang{English, German} {
		b, err := HTML(context.Background(), inv, lang)
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		for _, want := range []string{`<html lang="` + string(lang) + `">`, "<caption>", `scope="row"`, `scope="col"`,
			"@media print", "@media (max-width", `name="viewport"`, "&lt;img src=", `dir="auto"`, "<nav aria-label=", "BT-1<", "BG-25"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: page lacks %q", lang, want)
			}
		}
		for _, bad := range []string{"<script", "<img", "<link", "@import", "url(", "src=\"http"} {
			if strings.Contains(page, bad) {
				t.Errorf("%s: page contains %q", lang, bad)
			}
		}
		if m := regexp.MustCompile(`(?i)(href|src)="(https?:)?//`).FindString(page); m != "" {
			t.Errorf("%s: external reference %q", lang, m)
		}
		if lang == German && !strings.Contains(page, "Rechnungsnummer") {
			t.Error("German page without German labels")
		}
	}
}

// TestHTMLStopsOnCancel: a cancelled context stops the page.
func TestHTMLStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := HTML(ctx, benchInvoice(50), English); err == nil {
		t.Fatal("HTML with a cancelled context succeeded")
	}
	for _, style := range []string{StyleCompact, StyleKosit} {
		if _, err := PDF(ctx, benchInvoice(50), Options{Style: style}); err == nil {
			t.Fatalf("PDF %s with a cancelled context succeeded", style)
		}
	}
}
