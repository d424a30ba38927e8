package pdfread

import (
	"bytes"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
)

// TestPdftestgenCases: the raw test PDFs of the conversion tests
// (attachments, incremental update, images, many pages) read as poppler
// reads them: page count, embedded files byte for byte, the phrase printed
// on page 1.
func TestPdftestgenCases(t *testing.T) {
	for _, c := range pdftestgen.All() {
		d, err := Open(c.PDF, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		pages, err := d.Pages()
		if err != nil || len(pages) != c.Pages || len(pages) != pdfatest.Pages(t, c.PDF) {
			t.Errorf("%s: %d pages (%v), want %d", c.Name, len(pages), err, c.Pages)
		}
		atts, err := d.Attachments()
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		want := pdfatest.Detach(t, c.PDF)
		if len(atts) != len(want) || len(atts) != len(c.Attachments) {
			t.Errorf("%s: %d attachments, pdfdetach %d, generator %d", c.Name, len(atts), len(want), len(c.Attachments))
		}
		for i, a := range atts {
			if i < len(c.Attachments) && a.Name != c.Attachments[i] || !bytes.Equal(a.Data, want[a.Name]) {
				t.Errorf("%s: attachment %d %q differs", c.Name, i, a.Name)
			}
		}
		if c.Text != "" {
			txt, err := d.PageText(pages[0])
			var all string
			for _, l := range txt {
				all += l.Text + "\n"
			}
			if err != nil || !bytes.Contains([]byte(squeeze(all)), []byte(squeeze(c.Text))) {
				t.Errorf("%s: page 1 text %q lacks %q (%v)", c.Name, all, c.Text, err)
			}
		}
	}
}
