package ops

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// pdfHeaderWindow is how far into the body the %PDF- header may start
// (PDF readers accept leading garbage within the first kilobyte).
const pdfHeaderWindow = 1024

// PDFAValidate asks veraPDF whether pdf conforms to flavour ("auto" or one
// of verapdf.Flavours). The verdict is veraPDF's alone:
//   - a body without a %PDF- header in its first KiB: *RequestError (422), veraPDF is not asked;
//   - a PDF veraPDF cannot parse, an encrypted PDF, or one whose validation
//     runs out of time or memory: *RequestError (422) with veraPDF's reason;
//   - no validator (not configured, jar or Java missing, worker crashed):
//     an error matching verapdf.ErrUnavailable (503), never a guessed verdict.
func (s *Service) PDFAValidate(ctx context.Context, pdf []byte, flavour string) (*wire.PDFAValidation, error) {
	if err := CheckPDF(pdf, []any{"body"}); err != nil {
		return nil, err
	}
	if s.VeraPDF == nil {
		return nil, &verapdf.UnavailableError{Reason: "no veraPDF worker is configured on this instance"}
	}
	res, err := s.VeraPDF.Validate(ctx, pdf, flavour)
	if err != nil {
		return nil, pdfaValidateError(err)
	}
	return PDFAValidationWire(res), nil
}

// CheckPDF returns a 422 at loc unless b starts with a %PDF- header (within
// its first KiB).
func CheckPDF(b []byte, loc []any) error {
	head := b[:min(len(b), pdfHeaderWindow)]
	if bytes.Contains(head, []byte("%PDF-")) {
		return nil
	}
	msg := "Value error, not a PDF: no %PDF- header in the first 1024 bytes"
	if len(b) == 0 {
		msg = "Value error, the PDF is empty"
	}
	return &RequestError{Fields: []wire.ValidationError{{Loc: loc, Type: wire.TypeValueError, Msg: msg}}}
}

// pdfaValidateError turns a verapdf error into the operation's error.
func pdfaValidateError(err error) error {
	var de *verapdf.DocumentError
	if errors.As(err, &de) {
		return &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError,
			Msg: "Value error, " + documentErrorText(de), Ctx: map[string]any{"reason": de.Kind}}}}
	}
	if errors.Is(err, verapdf.ErrUnknownFlavour) {
		return profileError([]any{"query", "flavour"}, "", joinFlavours())
	}
	if errors.Is(err, verapdf.ErrUnavailable) {
		return err
	}
	return fmt.Errorf("pdfa/validate: %w", err)
}

func documentErrorText(de *verapdf.DocumentError) string {
	switch de.Kind {
	case verapdf.KindParse:
		return "veraPDF cannot parse the PDF: " + de.Message
	case verapdf.KindEncrypted:
		return "the PDF is encrypted; PDF/A forbids encryption and veraPDF cannot check it: " + de.Message
	case verapdf.KindTimeout:
		return "veraPDF could not finish checking the PDF in time: " + de.Message
	case verapdf.KindResource:
		// e.g. a 1 kB PDF whose ICC profile declares a 1 GiB tag, or one
		// whose content stream ends in a name's '#' (docs/PDF.md).
		return "veraPDF ran out of memory checking the PDF (a file of a few hundred bytes can do this: veraPDF allocates sizes declared inside the file, and loops on some malformed content; the worker was restarted): " + de.Message
	}
	return de.Error()
}

func joinFlavours() string {
	var b bytes.Buffer
	for i, f := range verapdf.Flavours {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f)
	}
	return b.String()
}

// PDFAValidationWire is the wire form of a veraPDF result.
func PDFAValidationWire(res *verapdf.Result) *wire.PDFAValidation {
	out := &wire.PDFAValidation{
		Compliant:      res.Compliant,
		Flavour:        res.Flavour,
		CheckedFlavour: res.CheckedFlavour,
		FailedRules:    make([]wire.PDFARule, 0, len(res.FailedRules)),
		Validator:      wire.ValidatorInfo{Name: res.Validator.Name, Version: res.Validator.Version},
		DurationMS:     res.Duration.Milliseconds(),
	}
	for _, r := range res.FailedRules {
		out.FailedRules = append(out.FailedRules, wire.PDFARule{Specification: r.Specification, Clause: r.Clause,
			TestNumber: r.TestNumber, Description: r.Description, FailedChecks: r.FailedChecks})
	}
	return out
}
