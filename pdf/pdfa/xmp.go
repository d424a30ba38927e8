package pdfa

import (
	"bytes"
	"encoding/xml"
	"strconv"
)

// XMPSchema is an XMP extension schema: described in the pdfaExtension
// block (as PDF/A requires for every schema it does not predefine) and its
// property values written in their own rdf:Description.
type XMPSchema struct {
	Name         string // pdfaSchema:schema, a human-readable description
	NamespaceURI string
	Prefix       string
	Properties   []XMPProperty
}

// XMPProperty is one property of an extension schema.
type XMPProperty struct {
	Name        string
	ValueType   string // Text, Integer, ...
	Category    string // external or internal
	Description string
	Value       string
}

// XMP is the metadata packet of a PDF/A document.
type XMP struct {
	Part        int    // pdfaid:part, 3
	Conformance string // pdfaid:conformance, B
	Info        Info
	Schemas     []XMPSchema
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// Bytes writes the packet (UTF-8, with the xpacket wrapper and padding so
// editors can update it in place).
func (x XMP) Bytes() []byte {
	var b bytes.Buffer
	b.WriteString("<?xpacket begin=\"\ufeff\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n")
	b.WriteString("<rdf:Description rdf:about=\"\" xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\">\n")
	b.WriteString("  <pdfaid:part>" + strconv.Itoa(x.Part) + "</pdfaid:part>\n  <pdfaid:conformance>" + esc(x.Conformance) + "</pdfaid:conformance>\n</rdf:Description>\n")
	in := x.Info
	b.WriteString("<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n  <dc:format>application/pdf</dc:format>\n")
	if in.Title != "" {
		b.WriteString("  <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">" + esc(in.Title) + "</rdf:li></rdf:Alt></dc:title>\n")
	}
	if in.Author != "" {
		b.WriteString("  <dc:creator><rdf:Seq><rdf:li>" + esc(in.Author) + "</rdf:li></rdf:Seq></dc:creator>\n")
	}
	if in.Subject != "" {
		b.WriteString("  <dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">" + esc(in.Subject) + "</rdf:li></rdf:Alt></dc:description>\n")
	}
	b.WriteString("</rdf:Description>\n<rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\">\n")
	if in.Creator != "" {
		b.WriteString("  <xmp:CreatorTool>" + esc(in.Creator) + "</xmp:CreatorTool>\n")
	}
	if !in.CreationDate.IsZero() {
		b.WriteString("  <xmp:CreateDate>" + xmpDate(in.CreationDate) + "</xmp:CreateDate>\n")
	}
	if !in.ModDate.IsZero() {
		b.WriteString("  <xmp:ModifyDate>" + xmpDate(in.ModDate) + "</xmp:ModifyDate>\n  <xmp:MetadataDate>" + xmpDate(in.ModDate) + "</xmp:MetadataDate>\n")
	}
	b.WriteString("</rdf:Description>\n<rdf:Description rdf:about=\"\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\">\n")
	if in.Producer != "" {
		b.WriteString("  <pdf:Producer>" + esc(in.Producer) + "</pdf:Producer>\n")
	}
	if in.Keywords != "" {
		b.WriteString("  <pdf:Keywords>" + esc(in.Keywords) + "</pdf:Keywords>\n")
	}
	b.WriteString("</rdf:Description>\n")
	if len(x.Schemas) > 0 {
		b.WriteString("<rdf:Description rdf:about=\"\" xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\" xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\" xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">\n  <pdfaExtension:schemas>\n    <rdf:Bag>\n")
		for _, s := range x.Schemas {
			b.WriteString("      <rdf:li rdf:parseType=\"Resource\">\n")
			b.WriteString("        <pdfaSchema:schema>" + esc(s.Name) + "</pdfaSchema:schema>\n")
			b.WriteString("        <pdfaSchema:namespaceURI>" + esc(s.NamespaceURI) + "</pdfaSchema:namespaceURI>\n")
			b.WriteString("        <pdfaSchema:prefix>" + esc(s.Prefix) + "</pdfaSchema:prefix>\n        <pdfaSchema:property>\n          <rdf:Seq>\n")
			for _, p := range s.Properties {
				b.WriteString("            <rdf:li rdf:parseType=\"Resource\">\n")
				b.WriteString("              <pdfaProperty:name>" + esc(p.Name) + "</pdfaProperty:name>\n")
				b.WriteString("              <pdfaProperty:valueType>" + esc(p.ValueType) + "</pdfaProperty:valueType>\n")
				b.WriteString("              <pdfaProperty:category>" + esc(p.Category) + "</pdfaProperty:category>\n")
				b.WriteString("              <pdfaProperty:description>" + esc(p.Description) + "</pdfaProperty:description>\n            </rdf:li>\n")
			}
			b.WriteString("          </rdf:Seq>\n        </pdfaSchema:property>\n      </rdf:li>\n")
		}
		b.WriteString("    </rdf:Bag>\n  </pdfaExtension:schemas>\n</rdf:Description>\n")
		for _, s := range x.Schemas {
			b.WriteString("<rdf:Description rdf:about=\"\" xmlns:" + s.Prefix + "=\"" + esc(s.NamespaceURI) + "\">\n")
			for _, p := range s.Properties {
				b.WriteString("  <" + s.Prefix + ":" + p.Name + ">" + esc(p.Value) + "</" + s.Prefix + ":" + p.Name + ">\n")
			}
			b.WriteString("</rdf:Description>\n")
		}
	}
	b.WriteString("</rdf:RDF>\n</x:xmpmeta>\n")
	for range 20 {
		b.WriteString("                                                                                                   \n")
	}
	b.WriteString("<?xpacket end=\"w\"?>")
	return b.Bytes()
}
