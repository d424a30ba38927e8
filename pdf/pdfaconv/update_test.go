package pdfaconv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// TestFinishOnXrefStream: when the file ends with a cross-reference stream
// (newer Ghostscript versions, or any writer using object streams) the
// update is a cross-reference stream too, and the result is a valid PDF
// (qpdf --check, poppler, our reader) with the files and the XMP.
func TestFinishOnXrefStream(t *testing.T) {
	pdftestgen.Need(t, "gs", "qpdf")
	gsOut, err := gsSample()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, packed := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "packed.pdf")
	if err := os.WriteFile(in, gsOut, 0o600); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("qpdf", "--object-streams=generate", in, packed).CombinedOutput(); err != nil {
		t.Fatalf("qpdf: %v %s", err, msg)
	}
	base, err := os.ReadFile(packed)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err := pdfread.Open(base, pdfread.DefaultLimits()); err != nil || !doc.XrefIsStream() {
		t.Fatalf("qpdf did not write a cross-reference stream (%v)", err)
	}
	res, err := New(Config{}).finish(base, []Attachment{{Name: "a.xml", MIME: "text/xml", Relationship: "Data", Data: []byte("<a/>")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.pdf")
	if err := os.WriteFile(out, res.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("qpdf", "--check", out).CombinedOutput(); err != nil {
		t.Fatalf("qpdf --check: %v %s", err, msg)
	}
	doc, err := pdfread.Open(res.PDF, pdfread.DefaultLimits())
	if err != nil || !doc.XrefIsStream() {
		t.Fatalf("reopen: %v (xref stream %v)", err, err == nil && doc.XrefIsStream())
	}
	if xmp, err := doc.Metadata(); err != nil || !bytes.Contains(xmp, []byte("<pdfaid:part>3</pdfaid:part>")) {
		t.Errorf("XMP: %v %.200s", err, xmp)
	}
	if got := pdfatest.Detach(t, res.PDF); !bytes.Equal(got["a.xml"], []byte("<a/>")) || len(got) != 1 {
		t.Errorf("embedded files after the update: %d, a.xml %q", len(got), got["a.xml"])
	}
	if pdfatest.Pages(t, res.PDF) != 1 {
		t.Error("page count changed")
	}
}
