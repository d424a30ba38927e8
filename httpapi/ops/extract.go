package ops

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// PDFReadLimits bounds the PDF reader for every operation that reads a
// caller's PDF (extract, consistency, facturx-to-*).
var pdfReadLimits = pdfread.Limits{
	MaxObjects:    200_000,
	MaxDepth:      64,
	MaxStreamSize: 32 << 20,
	MaxDecoded:    32 << 20,
	MaxWork:       256 << 20,
	MaxPages:      5_000,
}

// OpenPDF opens a caller's PDF with the service's limits. Reader failures
// are a *RequestError (422): encrypted ("encrypted PDFs are not
// supported"), a limit (limit_exceeded) or unreadable (value_error).
func OpenPDF(pdf []byte) (*pdfread.Doc, error) {
	d, err := pdfread.Open(pdf, pdfReadLimits)
	if err != nil {
		return nil, pdfError(err)
	}
	return d, nil
}

// recoverPDF turns a panic while reading a caller's PDF (in pdfread it is
// already recovered; this covers the XML and text readers above it) into
// the same 422 as an unreadable PDF. Deferred before wrap.
func recoverPDF(errp *error) {
	if r := recover(); r != nil {
		*errp = pdfError(&pdfread.PanicError{Value: r})
	}
}

// pdfError maps a pdfread error to a 422.
func pdfError(err error) error {
	var pe *pdfread.PanicError
	switch {
	case errors.Is(err, pdfread.ErrEncrypted):
		return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError, Msg: "encrypted PDFs are not supported"}}}
	case errors.Is(err, pdfread.ErrLimit):
		return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeLimitExceeded, Msg: err.Error()}}}
	case errors.As(err, &pe):
		return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError, Msg: "Value error, the PDF cannot be read (its structure defeats the reader)"}}}
	}
	return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError, Msg: "Value error, the PDF cannot be read: " + err.Error()}}}
}

// Invoice XML flavours.
const (
	FlavourFacturX   = "Factur-X"
	FlavourZUGFeRD   = "ZUGFeRD"
	FlavourXRechnung = "XRechnung"
	FlavourOrderX    = "Order-X"
)

// invoiceNames are the file names an embedded invoice (or order) XML has,
// lower-cased, in order of preference, with the flavour each name implies.
var invoiceNames = []struct{ name, flavour string }{
	{"factur-x.xml", FlavourFacturX},
	{"zugferd-invoice.xml", FlavourZUGFeRD}, // ZUGFeRD 2.x; 1.0 wrote ZUGFeRD-invoice.xml
	{"xrechnung.xml", FlavourXRechnung},
	{"order-x.xml", FlavourOrderX},
}

// ExtractedXML is the invoice XML embedded in a PDF.
type ExtractedXML struct {
	XML          []byte
	FileName     string
	Relationship string // the file's /AFRelationship
	Flavour      string // Factur-X, ZUGFeRD, XRechnung or Order-X
	Version      string // Factur-X/ZUGFeRD version (XMP fx:Version, else from the guideline id)
	Profile      string // conformance level (XMP fx:ConformanceLevel, else from the guideline id)
	GuidelineID  string // BT-24 of the XML
	// Reconstructed: the PDF's cross-reference was broken and rebuilt by
	// scanning (pdfread.Doc.Reconstructed).
	Reconstructed bool
}

// ExtractXML returns the invoice XML actually embedded in pdf, byte for
// byte; a PDF without one is a 422. The file is chosen by name
// (factur-x.xml, ZUGFeRD-invoice.xml / zugferd-invoice.xml, xrechnung.xml,
// order-x.xml); when several are present, the one the XMP metadata names
// (fx:DocumentFileName) wins, then an AFRelationship of Data, Source or
// Alternative, then the order above.
func (s *Service) ExtractXML(ctx context.Context, pdf []byte) (_ *ExtractedXML, err error) {
	defer func() { wrap(&err, "ops.ExtractXML") }()
	defer recoverPDF(&err)
	d, err := OpenPDF(pdf)
	if err != nil {
		return nil, err
	}
	return extractXML(ctx, d)
}

