package pdfread

import (
	"errors"
	"fmt"
)

// Object is one PDF object: Null, Bool, Int, Real, Name, String, Array,
// Dict, Ref or *Stream.
type Object any

// Null is the PDF null object.
type Null struct{}

// Bool is a PDF boolean.
type Bool bool

// Int is a PDF integer.
type Int int64

// Real is a PDF real number.
type Real float64

// Name is a PDF name without the leading slash, with #xx escapes decoded.
type Name string

// String is a PDF string (literal or hexadecimal) as raw bytes.
type String string

// Array is a PDF array.
type Array []Object

// Dict is a PDF dictionary.
type Dict map[Name]Object

// Ref is an indirect reference "Num Gen R".
type Ref struct {
	Num, Gen int
}

// Stream is a PDF stream: its dictionary and its raw (still encoded) data.
// Decode it with (*Doc).StreamData or Decode.
type Stream struct {
	Dict Dict
	Raw  []byte
}

// Errors returned by the reader; test with errors.Is.
var (
	// ErrEncrypted: the trailer has /Encrypt. The API answers 422
	// "encrypted PDFs are not supported".
	ErrEncrypted = errors.New("encrypted PDFs are not supported")
	// ErrMalformed: the bytes are not a PDF the reader can make sense of
	// (also used for recovered panics).
	ErrMalformed = errors.New("malformed PDF")
	// ErrLimit: a limit of Limits was exceeded.
	ErrLimit = errors.New("PDF exceeds a reader limit")
	// ErrUnsupportedFilter: a stream uses a filter the reader does not
	// decode (images: DCT, JPX, JBIG2, CCITTFax; Crypt).
	ErrUnsupportedFilter = errors.New("unsupported stream filter")
)

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func limitErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrLimit, fmt.Sprintf(format, args...))
}

// Limits bounds the work of the reader. Zero fields take the defaults of
// DefaultLimits.
type Limits struct {
	MaxObjects    int   // objects in the cross-reference / reconstruction
	MaxDepth      int   // nesting of arrays and dictionaries
	MaxStreamSize int64 // raw bytes of one stream
	MaxDecoded    int64 // decoded bytes of one stream
	MaxWork       int64 // total budget: decoded bytes + parsed objects*64 over the Doc's life
	MaxPages      int   // pages returned by Pages
}

// DefaultLimits are generous for invoices and tight for hostile files.
func DefaultLimits() Limits {
	return Limits{
		MaxObjects:    500_000,
		MaxDepth:      64,
		MaxStreamSize: 64 << 20,
		MaxDecoded:    64 << 20,
		MaxWork:       512 << 20,
		MaxPages:      10_000,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxObjects <= 0 {
		l.MaxObjects = d.MaxObjects
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxStreamSize <= 0 {
		l.MaxStreamSize = d.MaxStreamSize
	}
	if l.MaxDecoded <= 0 {
		l.MaxDecoded = d.MaxDecoded
	}
	if l.MaxWork <= 0 {
		l.MaxWork = d.MaxWork
	}
	if l.MaxPages <= 0 {
		l.MaxPages = d.MaxPages
	}
	return l
}

// Helpers to read typed values out of already-resolved objects.

// AsDict returns o as a Dict (a stream's dictionary for a *Stream).
func AsDict(o Object) (Dict, bool) {
	switch v := o.(type) {
	case Dict:
		return v, true
	case *Stream:
		return v.Dict, true
	}
	return nil, false
}

// AsInt returns o as an integer (a Real is truncated).
func AsInt(o Object) (int64, bool) {
	switch v := o.(type) {
	case Int:
		return int64(v), true
	case Real:
		return int64(v), true
	}
	return 0, false
}

// AsNumber returns o as a float64.
func AsNumber(o Object) (float64, bool) {
	switch v := o.(type) {
	case Int:
		return float64(v), true
	case Real:
		return float64(v), true
	}
	return 0, false
}

// AsName returns o as a Name.
func AsName(o Object) (Name, bool) {
	n, ok := o.(Name)
	return n, ok
}

func isLimit(err error) bool { return errors.Is(err, ErrLimit) }
