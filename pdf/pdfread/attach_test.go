package pdfread

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pdfdetachList returns the names poppler's pdfdetach -list prints.
func pdfdetachList(t *testing.T, file string) []string {
	t.Helper()
	out, err := exec.Command("pdfdetach", "-list", file).Output()
	if err != nil {
		t.Fatalf("pdfdetach -list %s: %v (install poppler-utils: scripts/deps.sh)", file, err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if i := strings.Index(l, ": "); i > 0 && !strings.Contains(l, "embedded files") {
			names = append(names, l[i+2:])
		}
	}
	return names
}

func TestAttachmentsMatchPdfdetach(t *testing.T) {
	for _, c := range openCorpus(t) {
		f, d := c.path, c.doc
		atts, err := d.Attachments()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want := pdfdetachList(t, f)
		var got []string
		for _, a := range atts {
			got = append(got, a.Name)
		}
		// Every file pdfdetach lists, in its order, first. We may find more
		// (corruptedV2PDF.pdf: poppler gives up on its page tree and lists
		// nothing; our reconstruction finds the files).
		if len(got) < len(want) || strings.Join(got[:len(want)], "|") != strings.Join(want, "|") {
			t.Errorf("%s: got %q, pdfdetach lists %q", filepath.Base(f), got, want)
			continue
		}
		if len(got) > len(want) {
			t.Logf("%s: found %q beyond pdfdetach's %q", filepath.Base(f), got, want)
		}
		// Byte-identical content: pdfdetach -save N.
		for i, a := range atts[:len(want)] {
			out := filepath.Join(t.TempDir(), "x")
			if err := exec.Command("pdfdetach", "-save", itoa(i+1), "-o", out, f).Run(); err != nil {
				t.Fatalf("pdfdetach -save: %v", err)
			}
			ref, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ref, a.Data) {
				t.Errorf("%s: %s: %d bytes, pdfdetach saves %d", filepath.Base(f), a.Name, len(a.Data), len(ref))
			}
		}
	}
}

func itoa(i int) string { return strings.TrimSpace(string(AppendObject(nil, Int(i)))) }

func TestAttachmentsAnnotationAndCycles(t *testing.T) {
	// Name tree with a cycle in /Kids, an /AF-only file and an annotation.
	b := buildPDF([]string{
		"<</Type /Catalog /Pages 2 0 R /Names <</EmbeddedFiles 5 0 R>> /AF [6 0 R 9 0 R]>>",
		"<</Type /Pages /Kids [3 0 R] /Count 1>>",
		"<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Annots [4 0 R]>>",
		"<</Type /Annot /Subtype /FileAttachment /Rect [0 0 10 10] /FS 10 0 R /Contents (note)>>",
		"<</Kids [5 0 R 11 0 R]>>",
		"<</Type /Filespec /F (factur-x.xml) /UF <FEFF0066002D0078002E0078006D006C> /AFRelationship /Data /Desc (Factur-X) /EF <</F 7 0 R>>>>",
		streamObj("/Type /EmbeddedFile /Subtype /text#2Fxml", []byte("<a/>")),
		streamObj("/Type /EmbeddedFile /Filter /ASCIIHexDecode", []byte("414243>")),
		"<</Type /Filespec /F (extra.txt) /AFRelationship /Supplement /EF <</F 8 0 R>>>>",
		"<</Type /Filespec /F (annot.bin) /EF <</F 8 0 R>>>>",
		"<</Names [(factur-x.xml) 6 0 R] /Kids [5 0 R]>>",
	}, "")
	d, err := Open(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	atts, err := d.Attachments()
	if err != nil {
		t.Fatal(err)
	}
	if len(atts) != 3 {
		t.Fatalf("got %d attachments: %+v", len(atts), atts)
	}
	a := atts[0]
	if a.Name != "f-x.xml" || a.MIME != "text/xml" || a.Relationship != "Data" || a.Description != "Factur-X" || string(a.Data) != "<a/>" || a.Origin != "names" || !a.InAF {
		t.Errorf("name-tree file: %+v", a)
	}
	if a := atts[1]; a.Name != "extra.txt" || a.Origin != "af" || string(a.Data) != "ABC" || a.Relationship != "Supplement" {
		t.Errorf("AF file: %+v", a)
	}
	if a := atts[2]; a.Name != "annot.bin" || a.Origin != "annotation" || a.Page != 1 || a.Description != "note" {
		t.Errorf("annotation: %+v", a)
	}
}

// Over the page limit: the name-tree files are returned with ErrLimit.
func TestAttachmentsOverPageLimit(t *testing.T) {
	objs := []string{
		"<</Type /Catalog /Pages 2 0 R /Names <</EmbeddedFiles <</Names [(factur-x.xml) 3 0 R]>>>>>>", "",
		"<</Type /Filespec /F (factur-x.xml) /EF <</F 4 0 R>>>>",
		streamObj("/Type /EmbeddedFile", []byte("<a/>")),
	}
	var kids strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&kids, "%d 0 R ", len(objs)+1)
		objs = append(objs, "<</Type /Page /Parent 2 0 R>>")
	}
	objs[1] = "<</Type /Pages /Kids [" + kids.String() + "]>>"
	d, err := Open(buildPDF(objs, ""), Limits{MaxPages: 10})
	if err != nil {
		t.Fatal(err)
	}
	atts, err := d.Attachments()
	if !errors.Is(err, ErrLimit) || len(atts) != 1 || atts[0].Name != "factur-x.xml" {
		t.Fatalf("got %d attachments, err %v", len(atts), err)
	}
}