func extractXML(ctx context.Context, d *pdfread.Doc) (*ExtractedXML, error) {
	atts, err := d.Attachments()
	if err != nil && (len(atts) == 0 || !errors.Is(err, pdfread.ErrLimit)) {
		return nil, pdfError(err)
	}
	// Over the page limit with files found: the invoice XML lives in the
	// name tree or /AF, read before the pages, so the choice stands.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	xmp, _ := d.Metadata()
	meta := readXMP(xmp)
	best, bestScore, flavour := -1, -1, ""
	for i, a := range atts {
		rank := -1
		for k, n := range invoiceNames {
			if strings.EqualFold(a.Name, n.name) {
				rank = k
				break
			}
		}
		if rank < 0 {
			continue
		}
		score := 10 * (len(invoiceNames) - rank)
		switch a.Relationship {
		case "Data", "Source", "Alternative":
			score += 100
		}
		if meta.FileName != "" && strings.EqualFold(meta.FileName, a.Name) {
			score += 1000
		}
		if score > bestScore {
			best, bestScore, flavour = i, score, invoiceNames[rank].flavour
		}
	}
	if best < 0 {
		names := make([]string, 0, len(atts))
		for _, a := range atts {
			names = append(names, a.Name)
		}
		msg := "the PDF has no embedded invoice XML (factur-x.xml, ZUGFeRD-invoice.xml, zugferd-invoice.xml, xrechnung.xml or order-x.xml)"
		if len(names) > 0 {
			msg += "; embedded files: " + strings.Join(names, ", ")
		}
		return nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError, Msg: msg}}}
	}
	a := atts[best]
	out := &ExtractedXML{XML: a.Data, FileName: a.Name, Relationship: a.Relationship, Flavour: flavour, Reconstructed: d.Reconstructed()}
	out.GuidelineID = guidelineID(a.Data)
	// The XMP says which standard the PDF follows, when it describes this file.
	if meta.FileName == "" || strings.EqualFold(meta.FileName, a.Name) {
		if meta.Flavour != "" {
			out.Flavour = meta.Flavour
		}
		out.Version, out.Profile = meta.Version, meta.Level
	}
	if out.Profile == "" || out.Version == "" {
		v, p := profileFromGuideline(out.GuidelineID)
		if out.Profile == "" {
			out.Profile = p
		}
		if out.Version == "" {
			out.Version = v
		}
	}
	return out, nil
}

// xmpInfo is what the Factur-X / ZUGFeRD / Order-X extension schema of the
// XMP says.
type xmpInfo struct {
	Flavour, FileName, Version, Level, DocType string
}

// readXMP reads the fx: extension schema properties, in element or
// attribute form, whatever the prefix.
func readXMP(data []byte) xmpInfo {
	var info xmpInfo
	if len(data) == 0 {
		return info
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	set := func(space, local, val string) {
		if !strings.Contains(space, "CrossIndustryDocument") {
			return
		}
		val = strings.TrimSpace(val)
		switch local {
		case "DocumentFileName":
			info.FileName = val
		case "Version":
			info.Version = val
		case "ConformanceLevel":
			info.Level = val
		case "DocumentType":
			info.DocType = val
		default:
			return
		}
		switch {
		case strings.Contains(space, "urn:ferd:"):
			info.Flavour = FlavourZUGFeRD
		case strings.Contains(space, "zugferd"):
			info.Flavour = FlavourZUGFeRD
		case strings.Contains(space, "factur-x"):
			info.Flavour = FlavourFacturX
		}
	}
	var open *xml.StartElement
	var text strings.Builder
	for i := 0; i < 200_000; i++ {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			for _, at := range t.Attr {
				set(at.Name.Space, at.Name.Local, at.Value)
			}
			c := t.Copy()
			open = &c
			text.Reset()
		case xml.CharData:
			if open != nil && text.Len() < 4096 {
				text.Write(t)
			}
		case xml.EndElement:
			if open != nil && open.Name == t.Name {
				set(t.Name.Space, t.Name.Local, text.String())
			}
			open = nil
		}
	}
	if strings.EqualFold(info.DocType, "ORDER") {
		info.Flavour = FlavourOrderX
	}
	return info
}

// guidelineID returns BT-24 (GuidelineSpecifiedDocumentContextParameter/ID
// in CII, CustomizationID in UBL).
func guidelineID(doc []byte) string {
	var id string
	walkXML(doc, func(path []string, text string) bool {
		n := len(path)
		if n >= 2 && path[n-1] == "ID" && path[n-2] == "GuidelineSpecifiedDocumentContextParameter" ||
			n == 2 && path[1] == "CustomizationID" {
			id = strings.TrimSpace(text)
			return false
		}
		return true
	})
	return id
}

// profileFromGuideline maps a BT-24 value to (version, profile).
func profileFromGuideline(id string) (string, string) {
	l := strings.ToLower(id)
	switch {
	case l == "":
		return "", ""
	case strings.Contains(l, "xrechnung"):
		return "", "XRECHNUNG"
	case strings.HasPrefix(l, "urn:ferd:"):
		return "1.0", strings.ToUpper(l[strings.LastIndex(l, ":")+1:])
	case strings.HasPrefix(l, "urn:order-x.eu:"):
		return "1.0", strings.ToUpper(l[strings.LastIndex(l, ":")+1:])
	case strings.HasSuffix(l, ":minimum"):
		return "1.0", "MINIMUM"
	case strings.HasSuffix(l, ":basicwl"):
		return "1.0", "BASIC WL"
	case strings.HasSuffix(l, ":basic"):
		return "1.0", "BASIC"
	case strings.HasSuffix(l, ":extended"):
		return "1.0", "EXTENDED"
	case l == "urn:cen.eu:en16931:2017":
		return "1.0", "EN 16931"
	}
	return "", ""
}

