package pdfaconv

// Kind classifies a conversion failure.
type Kind int

// The kinds of failure.
const (
	// KindUnreadable: the input is not a PDF Ghostscript can convert (not a
	// PDF, damaged beyond repair, pages lost, time limit); the caller's
	// problem (422).
	KindUnreadable Kind = iota + 1
	// KindEncrypted: the input is encrypted (422).
	KindEncrypted
	// KindBadAttachment: an attachment cannot be embedded (422).
	KindBadAttachment
	// KindUnavailable: Ghostscript or the ICC profile is missing on this
	// server (503).
	KindUnavailable
)

// Error is a conversion failure with a message for the caller.
type Error struct {
	Kind   Kind
	Detail string
	Err    error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return "pdfaconv: " + e.Detail + ": " + e.Err.Error()
	}
	return "pdfaconv: " + e.Detail
}

func (e *Error) Unwrap() error { return e.Err }
