package pdfaconv

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// gsSample is Ghostscript's PDF/A of a generated page, made once.
var gsSample = sync.OnceValues(func() ([]byte, error) {
	out, _, err := New(Config{}).ghostscript(context.Background(), pdftestgen.Attached().PDF)
	return out, err
})

// FuzzFinish feeds the caller-controlled parts of the Go pass (file names,
// descriptions, MIME types, relationships, contents: they come straight
// from multipart uploads) into the incremental update and reads the result
// back: it must open, list every file once under a unique name with its
// bytes, and never panic.
func FuzzFinish(f *testing.F) {
	pdftestgen.Need(f, "gs")
	base, err := gsSample()
	if err != nil {
		f.Fatal(err)
	}
	f.Add("factur-x.xml", "text/xml", "Factur-X", "Alternative", []byte("<x/>"), "factur-x.xml")
	f.Add("Rechnung ÄÖÜ €.pdf", "application/pdf", "résumé (1)", "Data", []byte{0, 1, 2}, "Rechnung ÄÖÜ €.pdf")
	f.Add("a)b(c\\.txt", "text/plain; charset=utf-8", "\xfe\xff", "Bogus", []byte("x"), "a)b(c\\.txt")
	f.Add("日本語.txt", "", "", "", []byte{}, "other.bin")
	c := New(Config{})
	f.Fuzz(func(t *testing.T, name, mime, desc, rel string, data []byte, name2 string) {
		r, ok := pdfa.ParseRelationship(rel)
		if !ok {
			r = pdfa.Unspecified
		}
		atts := []Attachment{
			{Name: name, MIME: mime, Description: desc, Relationship: r, Data: data},
			{Name: name2, Relationship: pdfa.Data, Data: []byte("second")},
		}
		res, err := c.finish(base, atts, nil)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind != KindBadAttachment {
				t.Fatalf("finish: %v", err)
			}
			return
		}
		want, err := uniqueNames(atts)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := pdfread.Open(res.PDF, pdfread.DefaultLimits())
		if err != nil {
			t.Fatalf("output does not open: %v", err)
		}
		got, err := doc.Attachments()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(res.Attachments) != len(want) {
			t.Fatalf("want %d files, got %d (%v)", len(want), len(got), res.Attachments)
		}
		byName := map[string]pdfread.Attachment{}
		for _, a := range got {
			if _, dup := byName[a.Name]; dup || !a.InAF {
				t.Fatalf("%q listed twice or not in /AF", a.Name)
			}
			byName[a.Name] = a
		}
		for _, w := range want {
			a, ok := byName[w.Name]
			if !ok {
				t.Fatalf("%q missing; got %v", w.Name, res.Attachments)
			}
			if !bytes.Equal(a.Data, w.Data) || a.Relationship != string(w.Relationship) {
				t.Fatalf("%q: data or relationship %q differ", w.Name, a.Relationship)
			}
		}
	})
}

// FuzzConvert feeds arbitrary bytes (seeded with the generated PDFs, cut
// and damaged) through the whole converter: the answer is a PDF our reader
// opens or an *Error the API maps to a 4xx (never another error, a panic
// or a hang: Ghostscript is time-limited).
func FuzzConvert(f *testing.F) {
	pdftestgen.Need(f, "gs")
	for _, tc := range pdftestgen.All()[:5] {
		f.Add(tc.PDF)
		f.Add(tc.PDF[:len(tc.PDF)*2/3])
		damaged := bytes.Replace(tc.PDF, []byte("/Pages"), []byte("/Pagez"), 1)
		f.Add(damaged)
	}
	f.Add([]byte("%PDF-1.7\n"))
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 1 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"))
	c := New(Config{Timeout: 20 * time.Second, MaxMemory: 512 << 20})
	f.Fuzz(func(t *testing.T, pdf []byte) {
		res, err := c.Convert(context.Background(), Request{PDF: pdf, KeepAttachments: true})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind == KindUnavailable {
				t.Fatalf("not a caller error: %v", err)
			}
			return
		}
		if _, err := pdfread.Open(res.PDF, pdfread.DefaultLimits()); err != nil {
			t.Fatalf("output does not open: %v", err)
		}
	})
}
