package pdfaconv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// Config configures a Converter; zero values take the defaults.
type Config struct {
	// Ghostscript is the gs binary (name looked up in PATH, or a path);
	// default "gs".
	Ghostscript string
	// ICCProfile is the sRGB ICC profile of the output intent; default the
	// first of Debian's locations found (FindSRGBProfile).
	ICCProfile string
	// Timeout bounds one Ghostscript run (DefaultTimeout).
	Timeout time.Duration
	// MaxMemory bounds the address space of one Ghostscript process in
	// bytes (DefaultMaxMemory).
	MaxMemory int64
	// MaxConcurrent bounds the Ghostscript processes running at once
	// (DefaultMaxConcurrent); further conversions wait for a slot or their
	// context.
	MaxConcurrent int
	// TempDir is where the private per-conversion directories are made
	// (default os.TempDir()).
	TempDir string
	// Limits are the reader limits applied to the input and to
	// Ghostscript's output (pdfread.DefaultLimits when zero).
	Limits pdfread.Limits
	// Producer is written to the Info dictionary and the XMP (default
	// "einvoice pdfaconv (Ghostscript)").
	Producer string
	// Now returns the time written as the documents' dates (default
	// time.Now).
	Now func() time.Time
}

// Converter converts PDFs to PDF/A-3b. It is safe for concurrent use.
type Converter struct {
	cfg   Config
	slots chan struct{}
}

// New returns a Converter with cfg's defaults filled in. It does not check
// that Ghostscript exists: a conversion without it fails with
// KindUnavailable (and Check says so).
func New(cfg Config) *Converter {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	if cfg.Limits == (pdfread.Limits{}) {
		cfg.Limits = pdfread.DefaultLimits()
	}
	if cfg.Producer == "" {
		cfg.Producer = "einvoice pdfaconv (Ghostscript)"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Converter{cfg: cfg, slots: make(chan struct{}, cfg.MaxConcurrent)}
}

// Check reports whether the converter can run: Ghostscript is found and an
// sRGB profile exists. The error is an *Error of KindUnavailable.
func (c *Converter) Check() error {
	if _, err := c.gsPath(); err != nil {
		return err
	}
	if c.cfg.ICCProfile == "" {
		if _, err := FindSRGBProfile(); err != nil {
			return &Error{Kind: KindUnavailable, Detail: err.Error(), Err: err}
		}
	} else if _, err := pdfa.ReadICCProfile(c.cfg.ICCProfile); err != nil {
		return &Error{Kind: KindUnavailable, Detail: err.Error(), Err: err}
	}
	return nil
}

// Attachment is a file to embed.
type Attachment struct {
	Name         string // file name (/F, /UF); made unique within the document
	MIME         string // /Subtype; empty = application/octet-stream
	Description  string // /Desc
	Relationship pdfa.Relationship
	Data         []byte

	kept bool // one of the input's own files (KeepAttachments)
}

// Request is one conversion.
type Request struct {
	PDF []byte
	// Attachments are embedded in the output; one named like a file kept
	// from the input replaces it.
	Attachments []Attachment
	// KeepAttachments carries the input's own embedded files (name tree
	// and /AF array; Ghostscript drops them) into the output, keeping their
	// /AFRelationship (Unspecified when they had none).
	KeepAttachments bool
	// Schemas are XMP extension schemas written with their values (e.g.
	// Factur-X's, from pdf/facturx).
	Schemas []pdfa.XMPSchema
}

// Result is a converted document.
type Result struct {
	PDF   []byte
	Pages int
	// Attachments are the names of the embedded files in the output, in
	// name-tree order.
	Attachments []string
	// GhostscriptLog holds Ghostscript's messages (repairs, substitutions).
	GhostscriptLog string
}

// Convert turns req.PDF into PDF/A-3b. The output is not yet checked
// against PDF/A: callers hand it to veraPDF.
func (c *Converter) Convert(ctx context.Context, req Request) (*Result, error) {
	if !bytes.Contains(req.PDF[:min(len(req.PDF), 1024)], []byte("%PDF-")) {
		return nil, &Error{Kind: KindUnreadable, Detail: "not a PDF: no %PDF- header in the first 1024 bytes"}
	}
	inPages, kept, err := c.inspect(req)
	if err != nil {
		return nil, err
	}
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	gctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	out, log, err := c.ghostscript(gctx, req.PDF)
	cancel()
	<-c.slots
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr // the caller's deadline or cancellation, not Timeout
		}
		return nil, err
	}
	atts := append(kept, req.Attachments...)
	res, err := c.finish(out, atts, req.Schemas)
	if err != nil {
		return nil, err
	}
	res.GhostscriptLog = log
	if inPages > 0 && res.Pages != inPages {
		return nil, &Error{Kind: KindUnreadable, Detail: fmt.Sprintf("Ghostscript could convert only %d of the %d pages: %s", res.Pages, inPages, firstLines(log, "no message"))}
	}
	return res, nil
}

// inspect reads the input with our own reader: encryption is refused
// (Ghostscript would silently drop an owner password's restrictions or
// write a blank page for a user password), the page count is taken for the
// check after conversion (0 when our reader cannot count them: Ghostscript
// repairs more than we read), and the files to keep are collected.
func (c *Converter) inspect(req Request) (pages int, kept []Attachment, err error) {
	doc, err := pdfread.Open(req.PDF, c.cfg.Limits)
	switch {
	case errors.Is(err, pdfread.ErrEncrypted):
		return 0, nil, &Error{Kind: KindEncrypted, Detail: "encrypted PDFs are not supported: remove the encryption (and its restrictions) first", Err: err}
	case errors.Is(err, pdfread.ErrLimit):
		return 0, nil, &Error{Kind: KindUnreadable, Detail: "the PDF exceeds a reader limit: " + err.Error(), Err: err}
	case err != nil:
		if req.KeepAttachments {
			// Attachments cannot be carried without reading the input.
			return 0, nil, &Error{Kind: KindUnreadable, Detail: "the PDF cannot be read: " + err.Error(), Err: err}
		}
		return 0, nil, nil
	}
	if ps, err := doc.Pages(); err == nil {
		pages = len(ps)
	}
	if !req.KeepAttachments {
		return pages, nil, nil
	}
	atts, err := doc.Attachments()
	switch {
	case errors.Is(err, pdfread.ErrLimit): // e.g. the pages walked for annotation files
		return 0, nil, &Error{Kind: KindUnreadable, Detail: "the PDF exceeds a reader limit: " + err.Error(), Err: err}
	case err != nil:
		return 0, nil, &Error{Kind: KindUnreadable, Detail: "the PDF's embedded files cannot be read: " + err.Error(), Err: err}
	}
	for _, a := range atts {
		if a.Origin == "annotation" {
			continue // annotations stay on their page (when Ghostscript keeps them)
		}
		rel, ok := pdfa.ParseRelationship(a.Relationship)
		if !ok {
			rel = pdfa.Unspecified
		}
		kept = append(kept, Attachment{Name: a.Name, MIME: a.MIME, Description: a.Description, Relationship: rel, Data: a.Data, kept: true})
	}
	return pages, kept, nil
}
