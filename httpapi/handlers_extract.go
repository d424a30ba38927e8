package httpapi

import (
	"context"
	"mime"
	"net/http"
	"strconv"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// Response headers of extract/xml and facturx-to-* (documented in docs/API.md).
const (
	// HeaderEmbeddedFile is the name of the embedded XML file.
	HeaderEmbeddedFile = "X-Embedded-File-Name"
	// HeaderAFRelationship is its /AFRelationship (absent when none).
	HeaderAFRelationship = "X-AF-Relationship"
	// HeaderFlavour is Factur-X, ZUGFeRD, XRechnung or Order-X.
	HeaderFlavour = "X-Invoice-Flavour"
	// HeaderFlavourVersion is the Factur-X/ZUGFeRD version (XMP fx:Version,
	// else from the guideline id).
	HeaderFlavourVersion = "X-Invoice-Flavour-Version"
	// HeaderFlavourProfile is the conformance level (XMP
	// fx:ConformanceLevel, else from the guideline id): MINIMUM, BASIC WL,
	// BASIC, EN 16931, EXTENDED, XRECHNUNG.
	HeaderFlavourProfile = "X-Invoice-Profile"
	// HeaderGuideline is BT-24 of the embedded XML.
	HeaderGuideline = "X-Guideline-Id"
	// HeaderReconstructed is "true" when the PDF's cross-reference was
	// broken and rebuilt by scanning the file.
	HeaderReconstructed = "X-PDF-Reconstructed"
)

func setExtractedHeaders(h http.Header, x *ops.ExtractedXML) {
	h.Set(HeaderEmbeddedFile, asciiHeader(x.FileName))
	if x.Reconstructed {
		h.Set(HeaderReconstructed, "true")
	}
	for k, v := range map[string]string{HeaderAFRelationship: x.Relationship, HeaderFlavour: x.Flavour,
		HeaderFlavourVersion: x.Version, HeaderFlavourProfile: x.Profile, HeaderGuideline: x.GuidelineID} {
		if v != "" {
			h.Set(k, asciiHeader(v))
		}
	}
}

// asciiHeader keeps a header value printable ASCII (non-ASCII as \uXXXX).
func asciiHeader(s string) string {
	q := strconv.QuoteToASCII(s)
	return q[1 : len(q)-1]
}

// handleExtractXML serves /v1/extract/xml through ops.ExtractXML: the
// embedded XML byte for byte.
func (s *Server) handleExtractXML(ctx context.Context, w http.ResponseWriter, in *input) error {
	x, err := s.cfg.Ops.ExtractXML(ctx, in.body)
	if err != nil {
		return err
	}
	h := w.Header()
	setExtractedHeaders(h, x)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": x.FileName}))
	writeBody(w, mediaXML, x.XML)
	return nil
}

// handleExtractAttachments serves /v1/extract/attachments.
func (s *Server) handleExtractAttachments(ctx context.Context, w http.ResponseWriter, in *input) error {
	p, err := paramsOf[wire.ExtractAttachmentsParams](in, "extract attachments")
	if err != nil {
		return err
	}
	res, err := s.cfg.Ops.ExtractAttachments(ctx, in.body, p.IncludeContent)
	if err != nil {
		return err
	}
	s.writeJSON(w, http.StatusOK, res)
	return nil
}

// handleConsistency serves /v1/pdfa/consistency.
func (s *Server) handleConsistency(ctx context.Context, w http.ResponseWriter, in *input) error {
	res, err := s.cfg.Ops.Consistency(ctx, in.body)
	if err != nil {
		return err
	}
	s.writeJSON(w, http.StatusOK, res)
	return nil
}

// handleConvertFromFacturX serves /v1/convert/facturx-to-{ubl,cii} through
// ops.ConvertFacturX.
func (s *Server) handleConvertFromFacturX(dir string) handlerFunc {
	return func(ctx context.Context, w http.ResponseWriter, in *input) error {
		req := ops.ConvertRequest{Direction: dir, Body: in.body}
		p, err := paramsOf[wire.ConvertParams](in, "convert")
		if err != nil {
			return err
		}
		req.Profile = p.Profile
		res, x, err := s.cfg.Ops.ConvertFacturX(ctx, req)
		if err != nil {
			return err
		}
		setExtractedHeaders(w.Header(), x)
		return writeConverted(w, res)
	}
}
