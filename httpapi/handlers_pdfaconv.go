package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
)

// Response headers of pdfa/convert and generate/facturx/embed.
const (
	// HeaderPDFAPages is the page count of the returned PDF/A.
	HeaderPDFAPages = "X-PDFA-Pages"
	// HeaderEmbeddedFiles lists the embedded files of the returned PDF/A
	// (comma-separated, capped like the other list headers).
	HeaderEmbeddedFiles = "X-Embedded-Files"
)

// handlePDFAConvert serves pdfa/convert through ops.ConvertPDFA.
func (s *Server) handlePDFAConvert(ctx context.Context, w http.ResponseWriter, in *input) error {
	p, err := paramsOf[wire.PDFAConvertParams](in, "pdfa/convert")
	if err != nil {
		return err
	}
	pdf, err := formPart(in.form, "pdf")
	if err != nil {
		return err
	}
	var atts []pdfaconv.Attachment
	for i, fh := range in.form.File["attachments"] {
		data, err := readPart(fh)
		if err != nil {
			return err
		}
		name := path.Base(strings.ReplaceAll(fh.Filename, `\`, "/"))
		if name == "" || name == "." || name == "/" {
			name = "attachment-" + strconv.Itoa(i+1)
		}
		atts = append(atts, pdfaconv.Attachment{Name: name, MIME: partMIME(fh), Data: data})
	}
	for i, v := range in.form.Value["attachments"] { // a part sent without a file name
		atts = append(atts, pdfaconv.Attachment{Name: "attachment-" + strconv.Itoa(len(in.form.File["attachments"])+i+1), MIME: "application/octet-stream", Data: []byte(v)})
	}
	res, err := s.cfg.Ops.ConvertPDFA(ctx, ops.PDFAConvertRequest{PDF: pdf, Attachments: atts, Relationship: p.Relationship})
	if err != nil {
		return pdfaConvError(err)
	}
	writePDFA(w, res)
	return nil
}

// handleEmbedFacturX serves generate/facturx/embed through ops.EmbedFacturX.
func (s *Server) handleEmbedFacturX(ctx context.Context, w http.ResponseWriter, in *input) error {
	invoice, err := formPart(in.form, "invoice")
	if err != nil {
		return err
	}
	pdf, err := formPart(in.form, "pdf")
	if err != nil {
		return err
	}
	res, err := s.cfg.Ops.EmbedFacturX(ctx, invoice, pdf)
	if err != nil {
		return pdfaConvError(err)
	}
	h := w.Header()
	setGeneratedLists(h, res.Ignored, res.Computed)
	setReportHeaders(h, res.Report)
	writePDFA(w, &res.PDFAResult)
	return nil
}

func writePDFA(w http.ResponseWriter, res *ops.PDFAResult) {
	h := w.Header()
	h.Set(HeaderPDFAPages, strconv.Itoa(res.Pages))
	if len(res.Attachments) > 0 {
		h.Set(HeaderEmbeddedFiles, joinCapped(res.Attachments))
	}
	h.Set("Content-Length", strconv.Itoa(len(res.PDF)))
	writeBody(w, mediaPDF, res.PDF)
}

// pdfaConvError turns a missing Ghostscript or veraPDF into a 503.
func pdfaConvError(err error) error {
	var ue *ops.UnavailableError
	if errors.As(err, &ue) {
		return &Error{Kind: KindUnavailable, Detail: "PDF/A conversion is unavailable: " + ue.Detail, Err: err}
	}
	return veraPDFError(err)
}

// formPart returns the bytes of the multipart field name, sent as a file
// part or as a plain value (the admission checks made it present).
func formPart(form *multipart.Form, name string) ([]byte, error) {
	if form != nil {
		if fhs := form.File[name]; len(fhs) > 0 {
			return readPart(fhs[0])
		}
		if vs := form.Value[name]; len(vs) > 0 {
			return []byte(vs[0]), nil
		}
	}
	return nil, invalid(wire.ValidationError{Loc: []any{"body", name}, Type: wire.TypeMissing, Msg: "Field required"})
}

func readPart(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, fmt.Errorf("opening multipart part %q: %w", fh.Filename, err)
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("reading multipart part %q: %w", fh.Filename, err)
	}
	return b, nil
}

// partMIME is the part's media type without parameters, else the one of
// its file name's extension, else application/octet-stream.
func partMIME(fh *multipart.FileHeader) string {
	if mt, _, err := mime.ParseMediaType(fh.Header.Get("Content-Type")); err == nil && mt != "application/octet-stream" {
		return mt
	}
	if mt, _, err := mime.ParseMediaType(mime.TypeByExtension(path.Ext(fh.Filename))); err == nil {
		return mt
	}
	return "application/octet-stream"
}
