package facturx

import (
	"fmt"
	"strings"

	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// Level is a Factur-X conformance level, spelled as fx:ConformanceLevel
// takes it.
type Level string

// The Factur-X 1.0 conformance levels (fx:ConformanceLevel values).
const (
	Minimum   Level = "MINIMUM"
	BasicWL   Level = "BASIC WL"
	Basic     Level = "BASIC"
	EN16931   Level = "EN 16931"
	Extended  Level = "EXTENDED"
	XRechnung Level = "XRECHNUNG"
)

// Levels lists the levels from the smallest.
var Levels = []Level{Minimum, BasicWL, Basic, EN16931, Extended, XRechnung}

const (
	// FileName is the name of the embedded invoice (fx:DocumentFileName).
	FileName = "factur-x.xml"
	// DocumentType is fx:DocumentType of an invoice.
	DocumentType = "INVOICE"
	// Version is fx:Version, the version of the XMP schema.
	Version = "1.0"
	// NamespaceURI and Prefix name the fx: XMP schema.
	NamespaceURI = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"
	Prefix       = "fx"
	// MIME is the embedded file's /Subtype.
	MIME = "text/xml"
)

// ParseLevel accepts a level as fx:ConformanceLevel spells it, or as our
// profile names do ("en16931", "facturx_basicwl", "basic-wl"),
// case-insensitively.
func ParseLevel(s string) (Level, bool) {
	k := strings.ToUpper(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "facturx_"))
	k = strings.NewReplacer(" ", "", "-", "", "_", "").Replace(k)
	for _, l := range Levels {
		if strings.ReplaceAll(string(l), " ", "") == k {
			return l, true
		}
	}
	return "", false
}

// LevelFromGuideline returns the level of a CII document from its
// guideline (BT-24, GuidelineSpecifiedDocumentContextParameter/ID).
func LevelFromGuideline(id string) (Level, bool) {
	id = strings.TrimSpace(id)
	switch {
	case strings.HasSuffix(id, "urn:factur-x.eu:1p0:minimum"):
		return Minimum, true
	case strings.HasSuffix(id, "urn:factur-x.eu:1p0:basicwl"):
		return BasicWL, true
	case strings.HasSuffix(id, "urn:factur-x.eu:1p0:basic"):
		return Basic, true
	case strings.HasSuffix(id, "urn:factur-x.eu:1p0:extended"):
		return Extended, true
	case strings.Contains(id, "xrechnung"):
		return XRechnung, true
	case strings.HasPrefix(id, "urn:cen.eu:en16931:2017"):
		return EN16931, true
	}
	return "", false
}

// Relationship is the AFRelationship of factur-x.xml at level l: Data for
// MINIMUM and BASIC WL (they are not complete invoices), Alternative for
// BASIC and above (the XML is an equivalent of the visual invoice).
func (l Level) Relationship() pdfa.Relationship {
	if l == Minimum || l == BasicWL {
		return pdfa.Data
	}
	return pdfa.Alternative
}

// Schema is the fx: XMP extension schema with its values for level l.
func Schema(l Level) pdfa.XMPSchema {
	return pdfa.XMPSchema{
		Name:         "Factur-X PDFA Extension Schema",
		NamespaceURI: NamespaceURI,
		Prefix:       Prefix,
		Properties: []pdfa.XMPProperty{
			{Name: "DocumentFileName", ValueType: "Text", Category: "external", Description: "name of the embedded XML invoice file", Value: FileName},
			{Name: "DocumentType", ValueType: "Text", Category: "external", Description: "INVOICE", Value: DocumentType},
			{Name: "Version", ValueType: "Text", Category: "external", Description: "The actual version of the Factur-X XML schema", Value: Version},
			{Name: "ConformanceLevel", ValueType: "Text", Category: "external", Description: "The conformance level of the embedded Factur-X data", Value: string(l)},
		},
	}
}

// XMP is the complete metadata packet of a Factur-X PDF/A-3b at level l
// whose Info dictionary is info (the caller writes the same values there).
func XMP(info pdfa.Info, l Level) []byte {
	return pdfa.XMP{Part: 3, Conformance: "B", Info: info, Schemas: []pdfa.XMPSchema{Schema(l)}}.Bytes()
}

// Embed attaches cii as factur-x.xml with the level's AFRelationship and
// adds the fx: schema to d's metadata.
func Embed(d *pdfa.Document, cii []byte, l Level) error {
	if _, ok := ParseLevel(string(l)); !ok {
		return fmt.Errorf("facturx.Embed: unknown conformance level %q", l)
	}
	if err := d.Attach(pdfa.EmbeddedFile{
		Name: FileName, Description: "Factur-X invoice (" + string(l) + ")", MIME: MIME,
		Relationship: l.Relationship(), Data: cii,
	}); err != nil {
		return fmt.Errorf("facturx.Embed: %w", err)
	}
	d.AddXMPSchema(Schema(l))
	return nil
}
