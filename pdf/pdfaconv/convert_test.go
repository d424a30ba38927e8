package pdfaconv

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

func TestConvertGenerated(t *testing.T) {
	pdftestgen.Need(t, "gs", "pdfdetach", "pdftotext", "pdftoppm")
	c := New(Config{})
	for _, tc := range pdftestgen.All() {
		t.Run(tc.Name, func(t *testing.T) {
			att := Attachment{Name: "extra.xml", MIME: "text/xml", Description: "an extra file", Relationship: pdfa.Supplement, Data: []byte("<a>é</a>")}
			res, err := c.Convert(context.Background(), Request{PDF: tc.PDF, KeepAttachments: true, Attachments: []Attachment{att}})
			if err != nil {
				t.Fatal(err)
			}
			verapdftest.AssertCompliant(t, res.PDF, "3b")
			sameLook(t, tc.PDF, res.PDF, tc.Pages)
			if res.Pages != tc.Pages {
				t.Errorf("pages: got %d, want %d", res.Pages, tc.Pages)
			}
			if d := os.Getenv("PDFACONV_KEEP"); d != "" {
				_ = os.WriteFile(filepath.Join(d, tc.Name+".pdf"), res.PDF, 0o644)
			}
			want := map[string][]byte{att.Name: att.Data}
			for _, n := range tc.Attachments {
				want[n] = pdftestgen.AttachedFiles[n]
			}
			got := pdfatest.Detach(t, res.PDF)
			if len(got) != len(want) {
				t.Errorf("embedded files: got %d, want %d", len(got), len(want))
			}
			for n, b := range want {
				if !bytes.Equal(got[n], b) {
					t.Errorf("embedded file %s: got %q, want %q", n, got[n], b)
				}
			}
			doc, err := pdfread.Open(res.PDF, pdfread.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			xmp, err := doc.Metadata()
			if err != nil || !bytes.Contains(xmp, []byte("<pdfaid:part>3</pdfaid:part>")) || !bytes.Contains(xmp, []byte("<pdfaid:conformance>B</pdfaid:conformance>")) {
				t.Errorf("XMP without pdfaid 3B (%v): %.300s", err, xmp)
			}
			atts, err := doc.Attachments()
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range atts {
				if !a.InAF || a.Relationship == "" {
					t.Errorf("%s: in /AF %v, relationship %q", a.Name, a.InAF, a.Relationship)
				}
			}
			if text := pdfatest.Text(t, res.PDF); !strings.Contains(text, tc.Text) {
				t.Errorf("text %q not found in the output: %.200q", tc.Text, text)
			}
		})
	}
}

func TestConvertRefusals(t *testing.T) {
	pdftestgen.Need(t, "gs", "qpdf")
	c := New(Config{})
	plain := pdftestgen.Helvetica().PDF
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, plain, 0o600); err != nil {
		t.Fatal(err)
	}
	encrypt := func(user string) []byte { return pdftestgen.Encrypt(t, in, user) }
	cases := []struct {
		name string
		pdf  []byte
		kind Kind
		msg  string
	}{
		{"user password", encrypt("secret"), KindEncrypted, "encrypted"},
		{"owner password only", encrypt(""), KindEncrypted, "encrypted"},
		{"not a PDF", []byte("hello, world"), KindUnreadable, "not a PDF"},
		{"empty", nil, KindUnreadable, "not a PDF"},
		{"truncated", plain[:len(plain)/3], KindUnreadable, "page"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Convert(context.Background(), Request{PDF: tc.pdf})
			var e *Error
			if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(e.Detail, tc.msg) {
				t.Fatalf("got %v, want kind %d with %q", err, tc.kind, tc.msg)
			}
		})
	}
}

func TestGhostscriptMissing(t *testing.T) {
	c := New(Config{Ghostscript: "/nonexistent/gs"})
	_, err := c.Convert(context.Background(), Request{PDF: pdftestgen.Helvetica().PDF})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUnavailable || !strings.Contains(e.Detail, "Ghostscript") {
		t.Fatalf("got %v, want KindUnavailable naming Ghostscript", err)
	}
	if err := c.Check(); err == nil {
		t.Fatal("Check: no error without Ghostscript")
	}
}

// TestConvertLimits: a conversion past Ghostscript's time or memory limit
// is the caller's 422 (KindUnreadable naming the limit or Ghostscript's
// failure), and the caller's own deadline comes back as the context error.
func TestConvertLimits(t *testing.T) {
	pdftestgen.Need(t, "gs")
	pdf := pdftestgen.MultiPage(12).PDF
	_, err := New(Config{Timeout: time.Millisecond}).Convert(context.Background(), Request{PDF: pdf})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUnreadable || !strings.Contains(e.Detail, "time limit") {
		t.Errorf("time limit: got %v", err)
	}
	_, err = New(Config{MaxMemory: 8 << 20}).Convert(context.Background(), Request{PDF: pdf})
	if !errors.As(err, &e) || e.Kind != KindUnreadable || !strings.Contains(e.Detail, "Ghostscript") {
		t.Errorf("memory limit: got %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	time.Sleep(2 * time.Millisecond)
	if _, err := New(Config{}).Convert(ctx, Request{PDF: pdf}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller's deadline: got %v", err)
	}
}