// walkXML calls fn with the local-name path and the direct text of every
// element, in document order, until fn returns false. DTDs and entities
// are not expanded (encoding/xml does not); the walk is bounded.
func walkXML(doc []byte, fn func(path []string, text string) bool) {
	walkXMLAttrs(doc, func(path []string, _ []xml.Attr, text string) bool { return fn(path, text) })
}

func walkXMLAttrs(doc []byte, fn func(path []string, attrs []xml.Attr, text string) bool) {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	dec.Strict = false
	type frame struct {
		attrs []xml.Attr
		text  strings.Builder
	}
	var path []string
	var frames []*frame
	for i := 0; i < 5_000_000; i++ {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(path) > 256 {
				return
			}
			path = append(path, t.Name.Local)
			frames = append(frames, &frame{attrs: t.Copy().Attr})
		case xml.CharData:
			if n := len(frames); n > 0 && frames[n-1].text.Len() < 64<<20 {
				frames[n-1].text.Write(t)
			}
		case xml.EndElement:
			n := len(frames)
			if n == 0 {
				return
			}
			f := frames[n-1]
			if !fn(path, f.attrs, f.text.String()) {
				return
			}
			path, frames = path[:n-1], frames[:n-1]
		}
	}
}

// ExtractAttachments lists every embedded file of pdf (name tree, /AF,
// file-attachment annotations) and the BG-24 documents inside the embedded
// invoice XML (when there is one); includeContent adds content_base64.
func (s *Service) ExtractAttachments(ctx context.Context, pdf []byte, includeContent bool) (_ *wire.Attachments, err error) {
	defer func() { wrap(&err, "ops.ExtractAttachments") }()
	defer recoverPDF(&err)
	d, err := OpenPDF(pdf)
	if err != nil {
		return nil, err
	}
	atts, err := d.Attachments()
	if err != nil {
		return nil, pdfError(err)
	}
	out := &wire.Attachments{Attachments: []wire.Attachment{}, Reconstructed: d.Reconstructed()}
	for _, a := range atts {
		loc := "/Names/EmbeddedFiles"
		switch a.Origin {
		case "af":
			loc = "/AF"
		case "annotation":
			loc = fmt.Sprintf("page %d annotation", a.Page)
		}
		out.Attachments = append(out.Attachments, wireAttachment(a.Name, a.MIME, a.Relationship, a.Description, "pdf", loc, a.Data, includeContent))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inv, err := extractXML(ctx, d)
	var re *RequestError
	switch {
	case errors.As(err, &re):
		return out, nil // no invoice XML: no BG-24 documents
	case err != nil:
		return nil, err
	}
	for _, b := range SupportingDocuments(inv.XML) {
		out.Attachments = append(out.Attachments, wireAttachment(b.Name, b.MIME, "", b.Description, "invoice:BG-24", inv.FileName+": "+b.Path, b.Data, includeContent))
	}
	return out, nil
}

func wireAttachment(name, mime, rel, desc, origin, loc string, data []byte, content bool) wire.Attachment {
	sum := sha256.Sum256(data)
	a := wire.Attachment{Name: name, MimeType: mime, Size: len(data), SHA256: hex.EncodeToString(sum[:]),
		Relationship: rel, Description: desc, Origin: origin, Location: loc}
	if content {
		a.ContentBase64 = base64.StdEncoding.EncodeToString(data)
	}
	return a
}

// SupportingDocument is one BG-24 document with embedded content.
type SupportingDocument struct {
	Name, MIME, Description, Path string
	Data                          []byte
}

// SupportingDocuments returns the BG-24 documents with an embedded binary
// object: UBL cac:AdditionalDocumentReference/cac:Attachment/
// cbc:EmbeddedDocumentBinaryObject, CII ram:AdditionalReferencedDocument/
// ram:AttachmentBinaryObject. The name is @filename, else the reference's
// id; content that is not valid base64 is skipped.
func SupportingDocuments(doc []byte) []SupportingDocument {
	var out []SupportingDocument
	type ref struct {
		id, desc string
		objs     []SupportingDocument
	}
	var cur *ref
	count := 0
	flush := func() {
		if cur == nil {
			return
		}
		for _, o := range cur.objs {
			if o.Name == "" {
				o.Name = cur.id
			}
			o.Description = cur.desc
			out = append(out, o)
		}
		cur = nil
	}
	walkXMLAttrs(doc, func(path []string, attrs []xml.Attr, text string) bool {
		n := len(path)
		in := func(container string) bool {
			for i := n - 1; i >= 0; i-- {
				if path[i] == container {
					return true
				}
			}
			return false
		}
		last := path[n-1]
		switch {
		case last == "AdditionalDocumentReference" || last == "AdditionalReferencedDocument":
			// End of the reference: its children have been seen.
			flush()
			count++
			return true
		case in("AdditionalDocumentReference") || in("AdditionalReferencedDocument"):
			if cur == nil {
				cur = &ref{}
			}
		default:
			return true
		}
		parent := path[n-2]
		switch {
		case (last == "ID" && parent == "AdditionalDocumentReference") || last == "IssuerAssignedID":
			cur.id = strings.TrimSpace(text)
		case last == "DocumentDescription" || (last == "Name" && parent == "AdditionalReferencedDocument"):
			cur.desc = strings.TrimSpace(text)
		case last == "EmbeddedDocumentBinaryObject" || last == "AttachmentBinaryObject":
			data, err := decodeBase64(text)
			if err != nil {
				return true
			}
			o := SupportingDocument{Data: data, Path: fmt.Sprintf("AdditionalReferencedDocument[%d]/%s", count+1, last)}
			if parent == "Attachment" {
				o.Path = fmt.Sprintf("AdditionalDocumentReference[%d]/Attachment/%s", count+1, last)
			}
			for _, at := range attrs {
				switch at.Name.Local {
				case "mimeCode":
					o.MIME = at.Value
				case "filename":
					o.Name = at.Value
				}
			}
			cur.objs = append(cur.objs, o)
		}
		return true
	})
	flush()
	return out
}

func decodeBase64(s string) ([]byte, error) {
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	if b, err := base64.StdEncoding.DecodeString(clean); err == nil {
		return b, nil
	}
	return io.ReadAll(base64.NewDecoder(base64.RawStdEncoding, strings.NewReader(strings.TrimRight(clean, "="))))
}

// ConvertFacturX serves facturx-to-ubl and facturx-to-cii: the CII
// embedded in the PDF (ExtractXML; an Order-X order is refused) goes
// through the same path as cii-to-ubl (lossless or 422, target validated)
// for UBL, and for CII is returned byte for byte after the gate validated
// it for the target profile (default en16931). The result's Changes are
// those of the conversion; SourceFile names the embedded file.
func (s *Service) ConvertFacturX(ctx context.Context, req ConvertRequest) (_ *ConvertResult, source *ExtractedXML, err error) {
	defer func() { wrap(&err, "ops.ConvertFacturX(%s)", req.Direction) }()
	src, dst, _ := strings.Cut(req.Direction, "-to-")
	if src != "facturx" || (dst != "ubl" && dst != "cii") {
		return nil, nil, &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"path", "direction"}, Type: wire.TypeEnum, Input: req.Direction,
			Msg: "unknown Factur-X conversion direction; supported: facturx-to-ubl, facturx-to-cii",
		}}}
	}
	if req.Profile != "" && !strings.Contains(","+wire.AllProfiles+",", ","+req.Profile+",") {
		return nil, nil, profileError([]any{"query", "profile"}, req.Profile, wire.AllProfiles)
	}
	if s == nil || s.Validator == nil {
		return nil, nil, &NotImplementedError{Operation: "convert_" + strings.ReplaceAll(req.Direction, "-", "_"), Capability: "the rule engine (the conversion gate) has not landed"}
	}
	x, err := s.ExtractXML(ctx, req.Body)
	if err != nil {
		return nil, nil, err
	}
	if x.Flavour == FlavourOrderX {
		return nil, x, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError,
			Msg: "Value error, the PDF carries an Order-X order (" + x.FileName + "), not an invoice"}}}
	}
	if dst == "ubl" {
		res, err := s.Convert(ctx, ConvertRequest{Direction: "cii-to-ubl", Profile: req.Profile, Body: x.XML})
		return res, x, err
	}
	profile := req.Profile
	if profile == "" {
		profile = "en16931"
	}
	rep, err := s.Validate(ctx, ValidateRequest{Syntax: SyntaxCII, Profile: profile, Body: x.XML})
	if err != nil {
		return nil, x, err
	}
	if !rep.Valid {
		return nil, x, &RequestError{Fields: RuleViolations(rep, func(wire.Finding) []any { return []any{"body", x.FileName} })}
	}
	return &ConvertResult{XML: x.XML, TargetSyntax: SyntaxCII, Profile: rep.Profile, Report: rep}, x, nil
}
