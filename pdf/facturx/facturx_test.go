package facturx_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/verapdftest"
	"github.com/einvoice-dev/einvoice/pdf/facturx"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfa/pdfatest"
)

func TestLevels(t *testing.T) {
	for in, want := range map[string]facturx.Level{
		"MINIMUM": facturx.Minimum, "minimum": facturx.Minimum, "BASIC WL": facturx.BasicWL, "basicwl": facturx.BasicWL,
		"facturx_basicwl": facturx.BasicWL, "basic-wl": facturx.BasicWL, "BASIC": facturx.Basic, "EN 16931": facturx.EN16931,
		"en16931": facturx.EN16931, "facturx_en16931": facturx.EN16931, "EXTENDED": facturx.Extended, "XRECHNUNG": facturx.XRechnung,
	} {
		if got, ok := facturx.ParseLevel(in); !ok || got != want {
			t.Errorf("ParseLevel(%q) = %q, %v", in, got, ok)
		}
	}
	for _, bad := range []string{"", "comfort", "EN16931X"} {
		if _, ok := facturx.ParseLevel(bad); ok {
			t.Errorf("ParseLevel(%q) accepted", bad)
		}
	}
	for id, want := range map[string]facturx.Level{
		"urn:factur-x.eu:1p0:minimum":                                           facturx.Minimum,
		"urn:factur-x.eu:1p0:basicwl":                                           facturx.BasicWL,
		"urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic":           facturx.Basic,
		"urn:cen.eu:en16931:2017":                                               facturx.EN16931,
		"urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended":       facturx.Extended,
		"urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0": facturx.XRechnung,
	} {
		if got, ok := facturx.LevelFromGuideline(id); !ok || got != want {
			t.Errorf("LevelFromGuideline(%q) = %q, %v", id, got, ok)
		}
	}
	if _, ok := facturx.LevelFromGuideline("urn:other"); ok {
		t.Error("unknown guideline accepted")
	}
	for l, want := range map[facturx.Level]pdfa.Relationship{facturx.Minimum: pdfa.Data, facturx.BasicWL: pdfa.Data,
		facturx.Basic: pdfa.Alternative, facturx.EN16931: pdfa.Alternative, facturx.Extended: pdfa.Alternative} {
		if got := l.Relationship(); got != want {
			t.Errorf("%s: relationship %s", l, got)
		}
	}
}

// TestXMP: the packet is well-formed, describes the fx: schema in the
// pdfaExtension block and gives its four values in the exact spelling.
func TestXMP(t *testing.T) {
	x := facturx.XMP(pdfa.Info{Title: "Invoice 1", CreationDate: time.Unix(0, 0), ModDate: time.Unix(0, 0)}, facturx.BasicWL)
	dec := xml.NewDecoder(bytes.NewReader(x))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
	}
	for _, want := range []string{
		`xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"`,
		"<fx:DocumentType>INVOICE</fx:DocumentType>", "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>",
		"<fx:Version>1.0</fx:Version>", "<fx:ConformanceLevel>BASIC WL</fx:ConformanceLevel>",
		"<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
		"<pdfaSchema:prefix>fx</pdfaSchema:prefix>", "<pdfaProperty:name>ConformanceLevel</pdfaProperty:name>",
		"<pdfaid:part>3</pdfaid:part>", "<pdfaid:conformance>B</pdfaid:conformance>",
	} {
		if !bytes.Contains(x, []byte(want)) {
			t.Errorf("XMP lacks %s", want)
		}
	}
}

// TestEmbed: every level gives a PDF/A-3b with factur-x.xml byte-identical,
// its relationship, and the level in the XMP.
func TestEmbed(t *testing.T) {
	fs, err := pdfa.GoFonts()
	if err != nil {
		t.Fatal(err)
	}
	cii := []byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rsm:CrossIndustryInvoice xmlns:rsm=\"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100\"/>\n")
	for _, l := range []facturx.Level{facturx.Minimum, facturx.EN16931} {
		d, err := pdfa.New(pdfa.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d.AddPage(pdfa.A4Width, pdfa.A4Height).Text(fs.Regular, 12, 50, 800, "Invoice 1")
		if err := facturx.Embed(d, cii, l); err != nil {
			t.Fatal(err)
		}
		if facturx.Embed(d, cii, l) == nil {
			t.Error("embedding twice accepted")
		}
		b, err := d.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if got := pdfatest.Detach(t, b)[facturx.FileName]; !bytes.Equal(got, cii) {
			t.Errorf("%s: embedded %q", l, got)
		}
		for _, want := range []string{"/AFRelationship /" + string(l.Relationship()), "<fx:ConformanceLevel>" + string(l) + "</fx:ConformanceLevel>"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: lacks %s", l, want)
			}
		}
		verapdftest.AssertPDFA3B(t, b)
	}
	d, _ := pdfa.New(pdfa.Options{})
	if facturx.Embed(d, cii, "COMFORT") == nil {
		t.Error("unknown level accepted")
	}
}
