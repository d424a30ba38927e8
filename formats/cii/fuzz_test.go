package cii

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// FuzzRead parses arbitrary bytes with xmltree and reads them as CII. The
// allowed errors are: xmltree's *SyntaxError and *LimitError from parsing,
// ErrNotCII from Read, and from writing the model read ErrNotRepresentable
// and xmlio.ErrInvalidChar. Anything else, or a panic, is a bug. Whatever is
// read and written must read back to a document with nothing unconsumed.
// Crashers are kept under testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	f.Add([]byte(miniCII))
	f.Add([]byte(`<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>`))
	f.Add([]byte(`<Invoice/>`))
	var full bytes.Buffer
	if err := Write(&full, fullInvoice(), WriteOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Add(full.Bytes())
	if files, _ := filepath.Glob(filepath.Join(sharedDir(f), "corpus/en16931/cii/examples/CII_example[1-3].xml")); len(files) > 0 {
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			var se *xmltree.SyntaxError
			var le *xmltree.LimitError
			if !errors.As(err, &se) && !errors.As(err, &le) {
				t.Fatalf("unexpected parse error type %T: %v", err, err)
			}
			return
		}
		res, err := Read(doc)
		if err != nil {
			if !errors.Is(err, ErrNotCII) {
				t.Fatalf("unexpected Read error %T: %v", err, err)
			}
			if Detect(doc) {
				t.Fatal("Read refused a document Detect accepts")
			}
			return
		}
		for _, u := range res.Unconsumed {
			if u.Path == "" || u.Path[0] != '/' {
				t.Fatalf("bad unconsumed path %q", u.Path)
			}
		}
		var buf bytes.Buffer
		if err := Write(&buf, res.Invoice, WriteOptions{}); err != nil {
			if !errors.Is(err, ErrNotRepresentable) && !errors.Is(err, xmlio.ErrInvalidChar) {
				t.Fatalf("unexpected Write error %T: %v", err, err)
			}
			return
		}
		doc2, err := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
		if err != nil {
			t.Fatalf("written document does not parse: %v\n%s", err, buf.Bytes())
		}
		res2, err := Read(doc2)
		if err != nil {
			t.Fatalf("written document not read: %v", err)
		}
		if len(res2.Unconsumed) > 0 || len(res2.Warnings) > 0 {
			t.Fatalf("written document: unconsumed %v warnings %v\n%s", res2.Unconsumed, res2.Warnings, buf.Bytes())
		}
	})
}
